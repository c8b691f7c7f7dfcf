#!/usr/bin/env bash
# Regenerates crates/cli/link-order.txt: the functions `amber` executes when it starts and when
# it runs each V8 program for one iteration, as the linker should lay them out (see
# crates/cli/build.rs). Functions used by more of the runs come first. Needs valgrind.
# Run it after large changes to the engine or a compiler upgrade, then rebuild and compare
# benches/run.sh's peak RSS column.
#
#   benches/link-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p amber-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/fs"
: > "$work/empty.js"
programs=("$work/empty.js")
for b in richards deltablue crypto raytrace earley-boyer regexp splay navier-stokes; do
  sed -E 's/^var BENCH_ITERATIONS = [0-9]+;/var BENCH_ITERATIONS = 1;/' "benches/v8-v7/$b.js" > "$work/$b.js"
  programs+=("$work/$b.js")
done
for p in "${programs[@]}"; do
  valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/$(basename "$p").cg" \
    target/release/amber run --fs "$work/fs" "$p" > /dev/null
done
python3 - "$work" crates/cli/link-order.txt <<'PY'
import collections, glob, re, sys
work, out = sys.argv[1], sys.argv[2]
runs = collections.Counter()
for path in sorted(glob.glob(work + "/*.cg")):
    names = set()
    for line in open(path, errors="replace"):
        m = re.match(r"^c?fn=\(\d+\) (\S+)", line)
        if m and m.group(1).startswith(("_ZN", "_R")):
            names.add(m.group(1))
    runs.update(names)
order = sorted(runs, key=lambda n: (-runs[n], n))
open(out, "w").write("\n".join(order) + "\n")
print(f"{out}: {len(order)} functions from {len(glob.glob(work + '/*.cg'))} runs")
PY
