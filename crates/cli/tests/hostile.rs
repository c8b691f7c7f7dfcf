//! The hostile-programs corpus (`tests/hostile/*.js`): memory bombs of every growth kind,
//! nesting a million levels deep, native loops over 2^32-element arrays, and recursion
//! through builtins. Each file says, in `// args:`, `// exit:`, `// stdout:` and `// stderr:`
//! header lines, how `amber run` is invoked and what it must produce; none may crash the
//! process, hang, or exceed its limit unnoticed.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    path: PathBuf,
    args: Vec<String>,
    exit: i32,
    stdout: Option<String>,
    stderr: Option<String>,
    /// `// max-rss: F`: peak RSS at most F times the `--max-heap` limit.
    max_rss: Option<f64>,
}

fn header(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix(&format!("// {key}: ")).map(str::to_string))
}

fn cases(prefix: &str) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    paths.sort();
    let cases: Vec<Case> = paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let exit = header(&text, "exit").unwrap_or_else(|| panic!("{}: no `// exit:` line", path.display()));
            Case {
                args: header(&text, "args")
                    .map(|a| a.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
                exit: exit.parse().unwrap(),
                stdout: header(&text, "stdout"),
                stderr: header(&text, "stderr"),
                max_rss: header(&text, "max-rss").map(|f| f.parse().unwrap()),
                path,
            }
        })
        .collect();
    assert!(!cases.is_empty(), "no hostile cases named {prefix}*");
    cases
}

fn check(prefix: &str) {
    let mut failures = Vec::new();
    for case in cases(prefix) {
        let dir = tempdir(&case.path);
        // Peak RSS comes from GNU time (`%M`, KiB, its last stderr line) where it exists.
        let time = Path::new("/usr/bin/time");
        let measure = case.max_rss.is_some() && time.exists();
        let mut cmd = if measure {
            let mut c = Command::new(time);
            c.args(["-f", "%M"]).arg(env!("CARGO_BIN_EXE_amber"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_amber"))
        };
        let out = cmd.arg("run").arg(&case.path).args(&case.args).env("AMBER_STORE", &dir).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let name = case.path.file_name().unwrap().to_string_lossy().to_string();
        if out.status.code() != Some(case.exit) {
            failures.push(format!("{name}: exit {:?}, expected {} (stderr: {stderr})", out.status, case.exit));
        } else if case.stdout.as_ref().is_some_and(|s| !stdout.lines().all(|l| l == s) || stdout.is_empty()) {
            failures.push(format!("{name}: stdout {stdout:?}, expected every line to be {:?}", case.stdout));
        } else if case.stderr.as_ref().is_some_and(|s| !stderr.contains(s.as_str())) {
            failures.push(format!("{name}: stderr {stderr:?}, expected {:?}", case.stderr));
        } else if let (true, Some(factor)) = (measure, case.max_rss) {
            let peak_kib: f64 = stderr.lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or(f64::MAX);
            let limit = heap_limit(&case.args).unwrap_or_else(|| panic!("{name}: max-rss without --max-heap"));
            if peak_kib * 1024.0 > factor * limit {
                failures.push(format!("{name}: peak RSS {peak_kib} KiB, more than {factor} x {limit} bytes"));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `--max-heap` argument in bytes (K/M/G are powers of 1024, as the CLI reads them).
fn heap_limit(args: &[String]) -> Option<f64> {
    let v = &args[args.iter().position(|a| a == "--max-heap")? + 1];
    let (digits, unit) = match v.chars().last()? {
        'K' => (&v[..v.len() - 1], 1024.0),
        'M' => (&v[..v.len() - 1], 1024.0 * 1024.0),
        'G' => (&v[..v.len() - 1], 1024.0 * 1024.0 * 1024.0),
        _ => (v.as_str(), 1.0),
    };
    Some(digits.parse::<f64>().ok()? * unit)
}

fn tempdir(case: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "amber-hostile-{}-{}",
        std::process::id(),
        case.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn memory_bombs_stop_at_the_heap_limit() {
    check("heap_");
}

#[test]
fn nesting_a_million_deep_is_a_syntax_error() {
    check("nest_");
}

#[test]
fn native_loops_stop_under_the_instruction_budget() {
    check("fuel_");
}

#[test]
fn recursion_through_builtins_reaches_ten_thousand_frames() {
    check("recursion_");
    check("bind_");
    check("join_");
}

#[test]
fn walks_a_million_deep_end_cleanly() {
    check("deep_");
}

/// Source files nested a million levels deep (array and object literals, parentheses,
/// blocks) end in a clean SyntaxError or RangeError (node: RangeError), never a native stack
/// overflow: loaded by `require` or `import()`, and as the entry, CommonJS or ES module. A
/// deep JSON file through `require` may load (as in node) or be a RangeError. The entry's
/// error report shows a window of the offending line, not the whole (2 MB) line.
#[test]
fn source_files_nested_a_million_deep_are_clean_errors() {
    const N: usize = 1_000_000;
    let dir = tempdir(Path::new("nested_files"));
    let files = [
        ("array.js", format!("module.exports = {}{};\n", "[".repeat(N), "]".repeat(N))),
        ("parens.js", format!("module.exports = {}1{};\n", "(".repeat(N), ")".repeat(N))),
        ("object.js", format!("module.exports = {}1{};\n", "{a:".repeat(N), "}".repeat(N))),
        ("blocks.js", format!("{}{}\n", "{".repeat(N), "}".repeat(N))),
        ("array.mjs", format!("export default {}{};\n", "[".repeat(N), "]".repeat(N))),
        ("deep.json", format!("{}{}", "[".repeat(N), "]".repeat(N))),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let main = dir.join("main.js");
    std::fs::write(
        &main,
        "for (const f of ['./array.js', './parens.js', './object.js', './blocks.js', './deep.json']) {\n\
         try { require(f); console.log(f, 'loaded'); } catch (e) { console.log(f, e.name); }\n}\n\
         import('./array.mjs').then(() => console.log('./array.mjs loaded'), (e) => console.log('./array.mjs', e.name));\n",
    )
    .unwrap();
    let amber = |file: &Path| {
        Command::new(env!("CARGO_BIN_EXE_amber"))
            .arg("run")
            .arg(file)
            .env("AMBER_STORE", dir.join("store"))
            .output()
            .unwrap()
    };
    let out = amber(&main);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    for line in lines {
        let clean = line.ends_with(" SyntaxError") || line.ends_with(" RangeError");
        assert!(clean || line == "./deep.json loaded", "{line}");
    }
    for name in ["array.js", "parens.js", "object.js", "blocks.js", "array.mjs"] {
        let out = amber(&dir.join(name));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("SyntaxError") || stderr.contains("RangeError"), "{name}: {stderr}");
        assert!(stderr.len() < 4096, "{name}: {} bytes of stderr", stderr.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
