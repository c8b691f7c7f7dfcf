//! JS behaviour tests: every `crates/*/tests/js/**/<name>.js` runs under `amber run`, and its
//! stdout must equal `<name>.expected` (what `node` prints for the same file). When the run
//! exits non-zero, the expected file ends with `--- exit N` and the first stderr line.
//! `UPDATE_EXPECT=1` rewrites the expected files from the actual output.

use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "js" || e == "mjs") {
            out.push(p);
        }
    }
}

/// `amber run file`; with `gc_interval`, in the GC-stress mode (`AMBER_GC_INTERVAL`).
fn actual_output(file: &Path, gc_interval: Option<u64>) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_amber"));
    cmd.arg("run").arg(file).current_dir(file.parent().unwrap_or(Path::new("."))).env("TZ", "UTC");
    match gc_interval {
        Some(n) => cmd.env("AMBER_GC_INTERVAL", n.to_string()),
        None => cmd.env_remove("AMBER_GC_INTERVAL"),
    };
    let out = cmd.output().expect("run amber");
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or("");
        s.push_str(&format!("--- exit {code}\n{first}\n"));
    }
    s
}

fn corpus(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in ["engine", "node", "amber", "cli"] {
        collect(&root.join("crates").join(krate).join("tests/js"), &mut files);
    }
    assert!(!files.is_empty(), "no JS behaviour tests found");
    files
}

#[test]
fn js_behaviour() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    check_all(&root, &corpus(&root), |_| Some(None));
}

/// The programs that allocate so much that collecting after every allocation would take
/// minutes: they run in the stress mode with this interval instead (None: not at all).
const STRESS_EXCEPTIONS: &[(&str, Option<u64>)] = &[
    // Two million proxies; nothing in it holds a value across a call.
    ("engine/tests/js/proxy/deep.js", None),
    ("engine/tests/js/regexp/large.js", Some(50_000)),
    ("engine/tests/js/json/stringify.js", Some(20_000)),
    // The collection tests themselves: hundreds of thousands of objects each.
    ("engine/tests/js/map/gc.js", Some(2_000)),
    ("engine/tests/js/proxy/gc.js", Some(2_000)),
    ("engine/tests/js/promise/gc.js", Some(2_000)),
    ("engine/tests/js/module/dynamic_import_gc.mjs", Some(1_000)),
    ("engine/tests/js/module/dynamic_import_gc_dep.mjs", Some(1_000)),
];

/// The same corpus in the GC-stress mode: a collection after every allocation (at the next
/// instruction boundary), so a value that a native holds without a root across a call into
/// JS is freed while still in use and the program's output changes. The few programs that
/// allocate hundreds of thousands of objects collect every N allocations instead.
#[test]
fn js_behaviour_under_gc_stress() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let crates = root.join("crates");
    let files = corpus(&root);
    for (name, _) in STRESS_EXCEPTIONS {
        assert!(files.iter().any(|f| f.strip_prefix(&crates).is_ok_and(|p| p == Path::new(name))), "{name} is gone");
    }
    check_all(&root, &files, |f| {
        let rel = f.strip_prefix(&crates).unwrap_or(f);
        match STRESS_EXCEPTIONS.iter().find(|(name, _)| rel == Path::new(name)) {
            Some(&(_, interval)) => interval.map(Some),
            None => Some(Some(1)),
        }
    });
}

/// Run every file (`interval(f)`: None skips it, Some(gc_interval) runs it) and compare.
fn check_all(root: &Path, files: &[PathBuf], interval: impl Fn(&Path) -> Option<Option<u64>>) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for f in files {
        let Some(gc_interval) = interval(f) else { continue };
        ran += 1;
        let expected_path = f.with_extension("expected");
        let actual = actual_output(f, gc_interval);
        if update && gc_interval.is_none() {
            std::fs::write(&expected_path, &actual).expect("write expected");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            let first_diff = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            failures.push(format!(
                "{}: line {}\n  expected: {:?}\n  actual:   {:?}",
                f.strip_prefix(root).unwrap_or(f).display(),
                first_diff + 1,
                expected.lines().nth(first_diff).unwrap_or("<end>"),
                actual.lines().nth(first_diff).unwrap_or("<end>")
            ));
        }
    }
    println!("{} passed, {} failed", ran - failures.len(), failures.len());
    assert!(failures.is_empty(), "{} of {} JS behaviour tests differ:\n{}", failures.len(), ran, failures.join("\n"));
}
