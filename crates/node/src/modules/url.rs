//! `node:url`: the WHATWG URL Standard (`URL`, `URLSearchParams`) and Node's legacy
//! `url.parse` / `url.format` / `url.resolve`, all in `js/url.js`. URL state is a plain JS
//! record, so URL objects ride images like any other object; no natives are needed.

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "url", source: include_str!("js/url.js"), natives: &[], bare: true };
