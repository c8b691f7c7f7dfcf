//! `node:punycode` (deprecated in Node, still required by packages such as whatwg-url and
//! tr46): RFC 3492 and the IDNA helpers, all in `js/punycode.js`.

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "punycode", source: include_str!("js/punycode.js"), natives: &[], bare: true };
