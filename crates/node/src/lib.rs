//! amber-node: the Node.js surface Amber programs expect — `console`, timers and
//! `util.inspect` formatting today; `node:*` modules and the virtual filesystem next.
//!
//! Entry point: [`install`] adds the globals to a fresh VM; [`register`] re-binds the host
//! functions after an image is restored.
//!
//! Architecture invariant: knows nothing of the image format or the journal; output leaves
//! only through the engine's print hook; time is the VM's logical clock, never the host's.
#![forbid(unsafe_code)]

pub mod capabilities;
pub mod console;
pub mod inspect;
pub mod loader;
pub mod modules;
pub mod repl;
pub mod timers;
pub mod web;

use amber_engine::Vm;

/// Install the Node globals (`console`, timers) on a fresh VM.
pub fn install(vm: &mut Vm) {
    modules::register(vm);
    // First, before anything else can run JS: what the builtins' primordials capture is what
    // the intrinsics are now. A fresh realm cannot throw here; if it did, the first builtin
    // would capture them instead (`modules::require_builtin`).
    let _ = modules::install_primordials(vm);
    console::install(vm);
    timers::install(vm);
    modules::globals::install(vm);
}

/// Re-register host functions after restoring a VM image.
pub fn register(vm: &mut Vm) {
    modules::register(vm);
    console::register(vm);
    timers::register(vm);
    modules::globals::register(vm);
}
