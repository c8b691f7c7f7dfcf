#!/usr/bin/env bash
# Regenerates the .expected files of the TypeScript behaviour tests from the real compiler:
# each project (a folder with a tsconfig.json) is compiled by the pinned `typescript`
# (crates/node/tests/parity/packages, `npm ci` there first) into a scratch folder, and each
# test's JavaScript runs under node 20 with --enable-source-maps, so stack positions are
# TypeScript positions. Output: stdout, then `--- exit N` and the first stderr line when
# the exit status is not 0 (as crates/cli/tests/js_behaviour.rs records it).
# Usage: generate.sh [--check]   (--check: fail if a committed .expected differs)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tsc="$here/../../../node/tests/parity/packages/node_modules/.bin/tsc"
[ -x "$tsc" ] || { echo "tsc missing: run npm ci --prefix crates/node/tests/parity/packages" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0
for project in "$here" "$here"/*/; do
  project="${project%/}"
  [ -f "$project/tsconfig.json" ] || continue
  rel="${project#"$here"}"
  "$tsc" -p "$project" --outDir "$out$rel" --noCheck # no type checking, as in Amber
  for test in "$project"/*.ts "$project"/*.mts "$project"/*.cts; do
    [ -f "$test" ] || continue
    name="$(basename "$test")"
    js="${name%.ts}"; js="${js%.mts}"; js="${js%.cts}"
    case "$name" in *.mts) js="$js.mjs" ;; *.cts) js="$js.cjs" ;; *) js="$js.js" ;; esac
    expected="${test%.*}.expected"
    set +e
    actual="$(cd "$out$rel" && TZ=UTC node --enable-source-maps "$js" 2>"$out/stderr"; echo "~$?")"
    set -e
    code="${actual##*~}"; actual="${actual%~*}"
    if [ "$code" != 0 ]; then actual="$actual--- exit $code"$'\n'"$(head -n1 "$out/stderr")"$'\n'; fi
    if [ "${1:-}" = "--check" ]; then
      if [ "$(cat "$expected" 2>/dev/null)" != "${actual%$'\n'}" ]; then echo "differs: $expected" >&2; status=1; fi
    else
      printf '%s' "$actual" > "$expected"
    fi
  done
done
exit $status
