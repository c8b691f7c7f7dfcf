//! The realm: intrinsic objects, created deterministically so every VM starts from the same
//! baseline heap.

use serde::{Deserialize, Serialize};

use crate::value::{ObjectId, SymbolId};

macro_rules! intrinsics {
    ($($field:ident,)*) => {
        /// Handles of the intrinsic objects (%Object.prototype% and friends).
        #[derive(Clone, Serialize, Deserialize, Default)]
        pub struct Intrinsics {
            $(pub $field: ObjectId,)*
        }
        impl Intrinsics {
            /// Every intrinsic, for the collector's roots.
            pub fn all(&self) -> Vec<ObjectId> {
                vec![$(self.$field,)*]
            }
        }
    };
}

intrinsics! {
    object_prototype,
    function_prototype,
    array_prototype,
    string_prototype,
    number_prototype,
    boolean_prototype,
    symbol_prototype,
    bigint_prototype,
    error_prototype,
    type_error_prototype,
    reference_error_prototype,
    syntax_error_prototype,
    range_error_prototype,
    eval_error_prototype,
    uri_error_prototype,
    aggregate_error_prototype,
    iterator_prototype,
    async_iterator_prototype,
    array_iterator_prototype,
    map_iterator_prototype,
    set_iterator_prototype,
    string_iterator_prototype,
    regexp_string_iterator_prototype,
    iterator_helper_prototype,
    wrap_for_valid_iterator_prototype,
    async_from_sync_iterator_prototype,
    generator_prototype,
    generator_function_prototype,
    async_generator_prototype,
    async_generator_function_prototype,
    async_function_prototype,
    promise_prototype,
    promise_constructor,
    regexp_prototype,
    regexp_constructor,
    date_prototype,
    map_prototype,
    set_prototype,
    weakmap_prototype,
    weakset_prototype,
    weakref_prototype,
    finalization_registry_prototype,
    array_buffer_prototype,
    shared_array_buffer_prototype,
    data_view_prototype,
    typed_array_prototype,
    typed_array_constructor,
    int8_array_prototype,
    uint8_array_prototype,
    uint8_clamped_array_prototype,
    int16_array_prototype,
    uint16_array_prototype,
    int32_array_prototype,
    uint32_array_prototype,
    float16_array_prototype,
    float32_array_prototype,
    float64_array_prototype,
    bigint64_array_prototype,
    biguint64_array_prototype,
    proxy_constructor,
    object_constructor,
    function_constructor,
    array_constructor,
    throw_type_error,
    eval_function,
    array_prototype_values,
    array_iterator_next,
    disposable_stack_prototype,
    async_disposable_stack_prototype,
    suppressed_error_prototype,
    math_random_state,
}

macro_rules! well_known_symbols {
    ($($field:ident = $desc:literal,)*) => {
        /// The well-known symbols (`Symbol.iterator` …); fields are named as in JS.
        #[derive(Clone, Serialize, Deserialize, Default)]
        #[allow(non_snake_case)]
        pub struct WellKnownSymbols {
            $(pub $field: SymbolId,)*
        }
        impl WellKnownSymbols {
            /// (field name as in `Symbol.<name>`, description) pairs, in creation order.
            pub const NAMES: &'static [(&'static str, &'static str)] = &[$((stringify!($field), $desc),)*];
            pub fn by_name(&self, name: &str) -> Option<SymbolId> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
            pub fn set(&mut self, name: &str, id: SymbolId) {
                match name {
                    $(stringify!($field) => self.$field = id,)*
                    _ => {}
                }
            }
        }
    };
}

well_known_symbols! {
    asyncIterator = "Symbol.asyncIterator",
    hasInstance = "Symbol.hasInstance",
    isConcatSpreadable = "Symbol.isConcatSpreadable",
    iterator = "Symbol.iterator",
    match_ = "Symbol.match",
    matchAll = "Symbol.matchAll",
    replace = "Symbol.replace",
    search = "Symbol.search",
    species = "Symbol.species",
    split = "Symbol.split",
    toPrimitive = "Symbol.toPrimitive",
    toStringTag = "Symbol.toStringTag",
    unscopables = "Symbol.unscopables",
    dispose = "Symbol.dispose",
    asyncDispose = "Symbol.asyncDispose",
}
