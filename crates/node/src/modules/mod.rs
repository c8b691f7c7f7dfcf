//! Node's builtin modules (`node:os`, `node:path`, `node:fs`, …): how they are defined,
//! evaluated once, cached, and handed to `require` and to ES `import`.
//!
//! A builtin is a JavaScript body in `js/<name>.js`, written as Node writes its own `lib/`:
//! CommonJS-shaped, run as `function (exports, require, module, internal, primordials)`.
//! `require` there reaches other builtins only; `internal` is an object of the module's Rust
//! natives ([`Builtin::natives`], host functions named `node:<name>.<fn>`), so primitives that
//! need Rust (the VFS, hashing) stay small and everything else is ordinary JS that rides the
//! image like user code. `primordials` is the frozen object of built-ins captured at
//! [`install_primordials`] (`js/primordials.js`), before any program code runs: a builtin
//! calls `ArrayPrototypePush(list, x)` rather than `list.push(x)` wherever a program that
//! replaced the prototype's method could otherwise change what the builtin does.
//!
//! Evaluated exports are cached in a plain object held by the VM under [`CACHE`] (a
//! [`Vm::host_values`] root), so `require("fs") === require("node:fs")`, the ES namespace of
//! `node:fs` has the same `default`, and a restored VM finds them again without re-running
//! anything. ES imports see a synthetic module: `default` is `module.exports`, and each own
//! enumerable property whose name is an identifier is a named export (fixed at load, as in
//! Node before `syncBuiltinESMExports`).

pub mod aliases;
pub mod assert;
pub mod async_hooks;
pub mod buffer;
pub mod crypto;
pub mod diagnostics_channel;
pub mod events;
pub mod fs;
pub mod globals;
pub mod http;
pub mod module;
pub mod os;
pub mod path;
pub mod process;
pub mod punycode;
pub mod querystring;
pub mod readline;
pub mod refused;
pub mod stream;
pub mod string_decoder;
pub mod test;
pub mod timers_promises;
pub mod tty;
pub mod url;
pub mod util;
pub mod web;
pub mod zlib;

use amber_engine::atoms::PropertyKey;
use amber_engine::error::JsResult;
use amber_engine::module::ModuleSource;
use amber_engine::runtime::call::call;
use amber_engine::runtime::convert::to_rust_string;
use amber_engine::runtime::property::{create_data_property, get, ordinary_get_own_property, own_property_keys};
use amber_engine::{HostFn, Value, Vm};

/// [`Vm::host_values`] entry: the object mapping builtin name → `module.exports`.
pub const CACHE: &str = "node.builtins";

/// [`Vm::host_values`] entry: the frozen primordials object builtin bodies receive.
pub const PRIMORDIALS: &str = "node.primordials";

/// Capture the primordials (`js/primordials.js`) on a fresh VM, before any program code runs:
/// what they hold is what the intrinsics are at this moment. Part of [`crate::install`], so
/// the object sits in the embedder's baseline and costs an image nothing.
pub fn install_primordials(vm: &mut Vm) -> JsResult<Value> {
    if let Some(p) = vm.host_value(PRIMORDIALS) {
        return Ok(p);
    }
    let p = vm.eval_nested_cached(include_str!("js/primordials.js"), "node:internal/per_context/primordials")?;
    vm.set_host_value(PRIMORDIALS, p);
    Ok(p)
}

/// A builtin module.
pub struct Builtin {
    /// The name without the `node:` prefix (`"fs"`, `"fs/promises"`).
    pub name: &'static str,
    /// The module body (see the module docs for its calling convention).
    pub source: &'static str,
    /// Rust natives on the body's `internal` object: (name, length, function).
    pub natives: &'static [(&'static str, u32, HostFn)],
    /// Whether `require("name")` works without the `node:` prefix (false for the modules
    /// Node only exposes under `node:`, such as `node:test`).
    pub bare: bool,
}

/// Every builtin, by name.
pub const BUILTINS: &[&Builtin] = &[
    &module::BUILTIN,
    &os::BUILTIN,
    &path::BUILTIN,
    &path::POSIX,
    &path::WIN32,
    &fs::BUILTIN,
    &fs::PROMISES,
    &fs::CWD,
    &events::BUILTIN,
    &process::BUILTIN,
    &util::BUILTIN,
    &util::TYPES,
    &util::NATIVES,
    &util::COMPARISONS,
    &util::ERRORS,
    &assert::BUILTIN,
    &assert::STRICT,
    &timers_promises::TIMERS,
    &timers_promises::PROMISES,
    &querystring::BUILTIN,
    &url::BUILTIN,
    &web::BUILTIN,
    &buffer::BUILTIN,
    &crypto::BUILTIN,
    &crypto::TYPES,
    &string_decoder::BUILTIN,
    &stream::BUILTIN,
    &stream::PROMISES,
    &crate::web::ENCODING,
    &http::HTTP,
    &http::HTTPS,
    &http::INTERNAL_NET,
    &zlib::BUILTIN,
    &punycode::BUILTIN,
    &crate::web::STREAMS,
    &crate::web::STREAM_WEB,
    &crate::web::STREAM_ADAPTERS,
    &crate::web::BLOB,
    &crate::web::FETCH,
    &crate::web::FETCH_FN,
    &crate::web::PERF_HOOKS,
    &refused::INTERNAL,
    &stream::CONSUMERS,
    &tty::BUILTIN,
    &diagnostics_channel::BUILTIN,
    &async_hooks::BUILTIN,
    &readline::BUILTIN,
    &readline::PROMISES,
    &test::BUILTIN,
];

/// Modules Node has that Amber refuses, with the reason given to the program. Each loads (see
/// [`refused`]); what throws is calling one of its exports.
pub const REFUSED: &[(&str, &str)] = &[
    ("_stream_wrap", "it wraps a host socket; use amber.call() with a host tool"),
    ("_tls_common", "sockets would reach the host network; use amber.call() with a host tool"),
    ("_tls_wrap", "sockets would reach the host network; use amber.call() with a host tool"),
    ("child_process", "a durable agent cannot spawn host processes; use amber.call() with a host tool"),
    ("cluster", "a durable agent is one isolate; there are no worker processes"),
    ("dgram", "sockets would reach the host network; use amber.call() with a host tool"),
    ("dns", "name resolution would reach the host network; use amber.call() with a host tool"),
    ("domain", "domains are deprecated in Node and not implemented; use try/catch and promise rejections"),
    ("http2", "servers and sockets would reach the host network; use amber.call() with a host tool"),
    ("inspector", "the V8 inspector protocol does not exist in Amber"),
    ("net", "sockets would reach the host network; use amber.call() with a host tool"),
    ("repl", "a durable agent has no terminal; `amber repl` is the REPL"),
    ("tls", "sockets would reach the host network; use amber.call() with a host tool"),
    ("trace_events", "V8 trace events do not exist in Amber; use `amber trace`"),
    ("v8", "Amber is not V8"),
    ("vm", "contexts are not supported; use eval or a separate agent"),
    ("wasi", "WebAssembly is not supported"),
    ("worker_threads", "a durable agent is one isolate; there are no threads"),
];

/// Every builtin: [`BUILTINS`], the refused modules ([`refused::ALL`]), the aliases
/// ([`aliases::ALL`]) and the internal parts of `stream` and `url` ([`stream::PARTS`],
/// [`url::PARTS`]).
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    BUILTINS.iter().chain(refused::ALL).chain(aliases::ALL).copied().chain(stream::PARTS).chain(url::PARTS)
}

/// The builtin `specifier` names (`"fs"`, `"node:fs"`), if any.
pub fn builtin(specifier: &str) -> Option<&'static Builtin> {
    match specifier.strip_prefix("node:") {
        Some(name) => all().find(|b| b.name == name),
        None => all().find(|b| b.bare && b.name == specifier),
    }
}

/// Why `specifier` is refused, if it names a module Amber does not provide on purpose.
pub fn refused(specifier: &str) -> Option<&'static str> {
    let name = specifier.strip_prefix("node:").unwrap_or(specifier);
    let name = name.split('/').next().unwrap_or(name);
    REFUSED.iter().find(|(n, _)| *n == name).map(|&(_, why)| why)
}

/// Re-bind every builtin's natives (on a fresh VM and after restore).
pub fn register(vm: &mut Vm) {
    vm.register_host_function("node:require", require_native);
    for b in all() {
        for &(name, _, f) in b.natives {
            vm.register_host_function(&native_name(b, name), f);
        }
    }
}

fn native_name(b: &Builtin, name: &str) -> String {
    format!("node:{}.{name}", b.name)
}

/// The builtins whose bodies have been evaluated, in the order their exports were cached.
pub fn loaded_builtins(vm: &mut Vm) -> Vec<String> {
    let Some(cache) = vm.host_value(CACHE).and_then(|v| v.as_object()) else { return Vec::new() };
    let keys = own_property_keys(vm, cache).unwrap_or_default();
    keys.into_iter()
        .filter_map(|key| match key {
            PropertyKey::Atom(a) => Some(vm.heap.atoms.get(a).to_rust_string()),
            _ => None,
        })
        .collect()
}

/// Evaluates builtin `name`'s body if it has not been (an embedder repeating what a skipped
/// pure computation loaded); an unknown name is ignored.
pub fn ensure_builtin_loaded(vm: &mut Vm, name: &str) -> JsResult<()> {
    match all().find(|b| b.name == name) {
        Some(b) => require_builtin(vm, b).map(drop),
        None => Ok(()),
    }
}

/// `module.exports` of builtin `b`, evaluating its body on first use.
pub fn require_builtin(vm: &mut Vm, b: &Builtin) -> JsResult<Value> {
    let cache = match vm.host_value(CACHE).and_then(|v| v.as_object()) {
        Some(c) => c,
        None => {
            let c = vm.heap.new_plain(None);
            vm.set_host_value(CACHE, Value::object(c));
            c
        }
    };
    let key = vm.key(b.name);
    if let Some((v, _)) = vm.heap.obj(cache).lookup_named(&vm.heap.shapes, key) {
        return Ok(v);
    }
    let filename = format!("node:{}", b.name);
    // A VM set up without `install` (an embedder's bare VM) captures them now, at its first
    // builtin, which is still before that builtin's own code runs.
    let primordials = install_primordials(vm)?;
    let wrapper = format!("(function (exports, require, module, internal, primordials) {{{}\n}})", b.source);
    let f = vm.eval_nested_cached(&wrapper, &filename)?;
    vm.roots.push(f);
    let exports = vm.new_object();
    vm.roots.push(exports);
    let module = vm.new_object();
    vm.roots.push(module);
    vm.set_property(module, "exports", exports);
    let global = vm.global_object();
    let require = vm.define_host_function(Value::UNDEFINED, "node:require", 1, require_native);
    vm.roots.push(require);
    let internal = vm.new_object();
    vm.roots.push(internal);
    for &(name, length, native) in b.natives {
        vm.define_host_function(internal, &native_name(b, name), length, native);
    }
    let ran = call(vm, f, global, &[exports, require, module, internal, primordials]);
    let result = ran.and_then(|_| {
        let key = vm.key("exports");
        match module.as_object() {
            Some(m) => get(vm, m, key, module),
            None => Ok(exports),
        }
    });
    let n = vm.roots.len();
    vm.roots.truncate(n - 5);
    let exports = result?;
    let key = vm.key(b.name);
    create_data_property(vm, cache, key, exports)?;
    Ok(exports)
}

/// `require` inside builtin bodies: other builtins only.
fn require_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let specifier = to_rust_string(vm, args.first().copied().unwrap_or(Value::UNDEFINED))?;
    match builtin(&specifier) {
        Some(b) => require_builtin(vm, b),
        None => Err(vm.throw(amber_engine::ErrorKind::Error, format!("Cannot find module '{specifier}'"))),
    }
}

/// The module loader's first stop: a builtin (`node:fs`, `fs`), a refused module (an error
/// saying why), or None for the caller to resolve as a file or package.
pub fn load_if_builtin(vm: &mut Vm, specifier: &str) -> Option<Result<(String, ModuleSource), String>> {
    if let Some(b) = builtin(specifier) {
        return Some(load_builtin(vm, b));
    }
    if specifier == "amber" || specifier.starts_with("amber:") {
        let named = amber_module(vm, specifier).and_then(|exports| amber_exports(vm, specifier, exports));
        return Some(
            named
                .map(|named| (specifier.to_string(), ModuleSource::Synthetic(named)))
                .map_err(|t| describe_throw(vm, t, ThrowText::NameAndMessage)),
        );
    }
    if let Some(why) = refused(specifier) {
        return Some(Err(format!("[ERR_AMBER_MODULE_REFUSED] Module '{specifier}' is not available in Amber: {why}")));
    }
    // `[CODE] text`: the engine gives the error that `code` (Node's, for an unknown name).
    if specifier.starts_with("node:") {
        return Some(Err(format!("[ERR_UNKNOWN_BUILTIN_MODULE] No such built-in module: {specifier}")));
    }
    None
}

/// The ES module view of a builtin (see the module docs), for the module loader.
pub fn load_builtin(vm: &mut Vm, b: &Builtin) -> Result<(String, ModuleSource), String> {
    let exports = require_builtin(vm, b).map_err(|t| describe_throw(vm, t, ThrowText::NameAndMessage))?;
    let named = synthetic_exports(vm, exports).map_err(|t| describe_throw(vm, t, ThrowText::NameAndMessage))?;
    Ok((format!("node:{}", b.name), ModuleSource::Synthetic(named)))
}

/// `default` plus the identifier-named own enumerable properties of `exports`.
pub fn synthetic_exports(vm: &mut Vm, exports: Value) -> JsResult<Vec<(String, Value)>> {
    let mut named = vec![("default".to_string(), exports)];
    let Some(o) = exports.as_object() else { return Ok(named) };
    vm.roots.push(exports);
    let keys = own_property_keys(vm, o);
    let result = keys.and_then(|keys| {
        for key in keys {
            let PropertyKey::Atom(a) = key else { continue };
            let name = vm.heap.atoms.get(a).to_rust_string();
            if name == "default" || !is_identifier(&name) || !is_enumerable(vm, o, key) {
                continue;
            }
            let v = get(vm, o, key, exports)?;
            named.push((name, v));
        }
        Ok(())
    });
    vm.roots.pop();
    result.map(|()| named)
}

fn is_enumerable(vm: &Vm, o: amber_engine::value::ObjectId, key: PropertyKey) -> bool {
    ordinary_get_own_property(vm, o, key).is_some_and(|d| d.enumerable == Some(true))
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c == '$' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c == '$' || c.is_alphanumeric())
}

/// How a module or loader error words the throw that caused it.
#[derive(Clone, Copy)]
pub(crate) enum ThrowText {
    /// `TypeError: message` (a builtin module failing to load).
    NameAndMessage,
    /// The message, prefixed `[code] ` when the error has a string `code` (the engine turns
    /// that back into the error's `code`).
    CodeAndMessage,
}

/// A throw as the text of a module or loader error.
pub(crate) fn describe_throw(vm: &mut Vm, t: amber_engine::Throw, text: ThrowText) -> String {
    let code = match (text, &t) {
        (ThrowText::CodeAndMessage, &amber_engine::Throw::Value(v)) => match v.as_object() {
            Some(o) => {
                let key = vm.key("code");
                vm.roots.push(v);
                let code = get(vm, o, key, v).ok().filter(|c| c.is_string());
                vm.roots.pop();
                code.and_then(|c| amber_engine::runtime::convert::to_rust_string(vm, c).ok())
            }
            None => None,
        },
        _ => None,
    };
    match (vm.run_error(t), text) {
        (amber_engine::RunError::Threw { name, message, .. }, ThrowText::NameAndMessage) => {
            format!("{name}: {message}")
        }
        (amber_engine::RunError::Threw { message, .. }, ThrowText::CodeAndMessage) => match code {
            Some(code) => format!("[{code}] {message}"),
            None => message,
        },
        (other, _) => other.to_string(),
    }
}

/// The `amber` module (`import { call } from "amber"`, `require("amber")`): the global
/// `amber` object the embedder installs; `amber:typescript/helpers/NAME`: a helper the
/// TypeScript transform imports (`js/ts_helpers.js`).
pub fn amber_module(vm: &mut Vm, specifier: &str) -> JsResult<Value> {
    if specifier == "amber" {
        let global = Value::object(vm.global);
        let key = vm.key("amber");
        let amber = amber_engine::runtime::property::get(vm, vm.global, key, global)?;
        if amber.is_undefined() {
            return Err(vm.throw(
                amber_engine::ErrorKind::Error,
                "Cannot find module 'amber': this host installs no amber object",
            ));
        }
        return Ok(amber);
    }
    let Some(name) = specifier.strip_prefix("amber:typescript/helpers/") else {
        return Err(vm.throw(amber_engine::ErrorKind::Error, format!("No such Amber module: {specifier}")));
    };
    const HELPERS: &str = "amber.typescript.helpers";
    let helpers = match vm.host_value(HELPERS) {
        Some(h) => h,
        None => {
            let h = vm.eval_nested_cached(include_str!("js/ts_helpers.js"), "amber:typescript")?;
            vm.set_host_value(HELPERS, h);
            h
        }
    };
    let Some(o) = helpers.as_object() else {
        return Err(vm.throw(amber_engine::ErrorKind::Error, "the TypeScript helpers did not load"));
    };
    let key = vm.key(name);
    let helper = amber_engine::runtime::property::get(vm, o, key, helpers)?;
    if helper.is_undefined() {
        return Err(vm.throw(amber_engine::ErrorKind::Error, format!("No such TypeScript helper: {name}")));
    }
    Ok(helper)
}

/// The ES view of an `amber` module: `default`, and for `amber` itself its four functions
/// (`call`, `input`, `sleep`, `step`; the bridge defines them non-enumerable, as builtins).
fn amber_exports(vm: &mut Vm, specifier: &str, exports: Value) -> JsResult<Vec<(String, Value)>> {
    let mut named = vec![("default".to_string(), exports)];
    let (Some(o), true) = (exports.as_object(), specifier == "amber") else { return Ok(named) };
    vm.roots.push(exports);
    let r = (|| {
        for name in ["call", "input", "sleep", "step"] {
            let key = vm.key(name);
            let v = amber_engine::runtime::property::get(vm, o, key, exports)?;
            named.push((name.to_string(), v));
        }
        Ok(())
    })();
    vm.roots.pop();
    r.map(|()| named)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names a builtin body destructures from `primordials` (`const { A, B } = primordials;`).
    fn destructured(source: &str) -> Vec<String> {
        let mut names = Vec::new();
        let mut rest = source;
        while let Some(end) = rest.find("} = primordials;") {
            let open = rest[..end].rfind("const {").expect("a primordials destructuring opens with `const {`");
            let list = &rest[open + "const {".len()..end];
            names.extend(list.split([',', ' ', '\n']).filter(|n| !n.is_empty()).map(str::to_string));
            rest = &rest[end + 1..];
        }
        names
    }

    /// Every name a builtin takes from `primordials` is captured (js/primordials.js captures
    /// only a table of names, so a builtin that starts using another one must add it there).
    #[test]
    fn every_primordial_a_builtin_names_exists() {
        let mut vm = Vm::new(amber_engine::VmOptions::default());
        let primordials = install_primordials(&mut vm).expect("the primordials script runs");
        let p = primordials.as_object().expect("the primordials are an object");
        let mut checked = 0;
        for b in all() {
            for name in destructured(b.source) {
                let key = vm.key(&name);
                let found =
                    amber_engine::runtime::property::get(&mut vm, p, key, primordials).expect("a data property");
                assert!(
                    !found.is_undefined(),
                    "node:{} uses primordials.{name}, which js/primordials.js does not capture",
                    b.name
                );
                checked += 1;
            }
        }
        assert!(
            checked > 100,
            "only {checked} primordial uses found: is the destructuring pattern still `}} = primordials;`?"
        );
    }
}
