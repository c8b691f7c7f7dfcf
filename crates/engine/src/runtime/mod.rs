//! Abstract operations of ECMA-262 that builtins and the interpreter share: object internal
//! methods, type conversion, operators, and calls from Rust into JS.

pub mod call;
pub mod convert;
pub mod operators;
pub mod property;

pub use call::{call, construct, invoke, is_callable, is_constructor};
pub use convert::{to_boolean, to_number, to_object, to_property_key, to_string};
pub use property::{get, get_v, set, PropertyDescriptor};
