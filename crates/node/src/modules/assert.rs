//! `node:assert` and `node:assert/strict`, in JS (js/assert.js).

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "assert", source: include_str!("js/assert.js"), natives: &[], bare: true };

pub const STRICT: Builtin =
    Builtin { name: "assert/strict", source: "module.exports = require('assert').strict;", natives: &[], bare: true };
