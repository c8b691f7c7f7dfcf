//! Module loading: Node's resolution (CommonJS and ES), the ES module loader hook, and the
//! CommonJS entry point.
//!
//! Every module is read from the VFS (`vm.vfs`), which the embedder seeds from a host
//! directory once when the run starts; nothing here touches the host, so a run resumed or
//! replayed in another process loads the same modules. The resolution algorithms are in
//! [`resolve`] over the small [`Files`] view; the CommonJS machinery (module objects,
//! `require`, `require.cache`, cycles) is JavaScript in `modules/js/module.js`, the body of
//! `node:module`, whose natives are in [`crate::modules::module`].
//!
//! Formats: `.mjs` and `.js` under a `"type": "module"` package are ES modules; `.cjs` and
//! other `.js` are CommonJS; `.json` is JSON. TypeScript (`.ts`, `.mts`, `.cts`, `.tsx`) is
//! transformed first ([`typescript`]) and loads as the JavaScript it becomes. An ES module importing a CommonJS file gets a
//! synthetic module: `default` is `module.exports`, plus each own enumerable property whose
//! name is an identifier, read after the CommonJS module ran (Node finds the names with a
//! static lexer instead, so it can differ for exports assigned dynamically).

pub mod json;
pub mod path;
pub mod resolve;
pub mod tsconfig;
pub mod typescript;

use amber_engine::atoms::PropertyKey;
use amber_engine::error::{RunError, SyntaxErrorReport};
use amber_engine::module::ModuleSource;
use amber_engine::runtime::call::call;
use amber_engine::runtime::property::{get, ordinary_get_own_property, own_property_keys};
use amber_engine::vfs::{FileType, Vfs};
use amber_engine::{JsResult, Value, Vm};

use crate::modules;
use resolve::{format_of, resolve_import, Format};

/// What the resolver needs to know about a file tree.
pub trait Files {
    /// A regular file (after symlinks).
    fn is_file(&mut self, path: &str) -> bool;
    /// A directory (after symlinks).
    fn is_dir(&mut self, path: &str) -> bool;
    /// A file's bytes.
    fn read(&mut self, path: &str) -> Option<Vec<u8>>;
    /// The canonical path (symlinks resolved); `path` itself when it has none.
    fn realpath(&mut self, path: &str) -> String {
        path.to_string()
    }
}

/// The files a VM's modules load from: its VFS (mutably: a lookup may probe the overlay's
/// lower layer, which materializes what it finds).
pub fn files(vm: &mut Vm) -> impl Files + '_ {
    VfsFiles(&mut vm.vfs)
}

struct VfsFiles<'a>(&'a mut Vfs);

impl VfsFiles<'_> {
    fn kind(&mut self, path: &str) -> Option<FileType> {
        self.0.stat(path).ok().and_then(|s| s.file_type())
    }
}

impl Files for VfsFiles<'_> {
    fn is_file(&mut self, path: &str) -> bool {
        self.kind(path) == Some(FileType::File)
    }
    fn is_dir(&mut self, path: &str) -> bool {
        self.kind(path) == Some(FileType::Dir)
    }
    fn read(&mut self, path: &str) -> Option<Vec<u8>> {
        self.0.read_file(path).ok().map(<[u8]>::to_vec)
    }
    fn realpath(&mut self, path: &str) -> String {
        self.0.realpath(path).unwrap_or_else(|_| path.to_string())
    }
}

/// The host's disk, read directly: for an embedder deciding how to seed a run (never for
/// a running program's modules).
pub struct HostDisk;

impl Files for HostDisk {
    fn is_file(&mut self, path: &str) -> bool {
        std::path::Path::new(path).is_file()
    }
    fn is_dir(&mut self, path: &str) -> bool {
        std::path::Path::new(path).is_dir()
    }
    fn read(&mut self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

/// Reads `path` as UTF-8 text (invalid sequences replaced, as Node decodes source).
pub fn read_text(vm: &mut Vm, path: &str) -> Option<String> {
    files(vm).read(path).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The ES module loader hook (`Vm::module_loader`): builtins first, then Node's ESM
/// resolution; CommonJS files become synthetic modules.
pub fn load_module(vm: &mut Vm, referrer: &str, specifier: &str) -> Result<(String, ModuleSource), String> {
    if let Some(builtin) = modules::load_if_builtin(vm, specifier) {
        return builtin;
    }
    let referrer_path = if referrer.starts_with('/') { referrer.to_string() } else { path::join(&cwd(vm), referrer) };
    let (path, format) = {
        let mut fs = files(vm);
        let found =
            resolve_import(&mut fs, specifier, &referrer_path).map_err(|e| format!("[{}] {}", e.code, e.message))?;
        let real = fs.realpath(&found);
        let format = format_of(&mut fs, &real);
        (real, format)
    };
    if vm.pure_depth > 0 {
        // As for `require` (modules::module's `touch`): a skipped step would not load it.
        return Err(format!(
            "Loading the module '{path}' cannot be used inside amber.step: a step must be a pure computation \
             (load it before the step)"
        ));
    }
    crate::modules::module::touch_module_load(vm);
    if typescript::is_typescript(&path) {
        return load_typescript(vm, path, format);
    }
    match format {
        Format::Module => {
            let text = read_text(vm, &path).ok_or_else(|| format!("Cannot read module '{path}'"))?;
            Ok((path, ModuleSource::Text(text)))
        }
        Format::Json => {
            let text = read_text(vm, &path).ok_or_else(|| format!("Cannot read module '{path}'"))?;
            Ok((path, ModuleSource::Json(text)))
        }
        Format::CommonJs => {
            let exports = import_commonjs(vm, &path)
                .map_err(|t| modules::describe_throw(vm, t, modules::ThrowText::CodeAndMessage))?;
            let named = commonjs_exports(vm, exports)
                .map_err(|t| modules::describe_throw(vm, t, modules::ThrowText::CodeAndMessage))?;
            Ok((path, ModuleSource::Synthetic(named)))
        }
        Format::Addon => Err(format!("Cannot load native addon {path}: native addons are not supported in Amber")),
    }
}

/// A TypeScript module for the ES loader: the JavaScript with its position map, or (when
/// it is CommonJS) the synthetic view of its exports; a syntax error fails the load as the
/// module's own parse error.
fn load_typescript(vm: &mut Vm, path: String, format: Format) -> Result<(String, ModuleSource), String> {
    let text = read_text(vm, &path).ok_or_else(|| format!("Cannot read module '{path}'"))?;
    let kind = typescript_kind(&path, format);
    let config = tsconfig::nearest(&mut files(vm), &path::dirname(&path));
    match typescript::transform_cached(&path, &text, kind, &config) {
        Err(report) => Ok((path, ModuleSource::Invalid(report))),
        Ok(t) if t.module => Ok((path, ModuleSource::Mapped(t.code, t.map))),
        Ok(_) => {
            let exports = import_commonjs(vm, &path)
                .map_err(|t| modules::describe_throw(vm, t, modules::ThrowText::CodeAndMessage))?;
            let named = commonjs_exports(vm, exports)
                .map_err(|t| modules::describe_throw(vm, t, modules::ThrowText::CodeAndMessage))?;
            Ok((path, ModuleSource::Synthetic(named)))
        }
    }
}

/// How a TypeScript file of `format` is transformed: an ES module stays one, `.cts` is
/// CommonJS, and another file CommonJS by its package is detected by its syntax.
pub fn typescript_kind(path: &str, format: Format) -> typescript::Kind {
    match format {
        Format::Module => typescript::Kind::Module,
        _ if path.ends_with(".cts") => typescript::Kind::CommonJs,
        _ => typescript::Kind::Detect,
    }
}

/// A TypeScript entry file as JavaScript (through the caches): what the embedder runs.
pub fn transform_entry(
    vm: &mut Vm,
    filename: &str,
    source: &str,
) -> Result<typescript::Transformed, SyntaxErrorReport> {
    let mut fs = files(vm);
    let format = format_of(&mut fs, filename);
    let config = tsconfig::nearest(&mut fs, &path::dirname(filename));
    typescript::transform_cached(filename, source, typescript_kind(filename, format), &config)
}

/// The ES view of a CommonJS module's exports: `default` is `module.exports`; each own
/// enumerable string-keyed property (other than `default`) is a named export, read once.
fn commonjs_exports(vm: &mut Vm, exports: Value) -> JsResult<Vec<(String, Value)>> {
    let mut named = vec![("default".to_string(), exports)];
    let Some(o) = exports.as_object() else { return Ok(named) };
    vm.roots.push(exports);
    let r = (|| {
        for key in own_property_keys(vm, o)? {
            let PropertyKey::Atom(a) = key else { continue };
            let enumerable = ordinary_get_own_property(vm, o, key).is_some_and(|d| d.enumerable == Some(true));
            let name = vm.heap.atoms.get(a).to_rust_string();
            if name == "default" || !enumerable {
                continue;
            }
            let v = get(vm, o, key, exports)?;
            named.push((name, v));
        }
        Ok(())
    })();
    vm.roots.pop();
    r.map(|()| named)
}

/// The working directory relative names resolve against.
pub fn cwd(vm: &Vm) -> String {
    vm.vfs.cwd.clone()
}

/// A hook function of `node:module` (`runMain`, `importCommonJs`).
fn hook(vm: &mut Vm, name: &str) -> JsResult<Value> {
    if let Some(b) = modules::builtin("node:module") {
        modules::require_builtin(vm, b)?;
    }
    let Some(hooks) = vm.host_value(modules::module::HOOKS).and_then(|v| v.as_object()) else {
        return Err(vm.type_error("node:module did not register its loader hooks"));
    };
    let key = vm.key(name);
    get(vm, hooks, key, Value::object(hooks))
}

/// `module.exports` of the CommonJS file `path`, loading it (once) through `node:module`.
pub fn import_commonjs(vm: &mut Vm, path: &str) -> JsResult<Value> {
    let f = hook(vm, "importCommonJs")?;
    vm.roots.push(f);
    let p = vm.str(path);
    vm.roots.push(p);
    let r = call(vm, f, Value::UNDEFINED, &[p]);
    let n = vm.roots.len();
    vm.roots.truncate(n - 2);
    r
}

/// Runs `source` as the CommonJS entry module `filename` (`node file.js`): `require`,
/// `module`, `exports`, `__filename`, `__dirname`; `require.main === module`.
pub fn run_main(vm: &mut Vm, filename: &str, source: &str) -> Result<Value, RunError> {
    crate::web::record_time_origin(vm);
    let r = (|| {
        let f = hook(vm, "runMain")?;
        vm.roots.push(f);
        let name = vm.str(filename);
        vm.roots.push(name);
        let text = vm.str(source);
        vm.roots.push(text);
        let r = call(vm, f, Value::UNDEFINED, &[name, text]);
        let n = vm.roots.len();
        vm.roots.truncate(n - 3);
        r
    })();
    vm.stack.clear();
    vm.frames.clear();
    r.map(|_| Value::UNDEFINED).map_err(|t| vm.run_error(t))
}
