#!/usr/bin/env bash
# Amber side by side with DBOS Transact (issue 22; figures in benches/RESULTS-server.md): the
# same workflow — five memoized steps of trivial compute, then completion — as `amber.step`s
# in sessions of one `amber serve --database` process (benches/dbos/amber/agent.mjs) and as
# DBOS steps in one node process (benches/dbos/dbos-workflow.mjs, @dbos-inc/dbos-sdk from the
# npm registry, pinned in benches/dbos/package-lock.json), both on one throwaway PostgreSQL
# (fsync on), driven at the same concurrency. Rounds alternate (amber, dbos, amber, ...) so
# both see the same machine; each prints workflows/s and p50/p99 latencies, then medians.
#
#   benches/dbos.sh [WORKFLOWS=2000] [CONCURRENCY=16] [ROUNDS=3] [SERVER_WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
workflows=${1:-2000}
concurrency=${2:-16}
rounds=${3:-3}
server_workers=${4:-2}
cargo build -q --release -p amber-cli
npm ci --prefix benches/dbos --no-audit --no-fund --silent
eval "$(.ci/postgres start)"
store=$(mktemp -d)
server_pid=""
trap '[[ -n "$server_pid" ]] && kill $server_pid 2>/dev/null; .ci/postgres stop "$AMBER_TEST_POSTGRES_DIR"; rm -rf "$store"' EXIT
owner=""
[[ $(id -u) -eq 0 ]] && owner="runuser -u postgres --"
base=${AMBER_TEST_POSTGRES%/*}
psql "$base/postgres" -qc "CREATE DATABASE dbos" >/dev/null
port=$((20000 + RANDOM % 20000))
./target/release/amber serve --store "$store/cache" --listen 127.0.0.1:$port --workers "$server_workers" \
    --database "$AMBER_TEST_POSTGRES" 2>"$store/serve.log" &
server_pid=$!
until grep -q "serving on" "$store/serve.log" 2>/dev/null; do sleep 0.1; done
server=http://127.0.0.1:$port
program=$(./target/release/amber deploy benches/dbos/amber --server "$server")
echo "machine: $(nproc) cores; $workflows workflows x 5 steps per round, concurrency $concurrency, $rounds rounds each"
echo "amber: one amber serve --workers $server_workers --database; dbos: @dbos-inc/dbos-sdk $(node -p 'require("./benches/dbos/node_modules/@dbos-inc/dbos-sdk/package.json").version') in one node process"
results=$store/results.jsonl
for round in $(seq 1 "$rounds"); do
    node benches/dbos/amber-workflow.mjs "$server" "$program" "$workflows" "$concurrency" "$round" | tee -a "$results"
    (cd benches/dbos && node dbos-workflow.mjs "$base/dbos" "$workflows" "$concurrency" "$round") | tee -a "$results"
done
curl -s "$server/metrics" | grep -E '^amber_slice_seconds_(sum|count)' || true
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const summary = {};
for (const system of ["amber", "dbos"]) {
  const mine = rows.filter((r) => r.system === system);
  if (mine.some((r) => r.wrong)) { console.error(`${system}: wrong or failed results`); process.exitCode = 1; }
  summary[system] = {
    per_s: median(mine.map((r) => r.workflows / r.wall)),
    p50: median(mine.map((r) => r.p50)), p99: median(mine.map((r) => r.p99)),
    step_p50: mine[0].step_p50 === undefined ? null : median(mine.map((r) => r.step_p50)),
    step_p99: mine[0].step_p99 === undefined ? null : median(mine.map((r) => r.step_p99)),
  };
}
const f = (x) => (x === null ? "—" : x.toFixed(1));
console.log("| system | workflows/s | workflow p50 ms | p99 ms | step p50 ms | step p99 ms |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [k, s] of Object.entries(summary)) console.log(`| ${k} | ${f(s.per_s)} | ${f(s.p50)} | ${f(s.p99)} | ${f(s.step_p50)} | ${f(s.step_p99)} |`);
console.log(`amber/dbos throughput ratio: ${(summary.amber.per_s / summary.dbos.per_s).toFixed(2)}`);
' "$results"
