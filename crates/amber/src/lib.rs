//! amber: the embedding API — build a runtime, run a program, snapshot it while it waits on
//! a host operation, restore and resume it elsewhere, or replay it from its journal.
//!
//! Entry point: [`Runtime::builder`] → [`RuntimeBuilder::build`] → [`Runtime::run`], which
//! returns an [`Outcome`]: `Completed`, `Suspended(pending operations)` or `Threw`. While
//! suspended: [`Runtime::snapshot`] gives the image bytes, [`Runtime::restore`] brings them
//! back in any process, [`Runtime::resolve`] / [`Runtime::reject`] deliver results, and
//! [`Runtime::resume`] continues. [`Runtime::take_records`] hands over the journal records
//! to persist; [`RuntimeBuilder::replay`] re-executes a program against them.
//!
//! ```
//! use amber::{Outcome, Program, Runtime};
//!
//! let program = Program::script("agent.js", r#"
//!     (async () => {
//!         const hits = await amber.call("search", { q: "amber" });
//!         console.log(hits.length);
//!     })();
//! "#);
//! let mut runtime = Runtime::builder().build()?;
//! let Outcome::Suspended(pending) = runtime.run(&program)? else { panic!() };
//! let image = runtime.snapshot()?;                        // …persist, exit, restart…
//! let mut runtime = Runtime::restore(&image, Runtime::builder())?;
//! runtime.resolve(pending[0].id, serde_json::json!(["a", "b"]))?;
//! assert_eq!(runtime.resume()?, Outcome::Completed(serde_json::Value::Null));
//! # Ok::<(), amber::Error>(())
//! ```
//!
//! Semantics (safe points, the logical clock, host operations, steps, replay, policy) are in
//! docs/durability.md; the JS surface and this API in docs/host-api.md.
//!
//! Architecture invariant: this is the one API boundary; the CLI and embedders use only it
//! (and the types it re-exports). It knows no terminal, no clap and no session store: the
//! embedder persists images and records where it likes.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod blobs;
mod bridge;
mod entropy;
mod error;
mod event_loop;
mod first_use;
mod frames;
mod gate;
pub mod grants;
pub mod history;
mod host_functions;
pub mod json;
pub mod lower;
mod manifest_check;
pub mod net;
pub mod overlay;
mod policy;
mod recorder;
mod runtime;
mod secrets;
pub mod seed;
mod step_state;
mod test_modes;

pub use amber_durable as durable;
pub use amber_durable::image::PendingOp;
pub use amber_durable::journal::{Attempt, CallRecord, CallResult, Journal, JournalHead, OpKind};
pub use amber_durable::policy::{Mode, Policy, PolicySurface};
pub use amber_engine as engine;
pub use amber_node as node;
pub use amber_node::modules::process::ProcessInputs;
pub use error::{Error, ErrorKind, Result};
/// docs/host-api.md, compiled here so its Rust example is tested with the crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/host-api.md")]
pub struct HostApiDoc;

pub use amber_durable::journal::idempotency_key;

pub use runtime::{
    wall_clock_ms, ErrorReport, FsLimits, HostHandler, Outcome, Program, ReplEval, Runtime, RuntimeBuilder,
    ENGINE_VERSION,
};
pub use test_modes::{FAST_TIER_VARIABLE, GC_INTERVAL_VARIABLE, IMAGE_EVERY_TURN_VARIABLE};
