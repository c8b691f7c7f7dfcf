//! Operations on objects (ECMA-262 §7.3) that are not property access itself (that is
//! `property.rs`): SpeciesConstructor.

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::runtime::call::is_constructor;
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ### 7.3.22 SpeciesConstructor ( O, defaultConstructor )
/// https://tc39.es/ecma262/#sec-speciesconstructor
pub fn species_constructor(vm: &mut Vm, o: ObjectId, default_constructor: Value) -> JsResult<Value> {
    // 1. Let C be ? Get(O, "constructor").
    let c = get(vm, o, PropertyKey::Atom(atom::constructor), Value::object(o))?;
    // 2. If C is undefined, return defaultConstructor.
    if c.is_undefined() {
        return Ok(default_constructor);
    }
    // 3. If C is not an Object, throw a TypeError exception.
    // NOTE: V8's wording for every caller (the ArrayBuffer, RegExp and TypedArray copies
    // this replaced said `object.constructor is not an object`; node never does).
    let Some(co) = c.as_object() else {
        return Err(vm.type_error("The .constructor property is not an object"));
    };
    // 4. Let S be ? Get(C, %Symbol.species%).
    let key = PropertyKey::Symbol(vm.symbols.species);
    let s = get(vm, co, key, c)?;
    // 5. If S is either undefined or null, return defaultConstructor.
    if s.is_nullish() {
        return Ok(default_constructor);
    }
    // 6. If IsConstructor(S) is true, return S.
    if is_constructor(vm, s) {
        return Ok(s);
    }
    // 7. Throw a TypeError exception.
    Err(vm.type_error("object.constructor[Symbol.species] is not a constructor"))
}
