//! `node:util` and `node:util/types`: the JS bodies hold the logic; the natives are the
//! formatter (`format`, `inspect` from [`crate::inspect`]) and the internal-slot checks the
//! `types` predicates need (`classOf`).

use amber_engine::error::JsResult;
use amber_engine::heap::object::{Class, IteratorState};
use amber_engine::runtime::convert::to_number;
use amber_engine::runtime::property::get;
use amber_engine::{Value, Vm};

use super::Builtin;
use crate::inspect::{format_args, inspect_with, InspectOptions, INSPECT_FN};

pub const BUILTIN: Builtin = Builtin { name: "util", source: include_str!("js/util.js"), natives: &[], bare: true };

/// The natives, as a module the other builtins share (`node:internal/util/natives`).
pub const NATIVES: Builtin = Builtin {
    name: "internal/util/natives",
    source: "module.exports = internal;",
    natives: &[
        ("format", 0, format),
        ("inspect", 2, inspect),
        ("classOf", 1, class_of),
        ("hold", 2, hold),
        ("source", 1, source),
    ],
    bare: false,
};

/// Deep equality (assert, util.isDeepStrictEqual).
pub const COMPARISONS: Builtin = Builtin {
    name: "internal/util/comparisons",
    source: include_str!("js/internal_comparisons.js"),
    natives: &[],
    bare: false,
};

/// Node-shaped error constructors and validators.
pub const ERRORS: Builtin =
    Builtin { name: "internal/errors", source: include_str!("js/internal_errors.js"), natives: &[], bare: false };

pub const TYPES: Builtin =
    Builtin { name: "util/types", source: "module.exports = require('util').types;", natives: &[], bare: true };

/// `internal.format(...args)`: `util.format`.
fn format(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    Ok(vm.str(&s))
}

fn size_option(vm: &mut Vm, o: Value, name: &str, default: usize) -> JsResult<usize> {
    let Some(obj) = o.as_object() else { return Ok(default) };
    let key = vm.key(name);
    let v = get(vm, obj, key, o)?;
    if v.is_undefined() {
        return Ok(default);
    }
    if v.is_null() {
        return Ok(usize::MAX);
    }
    let n = to_number(vm, v)?;
    Ok(if n.is_nan() {
        default
    } else if n == f64::INFINITY {
        usize::MAX
    } else if n < 0.0 {
        0
    } else {
        n as usize
    })
}

fn flag_option(vm: &mut Vm, o: Value, name: &str, default: bool) -> JsResult<bool> {
    let Some(obj) = o.as_object() else { return Ok(default) };
    let key = vm.key(name);
    let v = get(vm, obj, key, o)?;
    Ok(if v.is_undefined() { default } else { amber_engine::runtime::convert::to_boolean(vm, v) })
}

/// `internal.inspect(value, options)`.
fn inspect(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = args.first().copied().unwrap_or(Value::UNDEFINED);
    if let Some(s) = v.as_string() {
        let text = vm.heap.flat(s).to_rust_string();
        return Ok(vm.str(&crate::inspect::quote(&text)));
    }
    let o = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    let opts = inspect_options(vm, o, InspectOptions::default())?;
    let s = inspect_with(vm, v, opts);
    Ok(vm.str(&s))
}

/// The `util.inspect` options object `o` over the defaults `d`.
pub(crate) fn inspect_options(vm: &mut Vm, o: Value, d: InspectOptions) -> JsResult<InspectOptions> {
    let mut opts = InspectOptions {
        depth: size_option(vm, o, "depth", d.depth)?,
        break_length: size_option(vm, o, "breakLength", d.break_length)?,
        compact: d.compact,
        sorted: flag_option(vm, o, "sorted", d.sorted)?,
        custom_inspect: flag_option(vm, o, "customInspect", d.custom_inspect)?,
        max_array_length: size_option(vm, o, "maxArrayLength", d.max_array_length)?,
    };
    if let Some(obj) = o.as_object() {
        let key = vm.key("compact");
        let c = get(vm, obj, key, o)?;
        if c == Value::FALSE {
            opts.compact = None;
        } else if c == Value::TRUE {
            opts.compact = Some(usize::MAX);
        } else if c.is_number() {
            let n = to_number(vm, c)?;
            opts.compact = Some(if n.is_finite() && n > 0.0 { n as usize } else { 0 });
        }
    }
    Ok(opts)
}

/// `internal.source(filename)`: the text of a compiled program file (assert.ok messages).
fn source(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let name = amber_engine::runtime::convert::to_rust_string(vm, args.first().copied().unwrap_or(Value::UNDEFINED))?;
    let text = vm.sources.iter().find(|s| s.name == name).map(|s| s.text.clone());
    Ok(match text {
        Some(t) => vm.str(&t),
        None => Value::UNDEFINED,
    })
}

/// `internal.hold(inspect, stylize)`: what custom inspect functions are handed.
fn hold(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    vm.set_host_value(INSPECT_FN, args.first().copied().unwrap_or(Value::UNDEFINED));
    vm.set_host_value("node.util.stylize", args.get(1).copied().unwrap_or(Value::UNDEFINED));
    Ok(Value::UNDEFINED)
}

/// `internal.classOf(value)`: the internal class of an object ("" for primitives).
fn class_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(o) = args.first().and_then(|v| v.as_object()) else { return Ok(vm.str("")) };
    let name: String = match &vm.heap.obj(o).class {
        Class::Ordinary => "Object".into(),
        Class::Array(_) => "Array".into(),
        Class::Arguments(_) => "Arguments".into(),
        Class::Function(c) => {
            let k = vm.heap.code(c.code).kind;
            match (k.is_async(), k.is_generator()) {
                (true, true) => "AsyncGeneratorFunction".into(),
                (true, false) => "AsyncFunction".into(),
                (false, true) => "GeneratorFunction".into(),
                (false, false) => "Function".into(),
            }
        }
        Class::Native(_) | Class::Bound(_) => "Function".into(),
        Class::Error => "Error".into(),
        Class::Boolean(_) => "Boolean".into(),
        Class::Number(_) => "Number".into(),
        Class::String(_) => "String".into(),
        Class::Symbol(_) => "Symbol".into(),
        Class::BigInt(_) => "BigInt".into(),
        Class::Date(_) => "Date".into(),
        Class::RegExp(_) => "RegExp".into(),
        Class::Map(_) => "Map".into(),
        Class::Set(_) => "Set".into(),
        Class::WeakMap(_) => "WeakMap".into(),
        Class::WeakSet(_) => "WeakSet".into(),
        Class::WeakRef(_) => "WeakRef".into(),
        Class::FinalizationRegistry(_) => "FinalizationRegistry".into(),
        Class::Promise(_) => "Promise".into(),
        Class::Proxy(_) => "Proxy".into(),
        Class::Generator(_) => "Generator".into(),
        Class::AsyncGenerator(_) => "AsyncGenerator".into(),
        Class::AsyncFunctionState(_) => "Internal".into(),
        Class::ArrayBuffer(b) => {
            let shared = matches!(b.block, amber_engine::heap::object::DataBlock::Shared(_));
            (if shared { "SharedArrayBuffer" } else { "ArrayBuffer" }).into()
        }
        Class::TypedArray(t) => format!("{:?}Array", t.kind),
        Class::DataView(_) => "DataView".into(),
        Class::AccessorPair { .. } | Class::Internal(_) => "Internal".into(),
        Class::Iterator(it) => match **it {
            IteratorState::MapIter { .. } => "MapIterator".into(),
            IteratorState::SetIter { .. } => "SetIterator".into(),
            _ => "Iterator".into(),
        },
        Class::Namespace(_) => "Module".into(),
        Class::ShadowRealm(_) => "ShadowRealm".into(),
        Class::RawJson => "Object".into(),
        Class::Temporal(_) | Class::Intl(_) => "Object".into(),
    };
    Ok(vm.str(&name))
}
