//! `node:string_decoder`: StringDecoder over Buffer's encoders (`js/string_decoder.js`);
//! no natives of its own.

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "string_decoder", source: include_str!("js/string_decoder.js"), natives: &[], bare: true };
