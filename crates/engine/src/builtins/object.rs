//! The Object constructor and Object.prototype (ECMA-262 §20.1, Annex B.2.2):
//! https://tc39.es/ecma262/#sec-object-objects

use crate::atoms::{atom, PropertyKey};
use crate::builtins::proxy::{from_property_descriptor, to_property_descriptor};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::convert::{key_to_value, to_object, to_property_key};
use crate::runtime::iterator::{close_on_throw, get_iterator, iterator_step, IteratorKind};
use crate::runtime::operators::same_value_heap;
use crate::runtime::property::{
    self, create_data_property_or_throw, define_property_or_throw, get, get_own_property, own_property_keys,
    PropertyDescriptor,
};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Object", 1, constructor),
    native!("Object.assign", 2, assign),
    native!("Object.create", 2, create),
    native!("Object.defineProperties", 2, define_properties),
    native!("Object.defineProperty", 3, define_property),
    native!("Object.entries", 1, entries),
    native!("Object.freeze", 1, freeze),
    native!("Object.fromEntries", 1, from_entries),
    native!("Object.getOwnPropertyDescriptor", 2, get_own_property_descriptor),
    native!("Object.getOwnPropertyDescriptors", 1, get_own_property_descriptors),
    native!("Object.getOwnPropertyNames", 1, get_own_property_names),
    native!("Object.getOwnPropertySymbols", 1, get_own_property_symbols),
    native!("Object.getPrototypeOf", 1, get_prototype_of),
    native!("Object.groupBy", 2, group_by),
    native!("Object.hasOwn", 2, has_own),
    native!("Object.is", 2, is),
    native!("Object.isExtensible", 1, is_extensible),
    native!("Object.isFrozen", 1, is_frozen),
    native!("Object.isSealed", 1, is_sealed),
    native!("Object.keys", 1, keys),
    native!("Object.preventExtensions", 1, prevent_extensions),
    native!("Object.seal", 1, seal),
    native!("Object.setPrototypeOf", 2, set_prototype_of),
    native!("Object.values", 1, values),
    native!("Object.prototype.hasOwnProperty", 1, has_own_property),
    native!("Object.prototype.isPrototypeOf", 1, is_prototype_of),
    native!("Object.prototype.propertyIsEnumerable", 1, property_is_enumerable),
    native!("Object.prototype.toLocaleString", 0, to_locale_string),
    native!("Object.prototype.toString", 0, to_string),
    native!("Object.prototype.valueOf", 0, value_of),
    native!("Object.prototype.__defineGetter__", 2, define_getter),
    native!("Object.prototype.__defineSetter__", 2, define_setter),
    native!("Object.prototype.__lookupGetter__", 1, lookup_getter),
    native!("Object.prototype.__lookupSetter__", 1, lookup_setter),
    native!("get Object.prototype.__proto__", 0, get_proto),
    native!("set Object.prototype.__proto__", 1, set_proto),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.object_prototype;
    let ctor = make_constructor(vm, "Object", "Object", proto);
    vm.realm.object_constructor = ctor;
    install(vm, proto, "Object.prototype", NATIVES);
    install(vm, ctor, "Object", NATIVES);
}

fn obj_arg(vm: &mut Vm, v: Value) -> JsResult<ObjectId> {
    to_object(vm, v)
}

/// ### 20.1.1.1 Object ( [ value ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let nt = vm.native_new_target();
    // 1. If NewTarget is neither undefined nor the active function, OrdinaryCreateFromConstructor.
    if !nt.is_undefined() && nt.as_object() != vm.native_ctx.callee {
        let default = vm.realm.object_prototype;
        let proto = prototype_from_constructor(vm, nt, default)?;
        return Ok(Value::object(vm.heap.new_plain(Some(proto))));
    }
    let value = arg(args, 0);
    // 2. If value is undefined or null, return OrdinaryObjectCreate(%Object.prototype%).
    if value.is_nullish() {
        return Ok(vm.new_object());
    }
    // 3. Return ! ToObject(value).
    Ok(Value::object(to_object(vm, value)?))
}

/// ### 20.1.2.1 Object.assign ( target, ...sources )
fn assign(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let to = obj_arg(vm, arg(args, 0))?;
    vm.roots.push(Value::object(to));
    for &src in args.iter().skip(1) {
        if src.is_nullish() {
            continue;
        }
        let from = to_object(vm, src)?;
        vm.roots.push(Value::object(from));
        let keys = own_property_keys(vm, from)?;
        for k in keys {
            if let Some(d) = get_own_property(vm, from, k)? {
                if d.enumerable == Some(true) {
                    let v = get(vm, from, k, Value::object(from))?;
                    property::set_or_throw(vm, to, k, v)?;
                }
            }
        }
    }
    Ok(Value::object(to))
}

/// ### 20.1.2.2 Object.create ( O, Properties )
fn create(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = arg(args, 0);
    if !o.is_object() && !o.is_null() {
        let shown = crate::runtime::describe::describe(vm, o, crate::runtime::describe::Shown::Plain);
        return Err(vm.type_error(format!("Object prototype may only be an Object or null: {shown}")));
    }
    let obj = vm.heap.new_plain(o.as_object());
    let props = arg(args, 1);
    if !props.is_undefined() {
        object_define_properties(vm, obj, props)?;
    }
    Ok(Value::object(obj))
}

/// ObjectDefineProperties (§20.1.2.3.1).
fn object_define_properties(vm: &mut Vm, o: ObjectId, properties: Value) -> JsResult<()> {
    let props = to_object(vm, properties)?;
    vm.roots.push(Value::object(props));
    let keys = own_property_keys(vm, props)?;
    let mut descriptors = Vec::new();
    for k in keys {
        if let Some(d) = get_own_property(vm, props, k)? {
            if d.enumerable == Some(true) {
                let desc_obj = get(vm, props, k, Value::object(props))?;
                vm.roots.push(desc_obj);
                let desc = to_property_descriptor(vm, desc_obj)?;
                descriptors.push((k, desc));
            }
        }
    }
    for (k, d) in descriptors {
        define_property_or_throw(vm, o, k, d)?;
    }
    Ok(())
}

fn define_properties(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(o) = arg(args, 0).as_object() else {
        return Err(vm.type_error("Object.defineProperties called on non-object"));
    };
    object_define_properties(vm, o, arg(args, 1))?;
    Ok(Value::object(o))
}

/// ### 20.1.2.4 Object.defineProperty ( O, P, Attributes )
fn define_property(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(o) = arg(args, 0).as_object() else {
        return Err(vm.type_error("Object.defineProperty called on non-object"));
    };
    let key = to_property_key(vm, arg(args, 1))?;
    let desc = to_property_descriptor(vm, arg(args, 2))?;
    define_property_or_throw(vm, o, key, desc)?;
    Ok(Value::object(o))
}

/// EnumerableOwnProperties (§7.3.23): kind 0 keys, 1 values, 2 entries.
pub fn enumerable_own_properties(vm: &mut Vm, o: ObjectId, kind: u8) -> JsResult<Vec<Value>> {
    let keys = own_property_keys(vm, o)?;
    let mut out = Vec::new();
    for k in keys {
        if matches!(k, PropertyKey::Symbol(_)) {
            continue;
        }
        let Some(d) = get_own_property(vm, o, k)? else { continue };
        if d.enumerable != Some(true) {
            continue;
        }
        let kv = key_to_value(vm, k);
        match kind {
            0 => out.push(kv),
            _ => {
                vm.roots.push(kv);
                let v = get(vm, o, k, Value::object(o))?;
                if kind == 1 {
                    out.push(v);
                } else {
                    let e = vm.new_array(vec![kv, v]);
                    out.push(e);
                }
            }
        }
        vm.roots.push(*out.last().unwrap_or(&Value::UNDEFINED));
    }
    Ok(out)
}

fn entries(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let v = enumerable_own_properties(vm, o, 2)?;
    Ok(vm.new_array(v))
}

fn keys(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let v = enumerable_own_properties(vm, o, 0)?;
    Ok(vm.new_array(v))
}

fn values(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let v = enumerable_own_properties(vm, o, 1)?;
    Ok(vm.new_array(v))
}

/// SetIntegrityLevel (§7.3.15): sealed (false) or frozen (true).
pub fn set_integrity_level(vm: &mut Vm, o: ObjectId, frozen: bool) -> JsResult<bool> {
    if !property::prevent_extensions(vm, o)? {
        return Ok(false);
    }
    if !matches!(vm.heap.obj(o).class, Class::Proxy(_) | Class::TypedArray(_)) {
        property::demote_elements(vm, o);
    }
    let keys = own_property_keys(vm, o)?;
    for k in keys {
        let desc = if frozen {
            match get_own_property(vm, o, k)? {
                Some(cur) if cur.is_accessor() => {
                    PropertyDescriptor { configurable: Some(false), ..Default::default() }
                }
                Some(_) => {
                    PropertyDescriptor { configurable: Some(false), writable: Some(false), ..Default::default() }
                }
                None => continue,
            }
        } else {
            PropertyDescriptor { configurable: Some(false), ..Default::default() }
        };
        define_property_or_throw(vm, o, k, desc)?;
    }
    Ok(true)
}

/// TestIntegrityLevel (§7.3.16).
fn test_integrity_level(vm: &mut Vm, o: ObjectId, frozen: bool) -> JsResult<bool> {
    if property::is_extensible(vm, o)? {
        return Ok(false);
    }
    let keys = own_property_keys(vm, o)?;
    for k in keys {
        if let Some(d) = get_own_property(vm, o, k)? {
            if d.configurable == Some(true) {
                return Ok(false);
            }
            if frozen && d.is_data() && d.writable == Some(true) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

fn freeze(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    let Some(o) = v.as_object() else { return Ok(v) };
    if !set_integrity_level(vm, o, true)? {
        return Err(vm.type_error("Cannot freeze"));
    }
    Ok(v)
}

fn seal(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    let Some(o) = v.as_object() else { return Ok(v) };
    if !set_integrity_level(vm, o, false)? {
        return Err(vm.type_error("Cannot seal"));
    }
    Ok(v)
}

fn is_frozen(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    match arg(args, 0).as_object() {
        Some(o) => Ok(Value::bool(test_integrity_level(vm, o, true)?)),
        None => Ok(Value::TRUE),
    }
}

fn is_sealed(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    match arg(args, 0).as_object() {
        Some(o) => Ok(Value::bool(test_integrity_level(vm, o, false)?)),
        None => Ok(Value::TRUE),
    }
}

fn is_extensible(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    match arg(args, 0).as_object() {
        Some(o) => Ok(Value::bool(property::is_extensible(vm, o)?)),
        None => Ok(Value::FALSE),
    }
}

fn prevent_extensions(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    if let Some(o) = v.as_object() {
        if !property::prevent_extensions(vm, o)? {
            return Err(vm.type_error("Cannot prevent extensions"));
        }
    }
    Ok(v)
}

/// ### 20.1.2.7 Object.fromEntries ( iterable )
fn from_entries(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let iterable = arg(args, 0);
    if iterable.is_nullish() {
        return Err(vm.type_error("Object.fromEntries requires an iterable"));
    }
    let obj = vm.new_object();
    vm.roots.push(obj);
    let Some(o) = obj.as_object() else { return Ok(obj) };
    let record = get_iterator(vm, iterable, IteratorKind::Sync)?;
    let it = record.iterator;
    vm.roots.extend([it, record.next_method]);
    while let Some(entry) = iterator_step(vm, &record)? {
        let r = (|| -> JsResult<()> {
            let Some(e) = entry.as_object() else {
                let shown = crate::runtime::describe::describe(vm, entry, crate::runtime::describe::Shown::Plain);
                return Err(vm.type_error(format!("Iterator value {shown} is not an entry object")));
            };
            let k = get(vm, e, PropertyKey::Index(0), entry)?;
            vm.roots.push(k);
            let v = get(vm, e, PropertyKey::Index(1), entry)?;
            let key = to_property_key(vm, k)?;
            create_data_property_or_throw(vm, o, key, v)
        })();
        if let Err(e) = r {
            return close_on_throw(vm, it, e);
        }
    }
    Ok(obj)
}

fn get_own_property_descriptor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let key = to_property_key(vm, arg(args, 1))?;
    let d = get_own_property(vm, o, key)?;
    from_property_descriptor(vm, d)
}

fn get_own_property_descriptors(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let keys = own_property_keys(vm, o)?;
    let result = vm.new_object();
    vm.roots.push(result);
    let Some(r) = result.as_object() else { return Ok(result) };
    for k in keys {
        let d = get_own_property(vm, o, k)?;
        if d.is_some() {
            let dv = from_property_descriptor(vm, d)?;
            create_data_property_or_throw(vm, r, k, dv)?;
        }
    }
    Ok(result)
}

/// GetOwnPropertyKeys (§20.1.2.11.1): strings (false) or symbols (true).
fn own_keys_of_type(vm: &mut Vm, v: Value, symbols: bool) -> JsResult<Value> {
    let o = obj_arg(vm, v)?;
    let keys = own_property_keys(vm, o)?;
    let vals: Vec<Value> = keys
        .into_iter()
        .filter(|k| matches!(k, PropertyKey::Symbol(_)) == symbols)
        .map(|k| key_to_value(vm, k))
        .collect();
    Ok(vm.new_array(vals))
}

fn get_own_property_names(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    own_keys_of_type(vm, arg(args, 0), false)
}

fn get_own_property_symbols(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    own_keys_of_type(vm, arg(args, 0), true)
}

fn get_prototype_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    Ok(property::get_prototype_of(vm, o)?.map_or(Value::NULL, Value::object))
}

/// ### 20.1.2.23 Object.setPrototypeOf ( O, proto )
fn set_prototype_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    if v.is_nullish() {
        return Err(vm.type_error("Object.setPrototypeOf called on null or undefined"));
    }
    let proto = arg(args, 1);
    if !proto.is_object() && !proto.is_null() {
        let shown = crate::runtime::describe::describe(vm, proto, crate::runtime::describe::Shown::Plain);
        return Err(vm.type_error(format!("Object prototype may only be an Object or null: {shown}")));
    }
    let Some(o) = v.as_object() else { return Ok(v) };
    if !property::set_prototype_of(vm, o, proto.as_object())? {
        return Err(vm.type_error("Cyclic __proto__ value or non-extensible object"));
    }
    Ok(v)
}

/// ### 20.1.2.13 Object.groupBy ( items, callback )
fn group_by(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let groups = group_by_generic(vm, arg(args, 0), arg(args, 1), true)?;
    let result = vm.heap.new_plain(None);
    vm.roots.push(Value::object(result));
    for (k, vals) in groups {
        let arr = vm.new_array(vals);
        let key = to_property_key(vm, k)?;
        create_data_property_or_throw(vm, result, key, arr)?;
    }
    Ok(Value::object(result))
}

/// GroupBy (§7.3.35): property keys (true) or SameValueZero-compared values (false).
pub fn group_by_generic(
    vm: &mut Vm,
    items: Value,
    callback: Value,
    property_keys: bool,
) -> JsResult<Vec<(Value, Vec<Value>)>> {
    if items.is_nullish() {
        return Err(vm.type_error("groupBy called on null or undefined"));
    }
    if !is_callable(vm, callback) {
        return Err(vm.type_error("callback is not a function"));
    }
    let mut groups: Vec<(Value, Vec<Value>)> = Vec::new();
    let record = get_iterator(vm, items, IteratorKind::Sync)?;
    let it = record.iterator;
    vm.roots.extend([it, record.next_method]);
    let mut k = 0f64;
    while let Some(v) = iterator_step(vm, &record)? {
        vm.roots.push(v);
        let key = match call(vm, callback, Value::UNDEFINED, &[v, Value::number(k)]) {
            Ok(key) => key,
            Err(e) => return close_on_throw(vm, it, e),
        };
        let key = if property_keys {
            match to_property_key(vm, key) {
                Ok(pk) => key_to_value(vm, pk),
                Err(e) => return close_on_throw(vm, it, e),
            }
        } else if key.as_number() == Some(0.0) {
            Value::int(0)
        } else {
            key
        };
        vm.roots.push(key);
        let mut found = false;
        for g in groups.iter_mut() {
            let same = if property_keys {
                crate::runtime::operators::strict_equals(vm, g.0, key)
            } else {
                crate::runtime::operators::same_value_zero(vm, g.0, key)
            };
            if same {
                g.1.push(v);
                found = true;
                break;
            }
        }
        if !found {
            groups.push((key, vec![v]));
        }
        k += 1.0;
    }
    Ok(groups)
}

fn has_own(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let o = obj_arg(vm, arg(args, 0))?;
    let key = to_property_key(vm, arg(args, 1))?;
    Ok(Value::bool(property::has_own_property(vm, o, key)?))
}

fn is(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::bool(same_value_heap(vm, arg(args, 0), arg(args, 1))))
}

/// ### 20.1.3.2 Object.prototype.hasOwnProperty ( V )
fn has_own_property(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let P be ? ToPropertyKey(V). 2. Let O be ? ToObject(this value).
    let key = to_property_key(vm, arg(args, 0))?;
    let o = to_object(vm, this)?;
    Ok(Value::bool(property::has_own_property(vm, o, key)?))
}

fn is_prototype_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(mut v) = arg(args, 0).as_object() else { return Ok(Value::FALSE) };
    let o = to_object(vm, this)?;
    loop {
        match property::get_prototype_of(vm, v)? {
            Some(p) if p == o => return Ok(Value::TRUE),
            Some(p) => v = p,
            None => return Ok(Value::FALSE),
        }
    }
}

fn property_is_enumerable(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let key = to_property_key(vm, arg(args, 0))?;
    let o = to_object(vm, this)?;
    let d = get_own_property(vm, o, key)?;
    Ok(Value::bool(d.is_some_and(|d| d.enumerable == Some(true))))
}

fn to_locale_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    crate::runtime::call::invoke(vm, this, PropertyKey::Atom(atom::toString), &[])
}

/// ### 20.1.3.6 Object.prototype.toString ( )
pub(crate) fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    if this.is_undefined() {
        return Ok(vm.str("[object Undefined]"));
    }
    if this.is_null() {
        return Ok(vm.str("[object Null]"));
    }
    let o = to_object(vm, this)?;
    let is_array = crate::runtime::convert::is_array(vm, Value::object(o))?;
    let builtin_tag = if is_array {
        "Array"
    } else {
        match &vm.heap.obj(o).class {
            Class::Arguments(_) => "Arguments",
            Class::Function(_) | Class::Native(_) | Class::Bound(_) => "Function",
            Class::Proxy(p) if p.callable => "Function",
            Class::Error => "Error",
            Class::Boolean(_) => "Boolean",
            Class::Number(_) => "Number",
            Class::String(_) => "String",
            Class::Date(_) => "Date",
            Class::RegExp(_) => "RegExp",
            _ => "Object",
        }
    };
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    let tag = get(vm, o, tag_key, Value::object(o))?;
    let tag = match tag.kind() {
        Kind::String(s) => vm.heap.flat(s).to_rust_string(),
        _ => builtin_tag.to_string(),
    };
    Ok(vm.str(&format!("[object {tag}]")))
}

fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::object(to_object(vm, this)?))
}

fn define_accessor(vm: &mut Vm, this: Value, args: &[Value], getter: bool) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    let f = arg(args, 1);
    if !is_callable(vm, f) {
        return Err(vm.type_error("Object.prototype.__defineGetter__: Expecting function"));
    }
    let desc = PropertyDescriptor {
        get: getter.then_some(f),
        set: (!getter).then_some(f),
        enumerable: Some(true),
        configurable: Some(true),
        ..Default::default()
    };
    let key = to_property_key(vm, arg(args, 0))?;
    define_property_or_throw(vm, o, key, desc)?;
    Ok(Value::UNDEFINED)
}

fn define_getter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    define_accessor(vm, this, args, true)
}

fn define_setter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    define_accessor(vm, this, args, false)
}

fn lookup_accessor(vm: &mut Vm, this: Value, args: &[Value], getter: bool) -> JsResult<Value> {
    let mut o = to_object(vm, this)?;
    let key = to_property_key(vm, arg(args, 0))?;
    loop {
        if let Some(d) = get_own_property(vm, o, key)? {
            if d.is_accessor() {
                return Ok(if getter { d.get.unwrap_or_default() } else { d.set.unwrap_or_default() });
            }
            return Ok(Value::UNDEFINED);
        }
        match property::get_prototype_of(vm, o)? {
            Some(p) => o = p,
            None => return Ok(Value::UNDEFINED),
        }
    }
}

fn lookup_getter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    lookup_accessor(vm, this, args, true)
}

fn lookup_setter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    lookup_accessor(vm, this, args, false)
}

/// ### B.2.2.1.1 get Object.prototype.__proto__
fn get_proto(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(property::get_prototype_of(vm, o)?.map_or(Value::NULL, Value::object))
}

/// ### B.2.2.1.2 set Object.prototype.__proto__
fn set_proto(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    if this.is_nullish() {
        return Err(vm.type_error("Object.prototype.__proto__ called on null or undefined"));
    }
    let proto = arg(args, 0);
    if !proto.is_object() && !proto.is_null() {
        return Ok(Value::UNDEFINED);
    }
    let Some(o) = this.as_object() else { return Ok(Value::UNDEFINED) };
    if !property::set_prototype_of(vm, o, proto.as_object())? {
        return Err(vm.type_error("Cyclic __proto__ value"));
    }
    Ok(Value::UNDEFINED)
}
