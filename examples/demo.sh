#!/usr/bin/env bash
# End-to-end demo: run the example agent until it suspends on a tool call, answer the tool
# from "another process", answer the human approval, let it finish, then replay the journal.
# Uses a throwaway session store so it can be run repeatedly on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
amber() { cargo run -q -p amber-cli -- "$@" --store "$store"; }
cargo build -q -p amber-cli

echo "== 1. run: the agent calls a search tool nobody serves, so it suspends (exit 75)"
set +e; amber run examples/agent.js --session demo; status=$?; set -e
echo "(exit status $status)"

echo; echo "== 2. resume in a new process with the tool's result; now it waits for a human"
set +e; amber resume demo --resolve 1='{"results":["Durable execution explained","Temporal docs","Replay semantics"]}'; status=$?; set -e
echo "(exit status $status)"

echo; echo "== 3. resume with the human's answer; the agent finishes"
amber resume demo --input yes

echo; echo "== 4. replay from the journal with every image ignored: no divergence"
amber replay demo
