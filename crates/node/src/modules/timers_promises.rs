//! `node:timers` (the global timer functions) and `node:timers/promises` (promise timers,
//! the async-iterator `setInterval`, `scheduler`), in JS over the virtual timer queue.

use super::Builtin;

pub const TIMERS: Builtin = Builtin { name: "timers", source: include_str!("js/timers.js"), natives: &[], bare: true };

pub const PROMISES: Builtin =
    Builtin { name: "timers/promises", source: include_str!("js/timers_promises.js"), natives: &[], bare: true };
