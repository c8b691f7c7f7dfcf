//! Named handlers for the interpreter's heavier instructions, one file per kind of work:
//! errors, globals, property access with inline caches, closures and classes, private names,
//! arguments, unary operators, for-in, literals and explicit resource management.

mod arguments;
mod classes;
mod disposal;
mod errors;
mod for_in;
mod globals;
mod literals;
mod private_names;
mod properties;
mod unary;

pub use arguments::{create_arguments, create_rest};
pub use classes::{
    create_class, current_this, get_super, instantiate_function, make_closure, set_super, super_base, super_call,
    super_call_env,
};
pub use disposal::{add_disposable, dispose_resources};
pub use errors::{
    not_callable_error, not_constructor_error, not_destructurable_error, not_iterable_error, tdz_error, tdz_error_env,
};
pub use for_in::{for_in_next, for_in_start};
pub use globals::{declare_globals, get_global, set_global};
pub use literals::{regexp_literal, template_object};
pub use private_names::{private_define, private_find, private_get, private_set};
pub(crate) use properties::nullish_base_error;
pub use properties::{
    array_elements, array_push, array_spread, copy_data_properties, define_field, define_method, delete_key, get_elem,
    get_prop_ic, iterate_to_vec, push_array_elements, put_value, set_elem, set_function_name, set_home_object,
    set_prop_ic,
};
pub(super) use properties::{ic_add, ic_add_applies, ic_probe};
pub use unary::{bit_not, increment, negate};
