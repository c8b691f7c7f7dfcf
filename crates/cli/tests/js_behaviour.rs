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

fn actual_output(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_amber"))
        .arg("run")
        .arg(file)
        .current_dir(file.parent().unwrap_or(Path::new(".")))
        .env("TZ", "UTC")
        .output()
        .expect("run amber");
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or("");
        s.push_str(&format!("--- exit {code}\n{first}\n"));
    }
    s
}

#[test]
fn js_behaviour() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for krate in ["engine", "node", "amber", "cli"] {
        collect(&root.join("crates").join(krate).join("tests/js"), &mut files);
    }
    assert!(!files.is_empty(), "no JS behaviour tests found");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let expected_path = f.with_extension("expected");
        let actual = actual_output(f);
        if update {
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
                f.strip_prefix(&root).unwrap_or(f).display(),
                first_diff + 1,
                expected.lines().nth(first_diff).unwrap_or("<end>"),
                actual.lines().nth(first_diff).unwrap_or("<end>")
            ));
        }
    }
    println!("{} passed, {} failed", files.len() - failures.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} JS behaviour tests differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
