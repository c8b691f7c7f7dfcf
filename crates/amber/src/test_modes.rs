//! The test modes (docs/testing.md): switches, each one environment variable, that make a
//! broken invariant change a program's output instead of hiding. The engine reads no host
//! state, so they are read here, where every runtime the process builds starts
//! ([`crate::RuntimeBuilder::new`]), and passed in through [`amber_engine::VmOptions`] and the
//! builder. Unset, empty or not understood: the normal behaviour.
//!
//! - `AMBER_GC_INTERVAL=N` — collect after every N allocations (1: after every one), so a
//!   value held without a root is freed while in use.
//! - `AMBER_FAST_TIER=off` — the dispatch loop never takes its fast tier, so a fast-tier arm
//!   that is not an exact shortcut of the general path shows.
//! - `AMBER_IMAGE_EVERY_TURN=1` — at every turn of the event loop the runtime images itself,
//!   drops the VM and goes on from the image, so state an image forgets shows.

use amber_engine::VmOptions;

/// The environment variable that sets [`crate::RuntimeBuilder::gc_interval`] for every
/// runtime the process builds: the GC-stress switch (`AMBER_GC_INTERVAL=1` collects after
/// every allocation). Not a positive number: the default interval.
pub const GC_INTERVAL_VARIABLE: &str = "AMBER_GC_INTERVAL";

/// The environment variable that turns the interpreter's fast tier off
/// ([`VmOptions::fast_tier`]) for every runtime the process builds: `off`, `0` or `false`.
pub const FAST_TIER_VARIABLE: &str = "AMBER_FAST_TIER";

/// The environment variable that makes every runtime the process builds image itself at
/// every turn of its event loop ([`crate::RuntimeBuilder::image_every_turn`]): `1`.
pub const IMAGE_EVERY_TURN_VARIABLE: &str = "AMBER_IMAGE_EVERY_TURN";

/// Applies the switches set in the environment to `options`; returns whether the image mode
/// is on.
pub(crate) fn from_env(options: &mut VmOptions) -> bool {
    let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_ascii_lowercase());
    if let Some(n) = var(GC_INTERVAL_VARIABLE).and_then(|v| v.parse().ok()).filter(|&n: &u64| n > 0) {
        options.gc_interval = n;
    }
    if var(FAST_TIER_VARIABLE).is_some_and(|v| matches!(v.as_str(), "off" | "0" | "false")) {
        options.fast_tier = false;
    }
    var(IMAGE_EVERY_TURN_VARIABLE).is_some_and(|v| matches!(v.as_str(), "1" | "on" | "true"))
}
