#!/usr/bin/env bash
# Generates the seed corpora in fuzz/corpus/<target>/ from the JS behaviour tests
# (crates/*/tests/js/**/*.js) and a deterministic sample of test262 (the unpacked suite in
# test262/suite, or the pinned tarball under ../shared/test262). Corpora are not committed.
#
#   fuzz/seeds.sh [TEST262_SAMPLE]     default 3000 test262 files
set -euo pipefail
cd "$(dirname "$0")"
root=..
sample=${1:-3000}
corpus=corpus
mkdir -p "$corpus"/{vm,vm_structured,snapshot_roundtrip,snapshot_decode,snapshot_bytecode,session_store,regexp,json,overlay}

# test262: the unpacked suite if present, else the pinned tarball into a scratch directory.
suite=$root/test262/suite
if [ ! -d "$suite/test" ]; then
  tarball=$(ls "$root"/../shared/test262/test262-*.tar.gz 2>/dev/null | head -n1 || true)
  if [ -z "$tarball" ]; then
    echo "seeds.sh: no test262 suite or tarball; behaviour tests only" >&2
    suite=""
  else
    suite=$(mktemp -d)
    trap 'rm -rf "$suite"' EXIT
    tar xzf "$tarball" -C "$suite" --wildcards './test/built-ins/*' './test/language/*' 2>/dev/null ||
      tar xzf "$tarball" -C "$suite"
  fi
fi

n=0
add() { # add TARGET FILE: copy under a name derived from its path
  local name
  name=$(printf '%s' "$2" | sha1sum | cut -c1-16)
  cp "$2" "$corpus/$1/$name"
  n=$((n + 1))
}

# Behaviour tests: every one, into the source-level targets.
while IFS= read -r f; do
  add vm "$f"
  add vm_structured "$f"
  add snapshot_roundtrip "$f"
done < <(find "$root"/crates/*/tests/js -name '*.js' | sort)

if [ -n "$suite" ]; then
  # Every k-th file of test262 (sorted, so the sample is the same everywhere).
  total=$(find "$suite/test/built-ins" "$suite/test/language" -name '*.js' | wc -l)
  step=$(( total / sample > 0 ? total / sample : 1 ))
  find "$suite/test/built-ins" "$suite/test/language" -name '*.js' | sort | awk -v s="$step" 'NR % s == 0' |
    while IFS= read -r f; do
      add vm "$f"
    done
  # Structured inputs are bytes, any bytes: a smaller sample of the same files.
  find "$suite/test/language" -name '*.js' | sort | awk -v s="$((step * 8))" 'NR % s == 0' |
    while IFS= read -r f; do
      add vm_structured "$f"
      add snapshot_roundtrip "$f"
    done
  # RegExp: literals from the RegExp tests: flags byte, pattern, NUL, a subject.
  i=0
  grep -rhoE '/[^/ *+?][^/ ]{0,40}/[dgimsuvy]{0,4}' "$suite/test/built-ins/RegExp" "$suite/test/built-ins/String/prototype/replace" 2>/dev/null |
    sort -u | head -n 2000 | while IFS= read -r lit; do
      body=${lit#/}
      pattern=${body%/*}
      flags=${body##*/}
      bits=0
      for ((j = 0; j < ${#flags}; j++)); do
        case ${flags:j:1} in
          d) bits=$((bits | 1)) ;; g) bits=$((bits | 2)) ;; i) bits=$((bits | 4)) ;; m) bits=$((bits | 8)) ;;
          s) bits=$((bits | 16)) ;; u) bits=$((bits | 32)) ;; v) bits=$((bits | 64)) ;; y) bits=$((bits | 128)) ;;
        esac
      done
      i=$((i + 1))
      { printf "\\$(printf '%03o' "$bits")"; printf '%s' "$pattern"; printf '\0'; printf 'aBc 123-456 xyz\n\u00e9'; } > "$corpus/regexp/lit$i"
    done || true # head closes the pipe early
fi

# JSON: hand-written documents covering the grammar's corners.
j=0
for doc in '{}' '[]' '0' '-0' '1e400' '-1.5e-7' '"a\u0000\ud800\uDC00\"\\\/\b\f\n\r\t"' 'true' 'null' \
  '{"a":[1,{"b":null}],"__proto__":{"x":1},"a":2}' '[1,2,[3,[4,[5]]]]' '  \t\n{ "k" : "v" }  ' \
  '12345678901234567890' '[1.7976931348623157e308, 5e-324, 0.1]' '{"1":1,"0":0,"b":1,"a":2}' '"\u00e9\u{1}"' \
  '[' '{"a":}' '01' '1.' '+1' "'x'" '[1,]' '{"a":1,}' 'NaN'; do
  j=$((j + 1))
  printf '%s' "$doc" > "$corpus/json/doc$j"
done
find "$root"/conformance -name '*.json' 2>/dev/null | sort | head -n 50 | while IFS= read -r f; do add json "$f"; done

# snapshot_decode: each mode byte (see crates/fuzz/src/decode.rs) with a few mutation lists.
for mode in 0 1 2 3 4 5; do
  for k in 1 2 3 4; do
    { printf "\\$(printf '%03o' "$mode")"; head -c $((k * 40)) /dev/zero | tr '\0' "\\$(printf '%03o' $((k * 37)))"; } \
      > "$corpus/snapshot_decode/mode${mode}_$k"
  done
done

# snapshot_bytecode: each edit kind (see crates/fuzz/src/bytecode.rs) over the seed program's
# blocks (byte 0 even: every block; odd: the program's own), and the committed regressions.
cp regressions/snapshot_bytecode/* "$corpus/snapshot_bytecode/" 2>/dev/null || true
for kind in 0 1 2 3 4 5 6 7 8 9; do
  for k in 1 2; do
    { printf '\001'; for i in 1 2 3 4; do printf "\\$(printf '%03o' "$kind")\\$(printf '%03o' $((i * k * 29 % 256)))\\$(printf '%03o' $((i * 7 % 256)))\\000\\$(printf '%03o' $((i * k * 53 % 256)))\\$(printf '%03o' $((k * 3)))"; done; } \
      > "$corpus/snapshot_bytecode/edit${kind}_$k"
  done
done

# session_store: each edit mode (see crates/fuzz/src/store.rs) with a few parameter lists.
for mode in 0 1 2 3 4 5 6; do
  for k in 1 2 3; do
    { printf "\\$(printf '%03o' "$mode")"; head -c $((k * 20)) /dev/zero | tr '\0' "\\$(printf '%03o' $((k * 53)))"; } \
      > "$corpus/session_store/mode${mode}_$k"
  done
done

# overlay: the committed regressions (each a lower tree and an operation sequence; see
# crates/fuzz/src/overlay.rs), and byte ramps: every lower-tree choice and operation in turn.
cp regressions/overlay/* "$corpus/overlay/" 2>/dev/null || true
for k in 1 3 7; do
  LC_ALL=C awk -v k="$k" 'BEGIN { for (i = 0; i < 600; i++) printf "%c", (i * k + 1) % 251 + 1 }' > "$corpus/overlay/ramp$k"
done

for t in "$corpus"/*; do
  echo "$(basename "$t"): $(find "$t" -type f | wc -l) inputs"
done
