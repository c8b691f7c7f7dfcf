//! `node:url`: the WHATWG URL Standard (`URL`, `URLSearchParams`) and Node's legacy
//! `url.parse` / `url.format` / `url.resolve`, all in JS. `js/url.js` is the public surface;
//! the parts it assembles are the internal modules of `js/url/`, one job each (encoding,
//! host, parser, search params, the URL class, Node's conversions, the legacy API). URL state
//! is a plain JS record, so URL objects ride images like any other object; no natives are
//! needed.

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "url", source: include_str!("js/url.js"), natives: &[], bare: true };

/// An internal part of `node:url` (`js/url/<file>.js`).
macro_rules! part {
    ($name:literal, $file:literal) => {
        Builtin { name: $name, source: include_str!(concat!("js/url/", $file)), natives: &[], bare: false }
    };
}

/// The parts of `node:url`, in dependency order (each requires only those before it).
pub const PARTS: &[Builtin] = &[
    part!("internal/url/encoding", "encoding.js"),
    part!("internal/url/host", "host.js"),
    part!("internal/url/parser", "parser.js"),
    part!("internal/url/search_params", "search_params.js"),
    part!("internal/url/url", "url.js"),
    part!("internal/url/conversions", "conversions.js"),
    part!("internal/url/legacy", "legacy.js"),
];
