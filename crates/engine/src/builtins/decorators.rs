//! Decorators (TC39 proposal-decorators, stage 3) and decorator metadata: the run-time half.
//! https://arai-a.github.io/ecma262-compare/?pr=2417 and https://github.com/tc39/proposal-decorator-metadata
//!
//! The compiler (`compiler/decorators.rs`) evaluates the decorator expressions with the
//! computed keys, keeps each element's list in a register and then emits one `Decorate` per
//! decorated element, in the proposal's order, and `RunInitializers` where initializers run.
//! This file is what those instructions do: build the context objects, call the decorators
//! from the last to the first, check what they return, and (for public methods, getters,
//! setters and auto-accessors) redefine the property. The semantics are the ones TypeScript
//! 5.x lowers decorators to (its `__esDecorate` / `__runInitializers` helpers), which the
//! behaviour tests compare against; the context object's keys come in its order too.

use crate::atoms::PropertyKey;
use crate::builtins::{make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::native;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::to_property_key;
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    // Captures: [key, private?]. `access.get(obj)`, `access.set(obj, value)`, `access.has(obj)`.
    native!("%Decorator.access.get", 1, access_get),
    native!("%Decorator.access.set", 2, access_set),
    native!("%Decorator.access.has", 1, access_has),
    // Captures: [extra-initializer list, finished?].
    native!("%Decorator.addInitializer", 1, add_initializer),
];

/// What a decorator decorates: the `kind` operand of `Op::Decorate`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DecoratorKind {
    Class = 0,
    Method = 1,
    Getter = 2,
    Setter = 3,
    Field = 4,
    Accessor = 5,
}

impl DecoratorKind {
    pub fn from_u8(k: u8) -> DecoratorKind {
        match k {
            1 => DecoratorKind::Method,
            2 => DecoratorKind::Getter,
            3 => DecoratorKind::Setter,
            4 => DecoratorKind::Field,
            5 => DecoratorKind::Accessor,
            _ => DecoratorKind::Class,
        }
    }

    fn name(self) -> &'static str {
        match self {
            DecoratorKind::Class => "class",
            DecoratorKind::Method => "method",
            DecoratorKind::Getter => "getter",
            DecoratorKind::Setter => "setter",
            DecoratorKind::Field => "field",
            DecoratorKind::Accessor => "accessor",
        }
    }
}

/// `Op::Decorate` flag: a static element.
pub const FLAG_STATIC: u8 = 1;
/// `Op::Decorate` flag: a private element (`key` is its private name).
pub const FLAG_PRIVATE: u8 = 2;

/// The operands of one `Op::Decorate`.
pub struct Decoration {
    pub kind: DecoratorKind,
    pub flags: u8,
    /// The class prototype or constructor that holds a public method or accessor (else unused).
    pub target: Value,
    /// The property key (public), the private name (private) or the class name (class).
    pub key: Value,
    /// The current value of a private method, getter or setter, the accessor pair of a
    /// private auto-accessor, or the class.
    pub value: Value,
    /// The decorators, in source order (an internal array).
    pub decorators: Value,
    pub metadata: Value,
    /// Where `addInitializer` puts its functions (an internal array).
    pub extras: Value,
    /// A field's or auto-accessor's initializer list (an internal array), else undefined.
    pub inits: Value,
}

fn list(vm: &mut Vm, arr: Value) -> JsResult<Vec<Value>> {
    crate::interp::ops::array_elements(vm, arr)
}

fn list_unshift(vm: &mut Vm, arr: Value, v: Value) {
    if let Some(o) = arr.as_object() {
        let obj = vm.heap.obj_mut(o);
        obj.elements.insert(0, v);
        let len = obj.elements.len() as u32;
        if let Class::Array(d) = &mut obj.class {
            d.length = len;
        }
        vm.heap.note_growth(crate::heap::ELEMENT_BYTES);
    }
}

/// A decorator's return value where a function is expected: undefined or callable.
fn accept(vm: &mut Vm, f: Value) -> JsResult<Option<Value>> {
    if f.is_undefined() {
        return Ok(None);
    }
    if !is_callable(vm, f) {
        return Err(vm.type_error("Function expected"));
    }
    Ok(Some(f))
}

fn data(vm: &mut Vm, o: ObjectId, name: &str, v: Value) -> JsResult<()> {
    let k = vm.key(name);
    property::create_data_property_or_throw(vm, o, k, v)
}

/// The `{get, set}` of an accessor pair value (undefined halves for anything else).
fn pair_parts(vm: &Vm, pair: Value) -> (Value, Value) {
    match pair.as_object().map(|p| &vm.heap.obj(p).class) {
        Some(Class::AccessorPair { get, set }) => (*get, *set),
        _ => (Value::UNDEFINED, Value::UNDEFINED),
    }
}

/// `Op::Decorate`: apply an element's (or the class's) decorators, last first
/// (ApplyDecoratorsToElementDefinition / ApplyDecoratorsToClassDefinition). Returns the new
/// value of a private method, getter, setter or auto-accessor pair, or of the class; public
/// elements are redefined on `target` here and give undefined.
pub fn decorate(vm: &mut Vm, d: Decoration) -> JsResult<Value> {
    let mark = vm.roots.len();
    vm.roots.extend([d.target, d.key, d.value, d.decorators, d.metadata, d.extras, d.inits]);
    let r = decorate_rooted(vm, &d);
    vm.roots.truncate(mark);
    r
}

fn decorate_rooted(vm: &mut Vm, d: &Decoration) -> JsResult<Value> {
    let private = d.flags & FLAG_PRIVATE != 0;
    let is_static = d.flags & FLAG_STATIC != 0;
    let kind = d.kind;
    // The context's name: the class name, the private name's description ("#x"), or the key.
    let name = if private {
        let desc = d.key.as_symbol().and_then(|s| vm.heap.symbol(s)).and_then(|s| s.description.clone());
        match desc {
            Some(js) => vm.js_str(js),
            None => vm.str(""),
        }
    } else {
        d.key
    };
    let public_target = match (kind, private) {
        (DecoratorKind::Class | DecoratorKind::Field, _) | (_, true) => None,
        _ => d.target.as_object(),
    };
    let key = if kind == DecoratorKind::Class || private { None } else { Some(to_property_key(vm, d.key)?) };
    // The current value: the property's descriptor for a public element, else the operand.
    let mut desc = PropertyDescriptor::default();
    let (mut value, mut get, mut set) = (d.value, Value::UNDEFINED, Value::UNDEFINED);
    if let (Some(t), Some(k)) = (public_target, key) {
        desc = property::get_own_property(vm, t, k)?.unwrap_or_default();
        value = desc.value.unwrap_or(Value::UNDEFINED);
        get = desc.get.unwrap_or(Value::UNDEFINED);
        set = desc.set.unwrap_or(Value::UNDEFINED);
        match kind {
            DecoratorKind::Getter => value = get,
            DecoratorKind::Setter => value = set,
            _ => {}
        }
    } else if kind == DecoratorKind::Accessor {
        (get, set) = pair_parts(vm, d.value);
    }
    vm.roots.extend([name, value, get, set]);
    let decorators = list(vm, d.decorators)?;
    vm.roots.extend(decorators.iter().copied());
    for &decorator in decorators.iter().rev() {
        let context = vm.heap.new_plain(Some(vm.realm.object_prototype));
        vm.roots.push(Value::object(context));
        let kind_name = vm.str(kind.name());
        data(vm, context, "kind", kind_name)?;
        data(vm, context, "name", name)?;
        if kind != DecoratorKind::Class {
            data(vm, context, "static", Value::bool(is_static))?;
            data(vm, context, "private", Value::bool(private))?;
            let access = vm.heap.new_plain(Some(vm.realm.object_prototype));
            data(vm, context, "access", Value::object(access))?;
            let captures = vec![d.key, Value::bool(private)];
            let has = make_internal(vm, "%Decorator.access.has", 1, captures.clone());
            data(vm, access, "has", Value::object(has))?;
            if kind != DecoratorKind::Setter {
                let g = make_internal(vm, "%Decorator.access.get", 1, captures.clone());
                data(vm, access, "get", Value::object(g))?;
            }
            if matches!(kind, DecoratorKind::Setter | DecoratorKind::Field | DecoratorKind::Accessor) {
                let s = make_internal(vm, "%Decorator.access.set", 2, captures);
                data(vm, access, "set", Value::object(s))?;
            }
        }
        data(vm, context, "metadata", d.metadata)?;
        let add = make_internal(vm, "%Decorator.addInitializer", 1, vec![d.extras, Value::FALSE]);
        data(vm, context, "addInitializer", Value::object(add))?;
        let arg = if kind == DecoratorKind::Accessor {
            let o = vm.heap.new_plain(Some(vm.realm.object_prototype));
            data(vm, o, "get", get)?;
            data(vm, o, "set", set)?;
            Value::object(o)
        } else {
            value
        };
        let result = call(vm, decorator, Value::UNDEFINED, &[arg, Value::object(context)]);
        // The context's addInitializer refuses once its decorator has returned.
        if let Class::Native(n) = &mut vm.heap.obj_mut(add).class {
            if let Some(done) = n.captures.get_mut(1) {
                *done = Value::TRUE;
            }
        }
        let result = result?;
        vm.roots.push(result);
        if kind == DecoratorKind::Accessor {
            if result.is_undefined() {
                continue;
            }
            let Some(r) = result.as_object() else {
                return Err(vm.type_error("Object expected"));
            };
            let k_get = vm.key("get");
            let g = property::get(vm, r, k_get, result)?;
            if let Some(g) = accept(vm, g)? {
                get = g;
                vm.roots.push(g);
            }
            let k_set = vm.key("set");
            let s = property::get(vm, r, k_set, result)?;
            if let Some(s) = accept(vm, s)? {
                set = s;
                vm.roots.push(s);
            }
            let k_init = vm.key("init");
            let i = property::get(vm, r, k_init, result)?;
            if let Some(i) = accept(vm, i)? {
                list_unshift(vm, d.inits, i);
            }
        } else if let Some(f) = accept(vm, result)? {
            if kind == DecoratorKind::Field {
                list_unshift(vm, d.inits, f);
            } else {
                value = f;
            }
        }
    }
    match kind {
        DecoratorKind::Field => Ok(Value::UNDEFINED),
        DecoratorKind::Class => Ok(value),
        DecoratorKind::Accessor if private => {
            let pair = vm.heap.alloc_object(Object::new(None, Class::AccessorPair { get, set }));
            Ok(Value::object(pair))
        }
        _ if private => Ok(value),
        _ => {
            let (Some(t), Some(k)) = (public_target, key) else { return Ok(Value::UNDEFINED) };
            match kind {
                DecoratorKind::Method => desc.value = Some(value),
                DecoratorKind::Getter => desc.get = Some(value),
                DecoratorKind::Setter => desc.set = Some(value),
                _ => {
                    desc.get = Some(get);
                    desc.set = Some(set);
                }
            }
            property::define_property_or_throw(vm, t, k, desc)?;
            Ok(Value::UNDEFINED)
        }
    }
}

/// `Op::RunInitializers`: call each function of `list` on `this`, threading `value` through
/// them when there is one (a field's initializers), and give the last result.
pub fn run_initializers(vm: &mut Vm, this: Value, list_v: Value, value: Option<Value>) -> JsResult<Value> {
    let mark = vm.roots.len();
    vm.roots.extend([this, list_v]);
    let r = (|| {
        let fs = list(vm, list_v)?;
        vm.roots.extend(fs.iter().copied());
        let mut v = value.unwrap_or(Value::UNDEFINED);
        for f in fs {
            vm.roots.push(v);
            let args: &[Value] = if value.is_some() { &[v] } else { &[] };
            let r = call(vm, f, this, args)?;
            if value.is_some() {
                v = r;
            }
        }
        Ok(v)
    })();
    vm.roots.truncate(mark);
    r
}

/// `Op::NewMetadata`: a decorated class's metadata object, inheriting from the parent
/// class's `Symbol.metadata` (null for a base class or when the parent has none).
pub fn new_metadata(vm: &mut Vm, ctor: Value) -> JsResult<Value> {
    let mut proto = None;
    if let Some(c) = ctor.as_object() {
        if let Some(parent) = property::get_prototype_of(vm, c)? {
            if parent != vm.realm.function_prototype {
                let key = PropertyKey::Symbol(vm.symbols.metadata);
                let m = property::get(vm, parent, key, Value::object(parent))?;
                if let Some(o) = m.as_object() {
                    proto = Some(o);
                } else if !m.is_undefined() && !m.is_null() {
                    return Err(vm.type_error("Object prototype may only be an Object or null"));
                }
            }
        }
    }
    Ok(Value::object(vm.heap.new_plain(proto)))
}

/// `Op::DefineMetadata`: `C[Symbol.metadata] = metadata` (writable, enumerable, configurable).
pub fn define_metadata(vm: &mut Vm, ctor: Value, metadata: Value) -> JsResult<()> {
    let Some(c) = ctor.as_object() else { return Ok(()) };
    let key = PropertyKey::Symbol(vm.symbols.metadata);
    let desc = PropertyDescriptor {
        value: Some(metadata),
        writable: Some(true),
        enumerable: Some(true),
        configurable: Some(true),
        ..Default::default()
    };
    property::define_property_or_throw(vm, c, key, desc)
}

fn captured_key(vm: &Vm) -> (Value, bool) {
    let c = vm.native_captures();
    (c.first().copied().unwrap_or(Value::UNDEFINED), c.get(1).is_some_and(|p| p.as_bool() == Some(true)))
}

/// `context.access.get(obj)`: `obj[key]`, or `obj.#x` for a private element.
fn access_get(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (key, private) = captured_key(vm);
    let obj = args.first().copied().unwrap_or(Value::UNDEFINED);
    if private {
        return crate::interp::ops::private_get(vm, obj, key);
    }
    let k = to_property_key(vm, key)?;
    property::get_v(vm, obj, k)
}

/// `context.access.set(obj, value)`: `obj[key] = value` (strict), or `obj.#x = value`.
fn access_set(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (key, private) = captured_key(vm);
    let obj = args.first().copied().unwrap_or(Value::UNDEFINED);
    let v = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    if private {
        crate::interp::ops::private_set(vm, obj, key, v)?;
        return Ok(Value::UNDEFINED);
    }
    let k = to_property_key(vm, key)?;
    let o = crate::runtime::convert::to_object(vm, obj)?;
    if !property::set(vm, o, k, v, obj)? {
        return Err(vm.type_error("Cannot assign to read only property"));
    }
    Ok(Value::UNDEFINED)
}

/// `context.access.has(obj)`: `key in obj`, or `#x in obj`.
fn access_has(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (key, private) = captured_key(vm);
    let obj = args.first().copied().unwrap_or(Value::UNDEFINED);
    let Some(o) = obj.as_object() else {
        return Err(vm.type_error("Cannot use 'in' operator to search for a key in a non-object"));
    };
    if private {
        return Ok(Value::bool(crate::interp::ops::private_find(vm, o, key).is_some()));
    }
    let k = to_property_key(vm, key)?;
    Ok(Value::bool(property::has_property(vm, o, k)?))
}

/// `context.addInitializer(f)`: queue `f` on the element's (or class's) extra initializers.
fn add_initializer(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let c = vm.native_captures();
    let (list_v, done) =
        (c.first().copied().unwrap_or(Value::UNDEFINED), c.get(1).is_some_and(|d| d.as_bool() == Some(true)));
    if done {
        return Err(vm.type_error("Cannot add initializers after decoration has completed"));
    }
    let f = args.first().copied().unwrap_or(Value::UNDEFINED);
    if !is_callable(vm, f) {
        return Err(vm.type_error("Function expected"));
    }
    crate::interp::ops::array_push(vm, list_v, f);
    Ok(Value::UNDEFINED)
}
