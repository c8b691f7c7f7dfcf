#!/usr/bin/env bash
# The overlay VFS on an agent with real npm dependencies (issue 17): builds a project from the
# npm registry (openai, @anthropic-ai/sdk, lodash, zod, axios at pinned versions), then, side
# by side in one run: node's cold start of the same program, `amber run` until its first
# suspension, each of ten `amber resume`s, the image size and the session store's size after
# ten suspensions. Appends a dated section to benches/RESULTS-durability.md.
# Usage: benches/overlay.sh [RUNS]   (default 3; times are medians). Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
target=${CARGO_TARGET_DIR:-target}
cargo build -q --release -p amber-cli
amber="$PWD/$target/release/amber"
work=$(mktemp -d /tmp/amber-overlay-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > package.json <<'EOF'
{ "name": "overlay-bench-agent", "private": true,
  "dependencies": { "openai": "4.104.0", "@anthropic-ai/sdk": "0.52.0", "lodash": "4.17.21",
                    "zod": "3.25.76", "axios": "1.9.0" } }
EOF
npm install --no-audit --no-fund --silent > /dev/null
cat > agent.js <<'EOF'
// An agent's shape: load an SDK and helpers, validate with zod, then ask the host ten times.
// (openai and axios are installed but not loaded: they need node:http and fetch, issue 19.)
const _ = require('lodash');
const { z } = require('zod');
const Anthropic = require('@anthropic-ai/sdk');
const Reply = z.object({ text: z.string(), tokens: z.number() });
const host = typeof amber === 'undefined'
  ? { call: async () => { console.log('cold start reached the first call'); process.exit(0); } }
  : amber;
(async () => {
  const seen = [];
  for (let i = 0; i < 10; i++) {
    const reply = Reply.parse(await host.call('model', { turn: i, tools: _.range(3) }));
    seen.push(reply.text);
  }
  console.log(seen.join(' '), typeof Anthropic);
})();
EOF
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
elapsed() { printf '%.3f' "$(echo "$(now) - $1" | bc)"; }
node_times=(); run_times=(); resume_times=()
for r in $(seq "$runs"); do
  t=$(now); node agent.js > /dev/null; node_times+=("$(elapsed "$t")")
  rm -rf .amber
  t=$(now); set +e; "$amber" run --session bench agent.js > /dev/null 2>&1; code=$?; set -e
  run_times+=("$(elapsed "$t")")
  [ "$code" = 75 ] || { echo "amber run exited $code (expected 75: suspended)"; "$amber" run agent.js; exit 1; }
  for i in $(seq 10); do
    t=$(now); set +e
    "$amber" resume bench --resolve "$i"='{"text":"t'"$i"'","tokens":1}' > resume.out 2>&1; code=$?
    set -e
    resume_times+=("$(elapsed "$t")")
    if [ "$i" -lt 10 ] && [ "$code" != 75 ]; then cat resume.out; exit 1; fi
  done
  [ "$code" = 0 ] || { cat resume.out; exit 1; }
done
image=$(sqlite3 .amber/sessions.db "SELECT length(bytes) FROM images WHERE session='bench' ORDER BY seq DESC LIMIT 1" 2>/dev/null \
  || python3 -c "import sqlite3;print(sqlite3.connect('.amber/sessions.db').execute(\"SELECT length(bytes) FROM images WHERE session='bench' ORDER BY seq DESC LIMIT 1\").fetchone()[0])")
store=$(du -sb .amber | cut -f1)
deps=$(du -sb node_modules | cut -f1)
node_m=$(printf '%s\n' "${node_times[@]}" | median)
run_m=$(printf '%s\n' "${run_times[@]}" | median)
resume_m=$(printf '%s\n' "${resume_times[@]}" | median)
cd - > /dev/null
{
  echo
  echo "## Overlay VFS: an agent with npm dependencies (issue 17), $(date -u +%Y-%m-%d)"
  echo
  echo "\`benches/overlay.sh $runs\` ($(nproc) cores, release build): openai, @anthropic-ai/sdk, lodash, zod and"
  echo "axios from the registry ($((deps / 1000000)) MB of node_modules); the agent loads lodash, zod and the Anthropic SDK, then makes ten"
  echo "\`amber.call\`s. Medians of $runs runs (resume: of $((runs * 10)) resumes)."
  echo
  echo "| | amber | node |"
  echo "|---|---:|---:|"
  echo "| cold start until the first call | ${run_m} s (\`run\` until it suspends) | ${node_m} s |"
  echo "| \`resume\` with the call's result | ${resume_m} s | — |"
  echo "| image | ${image} bytes | — |"
  echo "| session store after ten suspensions | ${store} bytes | — |"
} >> benches/RESULTS-durability.md
tail -12 benches/RESULTS-durability.md
