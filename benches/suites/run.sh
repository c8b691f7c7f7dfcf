#!/usr/bin/env bash
# npm packages' own test suites under their real runners, under node 20 and under `amber run`.
#
# Not part of CI (a full run takes several minutes). To run it:
#
#   cargo build --release -p amber-cli        # target/release/amber
#   npm ci --prefix benches/suites --no-audit --no-fund
#   benches/suites/run.sh [PACKAGE...]        # all of suites.tsv, or the named packages
#
# suites.tsv lists each package, its runner (tape, current mocha, mocha 5.x, or plain `node`
# for tape scripts and node:test files) and its test files, as the package's own "test"
# script names them. Each suite runs from the package's folder under node_modules, once with
# `node` and once with `amber run --fs benches/suites` (the same files, read through the
# overlay VFS), the runner asked for TAP. count.mjs reads both outputs: a test is identified
# by its TAP description (nesting depth, text, occurrence), so "amber passed" counts the
# tests node passes that also pass under Amber. Results go to benches/suites/RESULTS.md; raw
# outputs to benches/suites/out/ (gitignored). reasons.tsv holds the cause of each gap,
# written by hand after reading out/; a package without one gets amber's first error line.
#
# Environment: AMBER (default target/release/amber, else target/ci/amber), NODE (default node), SUITE_TIMEOUT
# (seconds per suite and engine, default 300).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
amber="${AMBER:-$repo/target/release/amber}"
# The ci-profile binary (what `cargo test --profile ci` builds) also works, only slower.
[ -x "$amber" ] || [ -n "${AMBER:-}" ] || amber="$repo/target/ci/amber"
node="${NODE:-node}"
limit="${SUITE_TIMEOUT:-300}"
out="$here/out"
mkdir -p "$out"
[ -x "$amber" ] || { echo "no amber binary at $amber (cargo build --release -p amber-cli)" >&2; exit 2; }
[ -d "$here/node_modules/tape" ] || { echo "run: npm ci --prefix benches/suites" >&2; exit 2; }
store="$(mktemp -d)"
trap 'rm -rf "$store"' EXIT
export AMBER_STORE="$store"

runner_js() {
  case "$1" in
    tape) echo "$here/node_modules/tape/bin/tape" ;;
    mocha) echo "$here/node_modules/mocha/bin/mocha.js --reporter tap" ;;
    mocha5) echo "$here/node_modules/mocha5/bin/_mocha --reporter tap" ;;
  esac
}

# run ENGINE PACKAGE RUNNER FILES... : the suite's TAP on stdout, diagnostics on stderr.
run_one() {
  local engine="$1" pkg="$2" runner="$3"; shift 3
  local cmd
  if [ "$engine" = node ]; then cmd=("$node"); else cmd=("$amber" run --fs "$here"); fi
  cd "$here/node_modules/$pkg" || return 99
  if [ "$runner" = node ]; then
    local f status=0
    # shellcheck disable=SC2068
    for f in $@; do timeout "$limit" "${cmd[@]}" "$f" || status=$?; done
    return $status
  fi
  # shellcheck disable=SC2046
  timeout "$limit" "${cmd[@]}" $(runner_js "$runner") "$@"
}

selected=("$@")
while IFS=$'\t' read -r pkg runner files; do
  case "$pkg" in ''|'#'*) continue ;; esac
  if [ ${#selected[@]} -gt 0 ] && [[ ! " ${selected[*]} " == *" $pkg "* ]]; then continue; fi
  base="$out/${pkg//\//+}"
  for engine in node amber; do
    start=$(date +%s)
    # Globs for tape/mocha are quoted so the runner expands them, as in an npm script.
    # shellcheck disable=SC2086
    if [ "$runner" = node ]; then
      (run_one "$engine" "$pkg" "$runner" "$files") >"$base.$engine.out" 2>"$base.$engine.err" </dev/null
    else
      (set -f; run_one "$engine" "$pkg" "$runner" $files) >"$base.$engine.out" 2>"$base.$engine.err" </dev/null
    fi
    echo "$?" >"$base.$engine.status"
    echo $(( $(date +%s) - start )) >"$base.$engine.seconds"
    echo "$pkg $engine: exit $(cat "$base.$engine.status") in $(cat "$base.$engine.seconds")s" >&2
  done
done <"$here/suites.tsv"

"$node" "$here/count.mjs" "$here" >"$here/RESULTS.md"
tail -n 3 "$here/RESULTS.md"
