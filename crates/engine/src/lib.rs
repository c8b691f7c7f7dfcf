//! amber-engine: a JavaScript engine whose whole state is plain, serializable data.
//!
//! Entry points: [`Vm::new`], [`Vm::eval_script`], [`Vm::eval_module`] (ES modules, loaded
//! through the embedder's `Vm::module_loader`), [`Vm::run_jobs`]; the interpreter loop is
//! `interp::run`; the compiler is `compiler::compile_script`.
//!
//! Architecture invariant: no I/O, no clock, no randomness of its own — output, time and
//! entropy come through host hooks. No image format or journal: the durable crate owns those.
//! The heap holds no `Rc`, `RefCell`, raw pointers or closures (clippy `disallowed-types`).
#![forbid(unsafe_code)]
// The no-I/O invariant, with clippy.toml's `disallowed-methods` (clock, env, fs, stdio).
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod agent;
pub mod atoms;
pub mod builtins;
pub mod bytecode;
pub mod compiler;
pub mod error;
pub mod gc;
pub mod heap;
pub mod interp;
pub mod module;
pub mod realm;
pub mod runtime;
pub mod source_map;
pub mod string;
pub mod value;
pub mod verify;
pub mod vfs;
pub mod vm;

pub use error::{ErrorKind, JsResult, Limit, RunError, SyntaxErrorReport, Throw};
pub use string::JsStr;
pub use value::{Kind, ObjectId, Value};
pub use vm::{HostFn, Stream, Vm, VmOptions};
