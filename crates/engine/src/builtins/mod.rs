//! ECMAScript builtins: one module per global, and the native-function table.
//!
//! A native function is named by a [`NativeId`], an index into one static table built from
//! every module's `NATIVES` list, in the fixed module order below. In images a `NativeId` is
//! written as its stable name (`"Array.prototype.map"`), so reordering the table is harmless;
//! renaming one changes the image format.
//!
//! Stable-name forms understood by [`install`]: `"X.prototype.name"` (method on the
//! prototype), `"X.name"` (static method), `"X.prototype[Symbol.iterator]"` (symbol-keyed),
//! `"get X.prototype.name"` / `"set X.prototype.name"` (accessors). Names starting with `%`
//! are internal (resolving functions, thunks) and are never installed by name.

pub mod array;
pub mod array_buffer;
pub mod array_from_async;
mod array_sort;
pub mod atomics;
pub mod bigint;
pub mod boolean;
pub mod data_view;
pub mod date;
pub mod decorators;
pub mod disposable;
pub mod error;
pub mod function;
pub mod generator;
pub mod global;
pub mod intl;
pub mod iterator;
pub mod iterator_helpers;
pub mod json;
pub mod map;
pub mod math;
pub mod number;
pub mod object;
pub mod promise;
pub mod proxy;
pub mod reflect;
pub mod regexp;
pub mod set;
pub mod shadow_realm;
pub mod string;
pub mod symbol;
pub mod temporal;
pub mod typed_array;
pub mod weak;

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{Class, NativeFunction, Object};
use crate::heap::shape::PropFlags;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// A native function: `this`, the arguments; `vm.native_new_target()` and
/// `vm.native_captures()` give the rest of the call.
pub type NativeFn = fn(&mut Vm, Value, &[Value]) -> JsResult<Value>;

/// One native: its stable name, JS `length`, and code.
pub struct NativeDef {
    pub name: &'static str,
    pub length: u32,
    pub f: NativeFn,
}

/// Shorthand for a [`NativeDef`] in a module's table.
#[macro_export]
macro_rules! native {
    ($name:literal, $len:expr, $f:expr) => {
        $crate::builtins::NativeDef { name: $name, length: $len, f: $f }
    };
}

/// Every module's table, in a fixed order.
fn modules() -> &'static [&'static [NativeDef]] {
    &[
        object::NATIVES,
        function::NATIVES,
        array::NATIVES,
        array_from_async::NATIVES,
        global::NATIVES,
        error::NATIVES,
        generator::NATIVES,
        iterator::NATIVES,
        iterator_helpers::NATIVES,
        string::NATIVES,
        number::NATIVES,
        boolean::NATIVES,
        symbol::NATIVES,
        bigint::NATIVES,
        math::NATIVES,
        json::NATIVES,
        proxy::NATIVES,
        reflect::NATIVES,
        map::NATIVES,
        set::NATIVES,
        weak::NATIVES,
        promise::NATIVES,
        regexp::NATIVES,
        date::NATIVES,
        decorators::NATIVES,
        disposable::NATIVES,
        array_buffer::NATIVES,
        typed_array::NATIVES,
        data_view::NATIVES,
        atomics::NATIVES,
        crate::module::NATIVES,
        shadow_realm::NATIVES,
        temporal::INSTANT_NATIVES,
        temporal::ZONED_DATE_TIME_NATIVES,
        temporal::PLAIN_DATE_NATIVES,
        temporal::PLAIN_TIME_NATIVES,
        temporal::PLAIN_DATE_TIME_NATIVES,
        temporal::PLAIN_YEAR_MONTH_NATIVES,
        temporal::PLAIN_MONTH_DAY_NATIVES,
        temporal::DURATION_NATIVES,
        temporal::NOW_NATIVES,
        intl::NATIVES,
        intl::COLLATOR_NATIVES,
        intl::PLURAL_RULES_NATIVES,
        intl::NUMBER_FORMAT_NATIVES,
        intl::LIST_FORMAT_NATIVES,
        intl::LOCALE_NATIVES,
        intl::RELATIVE_TIME_FORMAT_NATIVES,
        intl::DISPLAY_NAMES_NATIVES,
        intl::SEGMENTER_NATIVES,
        intl::DATE_TIME_FORMAT_NATIVES,
        intl::DURATION_FORMAT_NATIVES,
    ]
}

struct Table {
    defs: Vec<&'static NativeDef>,
    by_name: indexmap::IndexMap<&'static str, u32, rustc_hash::FxBuildHasher>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let defs: Vec<&'static NativeDef> = modules().iter().flat_map(|m| m.iter()).collect();
        let by_name = defs.iter().enumerate().map(|(i, d)| (d.name, i as u32)).collect();
        Table { defs, by_name }
    })
}

/// Index of a native in the table: the type is the heap's (native function objects hold
/// one), what it means — names, lookups, serde by stable name — is this table's.
pub use crate::heap::object::NativeId;

impl NativeId {
    /// Look up by stable name.
    pub fn by_name(name: &str) -> Option<NativeId> {
        table().by_name.get(name).map(|&i| NativeId(i))
    }
    /// The native the engine's own code names: `name` is written in the engine beside a
    /// registration table, so a miss is an engine bug (a renamed or dropped table entry),
    /// loud in debug builds. Release builds get the table's first native rather than a
    /// panic. Names from outside the engine (an image) go through [`NativeId::by_name`] and
    /// are refused when unknown.
    pub fn builtin(name: &str) -> NativeId {
        let id = NativeId::by_name(name);
        debug_assert!(id.is_some(), "invariant: the native table registers {name:?}");
        id.unwrap_or(NativeId(0))
    }
    pub fn def(self) -> Option<&'static NativeDef> {
        table().defs.get(self.0 as usize).copied()
    }
    pub fn name(self) -> &'static str {
        self.def().map_or("?", |d| d.name)
    }
}

impl Serialize for NativeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for NativeId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        NativeId::by_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown native function {name:?}")))
    }
}

/// Create a function object for a native.
pub fn make_native(
    vm: &mut Vm,
    name: &str,
    id: NativeId,
    length: u32,
    constructor: bool,
    captures: Vec<Value>,
) -> ObjectId {
    let proto = Some(vm.realm.function_prototype);
    let f = vm.heap.alloc_object(Object::new(
        proto,
        Class::Native(NativeFunction { id, captures, constructor, realm: vm.current_realm }),
    ));
    let len = Value::int(length as i32);
    vm.define_builtin(f, PropertyKey::Atom(atom::length), len, PropFlags(PropFlags::CONFIGURABLE));
    let name_v = vm.heap.alloc_str(name);
    vm.define_builtin(f, PropertyKey::Atom(atom::name), name_v, PropFlags(PropFlags::CONFIGURABLE));
    f
}

/// A native function by stable name, for internal use (resolving functions and the like).
pub fn make_internal(vm: &mut Vm, stable_name: &str, length: u32, captures: Vec<Value>) -> ObjectId {
    make_native(vm, "", NativeId::builtin(stable_name), length, false, captures)
}

/// Install every native whose stable name is `<prefix>.<name>`, `<prefix>[Symbol.x]`,
/// `get <prefix>.<name>` or `set <prefix>.<name>` onto `target`, non-enumerable.
pub fn install(vm: &mut Vm, target: ObjectId, prefix: &str, defs: &'static [NativeDef]) {
    for def in defs {
        let (accessor, rest) = if let Some(r) = def.name.strip_prefix("get ") {
            (1, r)
        } else if let Some(r) = def.name.strip_prefix("set ") {
            (2, r)
        } else {
            (0, def.name)
        };
        let Some(tail) = rest.strip_prefix(prefix) else { continue };
        let (key, fname) = if let Some(n) = tail.strip_prefix('.') {
            if n.contains('.') || n.contains('[') {
                continue;
            }
            (PropertyKey::Atom(vm.heap.atoms.intern_str(n)), n.to_string())
        } else if let Some(sym) = tail.strip_prefix("[Symbol.").and_then(|t| t.strip_suffix(']')) {
            let Some(s) = vm.well_known_symbol(sym) else { continue };
            (PropertyKey::Symbol(s), format!("[Symbol.{sym}]"))
        } else {
            continue;
        };
        let Some(id) = NativeId::by_name(def.name) else { continue };
        let shown = match accessor {
            1 => format!("get {fname}"),
            2 => format!("set {fname}"),
            _ => fname,
        };
        let f = make_native(vm, &shown, id, def.length, false, Vec::new());
        let fv = Value::object(f);
        match accessor {
            0 => vm.define_builtin(target, key, fv, PropFlags::HIDDEN),
            _ => {
                let existing = vm.heap.obj(target).lookup_named(&vm.heap.shapes, key);
                let (mut get, mut set) = (Value::UNDEFINED, Value::UNDEFINED);
                if let Some((pair, flags)) = existing {
                    if flags.is_accessor() {
                        if let Some(po) = pair.as_object() {
                            if let Class::AccessorPair { get: g, set: s } = vm.heap.obj(po).class {
                                get = g;
                                set = s;
                            }
                        }
                    }
                }
                if accessor == 1 {
                    get = fv;
                } else {
                    set = fv;
                }
                let pair = vm.heap.alloc_object(Object::new(None, Class::AccessorPair { get, set }));
                let flags = PropFlags(PropFlags::CONFIGURABLE | PropFlags::ACCESSOR);
                vm.define_builtin(target, key, Value::object(pair), flags);
            }
        }
    }
}

/// Create a constructor from the native `stable_name`, link it with `prototype`, and make it
/// a global named `global_name`.
pub fn make_constructor(vm: &mut Vm, global_name: &str, stable_name: &str, prototype: ObjectId) -> ObjectId {
    let id = NativeId::builtin(stable_name);
    let length = id.def().map_or(0, |d| d.length);
    let ctor = make_native(vm, global_name, id, length, true, Vec::new());
    vm.define_builtin(ctor, PropertyKey::Atom(atom::prototype), Value::object(prototype), PropFlags::NONE);
    vm.define_builtin(prototype, PropertyKey::Atom(atom::constructor), Value::object(ctor), PropFlags::HIDDEN);
    let key = PropertyKey::Atom(vm.heap.atoms.intern_str(global_name));
    let global = vm.global;
    vm.define_builtin(global, key, Value::object(ctor), PropFlags::HIDDEN);
    ctor
}

/// Argument `i`, or undefined.
#[inline]
pub fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}
