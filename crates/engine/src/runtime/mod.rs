//! Abstract operations of ECMA-262 (its §7 and the object internal methods of §10) that
//! builtins and the interpreter share: object internal methods, type conversion, operators,
//! calls from Rust into JS, the iteration protocol (§7.4), SpeciesConstructor (§7.3.22), and
//! how error messages name values.

pub mod call;
pub mod convert;
pub mod describe;
pub mod iterator;
pub mod object;
pub mod operators;
pub mod property;

pub use call::{call, construct, invoke, is_callable, is_constructor};
pub use convert::{to_boolean, to_number, to_object, to_property_key, to_string};
pub use property::{get, get_v, set, PropertyDescriptor};
