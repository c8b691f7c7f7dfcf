//! `node:diagnostics_channel`: named channels, store binding and tracing channels, all in
//! JS (`js/diagnostics_channel.js`).

use super::Builtin;

pub const BUILTIN: Builtin = Builtin {
    name: "diagnostics_channel",
    source: include_str!("js/diagnostics_channel.js"),
    natives: &[],
    bare: true,
};
