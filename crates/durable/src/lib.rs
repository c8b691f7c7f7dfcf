//! amber-durable: the engine-independent durability core of Amber — image container, journal,
//! policy, capability ledger and session store (DESIGN §7–§8).
//!
//! Entry points: [`image::encode_image`] / [`image::decode_image`] seal and open an image
//! around the engine's opaque heap payload; [`journal::Journal`] appends and verifies the
//! hash-chained record of host effects that replay serves from; [`store::SessionStore`]
//! keeps sessions (sources, images, journal) in SQLite and hands out exclusive
//! [`store::SessionLease`]s; [`canonical_json::args_hash`] hashes host-call arguments.
//! Byte layouts are specified in docs/journal-format.md and docs/snapshot-format.md.
//!
//! Architecture invariant: knows nothing of the JS engine's internals — the heap payload is
//! an opaque `Vec<u8>` that is never parsed here.
//! Architecture invariant: no clap, no terminal output; errors are values ([`DurableError`])
//! that a front end maps to an exit status with [`DurableError::class`].
//! Architecture invariant: no panic and no unbounded allocation on any input bytes (images,
//! journals, exports, database rows); every decoder is bounds-checked and size-limited.

#![forbid(unsafe_code)]
// `unwrap()` belongs in tests (STYLE §10); the library build still denies it.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod canonical_json;
pub mod capability;
pub mod catch_up;
pub mod digest;
mod error;
pub mod export;
pub mod image;
pub mod journal;
pub mod policy;
pub mod store;
mod wire;

pub use error::{DurableError, ErrorClass, Result};
