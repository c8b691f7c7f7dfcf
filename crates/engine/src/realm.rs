//! Realms: intrinsic objects, created deterministically so every VM starts from the same
//! baseline heap, and the realms a program creates beside the first (`Vm::create_realm`).
//!
//! The running realm's intrinsics, global object and global lexicals live in the VM's own
//! fields (`vm.realm`, `vm.global`, `vm.global_lexicals`), where every native and instruction
//! reads them without an indirection; the others are parked in `vm.realms`. Entering a
//! function of another realm swaps them (`Vm::switch_realm`): that costs a few hundred bytes
//! of copying, and only on a call or return that crosses realms. A frame records its realm, a
//! native function object its own; `interp` switches when a frame is pushed or popped and
//! `runtime::call::call_native` around a native.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::atoms::Atom;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::RealmId;
use crate::value::{ObjectId, SymbolId, Value};
use crate::vm::Vm;

/// Top-level `let`/`const`/`class` bindings of a realm: value and whether mutable.
pub type GlobalLexicals = IndexMap<Atom, (Value, bool), FxBuildHasher>;

/// A realm that is not running: what `Vm::switch_realm` swaps into the VM's own fields.
#[derive(Clone, Serialize, Deserialize, Default)]
pub struct ParkedRealm {
    pub intrinsics: Intrinsics,
    pub global: ObjectId,
    pub global_lexicals: GlobalLexicals,
}

impl ParkedRealm {
    /// Every handle the realm holds, for the collector.
    pub fn children(&self, out: &mut impl Extend<Value>) {
        out.extend(self.intrinsics.roots());
        out.extend([Value::object(self.global)]);
        out.extend(self.global_lexicals.values().map(|&(v, _)| v));
    }
}

impl Vm {
    /// Make `to` the running realm, parking the one that was. A no-op when it already runs.
    #[inline]
    pub fn switch_realm(&mut self, to: RealmId) {
        if to != self.current_realm {
            self.switch_realm_slow(to);
        }
    }

    #[cold]
    #[inline(never)]
    fn switch_realm_slow(&mut self, to: RealmId) {
        let from = self.current_realm;
        if to as usize >= self.realms.len() {
            return;
        }
        let parked = ParkedRealm {
            intrinsics: std::mem::take(&mut self.realm),
            global: self.global,
            global_lexicals: std::mem::take(&mut self.global_lexicals),
        };
        self.realms[from as usize] = Some(parked);
        let next = self.realms[to as usize].take().unwrap_or_default();
        self.realm = next.intrinsics;
        self.global = next.global;
        self.global_lexicals = next.global_lexicals;
        self.current_realm = to;
    }

    /// CreateRealm + SetRealmGlobalObject + SetDefaultGlobalBindings (§9.3): a new realm
    /// with its own intrinsics and global object, sharing the VM's heap, symbols and atoms.
    /// The running realm stays the running one.
    pub fn create_realm(&mut self) -> RealmId {
        let id = self.realms.len() as RealmId;
        let back = self.current_realm;
        self.realms.push(Some(ParkedRealm::default()));
        self.switch_realm(id);
        crate::builtins::global::create_intrinsics(self);
        self.switch_realm(back);
        id
    }

    /// The intrinsics of realm `id` (the running realm's are `vm.realm`).
    pub fn intrinsics_of(&self, id: RealmId) -> &Intrinsics {
        if id == self.current_realm {
            return &self.realm;
        }
        match self.realms.get(id as usize) {
            Some(Some(parked)) => &parked.intrinsics,
            _ => &self.realm,
        }
    }

    /// The global object of realm `id`.
    pub fn global_of(&self, id: RealmId) -> ObjectId {
        if id == self.current_realm {
            return self.global;
        }
        match self.realms.get(id as usize) {
            Some(Some(parked)) => parked.global,
            _ => self.global,
        }
    }
}

/// GetFunctionRealm (§7.3.24): the realm a function object was created in; bound functions
/// and proxies answer for their targets. A revoked proxy is a TypeError.
pub fn function_realm(vm: &mut Vm, f: ObjectId) -> JsResult<RealmId> {
    let mut o = f;
    // Bound and proxy chains are finite (each link was a callable object when made), but a
    // hostile chain can be long: walk it iteratively.
    loop {
        match &vm.heap.obj(o).class {
            Class::Function(c) => return Ok(vm.heap.code(c.code).realm),
            Class::Native(n) => return Ok(n.realm),
            Class::Bound(b) => o = b.target,
            Class::Proxy(p) => match p.target {
                Some(t) => o = t,
                None => return Err(vm.type_error("Cannot perform operation on a revoked proxy")),
            },
            _ => return Ok(vm.current_realm),
        }
    }
}

/// The intrinsic of realm `realm` that plays the role `default` plays in the running realm
/// (GetPrototypeFromConstructor's fallback: `%Array.prototype%` of the constructor's realm).
pub fn same_intrinsic_in(vm: &Vm, realm: RealmId, default: ObjectId) -> ObjectId {
    if realm == vm.current_realm {
        return default;
    }
    let here = vm.realm.all();
    match here.iter().position(|&o| o == default) {
        Some(i) => vm.intrinsics_of(realm).all().get(i).copied().unwrap_or(default),
        None => default,
    }
}

macro_rules! intrinsics {
    ($($field:ident,)*) => {
        /// Handles of the intrinsic objects (%Object.prototype% and friends), and the one
        /// per-realm symbol, %Intl%.[[FallbackSymbol]] (ECMA-402 §8.1: each realm's Intl
        /// object has its own).
        #[derive(Clone, Serialize, Deserialize, Default)]
        pub struct Intrinsics {
            $(pub $field: ObjectId,)*
            pub intl_fallback_symbol: SymbolId,
        }
        impl Intrinsics {
            /// Every intrinsic object (the collector's roots add [`Intrinsics::roots`]).
            pub fn all(&self) -> Vec<ObjectId> {
                vec![$(self.$field,)*]
            }
            /// Every handle the intrinsics hold, for the collector.
            pub fn roots(&self) -> impl Iterator<Item = Value> + '_ {
                self.all().into_iter().map(Value::object).chain(std::iter::once(Value::symbol(self.intl_fallback_symbol)))
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
    shadow_realm_prototype,
    temporal_instant_prototype,
    temporal_zoned_date_time_prototype,
    temporal_plain_date_prototype,
    temporal_plain_time_prototype,
    temporal_plain_date_time_prototype,
    temporal_plain_year_month_prototype,
    temporal_plain_month_day_prototype,
    temporal_duration_prototype,
    intl_collator_prototype,
    intl_collator_constructor,
    intl_plural_rules_prototype,
    intl_number_format_prototype,
    intl_list_format_prototype,
    intl_locale_prototype,
    intl_relative_time_format_prototype,
    intl_display_names_prototype,
    intl_segmenter_prototype,
    intl_segments_prototype,
    intl_segment_iterator_prototype,
    intl_date_time_format_prototype,
    intl_duration_format_prototype,
    intl_date_time_format_constructor,
    intl_number_format_constructor,
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
    metadata = "Symbol.metadata",
}
