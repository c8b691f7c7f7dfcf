//! `node:test` (only under the `node:` prefix, as in Node): the test runner in-process with
//! its TAP reporter (`js/test.js`).

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "test", source: include_str!("js/test.js"), natives: &[], bare: false };
