//! amber-fuzz: what every fuzz target does with its input. The libFuzzer targets in `fuzz/`
//! are one-line wrappers over [`run`]; `tests/regressions.rs` replays committed inputs
//! (`fuzz/regressions/<target>/`) and any local corpus through the same functions on stable,
//! so a crash found once stays fixed.
//!
//! Each target panics when an invariant it checks is broken (docs/fuzzing.md lists them);
//! a JS exception, a syntax error, or a resource limit is an ordinary result, not a finding.
//!
//! Architecture invariant: no libFuzzer here: this crate builds and tests on stable.
#![forbid(unsafe_code)]

pub mod bytecode;
pub mod decode;
pub mod exec;
pub mod gen;
pub mod json;
pub mod overlay;
pub mod path;
pub mod regexp;
pub mod roundtrip;
pub mod store;
pub mod vm;

/// A target: panics when an invariant breaks on `data`.
pub type Target = fn(&[u8]);

/// The targets by name, as `fuzz/fuzz_targets/<name>.rs` and `fuzz/regressions/<name>/`
/// call them.
pub const TARGETS: &[(&str, Target)] = &[
    ("vm", vm::run),
    ("vm_structured", vm::run_structured),
    ("snapshot_roundtrip", roundtrip::run),
    ("snapshot_decode", decode::run),
    ("snapshot_bytecode", bytecode::run),
    ("session_store", store::run),
    ("regexp", regexp::run),
    ("json", json::run),
    ("path_normalize", path::run),
    ("overlay", overlay::run),
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}
