#!/usr/bin/env bash
# The CLI binary's size and clean build time (issue 26), attributed to crates from the linker's
# map (benches/size/attribute.py), against the budget stated in benches/RESULTS-size.md: loaded sections
# of the release `amber` at most 56 MB, ICU4X's crates and compiled CLDR data at most 20 MB.
# A clean release build in its own target directory (minutes: keep the machine otherwise idle
# when the time matters).
#
#   benches/binary-size.sh [TARGET_DIR=$(mktemp -d)]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-$(mktemp -d)}
start=$(date +%s)
CARGO_TARGET_DIR=$target cargo build -q --release -p amber-cli --bin amber
echo "clean release build: $(( $(date +%s) - start )) s on $(nproc) cores"
# Relink the binary alone with a map (the crates are built; only amber-cli recompiles).
CARGO_TARGET_DIR=$target cargo rustc -q --release -p amber-cli --bin amber -- -C link-arg=-Wl,-Map="$target/amber.map"
echo "file: $(stat -c %s "$target/release/amber") bytes ($(strip -o "$target/amber.stripped" "$target/release/amber" && stat -c %s "$target/amber.stripped") stripped)"
python3 benches/size/attribute.py "$target/amber.map" 56 20
