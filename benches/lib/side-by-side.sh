# Shared by benches/corpus.sh and benches/realcode.sh: run one program under one engine with
# /usr/bin/time, check its output against node's, and summarise runs (median, ratio, geomean).
# Source it; it defines functions only. Callers set $tmp (a scratch directory).

# check_run EXPECTED_FILE ENGINE-COMMAND... PROGRAM -> "seconds kb" on stdout and status 0
# when the run exits 0 and its stdout equals EXPECTED_FILE; otherwise status 1, with the
# reason (exit status, first differing lines, the end of stderr) in $tmp/why.
check_run() {
  local expected=$1; shift
  local rc=0
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
  if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$expected"; then
    {
      echo "exit $rc"
      diff "$expected" "$tmp/out" | head -6
      grep -v '^Command exited with non-zero status' "$tmp/err" | tail -4
    } > "$tmp/why"
    return 1
  fi
  tail -1 "$tmp/t"
}

# why_line: $tmp/why as one markdown-safe line (for a results table or a note).
why_line() { tr '\n|' ' /' < "$tmp/why" | sed -E 's/ +/ /g; s/^ //; s/ $//' | cut -c1-300; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.01) }'; }
geo() { awk '{s += log($1); n++} END {if (n) printf "%.2f", exp(s / n); else printf "-"}' "$1"; }
worst() { sort -n "$1" | tail -1; }
# startup ENGINE-COMMAND...: best of 10 wall milliseconds on an empty script (process start and
# realm creation; best of, because a loaded machine only ever adds time).
startup() {
  : > "$tmp/empty.js"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    local t0 t1; t0=$(date +%s%N); "$@" "$tmp/empty.js" > /dev/null; t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
  done | sort -n | head -1 | awk '{printf "%.1f", $1 / 1000}'
}

# publish NEW RESULTS MARKER: NEW becomes RESULTS, keeping everything from MARKER on in the old
# RESULTS (the hand-written notes), or starting an empty notes section; prints the result.
publish() {
  local new=$1 results=$2 marker=$3
  if [ -f "$results" ] && grep -qF "$marker" "$results"; then
    { echo; sed -n "/$(printf '%s' "$marker" | sed 's/[][\/.*^$]/\\&/g')/,\$p" "$results"; } >> "$new"
  else
    { echo; echo "$marker"; echo; echo "## Notes"; echo; echo "(none yet)"; } >> "$new"
  fi
  cp "$new" "$results"
  cat "$results"
}
