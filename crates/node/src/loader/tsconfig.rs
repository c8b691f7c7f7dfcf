//! `tsconfig.json`: the nearest one above a TypeScript file, with its `extends` chain
//! followed, reduced to the options that change how Amber runs the file — decorators,
//! class fields, import elision, JSX, and module resolution (`moduleResolution`,
//! `baseUrl`, `paths`). Everything else (type checking, `target`, emit options) is the
//! TypeScript compiler's business and ignored.
//!
//! tsconfig files are JSON with comments and trailing commas; both are removed before the
//! JSON reader sees the text.

use super::json::{parse, Json};
use super::path::{dirname, join, normalize};
use super::resolve::node_modules_paths;
use super::Files;

/// How far `extends` is followed before the chain is taken as a cycle.
const MAX_EXTENDS: usize = 16;

/// The options of one TypeScript file's project.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TsConfig {
    /// The tsconfig file these came from (`None`: no tsconfig, TypeScript's defaults).
    pub file: Option<String>,
    /// `experimentalDecorators`: TypeScript's legacy decorators.
    pub experimental_decorators: bool,
    /// `emitDecoratorMetadata` (with legacy decorators only).
    pub emit_decorator_metadata: bool,
    /// `useDefineForClassFields: false`: fields without initializers are removed.
    pub use_define_for_class_fields: bool,
    /// `verbatimModuleSyntax`: only `import type` is elided, never an unused import.
    pub verbatim_module_syntax: bool,
    /// `moduleResolution`, lower case (`node16`, `nodenext`, `bundler`, …), when set.
    pub module_resolution: Option<String>,
    /// `baseUrl`, absolute.
    pub base_url: Option<String>,
    /// `paths`: patterns (at most one `*`) and their targets, absolute (resolved against
    /// `baseUrl`, else the directory of the tsconfig that set them).
    pub paths: Vec<(String, Vec<String>)>,
    /// `jsx` (`react`, `react-jsx`, `react-jsxdev`, `preserve`…), `jsxFactory`,
    /// `jsxFragmentFactory`, `jsxImportSource`.
    pub jsx: Option<String>,
    pub jsx_factory: Option<String>,
    pub jsx_fragment_factory: Option<String>,
    pub jsx_import_source: Option<String>,
}

impl TsConfig {
    /// TypeScript's defaults for a modern target (no tsconfig).
    pub fn defaults() -> TsConfig {
        TsConfig { use_define_for_class_fields: true, ..TsConfig::default() }
    }

    /// `moduleResolution` is `bundler`: extensionless and directory imports resolve.
    pub fn bundler(&self) -> bool {
        self.module_resolution.as_deref() == Some("bundler")
    }

    /// A stable summary of what changes the JavaScript made from a file (part of the
    /// transform cache key).
    pub fn fingerprint(&self) -> String {
        format!(
            "dec={} meta={} define={} verbatim={} jsx={:?}/{:?}/{:?}/{:?}",
            self.experimental_decorators,
            self.emit_decorator_metadata,
            self.use_define_for_class_fields,
            self.verbatim_module_syntax,
            self.jsx,
            self.jsx_factory,
            self.jsx_fragment_factory,
            self.jsx_import_source
        )
    }
}

/// The project of a file in `dir`: the nearest `tsconfig.json` at or above it, not looking
/// inside or above a `node_modules` folder the file sits in. No tsconfig (or one that does
/// not parse) gives the defaults.
pub fn nearest(fs: &mut dyn Files, dir: &str) -> TsConfig {
    let mut dir = normalize(dir);
    loop {
        let file = join(&dir, "tsconfig.json");
        if fs.is_file(&file) {
            return load(fs, &file).unwrap_or_else(TsConfig::defaults);
        }
        if dir == "/" || dir.ends_with("/node_modules") {
            return TsConfig::defaults();
        }
        dir = dirname(&dir);
    }
}

/// `file` with its `extends` chain applied (the file's own options win); `None` when a
/// file in the chain is unreadable or not JSON.
pub fn load(fs: &mut dyn Files, file: &str) -> Option<TsConfig> {
    let mut config = TsConfig::defaults();
    let mut chain = Vec::new();
    collect_chain(fs, file, &mut chain, 0)?;
    // Base configs first, so each later file overrides what it sets.
    for (path, json) in chain.iter().rev() {
        apply(&mut config, path, json);
    }
    config.file = Some(file.to_string());
    Some(config)
}

fn collect_chain(fs: &mut dyn Files, file: &str, chain: &mut Vec<(String, Json)>, depth: usize) -> Option<()> {
    if depth > MAX_EXTENDS || chain.iter().any(|(p, _)| p == file) {
        return Some(());
    }
    let text = String::from_utf8_lossy(&fs.read(file)?).into_owned();
    let json = parse(&strip_jsonc(&text)).ok()?;
    let extends: Vec<String> = match json.get("extends") {
        Some(Json::String(s)) => vec![s.clone()],
        Some(Json::Array(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    chain.push((file.to_string(), json));
    // `extends: [a, b]`: b overrides a, and the file overrides both; the chain is applied
    // in reverse, so the last base goes in first.
    for base in extends.iter().rev() {
        if let Some(found) = resolve_extends(fs, base, &dirname(file)) {
            collect_chain(fs, &found, chain, depth + 1)?;
        }
    }
    Some(())
}

/// An `extends` name: a path relative to the extending file (`.json` optional), or a
/// package (`@tsconfig/node20`, `pkg/tsconfig.base.json`) in `node_modules`.
fn resolve_extends(fs: &mut dyn Files, name: &str, from_dir: &str) -> Option<String> {
    let candidates = |base: String| {
        let mut c = vec![base.clone()];
        if !base.ends_with(".json") {
            c.push(format!("{base}.json"));
            c.push(join(&base, "tsconfig.json"));
        }
        c
    };
    if name.starts_with("./") || name.starts_with("../") || name.starts_with('/') {
        return candidates(normalize(&join(from_dir, name))).into_iter().find(|c| fs.is_file(c));
    }
    node_modules_paths(from_dir)
        .into_iter()
        .flat_map(|dir| candidates(normalize(&join(&dir, name))))
        .find(|c| fs.is_file(c))
}

fn apply(config: &mut TsConfig, file: &str, json: &Json) {
    let Some(options) = json.get("compilerOptions") else { return };
    let dir = dirname(file);
    let flag = |name: &str| match options.get(name) {
        Some(Json::Bool(b)) => Some(*b),
        _ => None,
    };
    let text = |name: &str| options.get(name).and_then(Json::as_str).map(str::to_string);
    if let Some(b) = flag("experimentalDecorators") {
        config.experimental_decorators = b;
    }
    if let Some(b) = flag("emitDecoratorMetadata") {
        config.emit_decorator_metadata = b;
    }
    if let Some(b) = flag("useDefineForClassFields") {
        config.use_define_for_class_fields = b;
    }
    if let Some(b) = flag("verbatimModuleSyntax") {
        config.verbatim_module_syntax = b;
    }
    if let Some(r) = text("moduleResolution") {
        config.module_resolution = Some(r.to_ascii_lowercase());
    }
    if let Some(base) = text("baseUrl") {
        config.base_url = Some(normalize(&join(&dir, &base)));
    }
    if let Some(Json::Object(members)) = options.get("paths") {
        // Relative to baseUrl when one is in force, else to this file's directory.
        let base = config.base_url.clone().unwrap_or_else(|| dir.clone());
        config.paths = members
            .iter()
            .map(|(pattern, targets)| {
                let targets = match targets {
                    Json::Array(items) => {
                        items.iter().filter_map(Json::as_str).map(|t| normalize(&join(&base, t))).collect()
                    }
                    _ => Vec::new(),
                };
                (pattern.clone(), targets)
            })
            .collect();
    }
    for (name, slot) in [
        ("jsx", &mut config.jsx),
        ("jsxFactory", &mut config.jsx_factory),
        ("jsxFragmentFactory", &mut config.jsx_fragment_factory),
        ("jsxImportSource", &mut config.jsx_import_source),
    ] {
        if let Some(v) = text(name) {
            *slot = Some(v);
        }
    }
}

/// The candidates `paths` gives for a bare specifier: the targets of the most specific
/// matching pattern (longest prefix before the `*`; an exact key beats every pattern), with
/// the `*` replaced.
pub fn paths_candidates(config: &TsConfig, specifier: &str) -> Vec<String> {
    let mut best: Option<(usize, &Vec<String>, &str)> = None;
    for (pattern, targets) in &config.paths {
        match pattern.split_once('*') {
            None if pattern == specifier => return targets.clone(),
            None => {}
            Some((prefix, suffix)) => {
                let fits = specifier.len() >= prefix.len() + suffix.len()
                    && specifier.starts_with(prefix)
                    && specifier.ends_with(suffix);
                if fits && best.is_none_or(|(len, _, _)| prefix.len() > len) {
                    let matched = &specifier[prefix.len()..specifier.len() - suffix.len()];
                    best = Some((prefix.len(), targets, matched));
                }
            }
        }
    }
    match best {
        Some((_, targets, matched)) => targets.iter().map(|t| t.replacen('*', matched, 1)).collect(),
        None => Vec::new(),
    }
}

/// `text` without `//` and `/* */` comments and without trailing commas (outside strings).
pub fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.extend_from_slice(&b[start..i]);
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(b' ');
            }
            b',' => {
                let next = b[i + 1..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| b[i + 1 + k]);
                // A comment between the comma and the bracket is removed when it is reached.
                if !matches!(next, Some(b'}') | Some(b']')) {
                    out.push(b',');
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_removed() {
        let text = "{ // c\n \"a\": \"//not\", /* b */ \"b\": [1, 2,], }";
        assert_eq!(parse(&strip_jsonc(text)).ok(), parse("{\"a\": \"//not\", \"b\": [1, 2]}").ok());
    }

    #[test]
    fn the_most_specific_paths_pattern_wins() {
        let config = TsConfig {
            paths: vec![
                ("@app/*".into(), vec!["/src/*".into()]),
                ("@app/lib/*".into(), vec!["/lib/*".into()]),
                ("exact".into(), vec!["/e.ts".into()]),
            ],
            ..TsConfig::default()
        };
        assert_eq!(paths_candidates(&config, "@app/lib/x"), vec!["/lib/x".to_string()]);
        assert_eq!(paths_candidates(&config, "@app/y"), vec!["/src/y".to_string()]);
        assert_eq!(paths_candidates(&config, "exact"), vec!["/e.ts".to_string()]);
        assert!(paths_candidates(&config, "other").is_empty());
    }
}
