//! `node:module`: the CommonJS loader (`Module`, `require`, `require.cache`,
//! `createRequire`, `builtinModules`, `isBuiltin`). The JS body is `js/module.js`; these are
//! its natives: resolution, reading and compiling files (all over the VFS, see
//! [`crate::loader`]) and access to the other builtins.

use amber_engine::error::ErrorKind;
use amber_engine::runtime::convert::{to_boolean, to_rust_string};
use amber_engine::{JsResult, Value, Vm};

use super::Builtin;
use crate::loader::{self, path, resolve, Files};

pub const BUILTIN: Builtin = Builtin {
    name: "module",
    source: include_str!("js/module.js"),
    natives: &[
        ("resolve", 2, resolve_native),
        ("read", 1, read_native),
        ("compile", 2, compile_native),
        ("format", 1, format_native),
        ("builtin", 2, builtin_native),
        ("builtins", 0, builtins_native),
        ("touch", 1, touch_native),
        ("hooks", 1, hooks_native),
        ("amber", 1, amber_native),
    ],
    bare: true,
};

/// [`Vm::host_values`] entry: `{ runMain, importCommonJs }` registered by `js/module.js`.
pub const HOOKS: &str = "node.module.hooks";

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// `resolve(request, fromDir)`: the file name, or `[code, message]` when it fails.
fn resolve_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let request = to_rust_string(vm, arg(args, 0))?;
    let from = to_rust_string(vm, arg(args, 1))?;
    let from = if from.starts_with('/') { path::normalize(&from) } else { path::join(&loader::cwd(vm), &from) };
    let found = {
        let mut fs = loader::files(vm);
        resolve::resolve_require(&mut fs, &request, &from).map(|p| fs.realpath(&p))
    };
    match found {
        Ok(p) => Ok(vm.str(&p)),
        Err(e) => {
            let code = vm.str(e.code);
            let message = vm.str(&e.message);
            Ok(vm.new_array(vec![code, message]))
        }
    }
}

fn read_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let file = to_rust_string(vm, arg(args, 0))?;
    match loader::read_text(vm, &file) {
        Some(text) => Ok(vm.str(&text)),
        None => {
            let err = vm.make_error(ErrorKind::Error, &format!("ENOENT: no such file or directory, open '{file}'"));
            let code = vm.str("ENOENT");
            vm.set_property(err, "code", code);
            Err(amber_engine::Throw::Value(err))
        }
    }
}

/// `compile(source, filename)`: the module wrapper function, compiled as its own script so
/// stack traces name the file.
fn compile_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let source = to_rust_string(vm, arg(args, 0))?;
    let filename = to_rust_string(vm, arg(args, 1))?;
    if loader::typescript::is_typescript(&filename) {
        return compile_typescript(vm, &source, &filename);
    }
    let body = match source.strip_prefix("#!") {
        Some(rest) => format!("//{rest}"),
        None => source,
    };
    const HEAD: &str = "(function (exports, require, module, __filename, __dirname) {";
    let wrapper = format!("{HEAD}{body}\n}})");
    // The body is the file as read: images name it, and the code compiled from it, by hash
    // rather than carrying them.
    vm.eval_nested_lower(&wrapper, &filename, HEAD.len())
}

/// [`compile_native`] of a TypeScript file: its JavaScript, with the wrapper's header on a
/// line of its own so the position map only shifts by a line.
fn compile_typescript(vm: &mut Vm, source: &str, filename: &str) -> JsResult<Value> {
    let t = match loader::transform_entry(vm, filename, source) {
        Ok(t) => t,
        Err(e) => {
            let message = format!("{} ({}:{}:{})", e.message, filename, e.line, e.column);
            return Err(vm.syntax_error(message));
        }
    };
    if t.module {
        let message = format!(
            "require() of ES Module {filename} not supported.\nInstead change the require of {filename} to a dynamic import() which is available in all CommonJS modules."
        );
        let err = vm.make_error(ErrorKind::Error, &message);
        let code = vm.str("ERR_REQUIRE_ESM");
        vm.set_property(err, "code", code);
        return Err(amber_engine::Throw::Value(err));
    }
    let wrapper = format!("(function (exports, require, module, __filename, __dirname) {{\n{}\n}})", t.code);
    vm.eval_nested_mapped(&wrapper, filename, Some(t.map.shifted(1)))
}

fn format_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let file = to_rust_string(vm, arg(args, 0))?;
    let format = resolve::format_of(&mut loader::files(vm), &file);
    let name = match format {
        resolve::Format::CommonJs => "commonjs",
        resolve::Format::Module => "module",
        resolve::Format::Json => "json",
        resolve::Format::Addon => "addon",
    };
    Ok(vm.str(name))
}

/// `builtin(name, check)`: with `check`, whether `name` is a builtin; else its exports, or
/// an error naming the module (unknown, or refused and why).
fn builtin_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let name = to_rust_string(vm, arg(args, 0))?;
    let check = to_boolean(vm, arg(args, 1));
    let found = super::builtin(&name);
    if check {
        return Ok(Value::bool(found.is_some()));
    }
    if let Some(b) = found {
        return super::require_builtin(vm, b);
    }
    let (code, message) = match super::refused(&name) {
        Some(why) => ("ERR_AMBER_MODULE_REFUSED", format!("Module '{name}' is not available in Amber: {why}")),
        None => ("ERR_UNKNOWN_BUILTIN_MODULE", format!("No such built-in module: {name}")),
    };
    let err = vm.make_error(ErrorKind::Error, &message);
    let code = vm.str(code);
    vm.set_property(err, "code", code);
    Err(amber_engine::Throw::Value(err))
}

/// The sorted names `require` accepts without `node:` (Module.builtinModules).
fn builtins_native(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let mut names: Vec<&str> = super::all().filter(|b| b.bare).map(|b| b.name).collect();
    names.sort_unstable();
    let values = names.into_iter().map(|n| vm.str(n)).collect();
    Ok(vm.new_array(values))
}

/// `touch(filename)`: a CommonJS module is about to be loaded. Inside a live `amber.step`
/// that is refused: a replay skips the step, so the module's body would not run there (it is
/// loaded later instead, in another order), and its effects would differ.
fn touch_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if vm.pure_depth > 0 {
        let filename = to_rust_string(vm, arg(args, 0))?;
        vm.refuse_in_pure_step(&format!("Loading the module '{filename}' (load it before the step)"))?;
    }
    touch_module_load(vm);
    Ok(Value::UNDEFINED)
}

/// Marks the ModuleLoad capability (a module beyond the entry was loaded).
pub fn touch_module_load(vm: &mut Vm) {
    crate::capabilities::touch(vm, "ModuleLoad");
}

fn hooks_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    vm.set_host_value(HOOKS, arg(args, 0));
    Ok(Value::UNDEFINED)
}

/// `amber(specifier)`: `require("amber")` and the TypeScript helpers (`super::amber_module`).
fn amber_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let specifier = to_rust_string(vm, arg(args, 0))?;
    super::amber_module(vm, &specifier)
}
