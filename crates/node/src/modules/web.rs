//! `node:internal/web`: the JS behind the globals `EventTarget`, `Event`, `CustomEvent`,
//! `AbortController`, `AbortSignal`, `DOMException` and `structuredClone` (defined lazily by
//! [`super::globals`]).

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "internal/web", source: include_str!("js/web.js"), natives: &[], bare: false };
