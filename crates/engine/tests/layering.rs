//! `heap/` is the engine's bottom layer (issue 28, crates/engine/src/heap/README.md): it and
//! the plain value types it stores (`value.rs`, `string.rs`, `atoms.rs`) name nothing of the
//! layers that run JS — the interpreter, builtins, modules, the §7 runtime, the compiler,
//! realms or the VM. What needs the whole VM (the collector's roots, the image verifier's
//! preconditions) lives above, in `gc.rs` and `verify.rs` at the crate root, and hands the heap
//! what it needs as arguments.
//!
//! The test reads the source files: a path into an upper module, in code, a `use`, a doc link
//! or a test module, fails it with the file and line. It is a text check, so it also catches
//! a name the compiler would accept through a re-export.
#![allow(clippy::unwrap_used)]
// This file reads the engine's sources from disk, which crates/engine/clippy.toml forbids the
// engine itself.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};

/// The modules above the heap.
const UPPER: [&str; 7] = ["interp", "builtins", "module", "runtime", "compiler", "realm", "vm"];

/// The bottom layer: every file under `heap/`, and the value types it stores.
fn bottom_layer(src: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["value.rs", "string.rs", "atoms.rs"].iter().map(|f| src.join(f)).collect();
    let mut dirs = vec![src.join("heap")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The upper module a path starting at `rest` (just after `crate::` or a chain of `super::`)
/// names, if any: a plain segment (`vm::Vm`) or any name of a braced group (`{vm, heap}`).
fn names_upper(rest: &str) -> Option<&'static str> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let first = |s: &str| UPPER.iter().copied().find(|u| ident(s.trim_start()) == *u);
    let Some(group) = rest.strip_prefix('{') else {
        return first(rest);
    };
    // The group's top-level items: after the opening brace and after each comma at depth 0.
    let mut depth = 0;
    let mut items = vec![group];
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => items.push(&group[i + 1..]),
            _ => {}
        }
    }
    items.into_iter().find_map(first)
}

/// Each line of `text` that names an upper module, with the module it names (a braced group
/// may span lines: it is reported at its `crate::`).
fn violations(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in text.match_indices(prefix) {
            // `super::super::vm`: the chain is one path, seen once from its first `super::`.
            if prefix == "super::" && text[..at].ends_with("super::") {
                continue;
            }
            let mut rest = &text[at + prefix.len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                rest = r;
            }
            if let Some(m) = names_upper(rest) {
                found.push((text[..at].matches('\n').count() + 1, m));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_check_sees_each_way_of_naming_an_upper_module() {
    assert_eq!(violations("use crate::vm::Vm;"), vec![(1, "vm")]);
    assert_eq!(violations("x\n    pub id: crate::builtins::NativeId,"), vec![(2, "builtins")]);
    assert_eq!(violations("use crate::{heap::Heap, interp::frame};"), vec![(1, "interp")]);
    assert_eq!(violations("use crate::{heap::{Heap, Arena}, vm};"), vec![(1, "vm")]);
    assert_eq!(violations("use crate::{\n    heap::Heap,\n    module::ModuleId,\n};"), vec![(1, "module")]);
    assert_eq!(violations("use super::super::realm::RealmId;"), vec![(1, "realm")]);
    assert_eq!(violations("/// [`crate::module::verify`]"), vec![(1, "module")]);
    // Heap paths, and upper names that are only a prefix of another name, are fine.
    assert!(violations("use crate::heap::{Heap, RealmId}; use crate::value::Value; crate::vmx").is_empty());
    assert!(violations("use super::shape::Shapes; use crate::runtimes;").is_empty());
}

#[test]
fn the_heap_and_the_value_types_name_no_upper_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = bottom_layer(&src);
    assert!(files.len() > 10, "found {} files under {}", files.len(), src.display());
    let mut report = String::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, module) in violations(&text) {
            let rel = file.strip_prefix(&src).unwrap().display();
            report.push_str(&format!("  src/{rel}:{line} names crate::{module}\n"));
        }
    }
    assert!(report.is_empty(), "heap/ is the bottom layer (heap/README.md), but:\n{report}");
}
