//! `node:os`: a fixed virtual machine description. A durable agent must see the same
//! answers wherever it resumes, so nothing here reads the host (docs/node-compat.md).

use super::Builtin;

pub const BUILTIN: Builtin = Builtin { name: "os", source: include_str!("js/os.js"), natives: &[], bare: true };
