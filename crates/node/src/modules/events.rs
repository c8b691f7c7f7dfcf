//! `node:events`: EventEmitter and its static helpers, all in JS.

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "events", source: include_str!("js/events.js"), natives: &[], bare: true };
