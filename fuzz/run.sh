#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another, single process.
# Builds first (cargo-fuzz, libFuzzer + ASan; RUSTC_BOOTSTRAP=1 lets a stable toolchain take
# the unstable flags). Crashes land in fuzz/artifacts/<target>/; docs/fuzzing.md says what next.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(vm vm_structured snapshot_roundtrip snapshot_decode snapshot_bytecode session_store regexp json path_normalize overlay)
fi
[ -d corpus/vm ] || ./seeds.sh

max_len() {
  case $1 in
    vm) echo 8192 ;;
    regexp) echo 512 ;;
    snapshot_decode | snapshot_bytecode | session_store) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

export RUSTC_BOOTSTRAP=1
cargo fuzz build -O -a
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  echo "== $t (${seconds}s)"
  cargo fuzz run -O -a "$t" "corpus/$t" -- \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="artifacts/$t/" 2>&1 | tail -n 25 || status=1
done
exit $status
