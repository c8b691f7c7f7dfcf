//! The Symbol object (ECMA-262 §20.4): https://tc39.es/ecma262/#sec-symbol-objects
//!
//! The global symbol registry of `Symbol.for` is `Vm::symbol_registry` (key → symbol, in
//! registration order); the well-known symbols already exist in `Vm::symbols` and are only
//! exposed here as `Symbol.iterator` and friends.

use crate::atoms::PropertyKey;
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::native;
use crate::realm::WellKnownSymbols;
use crate::runtime::convert::to_js_str;
use crate::string::JsStr;
use crate::value::{SymbolId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Symbol", 0, constructor),
    native!("Symbol.for", 1, symbol_for),
    native!("Symbol.keyFor", 1, key_for),
    native!("get Symbol.prototype.description", 0, description),
    native!("Symbol.prototype.toString", 0, to_string),
    native!("Symbol.prototype.valueOf", 0, value_of),
    native!("Symbol.prototype[Symbol.toPrimitive]", 1, to_primitive),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.symbol_prototype;
    let ctor = make_constructor(vm, "Symbol", "Symbol", proto);
    install(vm, proto, "Symbol.prototype", NATIVES);
    install(vm, ctor, "Symbol", NATIVES);

    // 20.4.3.5 Symbol.prototype [ %Symbol.toPrimitive% ]: { [[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: true }.
    let to_prim = PropertyKey::Symbol(vm.symbols.toPrimitive);
    if let Some((f, _)) = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, to_prim) {
        vm.define_builtin(proto, to_prim, f, PropFlags(PropFlags::CONFIGURABLE));
    }
    // 20.4.3.6 Symbol.prototype [ %Symbol.toStringTag% ]: "Symbol", configurable only.
    let tag = vm.str("Symbol");
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(proto, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));

    // 20.4.2: Symbol.asyncIterator, Symbol.hasInstance, … are { [[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: false }.
    for &(field, desc) in WellKnownSymbols::NAMES {
        let Some(id) = vm.symbols.by_name(field) else { continue };
        let name = desc.strip_prefix("Symbol.").unwrap_or(desc);
        let key = vm.key(name);
        vm.define_builtin(ctor, key, Value::symbol(id), PropFlags::NONE);
    }
}

/// ### 20.4.1.1 Symbol ( [ description ] )
/// https://tc39.es/ecma262/#sec-symbol-description
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is not undefined, throw a TypeError exception.
    if !vm.native_new_target().is_undefined() {
        return Err(vm.type_error("Symbol is not a constructor"));
    }
    // 2. If description is undefined, let descString be undefined.
    // 3. Else, let descString be ? ToString(description).
    let description = arg(args, 0);
    let desc_string = if description.is_undefined() { None } else { Some(to_js_str(vm, description)?) };
    // 4. Return a new Symbol whose [[Description]] is descString.
    Ok(Value::symbol(vm.heap.alloc_symbol(desc_string)))
}

/// ### 20.4.2.2 Symbol.for ( key )
/// https://tc39.es/ecma262/#sec-symbol.for
fn symbol_for(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let stringKey be ? ToString(key).
    let string_key = to_js_str(vm, arg(args, 0))?;
    // 2. For each element e of the GlobalSymbolRegistry List, do
    //    a. If e.[[Key]] is stringKey, return e.[[Symbol]].
    if let Some(&sym) = vm.symbol_registry.get(&string_key) {
        return Ok(Value::symbol(sym));
    }
    // 3. Assert: The GlobalSymbolRegistry List does not currently contain an entry for
    //    stringKey.
    // 4. Let newSymbol be a new Symbol whose [[Description]] is stringKey.
    let new_symbol = vm.heap.alloc_symbol(Some(string_key.clone()));
    if let Some(s) = vm.heap.symbols.get_mut(new_symbol.0) {
        s.registered = true;
    }
    // 5. Append the GlobalSymbolRegistry Record { [[Key]]: stringKey, [[Symbol]]: newSymbol }
    //    to the GlobalSymbolRegistry List.
    vm.symbol_registry.insert(string_key, new_symbol);
    // 6. Return newSymbol.
    Ok(Value::symbol(new_symbol))
}

/// ### 20.4.2.6 Symbol.keyFor ( sym )
/// https://tc39.es/ecma262/#sec-symbol.keyfor
fn key_for(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If sym is not a Symbol, throw a TypeError exception.
    let Some(sym) = arg(args, 0).as_symbol() else {
        // V8's message; objects are not converted (that could run JS on an error path).
        let v = arg(args, 0);
        let shown = if v.is_object() {
            "#<Object>".to_string()
        } else {
            crate::runtime::convert::to_rust_string(vm, v).unwrap_or_default()
        };
        return Err(vm.type_error(format!("{shown} is not a symbol")));
    };
    // 2. Return KeyForSymbol(sym).
    match key_for_symbol(vm, sym) {
        Some(key) => Ok(vm.js_str(key)),
        None => Ok(Value::UNDEFINED),
    }
}

/// KeyForSymbol (§20.4.5.1): the registry key of a symbol made by `Symbol.for`.
pub(crate) fn key_for_symbol(vm: &Vm, sym: SymbolId) -> Option<JsStr> {
    // 1. For each element e of the GlobalSymbolRegistry List, do
    //    a. If SameValue(e.[[Symbol]], sym) is true, return e.[[Key]].
    // 2. Assert: GlobalSymbolRegistry does not currently contain an entry for sym.
    // 3. Return undefined.
    let s = vm.heap.symbol(sym)?;
    if !s.registered {
        return None;
    }
    vm.symbol_registry.iter().find(|(_, &v)| v == sym).map(|(k, _)| k.clone())
}

/// ThisSymbolValue (§20.4.3.4.1).
fn this_symbol_value(vm: &mut Vm, value: Value, method: &str) -> JsResult<SymbolId> {
    // 1. If value is a Symbol, return value.
    if let Some(s) = value.as_symbol() {
        return Ok(s);
    }
    // 2. If value is an Object and value has a [[SymbolData]] internal slot, then
    //    a. Let s be value.[[SymbolData]]. b. Assert: s is a Symbol. c. Return s.
    if let Some(o) = value.as_object() {
        if let Class::Symbol(s) = vm.heap.obj(o).class {
            return Ok(s);
        }
    }
    // 3. Throw a TypeError exception.
    Err(vm.type_error(format!("{method} requires that 'this' be a Symbol")))
}

/// ### 20.4.3.2 get Symbol.prototype.description
/// https://tc39.es/ecma262/#sec-symbol.prototype.description
fn description(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let s be the this value.
    // 2. Let sym be ? ThisSymbolValue(s).
    let sym = this_symbol_value(vm, this, "Symbol.prototype.description")?;
    // 3. Return sym.[[Description]].
    match vm.heap.symbol(sym).and_then(|s| s.description.clone()) {
        Some(d) => Ok(vm.js_str(d)),
        None => Ok(Value::UNDEFINED),
    }
}

/// ### 20.4.3.3 Symbol.prototype.toString ( )
/// https://tc39.es/ecma262/#sec-symbol.prototype.tostring
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let sym be ? ThisSymbolValue(this value).
    let sym = this_symbol_value(vm, this, "Symbol.prototype.toString")?;
    // 2. Return SymbolDescriptiveString(sym).
    let s = symbol_descriptive_string(vm, sym);
    Ok(vm.js_str(s))
}

/// SymbolDescriptiveString (§20.4.3.3.1): `Symbol(description)`.
pub(crate) fn symbol_descriptive_string(vm: &Vm, sym: SymbolId) -> JsStr {
    // 1. Let desc be sym's [[Description]] value.
    // 2. If desc is undefined, set desc to the empty String.
    // 3. Assert: desc is a String.
    // 4. Return the string-concatenation of "Symbol(", desc, and ")".
    let open = JsStr::from_str("Symbol(");
    let with_desc = match vm.heap.symbol(sym).and_then(|s| s.description.as_ref()) {
        Some(d) => open.concat(d),
        None => open,
    };
    with_desc.concat(&JsStr::from_str(")"))
}

/// ### 20.4.3.4 Symbol.prototype.valueOf ( )
/// https://tc39.es/ecma262/#sec-symbol.prototype.valueof
fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisSymbolValue(this value).
    Ok(Value::symbol(this_symbol_value(vm, this, "Symbol.prototype.valueOf")?))
}

/// ### 20.4.3.5 Symbol.prototype [ %Symbol.toPrimitive% ] ( hint )
/// https://tc39.es/ecma262/#sec-symbol.prototype-%symbol.toprimitive%
fn to_primitive(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisSymbolValue(this value).
    Ok(Value::symbol(this_symbol_value(vm, this, "Symbol.prototype [ @@toPrimitive ]")?))
}
