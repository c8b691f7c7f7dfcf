//! `node:stream` and `node:stream/promises`: Readable, Writable, Duplex, Transform,
//! PassThrough, pipeline and finished, all in JS (`js/stream.js`); no natives.

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "stream", source: include_str!("js/stream.js"), natives: &[], bare: true };

pub const PROMISES: Builtin = Builtin {
    name: "stream/promises",
    source: "module.exports = require('stream').promises;",
    natives: &[],
    bare: true,
};

pub const CONSUMERS: Builtin =
    Builtin { name: "stream/consumers", source: include_str!("js/stream_consumers.js"), natives: &[], bare: true };
