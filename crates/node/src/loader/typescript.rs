//! TypeScript: `.ts`, `.mts`, `.cts` and `.tsx` files become JavaScript through
//! `oxc_transformer` (types stripped; enums, namespaces, parameter properties and legacy
//! decorators lowered) and `oxc_codegen`, whose source map becomes the engine's
//! [`PositionMap`], so every position the program reports is one in the TypeScript text.
//! Nothing is type-checked: that is `tsc --noEmit`, the user's separate step.
//!
//! A transform is a pure function of the text, the file's kind (module, CommonJS, or to
//! detect) and the tsconfig options that change the output ([`TsConfig::fingerprint`]), so
//! its result is cached under a digest of those ([`cache_key`]): in this process, and in
//! the embedder's [`TransformStore`] when one is set (`amber` keeps one in its session
//! store), so a second run, a replay or a resume never transforms the same text again.
//!
//! Format: `.mts` is an ES module, `.cts` CommonJS, `.ts` / `.tsx` follow the package's
//! `"type"`; a `.ts` file CommonJS by its package that uses `import` / `export` syntax runs
//! as an ES module (Node's syntax detection), since that is how agent code is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use amber_engine::error::SyntaxErrorReport;
use amber_engine::source_map::{Mapping, PositionMap};
use oxc_allocator::Allocator;
use oxc_codegen::{Codegen, CodegenOptions};
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_transformer::{HelperLoaderMode, JsxRuntime, Module, TransformOptions, Transformer};
use sha2::{Digest, Sha256};

use super::tsconfig::TsConfig;

/// The extensions Amber transforms.
pub const EXTENSIONS: &[&str] = &[".ts", ".mts", ".cts", ".tsx"];

/// The module helpers the legacy decorator transform imports are read from (see
/// `modules/js/ts_helpers.js`): `amber:typescript/helpers/decorate` and the like.
pub const HELPERS_MODULE: &str = "amber:typescript";

/// Whether `path` is TypeScript that runs (a declaration file, `.d.ts`, does not).
pub fn is_typescript(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    EXTENSIONS.iter().any(|e| name.ends_with(e))
        && !name.ends_with(".d.ts")
        && !name.ends_with(".d.mts")
        && !name.ends_with(".d.cts")
}

/// How a file's JavaScript is to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Module,
    CommonJs,
    /// CommonJS unless the text has module syntax (`.ts` / `.tsx` in a CommonJS package).
    Detect,
}

/// A transformed file.
#[derive(Clone, Debug, PartialEq)]
pub struct Transformed {
    /// The JavaScript.
    pub code: String,
    /// Its positions in the TypeScript text.
    pub map: PositionMap,
    /// It runs as an ES module (else as CommonJS).
    pub module: bool,
}

/// A persistent home for transform results, keyed by [`cache_key`] (the embedder's: the
/// node layer itself never touches the host).
pub trait TransformStore: Send + Sync {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, bytes: &[u8]);
}

static STORE: OnceLock<Box<dyn TransformStore>> = OnceLock::new();
static MEMO: Mutex<BTreeMap<String, Transformed>> = Mutex::new(BTreeMap::new());
static TRANSFORMS: AtomicU64 = AtomicU64::new(0);
static CACHE_HITS: AtomicU64 = AtomicU64::new(0);

/// Sets the process's transform store (once; later calls are ignored).
pub fn set_store(store: Box<dyn TransformStore>) {
    let _ = STORE.set(store);
}

/// (transforms run, results taken from a cache) in this process so far.
pub fn counts() -> (u64, u64) {
    (TRANSFORMS.load(Ordering::Relaxed), CACHE_HITS.load(Ordering::Relaxed))
}

/// The cache key of a transform: a SHA-256 digest over the transformer's version, the
/// file's extension and kind, the options that matter, and the text.
pub fn cache_key(filename: &str, source: &str, kind: Kind, config: &TsConfig) -> String {
    let ext = EXTENSIONS.iter().find(|e| filename.ends_with(*e)).copied().unwrap_or("");
    let mut h = Sha256::new();
    h.update(b"amber-typescript-1 oxc_transformer 0.146.0\0");
    h.update(ext.as_bytes());
    h.update(format!("\0{kind:?}\0{}\0", config.fingerprint()).as_bytes());
    h.update(source.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// [`transform`], through the caches.
pub fn transform_cached(
    filename: &str,
    source: &str,
    kind: Kind,
    config: &TsConfig,
) -> Result<Transformed, SyntaxErrorReport> {
    let key = cache_key(filename, source, kind, config);
    if let Some(hit) = MEMO.lock().ok().and_then(|m| m.get(&key).cloned()) {
        CACHE_HITS.fetch_add(1, Ordering::Relaxed);
        return Ok(hit);
    }
    if let Some(hit) = STORE.get().and_then(|s| s.get(&key)).and_then(|bytes| decode_entry(&bytes)) {
        CACHE_HITS.fetch_add(1, Ordering::Relaxed);
        remember(&key, &hit);
        return Ok(hit);
    }
    // The transformer asserts its own invariants; an input that trips one is reported as
    // this file's error rather than ending the process.
    let out = std::panic::catch_unwind(|| transform(filename, source, kind, config)).unwrap_or_else(|_| {
        Err(syntax_error(
            source,
            filename,
            "the TypeScript transform failed on this file (an oxc_transformer fault)",
            0,
        ))
    })?;
    if let Some(store) = STORE.get() {
        store.put(&key, &encode_entry(&out));
    }
    remember(&key, &out);
    Ok(out)
}

fn remember(key: &str, t: &Transformed) {
    if let Ok(mut m) = MEMO.lock() {
        m.insert(key.to_string(), t.clone());
    }
}

/// A cache entry: `{"module": bool, "code": "...", "map": [[gl, gc, ol, oc], ...]}`.
fn encode_entry(t: &Transformed) -> Vec<u8> {
    let map: Vec<[u32; 4]> = t
        .map
        .mappings()
        .iter()
        .map(|m| [m.generated_line, m.generated_column, m.original_line, m.original_column])
        .collect();
    serde_json::to_vec(&serde_json::json!({ "module": t.module, "code": t.code, "map": map })).unwrap_or_default()
}

fn decode_entry(bytes: &[u8]) -> Option<Transformed> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let code = v.get("code")?.as_str()?.to_string();
    let module = v.get("module")?.as_bool()?;
    let map: Vec<[u32; 4]> = serde_json::from_value(v.get("map")?.clone()).ok()?;
    let mappings = map
        .into_iter()
        .map(|[gl, gc, ol, oc]| Mapping {
            generated_line: gl,
            generated_column: gc,
            original_line: ol,
            original_column: oc,
        })
        .collect();
    Some(Transformed { code, map: PositionMap::new(mappings), module })
}

/// TypeScript `source` of `filename` as JavaScript with its position map. Parse errors
/// and early errors are SyntaxErrors at their TypeScript positions.
pub fn transform(
    filename: &str,
    source: &str,
    kind: Kind,
    config: &TsConfig,
) -> Result<Transformed, SyntaxErrorReport> {
    TRANSFORMS.fetch_add(1, Ordering::Relaxed);
    let fail = |message: &str, offset: u32| syntax_error(source, filename, message, offset);
    let by_extension = SourceType::from_path(Path::new(filename)).map_err(|e| fail(&e, 0))?;
    let source_type = match kind {
        Kind::Module => by_extension.with_module(true),
        Kind::CommonJs => by_extension.with_commonjs(true),
        Kind::Detect => by_extension.with_unambiguous(true),
    };
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, source_type).parse();
    let first = |d: &oxc_diagnostics::OxcDiagnostic| d.labels.first().map_or(0, |l| l.offset());
    if let Some(d) = parsed.diagnostics.errors().next() {
        return Err(fail(&d.message, first(d)));
    }
    if parsed.panicked {
        return Err(fail("Unexpected token", 0));
    }
    let mut program = parsed.program;
    let module = program.source_type.is_module();
    let semantic = SemanticBuilder::new()
        .with_check_syntax_error(true)
        .with_enum_eval(true)
        .with_excess_capacity(2.0)
        .build(&program);
    if let Some(d) = semantic.diagnostics.errors().next() {
        return Err(fail(&d.message, first(d)));
    }
    let scoping = semantic.semantic.into_scoping();
    let options = transform_options(config, module);
    let transformed =
        Transformer::new(&allocator, Path::new(filename), &options).build_with_scoping(scoping, &mut program);
    if let Some(d) = transformed.diagnostics.errors().next() {
        return Err(fail(&d.message, first(d)));
    }
    let codegen = Codegen::new()
        .with_options(CodegenOptions { source_map_path: Some(PathBuf::from(filename)), ..CodegenOptions::default() })
        .build(&program);
    let mappings = codegen
        .map
        .iter()
        .flat_map(|m| m.get_tokens())
        .filter(|t| t.get_source_id().is_some())
        .map(|t| Mapping {
            generated_line: t.get_dst_line() + 1,
            generated_column: t.get_dst_col() + 1,
            original_line: t.get_src_line() + 1,
            original_column: t.get_src_col() + 1,
        })
        .collect();
    Ok(Transformed { code: codegen.code, map: PositionMap::new(mappings), module })
}

fn transform_options(config: &TsConfig, module: bool) -> TransformOptions {
    let mut options = TransformOptions::default();
    options.typescript.only_remove_type_imports = config.verbatim_module_syntax;
    options.typescript.remove_class_fields_without_initializer = !config.use_define_for_class_fields;
    options.decorator.legacy = config.experimental_decorators;
    options.decorator.emit_decorator_metadata = config.experimental_decorators && config.emit_decorator_metadata;
    options.env.module = if module { Module::Esm } else { Module::CommonJS };
    options.helper_loader.mode = HelperLoaderMode::Runtime;
    options.helper_loader.module_name = HELPERS_MODULE.into();
    match config.jsx.as_deref() {
        Some("react") => {
            options.jsx.runtime = JsxRuntime::Classic;
            options.jsx.pragma = config.jsx_factory.clone();
            options.jsx.pragma_frag = config.jsx_fragment_factory.clone();
        }
        Some("react-jsxdev") => {
            options.jsx.runtime = JsxRuntime::Automatic;
            options.jsx.development = true;
        }
        _ => options.jsx.runtime = JsxRuntime::Automatic,
    }
    options.jsx.import_source = config.jsx_import_source.clone();
    options
}

/// A SyntaxError at byte `offset` of the TypeScript text, with its line for the caret.
fn syntax_error(source: &str, filename: &str, message: &str, offset: u32) -> SyntaxErrorReport {
    amber_engine::compiler::report(source, filename, message, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str, kind: Kind) -> Transformed {
        transform("/t/x.ts", source, kind, &TsConfig::defaults()).expect("transforms")
    }

    #[test]
    fn types_are_stripped_and_positions_map_back() {
        let t = run("interface A {\n  a: number;\n}\nconst x: A = { a: 1 };\nthrow x;\n", Kind::Module);
        assert!(!t.code.contains("interface"), "{}", t.code);
        let line = t.code.lines().position(|l| l.starts_with("throw")).expect("throw line") as u32 + 1;
        assert_eq!(t.map.original(line, 1), (5, 1));
    }

    #[test]
    fn syntax_errors_point_into_the_typescript() {
        let e = transform("/t/x.ts", "let a: number = 1;\nlet b = (;\n", Kind::Module, &TsConfig::defaults())
            .expect_err("a syntax error");
        assert_eq!((e.line, e.source_line.as_str()), (2, "let b = (;"));
    }

    #[test]
    fn module_syntax_is_detected_in_ambiguous_files() {
        assert!(run("import { x } from './y.js';\nx();\n", Kind::Detect).module);
        assert!(!run("const y = require('./y');\n", Kind::Detect).module);
        assert!(!run("const y = 1;\n", Kind::CommonJs).module);
    }

    #[test]
    fn cache_entries_round_trip() {
        let t = run("enum E { A, B }\nconsole.log(E.B);\n", Kind::Module);
        assert_eq!(decode_entry(&encode_entry(&t)), Some(t));
    }
}
