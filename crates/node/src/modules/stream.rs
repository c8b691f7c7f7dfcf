//! `node:stream` and `node:stream/promises`: Readable, Writable, Duplex, Transform,
//! PassThrough, pipeline and finished, all in JS; no natives. `js/stream.js` is the public
//! surface; the parts it assembles are the internal modules of `js/streams/`, one job each
//! (`internal/streams/readable`, `…/writable`, …), as Node splits its `lib/internal/streams/`.

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

/// An internal part of `node:stream` (`js/streams/<file>.js`).
macro_rules! part {
    ($name:literal, $file:literal) => {
        Builtin { name: $name, source: include_str!(concat!("js/streams/", $file)), natives: &[], bare: false }
    };
}

/// The parts of `node:stream`, in dependency order (each requires only those before it, but
/// Readable and Writable, which require Duplex on first use).
pub const PARTS: &[Builtin] = &[
    part!("internal/streams/common", "common.js"),
    part!("internal/streams/legacy", "legacy.js"),
    part!("internal/streams/destroy", "destroy.js"),
    part!("internal/streams/end_of_stream", "end_of_stream.js"),
    part!("internal/streams/readable", "readable.js"),
    part!("internal/streams/writable", "writable.js"),
    part!("internal/streams/duplex", "duplex.js"),
    part!("internal/streams/transform", "transform.js"),
    part!("internal/streams/pipeline", "pipeline.js"),
];
