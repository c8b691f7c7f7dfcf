//! How an error message names a value, without running JS: the one value-describer of the
//! engine and its embedders. V8 words its messages differently by site (`number 5 is not a
//! function`, `Cannot set property x of #<Object>`, `Method … called on incompatible receiver
//! 5`), and tests compare those texts with node's, so each rendering is a [`Shown`] variant
//! rather than a copy of this code at its call site.

use crate::atoms::{atom, PropertyKey};
use crate::error::Throw;
use crate::heap::object::Class;
use crate::runtime::convert::{key_to_display, number_to_string};
use crate::runtime::operators::type_of;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// Which of V8's renderings of a value a message uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// V8's NoSideEffectsToString: primitives as their string, an error as `name: message`,
    /// other objects as `#<Constructor>` or `[object Tag]`.
    Plain,
    /// The `typeof` word, then the value for the kinds V8 shows it: `number 5`, `string
    /// "a"`, `boolean true`, `object null`; otherwise the word alone (`object`, `symbol`).
    Typed,
    /// The `typeof` word and the quoted side-effect-free string: `object '#<Object>'`,
    /// `string 'abc'`, a function as its source text (`function 'f() {}'`).
    TypedQuoted,
    /// As a callee is named: strings quoted, functions by name (`function` when anonymous),
    /// other objects `object`, symbols `Symbol()`.
    Callee,
    /// Short: primitives as their string, arrays `[object Array]`, functions `function`,
    /// other objects `#<Object>` (Proxy and Reflect messages).
    Brief,
}

/// `v` as the message rendering `shown` names it.
pub fn describe(vm: &mut Vm, v: Value, shown: Shown) -> String {
    match shown {
        Shown::Plain => plain(vm, v),
        Shown::Typed => typed(vm, v),
        Shown::TypedQuoted => typed_quoted(vm, v),
        Shown::Callee => callee(vm, v),
        Shown::Brief => brief(vm, v),
    }
}

/// V8's "X is not a function" TypeError for a non-callable value.
pub fn not_a_function(vm: &mut Vm, v: Value) -> Throw {
    // An object is `object` here even where `typeof` says otherwise ([[IsHTMLDDA]]).
    let shown = if v.is_object() { "object".to_string() } else { describe(vm, v, Shown::Typed) };
    vm.type_error(format!("{shown} is not a function"))
}

/// A primitive as its string (symbols as `Symbol(description)`); `None` for objects.
fn primitive(vm: &mut Vm, v: Value) -> Option<String> {
    Some(match v.kind() {
        Kind::Undefined | Kind::Empty => "undefined".into(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => number_to_string(f),
        Kind::String(s) => vm.heap.flat(s).to_rust_string(),
        Kind::BigInt(b) => vm.heap.bigint(b).to_string(),
        Kind::Symbol(s) => {
            let d = vm.heap.symbol(s).and_then(|s| s.description.as_ref()).map(|d| d.to_rust_string());
            format!("Symbol({})", d.unwrap_or_default())
        }
        Kind::Object(_) => return None,
    })
}

fn plain(vm: &mut Vm, v: Value) -> String {
    match v.as_object() {
        Some(o) => object_display(vm, o),
        None => primitive(vm, v).unwrap_or_default(),
    }
}

fn typed(vm: &mut Vm, v: Value) -> String {
    let ty = type_of(vm, v);
    match v.kind() {
        Kind::String(_) => format!("{ty} \"{}\"", plain(vm, v)),
        Kind::Null | Kind::Bool(_) | Kind::Int(_) | Kind::Float(_) => format!("{ty} {}", plain(vm, v)),
        _ => ty.to_string(),
    }
}

fn typed_quoted(vm: &mut Vm, v: Value) -> String {
    if let Some(o) = v.as_object().filter(|&o| vm.heap.obj(o).is_callable()) {
        let text = crate::builtins::function::source_text(vm, o);
        return format!("function '{text}'");
    }
    // An object is `object` here even where `typeof` says otherwise ([[IsHTMLDDA]]).
    let ty = if v.is_object() { "object" } else { type_of(vm, v) };
    format!("{ty} '{}'", plain(vm, v))
}

fn callee(vm: &mut Vm, v: Value) -> String {
    match v.kind() {
        Kind::String(_) => format!("\"{}\"", plain(vm, v)),
        Kind::Object(o) if vm.heap.obj(o).is_callable() => {
            let name = crate::builtins::function::function_name(vm, o);
            if name.is_empty() {
                "function".into()
            } else {
                name
            }
        }
        Kind::Object(_) => "object".into(),
        Kind::Symbol(_) => "Symbol()".into(),
        _ => plain(vm, v),
    }
}

fn brief(vm: &mut Vm, v: Value) -> String {
    match v.kind() {
        Kind::Symbol(s) => key_to_display(vm, PropertyKey::Symbol(s)),
        Kind::Object(o) => match &vm.heap.obj(o).class {
            Class::Array(_) => "[object Array]".into(),
            Class::Function(_) | Class::Native(_) | Class::Bound(_) => "function".into(),
            _ => "#<Object>".into(),
        },
        _ => plain(vm, v),
    }
}

/// V8's side-effect-free rendering of an object (NoSideEffectsToString): an error as `name:
/// message`, `#<Ctor>` when its `toString` is %Object.prototype.toString% and its
/// `constructor` a named function, else `[object Tag]`.
fn object_display(vm: &Vm, o: ObjectId) -> String {
    let obj = vm.heap.obj(o);
    if obj.is_callable() {
        return "function".into();
    }
    let to_string = data_property(vm, o, PropertyKey::Atom(atom::toString));
    let native_name = |f: ObjectId| match &vm.heap.obj(f).class {
        Class::Native(n) => n.id.name(),
        _ => "",
    };
    // An error (or an object whose toString is %Error.prototype.toString%): `name: message`
    // from data properties, as Error.prototype.toString would give without running JS.
    if matches!(obj.class, Class::Error)
        || to_string.as_object().is_some_and(|f| native_name(f) == "Error.prototype.toString")
    {
        let text = |key| match data_property(vm, o, PropertyKey::Atom(key)).as_string() {
            Some(s) => vm.heap.flat_ref(s).to_rust_string(),
            None => String::new(),
        };
        let (name, message) = (text(atom::name), text(atom::message));
        return match (name.is_empty(), message.is_empty()) {
            (true, _) => message,
            (_, true) => name,
            _ => format!("{name}: {message}"),
        };
    }
    let is_object_to_string = to_string.as_object().is_some_and(|f| native_name(f) == "Object.prototype.toString");
    if is_object_to_string {
        let ctor = data_property(vm, o, PropertyKey::Atom(atom::constructor));
        if let Some(co) = ctor.as_object().filter(|&c| vm.heap.obj(c).is_callable()) {
            if let Some(s) = data_property(vm, co, PropertyKey::Atom(atom::name)).as_string() {
                let name = vm.heap.flat_ref(s).to_rust_string();
                if !name.is_empty() {
                    return format!("#<{name}>");
                }
            }
        }
    }
    let tag = data_property(vm, o, PropertyKey::Symbol(vm.symbols.toStringTag));
    let tag = match tag.as_string() {
        Some(s) => vm.heap.flat_ref(s).to_rust_string(),
        None => match obj.class {
            Class::Array(_) => "Array".into(),
            Class::Arguments(_) => "Arguments".into(),
            Class::Error => "Error".into(),
            Class::Boolean(_) => "Boolean".into(),
            Class::Number(_) => "Number".into(),
            Class::String(_) => "String".into(),
            Class::Date(_) => "Date".into(),
            Class::RegExp(_) => "RegExp".into(),
            _ => "Object".into(),
        },
    };
    format!("[object {tag}]")
}

/// GetDataProperty: a data property found along the prototype chain without running JS
/// (accessors and proxies give undefined).
pub(crate) fn data_property(vm: &Vm, o: ObjectId, key: PropertyKey) -> Value {
    match slot_along_chain(vm, o, key) {
        Some((value, false)) => value,
        _ => Value::UNDEFINED,
    }
}

/// The slot of `key` found along `o`'s prototype chain without running JS, and whether it
/// is an accessor (its value is then the accessor pair); None past a proxy or when absent.
pub(crate) fn slot_along_chain(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<(Value, bool)> {
    let mut cur = Some(o);
    let mut depth = 0;
    while let Some(c) = cur {
        depth += 1;
        let obj = vm.heap.obj(c);
        if depth > 10_000 || matches!(obj.class, Class::Proxy(_)) {
            return None;
        }
        if let Some((value, flags)) = obj.lookup_named(&vm.heap.shapes, key) {
            return Some((value, flags.is_accessor()));
        }
        cur = obj.proto;
    }
    None
}
