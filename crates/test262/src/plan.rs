//! From a test's metadata to what the runner does with it: skip it (and why), or run it in
//! which modes, with which harness files first (INTERPRETING.md, "Strict Mode", "flags",
//! "includes", "Test262-Defined Bindings").

use crate::config::SkipConfig;
use crate::frontmatter::Metadata;
use serde::{Deserialize, Serialize};

/// How one execution of a test interprets its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Global code, non-strict, harness first.
    Sloppy,
    /// Global code with `"use strict";\n` prepended, harness first.
    Strict,
    /// Module code (the `module` flag), harness evaluated as scripts first.
    Module,
    /// The source exactly as written, no harness, non-strict (the `raw` flag).
    Raw,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Sloppy => "sloppy",
            Mode::Strict => "strict",
            Mode::Module => "module",
            Mode::Raw => "raw",
        }
    }
}

/// The directive INTERPRETING.md prescribes for the strict-mode run.
pub const STRICT_PREFIX: &str = "\"use strict\";\n";

/// The modes a test runs in; it passes only if every one passes.
pub fn modes(meta: &Metadata) -> Vec<Mode> {
    let f = meta.flags;
    if f.raw {
        vec![Mode::Raw]
    } else if f.module {
        vec![Mode::Module]
    } else if f.only_strict {
        vec![Mode::Strict]
    } else if f.no_strict {
        vec![Mode::Sloppy]
    } else {
        vec![Mode::Sloppy, Mode::Strict]
    }
}

/// Harness files to evaluate before the test, in order: `assert.js`, `sta.js`,
/// `doneprintHandle.js` for async tests, then the test's own `includes` (a file already in
/// the list is not evaluated twice). Raw tests get none.
pub fn includes(meta: &Metadata) -> Vec<String> {
    if meta.flags.raw {
        return Vec::new();
    }
    let mut list: Vec<String> = vec!["assert.js".into(), "sta.js".into()];
    if meta.flags.is_async {
        list.push("doneprintHandle.js".into());
    }
    for name in &meta.includes {
        if !list.contains(name) {
            list.push(name.clone());
        }
    }
    list
}

/// Checks that an include names a file inside `harness/` (no absolute paths, no `..`).
pub fn valid_include(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && name.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
}

/// Resolves a module specifier against the importing file's name (INTERPRETING.md,
/// "Modules": specifiers start with `./` and name a file in the importer's directory). Names
/// are `/`-separated paths relative to the suite directory; `..` may not leave it.
pub fn resolve_specifier(referrer: &str, specifier: &str) -> Result<String, String> {
    if !(specifier.starts_with("./") || specifier.starts_with("../")) {
        return Err(format!("Cannot resolve module specifier '{specifier}': only ./ and ../ are supported"));
    }
    let mut parts: Vec<&str> = referrer.split('/').collect();
    parts.pop();
    for part in specifier.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!("Cannot resolve module specifier '{specifier}' from '{referrer}'"));
                }
            }
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// A dotted property path such as `Array.prototype.at` (for `--break-builtin`).
pub fn valid_builtin_path(path: &str) -> bool {
    path.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    })
}

/// Why a test is not run, if it is not: the first matching path, feature or flag rule of the
/// configuration. `rel` is the path relative to `test/`.
pub fn skip_reason(rel: &str, meta: &Metadata, skip: &SkipConfig, can_block: bool) -> Option<String> {
    let runs_anyway = skip.run_paths.keys().any(|prefix| path_matches(rel, prefix));
    for (prefix, reason) in &skip.paths {
        if !runs_anyway && path_matches(rel, prefix) {
            return Some(format!("path {prefix}: {reason}"));
        }
    }
    for feature in &meta.features {
        if let Some(reason) = skip.features.get(feature) {
            return Some(format!("feature {feature}: {reason}"));
        }
    }
    if meta.flags.can_block_is_false && can_block {
        return Some("flag CanBlockIsFalse: this host's [[CanBlock]] is true".into());
    }
    if meta.flags.can_block_is_true && !can_block {
        return Some("flag CanBlockIsTrue: this host's [[CanBlock]] is false".into());
    }
    None
}

/// `prefix` names `rel` itself or a directory containing it.
pub fn path_matches(rel: &str, prefix: &str) -> bool {
    let prefix = prefix.trim_end_matches('/');
    prefix.is_empty() || rel == prefix || (rel.starts_with(prefix) && rel.as_bytes().get(prefix.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::parse;
    use std::collections::BTreeMap;

    #[test]
    fn modes_follow_flags() {
        let m = |flags: &str| modes(&parse(&format!("flags: [{flags}]")).unwrap());
        assert_eq!(m(""), [Mode::Sloppy, Mode::Strict]);
        assert_eq!(m("onlyStrict"), [Mode::Strict]);
        assert_eq!(m("noStrict"), [Mode::Sloppy]);
        assert_eq!(m("module"), [Mode::Module]);
        assert_eq!(m("raw"), [Mode::Raw]);
        assert_eq!(m("async"), [Mode::Sloppy, Mode::Strict]);
        assert_eq!(m("generated, non-deterministic"), [Mode::Sloppy, Mode::Strict]);
    }

    #[test]
    fn include_order_and_dedup() {
        let meta = parse("includes: [compareArray.js, assert.js, propertyHelper.js]\nflags: [async]").unwrap();
        assert_eq!(
            includes(&meta),
            ["assert.js", "sta.js", "doneprintHandle.js", "compareArray.js", "propertyHelper.js"]
        );
        let meta = parse("includes: [compareArray.js]").unwrap();
        assert_eq!(includes(&meta), ["assert.js", "sta.js", "compareArray.js"]);
        let raw = parse("flags: [raw]\nincludes: [compareArray.js]").unwrap();
        assert!(includes(&raw).is_empty());
        let module = parse("flags: [module]").unwrap();
        assert_eq!(includes(&module), ["assert.js", "sta.js"]);
    }

    #[test]
    fn include_names_stay_in_harness() {
        assert!(valid_include("sm/non262-shell.js"));
        assert!(valid_include("assert.js"));
        assert!(!valid_include("../LICENSE"));
        assert!(!valid_include("/etc/passwd"));
        assert!(!valid_include("sm//x.js"));
        assert!(!valid_include(""));
    }

    #[test]
    fn skips() {
        let skip = SkipConfig {
            features: BTreeMap::from([("Intl.Locale".to_string(), "no Intl".to_string())]),
            paths: BTreeMap::from([("intl402".to_string(), "no ECMA-402".to_string())]),
            run_paths: BTreeMap::from([("intl402/Temporal".to_string(), "runs".to_string())]),
        };
        let plain = parse("features: [Array.prototype.at]").unwrap();
        assert_eq!(skip_reason("built-ins/Array/x.js", &plain, &skip, true), None);
        let r = skip_reason("intl402/Locale/x.js", &plain, &skip, true).unwrap();
        assert!(r.contains("no ECMA-402"));
        assert_eq!(skip_reason("intl402x/a.js", &plain, &skip, true), None);
        assert_eq!(skip_reason("intl402/Temporal/x.js", &plain, &skip, true), None);
        let intl = parse("features: [Symbol, Intl.Locale]").unwrap();
        assert!(skip_reason("built-ins/x.js", &intl, &skip, true).unwrap().contains("no Intl"));
        let no_block = parse("flags: [CanBlockIsFalse]").unwrap();
        assert!(skip_reason("a.js", &no_block, &skip, true).is_some());
        assert!(skip_reason("a.js", &no_block, &skip, false).is_none());
        let block = parse("flags: [CanBlockIsTrue]").unwrap();
        assert!(skip_reason("a.js", &block, &skip, true).is_none());
        assert!(skip_reason("a.js", &block, &skip, false).is_some());
    }

    #[test]
    fn module_specifiers() {
        let r = |a: &str, b: &str| resolve_specifier(a, b);
        assert_eq!(
            r("test/language/module-code/a.js", "./b_FIXTURE.js").unwrap(),
            "test/language/module-code/b_FIXTURE.js"
        );
        assert_eq!(r("test/language/x/a.js", "../y/b.js").unwrap(), "test/language/y/b.js");
        assert_eq!(r("test/a.js", "././/b.js").unwrap(), "test/b.js");
        assert!(r("test/a.js", "../../../etc/passwd").is_err());
        assert!(r("test/a.js", "lodash").is_err());
        assert!(r("test/a.js", "<module source>").is_err());
        assert!(r("test/a.js", "/abs.js").is_err());
    }

    #[test]
    fn builtin_paths() {
        assert!(valid_builtin_path("Array.prototype.at"));
        assert!(valid_builtin_path("$262"));
        assert!(!valid_builtin_path("Array..at"));
        assert!(!valid_builtin_path("a;b"));
        assert!(!valid_builtin_path("1x"));
        assert!(!valid_builtin_path(""));
    }

    #[test]
    fn path_prefixes() {
        assert!(path_matches("built-ins/Array/a.js", "built-ins"));
        assert!(path_matches("built-ins/Array/a.js", "built-ins/Array/"));
        assert!(path_matches("built-ins/Array/a.js", "built-ins/Array/a.js"));
        assert!(!path_matches("built-ins/ArrayBuffer/a.js", "built-ins/Array"));
        assert!(path_matches("anything.js", ""));
    }
}
