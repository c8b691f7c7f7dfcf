//! Frames of builtins: a native runs on the Rust stack, not on the VM's frame stack (the
//! frame types, which suspended generators keep in the heap, are `heap/frame.rs`).

use crate::value::{ObjectId, Value};

/// A builtin running now: the frame V8 prints as `at Array.forEach (<anonymous>)`. Natives
/// run on the Rust stack, not the VM's frame stack, so their records sit beside it
/// (`Vm::native_frames`), each placed by the number of JS frames below it.
#[derive(Clone, Copy, Debug)]
pub struct NativeFrame {
    pub callee: ObjectId,
    pub this: Value,
    /// Called with `new` (a native constructor's `new.target` is defined).
    pub construct: bool,
    /// `vm.frames.len()` when it was called: it sits above frame `depth - 1`.
    pub depth: u32,
}
