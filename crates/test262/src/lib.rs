//! amber-test262: runs the pinned tc39/test262 suite against Amber and keeps the committed
//! conformance results (`conformance/`) honest.
//!
//! Entry point: `main.rs` → [`cli::parse`] → [`runner::main`] (a run) or [`worker::main`] (a
//! worker process). A run indexes the suite ([`index`]), plans each test ([`plan`]), runs it
//! on a pool of worker processes ([`pool`], [`protocol`]), judges each execution
//! ([`verdict`]), and writes expectations, summary and README ([`expectations`], [`summary`],
//! [`report`]). `docs/test262.md` describes the CLI, the protocol and the files.
//!
//! Architecture invariant: only [`exec`] calls amber-engine; everything else is
//! engine-independent and unit-tested without an engine.
//! Architecture invariant: a test runs in a worker process, never in the runner, so a crash,
//! a hang or a stack overflow costs one test, not the run.

#![forbid(unsafe_code)]
// `unwrap()` belongs in tests (STYLE.md §10); the workspace warns on it everywhere else.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod cli;
pub mod config;
pub mod exec;
pub mod expectations;
pub mod frontmatter;
pub mod index;
pub mod plan;
pub mod pool;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod slice;
pub mod suite;
pub mod summary;
pub mod verdict;
pub mod worker;
