#!/usr/bin/env bash
# Many servers on one PostgreSQL under faults (issue 22; figures in benches/RESULTS-server.md):
# SERVERS `amber serve --database` processes and WORKERS tool workers run SESSIONS sessions of
# 5 tool calls and 1 durable sleep each (benches/fleet/agent.mjs) while a driver SIGKILLs a
# random server every 2–5 s and restarts it, and restarts PostgreSQL once (immediate mode: a
# crash of the database). benches/fleet/driver.mjs checks outputs, exactly-once completions,
# tool re-executions and the lease audit over the journal, and prints the figures.
#
#   benches/server-fleet.sh [SESSIONS=2000] [SERVERS=3] [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-2000}
servers=${2:-3}
workers=${3:-2}
cargo build -q --release -p amber-cli
eval "$(.ci/postgres start)"
cache=$(mktemp -d)
trap '.ci/postgres stop "$AMBER_TEST_POSTGRES_DIR"; rm -rf "$cache"' EXIT
owner=""
[[ $(id -u) -eq 0 ]] && owner="runuser -u postgres --"
pg_bin=$(dirname "$(readlink -f "$(command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl | tail -1)")")
restart="$owner $pg_bin/pg_ctl -D $AMBER_TEST_POSTGRES_DIR/data -m immediate -w restart -l $AMBER_TEST_POSTGRES_DIR/server.log"
echo "machine: $(nproc) cores; $servers servers x 2 slice threads; $workers tool workers x 8 claim loops; $sessions sessions x (5 calls + 1 sleep)"
node benches/fleet/driver.mjs "$PWD/target/release/amber" "$AMBER_TEST_POSTGRES" "$restart" "$sessions" "$servers" "$workers" "$cache"
