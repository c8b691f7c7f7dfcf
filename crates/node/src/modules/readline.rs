//! `node:readline` and `node:readline/promises` over any Readable, without a terminal
//! (`js/readline.js`).

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "readline", source: include_str!("js/readline.js"), natives: &[], bare: true };

pub const PROMISES: Builtin = Builtin {
    name: "readline/promises",
    source: "module.exports = require('readline').promises;",
    natives: &[],
    bare: true,
};
