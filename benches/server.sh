#!/usr/bin/env bash
# amber serve throughput and resume latency (benches/RESULTS-server.md): a 5-op agent
# (benches/server/agent.mjs) whose calls a node tool worker serves (benches/server/bench.mjs).
# Reports sessions/s, ops/s, and the p50/p90/p99 time from an op's completion to the session's
# next op being claimed (the resume path: store the result, wake, restore the image, deliver,
# run to the next call, commit records + output + image, hand the claim out).
#
#   benches/server.sh [SESSIONS=500] [WORKERS=2] [CONCURRENCY=16]
#
# Two runs: every session at once (throughput; latency includes the run queue), then 50
# sessions one at a time (the resume path unloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-500}
workers=${2:-2}
concurrency=${3:-16}
cargo build -q --release -p amber-cli
store=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
trap 'kill $server_pid 2>/dev/null; rm -rf "$store"' EXIT
./target/release/amber serve --store "$store" --listen 127.0.0.1:$port --workers "$workers" 2>"$store/serve.log" &
server_pid=$!
until grep -q "serving on" "$store/serve.log" 2>/dev/null; do sleep 0.1; done
program=$(./target/release/amber deploy benches/server --server http://127.0.0.1:$port)
echo "machine: $(nproc) cores; amber serve --workers $workers; $sessions sessions x 5 ops; tool worker with $concurrency claim loops"
node benches/server/bench.mjs http://127.0.0.1:$port "$program" "$sessions" "$concurrency"
node benches/server/bench.mjs http://127.0.0.1:$port "$program" 50 1 serial
curl -s http://127.0.0.1:$port/metrics | grep -E '^amber_(slice|resume)_seconds_(sum|count)'
