//! `snapshot_bytecode`: see amber-fuzz (crates/fuzz) and docs/fuzzing.md for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    amber_fuzz::target("snapshot_bytecode").expect("target is registered")(data);
});
