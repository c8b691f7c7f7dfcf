//! Globals backed by builtin modules (`process`, `URL`, `AbortController`, `structuredClone`,
//! the web streams, `Blob`, `Headers`, `Request`, `Response`, `performance`, …), defined lazily: each is an accessor on the global object whose getter loads its
//! module on first use and replaces itself with a plain data property (writable,
//! configurable, not enumerable, as Node defines them). A program that never touches them
//! pays nothing, and defining them runs no JS (the only JS `install` runs is the primordials
//! capture, `super::install_primordials`).
//!
//! The getter and setter are host functions named `node:global.<Name>` / `node:global=<Name>`
//! (their captured name says which global they serve), re-registered after restore.

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::to_rust_string;
use amber_engine::runtime::property::{define_property_or_throw, get, PropertyDescriptor};
use amber_engine::{Value, Vm};

use super::{builtin, require_builtin};

/// (global name, builtin module, export name or "" for the whole module).
pub const LAZY: &[(&str, &str, &str)] = &[
    ("process", "process", ""),
    ("URL", "url", "URL"),
    ("URLSearchParams", "url", "URLSearchParams"),
    ("AbortController", "internal/web", "AbortController"),
    ("AbortSignal", "internal/web", "AbortSignal"),
    ("EventTarget", "internal/web", "EventTarget"),
    ("Event", "internal/web", "Event"),
    ("CustomEvent", "internal/web", "CustomEvent"),
    ("DOMException", "internal/web", "DOMException"),
    ("structuredClone", "internal/web", "structuredClone"),
    ("Buffer", "buffer", "Buffer"),
    ("atob", "buffer", "atob"),
    ("btoa", "buffer", "btoa"),
    ("TextEncoder", "internal/encoding", "TextEncoder"),
    ("TextDecoder", "internal/encoding", "TextDecoder"),
    ("crypto", "crypto", "webcrypto"),
    ("ReadableStream", "internal/webstreams", "ReadableStream"),
    ("ReadableStreamDefaultReader", "internal/webstreams", "ReadableStreamDefaultReader"),
    ("ReadableStreamBYOBReader", "internal/webstreams", "ReadableStreamBYOBReader"),
    ("ReadableStreamBYOBRequest", "internal/webstreams", "ReadableStreamBYOBRequest"),
    ("ReadableByteStreamController", "internal/webstreams", "ReadableByteStreamController"),
    ("ReadableStreamDefaultController", "internal/webstreams", "ReadableStreamDefaultController"),
    ("TransformStream", "internal/webstreams", "TransformStream"),
    ("TransformStreamDefaultController", "internal/webstreams", "TransformStreamDefaultController"),
    ("WritableStream", "internal/webstreams", "WritableStream"),
    ("WritableStreamDefaultWriter", "internal/webstreams", "WritableStreamDefaultWriter"),
    ("WritableStreamDefaultController", "internal/webstreams", "WritableStreamDefaultController"),
    ("ByteLengthQueuingStrategy", "internal/webstreams", "ByteLengthQueuingStrategy"),
    ("CountQueuingStrategy", "internal/webstreams", "CountQueuingStrategy"),
    ("TextEncoderStream", "internal/webstreams", "TextEncoderStream"),
    ("TextDecoderStream", "internal/webstreams", "TextDecoderStream"),
    ("CompressionStream", "internal/webstreams", "CompressionStream"),
    ("DecompressionStream", "internal/webstreams", "DecompressionStream"),
    ("Blob", "internal/blob", "Blob"),
    ("File", "internal/blob", "File"),
    ("Headers", "internal/web/fetch", "Headers"),
    ("FormData", "internal/web/fetch", "FormData"),
    ("Request", "internal/web/fetch", "Request"),
    ("Response", "internal/web/fetch", "Response"),
    ("performance", "perf_hooks", "performance"),
    ("fetch", "internal/fetch", "fetch"),
];

/// Define the lazy globals on a fresh VM (those whose module exists), and `global`.
pub fn install(vm: &mut Vm) {
    register(vm);
    let global = vm.global;
    // `global` is Node's name for globalThis: a plain data property, enumerable as Node has it.
    let desc = PropertyDescriptor {
        value: Some(Value::object(global)),
        writable: Some(true),
        enumerable: Some(true),
        configurable: Some(true),
        ..PropertyDescriptor::default()
    };
    let key = vm.key("global");
    let _ = define_property_or_throw(vm, global, key, desc);
    for &(name, module, _) in LAZY {
        if builtin(&format!("node:{module}")).is_none() {
            continue;
        }
        let getter = vm.define_host_function(Value::UNDEFINED, &format!("node:global.{name}"), 0, lazy_get);
        let setter = vm.define_host_function(Value::UNDEFINED, &format!("node:global={name}"), 1, lazy_set);
        let desc = PropertyDescriptor {
            get: Some(getter),
            set: Some(setter),
            enumerable: Some(false),
            configurable: Some(true),
            ..PropertyDescriptor::default()
        };
        let key = vm.key(name);
        let _ = define_property_or_throw(vm, global, key, desc);
    }
}

/// Re-bind the getters and setters (after restore).
pub fn register(vm: &mut Vm) {
    for &(name, _, _) in LAZY {
        vm.register_host_function(&format!("node:global.{name}"), lazy_get);
        vm.register_host_function(&format!("node:global={name}"), lazy_set);
    }
}

/// Which global this getter or setter serves (from its captured host name).
fn served(vm: &mut Vm) -> JsResult<Option<&'static (&'static str, &'static str, &'static str)>> {
    let caps = vm.native_captures();
    let name = to_rust_string(vm, caps.first().copied().unwrap_or(Value::UNDEFINED))?;
    let short = name.strip_prefix("node:global.").or_else(|| name.strip_prefix("node:global=")).unwrap_or("");
    Ok(LAZY.iter().find(|(n, _, _)| *n == short))
}

fn replace(vm: &mut Vm, name: &str, value: Value) -> JsResult<()> {
    let key = vm.key(name);
    let global = vm.global;
    let desc = PropertyDescriptor {
        value: Some(value),
        writable: Some(true),
        enumerable: Some(false),
        configurable: Some(true),
        ..PropertyDescriptor::default()
    };
    define_property_or_throw(vm, global, key, desc)
}

fn lazy_get(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(&(name, module, export)) = served(vm)? else { return Ok(Value::UNDEFINED) };
    let Some(b) = builtin(&format!("node:{module}")) else { return Ok(Value::UNDEFINED) };
    let exports = require_builtin(vm, b)?;
    let value = match (export, exports.as_object()) {
        ("", _) | (_, None) => exports,
        (export, Some(o)) => {
            let key = vm.key(export);
            get(vm, o, key, exports)?
        }
    };
    vm.roots.push(value);
    let r = replace(vm, name, value);
    vm.roots.pop();
    r.map(|()| value)
}

fn lazy_set(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(&(name, _, _)) = served(vm)? else { return Ok(Value::UNDEFINED) };
    replace(vm, name, args.first().copied().unwrap_or(Value::UNDEFINED))?;
    Ok(Value::UNDEFINED)
}
