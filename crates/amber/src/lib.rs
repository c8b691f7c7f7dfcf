//! amber: the embedding API — build a runtime, run a program, snapshot it while it waits on
//! a host operation, restore and resume it elsewhere.
//!
//! Architecture invariant: this is the one API boundary; the CLI and embedders use only it.
#![forbid(unsafe_code)]

pub use amber_engine as engine;
pub use amber_node as node;
