//! `node:querystring`: Node's legacy query-string codec, in JS.

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "querystring", source: include_str!("js/querystring.js"), natives: &[], bare: true };
