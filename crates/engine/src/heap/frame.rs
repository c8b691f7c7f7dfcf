//! Call frames: live ones on the VM's frame stack, suspended ones inside generator and
//! async-function objects. Suspended frames are heap data (they are in images), so the frame
//! types live with the heap; the interpreter (`interp/`) pushes, runs and pops them.

use serde::{Deserialize, Serialize};

use crate::heap::{CodeId, EnvId, RealmId};
use crate::value::{ObjectId, Value};

/// What happens when a frame finishes or suspends.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub enum FrameKind {
    Normal,
    /// `new`: a non-object return value is replaced by `this`.
    Construct,
    /// Body of a generator; the generator object.
    Generator(ObjectId),
    /// Body of an async function: its state object and the promise it settles.
    Async {
        state: ObjectId,
        promise: ObjectId,
    },
    /// Body of an async generator: the generator object.
    AsyncGenerator(ObjectId),
}

/// A live activation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Frame {
    pub code: CodeId,
    pub pc: u32,
    /// Index in `vm.stack` of register 0; `base - 2` holds the callee, `base - 1` `this`.
    pub base: u32,
    pub callee: Value,
    pub this: Value,
    pub new_target: Value,
    pub env: Option<EnvId>,
    /// Environments pushed by this frame above its entry environment.
    pub env_depth: u32,
    pub argc: u32,
    /// Arguments beyond the declared parameters (for `arguments` and rest).
    pub extra_args: Vec<Value>,
    pub kind: FrameKind,
    /// Return to the Rust caller (a native or the embedder) when this frame returns.
    pub stop_here: bool,
    /// The realm that ran when the frame was pushed (its calling frame's, or its Rust
    /// caller's), entered again when the frame leaves the stack.
    pub outer_realm: RealmId,
}

/// A frame detached from the stack: its registers and operand stack copied out.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedFrame {
    pub frame: Frame,
    /// Registers then operand stack (everything from `base`).
    pub stack: Vec<Value>,
}

impl SavedFrame {
    /// Every handle the frame holds, for the collector.
    pub fn children(&self, out: &mut impl Extend<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
        self.frame.children(out, envs, codes);
        out.extend(self.stack.iter().copied());
    }
}

impl Frame {
    pub fn children(&self, out: &mut impl Extend<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
        codes.push(self.code);
        out.extend([self.callee, self.this, self.new_target]);
        envs.extend(self.env);
        out.extend(self.extra_args.iter().copied());
        match self.kind {
            FrameKind::Normal | FrameKind::Construct => {}
            FrameKind::Generator(g) | FrameKind::AsyncGenerator(g) => out.extend([Value::object(g)]),
            FrameKind::Async { state, promise } => out.extend([Value::object(state), Value::object(promise)]),
        }
    }
}
