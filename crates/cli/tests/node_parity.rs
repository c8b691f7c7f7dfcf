//! Node parity: every `crates/node/tests/parity/**/<name>.{js,mjs,cjs}` runs under `node` and
//! under `amber run`, each in a fresh scratch directory holding a copy of the script's folder
//! (so relative `fs` paths work the same on both sides), and stdout plus the exit status must
//! be equal. Scripts print only what is deterministic by design (no random bytes, no wall
//! time). Node is required: a machine without it fails this test rather than skipping it;
//! npm installs the pinned packages of fixture projects that lack `node_modules`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "node_modules" && n != "fixtures") {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "js" || e == "mjs" || e == "cjs") {
            out.push(p);
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create scratch dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir").flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy fixture");
        }
    }
}

/// (stdout, exit status) of `program args… file` run in a scratch copy of the file's folder.
fn run_in_scratch(tag: &str, index: usize, file: &Path, program: &str, args: &[&str]) -> (String, i32) {
    run_in_scratch_with_tz(tag, index, file, program, args, "UTC")
}

/// [`run_in_scratch`] with the environment's `TZ` set to `tz`.
fn run_in_scratch_with_tz(
    tag: &str,
    index: usize,
    file: &Path,
    program: &str,
    args: &[&str],
    tz: &str,
) -> (String, i32) {
    run_in_scratch_with_env(tag, index, file, program, args, &[("TZ", tz)])
}

/// [`run_in_scratch`] with `env` added to the environment (`TZ` is UTC unless `env` sets it).
fn run_in_scratch_with_env(
    tag: &str,
    index: usize,
    file: &Path,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (String, i32) {
    let scratch = std::env::temp_dir().join(format!("amber-parity-{}-{tag}-{index}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    copy_dir(file.parent().expect("parent"), &scratch);
    let name = file.file_name().expect("file name");
    let out = Command::new(program)
        .args(args)
        .arg(name)
        .current_dir(&scratch)
        .env("TZ", "UTC")
        .envs(env.iter().copied())
        .env("AMBER_STORE", scratch.join(".amber"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e} (node parity tests need node on PATH)"));
    let _ = std::fs::remove_dir_all(&scratch);
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

/// Fixture projects (a `package-lock.json` beside the scripts) get their pinned npm packages
/// installed on first use, so `cargo test` works on a fresh checkout (CI runs `npm ci` first).
fn install_packages(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let p = entry.path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "node_modules") {
            install_packages(&p);
        }
    }
    if dir.join("package-lock.json").is_file() && !dir.join("node_modules").is_dir() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(dir)
            .status()
            .unwrap_or_else(|e| panic!("cannot run npm to install {}: {e}", dir.display()));
        assert!(status.success(), "npm ci failed in {}", dir.display());
    }
}

/// How node's (stdout, exit) and amber's differ, for the failure report: the first line that
/// differs.
fn difference(name: &str, expected: &(String, i32), actual: &(String, i32)) -> String {
    let (e, a) = (&expected.0, &actual.0);
    let line = e.lines().zip(a.lines()).position(|(x, y)| x != y).unwrap_or(e.lines().count().min(a.lines().count()));
    format!(
        "{name}: exit node {} / amber {}; first difference at line {}:\n  node:  {:?}\n  amber: {:?}",
        expected.1,
        actual.1,
        line + 1,
        e.lines().nth(line).unwrap_or("<end>"),
        a.lines().nth(line).unwrap_or("<end>"),
    )
}

#[test]
fn node_parity() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/tests/parity");
    install_packages(&root);
    let mut files = Vec::new();
    collect(&root, &mut files);
    assert!(!files.is_empty(), "no parity scripts under {}", root.display());
    let mut failures = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let expected = run_in_scratch("node", i, f, "node", &[]);
        let actual = run_in_scratch("amber", i, f, env!("CARGO_BIN_EXE_amber"), &["run"]);
        if expected != actual {
            failures.push(difference(&f.strip_prefix(&root).unwrap_or(f).display().to_string(), &expected, &actual));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} parity scripts differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The zones the `time_zones/` scripts also run in: daylight saving north and south, half-
/// and quarter-hour offsets, a 30-minute DST shift (Lord Howe) and one at 02:45/03:45
/// (Chatham).
const TIME_ZONES: &[&str] = &[
    "America/New_York",
    "Europe/Berlin",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "America/Sao_Paulo",
    "Pacific/Chatham",
    "Asia/Kathmandu",
    "America/St_Johns",
];

/// Date's local time follows the run's zone: each `time_zones/` script prints the same under
/// `node` with `TZ=zone` as under `amber run --tz zone` — whose own environment names another
/// zone, which must not leak in.
#[test]
fn node_parity_in_time_zones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/tests/parity/time_zones");
    let mut files = Vec::new();
    collect(&root, &mut files);
    assert!(!files.is_empty(), "no parity scripts under {}", root.display());
    let mut failures = Vec::new();
    for (i, f) in files.iter().enumerate() {
        for zone in TIME_ZONES {
            let expected = run_in_scratch_with_tz("tz-node", i, f, "node", &[], zone);
            let args = ["run", "--tz", zone];
            let actual = run_in_scratch_with_tz("tz-amber", i, f, env!("CARGO_BIN_EXE_amber"), &args, "Asia/Tokyo");
            if expected != actual {
                let name = format!("{} in {zone}", f.strip_prefix(&root).unwrap_or(f).display());
                failures.push(difference(&name, &expected, &actual));
            }
        }
    }
    assert!(failures.is_empty(), "{} runs differ:\n{}", failures.len(), failures.join("\n"));
}

/// The primordials cells Node 20 itself fails (`primordials/fixtures/beyond_node.js`, which
/// the parity walk skips with the rest of `fixtures/`): with each method replaced, `amber run`
/// must print what `node` prints for the same cells with nothing replaced.
#[test]
fn primordials_beyond_node() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/tests/parity/primordials/fixtures/beyond_node.js");
    let reference = [("PRIMORDIALS_REFERENCE", "1")];
    let expected = run_in_scratch_with_env("beyond-node", 0, &file, "node", &[], &reference);
    let actual = run_in_scratch("beyond-amber", 0, &file, env!("CARGO_BIN_EXE_amber"), &["run"]);
    assert_eq!(expected.1, 0, "node failed on the reference run:\n{}", expected.0);
    assert!(expected.0.lines().count() > 20, "the reference run printed too little:\n{}", expected.0);
    if expected != actual {
        panic!("{}", difference("primordials/fixtures/beyond_node.js", &expected, &actual));
    }
}
