//! `node:tty`: no descriptor of an Amber run is a terminal (`js/tty.js`).

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "tty", source: include_str!("js/tty.js"), natives: &[], bare: true };
