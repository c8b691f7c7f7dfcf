//! `node:async_hooks`: `AsyncLocalStorage` and `AsyncResource` over a context that the JS
//! scheduling entry points carry (`js/async_hooks.js`; what an `await` does not carry is in
//! docs/node-compat.md).

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "async_hooks", source: include_str!("js/async_hooks.js"), natives: &[], bare: true };
