//! TypeScript behaviour tests: every `tests/ts/**/<name>.{ts,mts,cts}` in a folder with a
//! tsconfig.json runs under `amber run`, and its stdout (then `--- exit N` and the first
//! stderr line when it fails) must equal `<name>.expected`, which `tests/ts/generate.sh`
//! makes with the real `typescript` compiler and node 20 (`--enable-source-maps`, so stack
//! positions are TypeScript positions). A test without an expectation fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tests_in(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() && p.join("tsconfig.json").is_file() {
            tests_in(&p, out);
        } else if p.extension().is_some_and(|e| e == "ts" || e == "mts" || e == "cts") {
            out.push(p);
        }
    }
}

fn actual_output(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_amber"))
        .arg("run")
        .arg(file.file_name().expect("file name"))
        .current_dir(file.parent().unwrap_or(Path::new(".")))
        .env("TZ", "UTC")
        .env("AMBER_STORE", std::env::temp_dir().join(format!("amber-ts-{}", std::process::id())))
        .output()
        .expect("run amber");
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        let stderr = String::from_utf8_lossy(&out.stderr);
        s.push_str(&format!("--- exit {code}\n{}\n", stderr.lines().next().unwrap_or("")));
    }
    s
}

#[test]
fn typescript_behaviour() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ts");
    let mut files = Vec::new();
    tests_in(&root, &mut files);
    assert!(files.len() >= 4, "TypeScript tests missing under {}", root.display());
    let mut failures = Vec::new();
    for f in &files {
        let expected = std::fs::read_to_string(f.with_extension("expected")).unwrap_or_default();
        if expected.is_empty() {
            failures.push(format!("{}: no expectation (run tests/ts/generate.sh)", f.display()));
            continue;
        }
        let actual = actual_output(f);
        if expected != actual {
            failures.push(format!("{}:\n  expected: {expected:?}\n  actual:   {actual:?}", f.display()));
        }
    }
    println!("{} passed, {} failed", files.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
