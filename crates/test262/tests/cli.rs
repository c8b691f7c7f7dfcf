//! The runner end to end, on the tiny suite in `tests/fixtures/mini-suite`: selection, skips,
//! broken metadata, results files, `--compare`, `--report`, and (with an engine that runs
//! scripts) every flag, negative phase, async completion and the instruction budget.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const EXE: &str = env!("CARGO_BIN_EXE_amber-test262");

fn fixture_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini-suite")
}

/// A scratch "repository root" with a config that points at the mini suite.
struct Root {
    dir: PathBuf,
}

impl Root {
    fn new(name: &str) -> Root {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "amber-t262-cli-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("test262")).unwrap();
        let config = format!(
            r#"
[suite]
tarball = "/nonexistent.tar.gz"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
commit = "mini"
dir = "{}"

[run]
max_instructions = 20_000_000
timeout_ms = 20_000
stack_size_mib = 16
can_block = true

[slice]
ci_stride = 5

[output]
conformance_dir = "conformance"
last_run = "last-run.json"

[skip.features]
"IsHTMLDDA" = "no [[IsHTMLDDA]] object"
"#,
            fixture_suite().display()
        );
        std::fs::write(dir.join("test262/config.toml"), config).unwrap();
        Root { dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(EXE).args(args).current_dir(&self.dir).output().unwrap()
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap()
    }

    fn expectations(&self) -> BTreeMap<String, String> {
        serde_json::from_str(&self.read("conformance/expectations.json")).unwrap()
    }

    fn write_expectations(&self, entries: &[(&str, &str)]) {
        let map: BTreeMap<&str, &str> = entries.iter().copied().collect();
        std::fs::create_dir_all(self.dir.join("conformance")).unwrap();
        std::fs::write(self.dir.join("conformance/expectations.json"), serde_json::to_string_pretty(&map).unwrap())
            .unwrap();
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn expected() -> BTreeMap<String, String> {
    serde_json::from_str(&std::fs::read_to_string(fixture_suite().join("expected.json")).unwrap()).unwrap()
}

#[test]
fn skips_broken_metadata_and_result_files() {
    let root = Root::new("files");
    let out = root.run(&["--update", "skip", "test/meta/"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    let e = root.expectations();
    assert_eq!(e.len(), 2, "only the selected tests are recorded: {e:?}");
    assert_eq!(e["skip/feature.js"], "SKIP");
    assert_eq!(e["meta/broken.js"], "FAIL");

    // The summary counts every test of the suite, whatever ran.
    let summary: serde_json::Value = serde_json::from_str(&root.read("conformance/summary.json")).unwrap();
    let total = expected().len() as u64;
    assert_eq!(summary["full"]["total"], total);
    assert_eq!(summary["main"]["total"], total - 1, "the decorators test is a proposal");
    assert_eq!(summary["core"]["total"], total - 2, "the Temporal test is not core");
    assert_eq!(summary["full"]["passed"], 0);
    assert_eq!(summary["full"]["skip"], 1);
    assert_eq!(summary["suite"], "mini");

    let readme = root.read("conformance/README.md");
    assert!(readme.contains("| `skip` | 0 | 1 | 0.00% | 0 | 0 | 0 | 1 |"), "{readme}");
    assert!(readme.contains("| feature `IsHTMLDDA` | no [[IsHTMLDDA]] object |"));

    let last: serde_json::Value = serde_json::from_str(&root.read("last-run.json")).unwrap();
    let msg = last["results"]["meta/broken.js"]["message"].as_str().unwrap();
    assert!(msg.contains("unknown flag `bogus`"), "{msg}");

    // -v shows why.
    let out = root.run(&["-v", "meta/broken.js"]);
    assert!(stdout(&out).contains("FAIL meta/broken.js"));
    assert!(stdout(&out).contains("unknown flag `bogus`"));
}

#[test]
fn compare_fails_on_regression_only() {
    let root = Root::new("compare");
    root.write_expectations(&[("skip/feature.js", "PASS"), ("meta/broken.js", "FAIL")]);
    let out = root.run(&["--compare", "skip", "meta"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("newly failing (1):\n  skip/feature.js  PASS -> SKIP"), "{text}");
    assert!(text.contains("compare: 1 passed, 1 failed"), "{text}");

    root.write_expectations(&[("skip/feature.js", "SKIP"), ("meta/broken.js", "CRASH")]);
    let out = root.run(&["--compare", "skip", "meta"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("changed (1):\n  meta/broken.js  CRASH -> FAIL"), "{text}");

    // --compare without committed expectations is an error, not a silent pass.
    std::fs::remove_file(root.dir.join("conformance/expectations.json")).unwrap();
    assert_eq!(root.run(&["--compare", "skip"]).status.code(), Some(2));
}

#[test]
fn report_regenerates_from_expectations() {
    let root = Root::new("report");
    root.write_expectations(&[("pass/plain.js", "PASS"), ("gone/removed.js", "PASS")]);
    let out = root.run(&["--report"]);
    assert_eq!(out.status.code(), Some(0));
    let summary: serde_json::Value = serde_json::from_str(&root.read("conformance/summary.json")).unwrap();
    assert_eq!(summary["full"]["passed"], 1, "ids that are not tests do not count");
    assert!(root.read("conformance/README.md").contains("| `pass` | 1 | 3 | 33.33% |"));
}

#[test]
fn usage_errors() {
    let root = Root::new("usage");
    assert_eq!(root.run(&["no/such/dir"]).status.code(), Some(2));
    assert_eq!(root.run(&["--frobnicate"]).status.code(), Some(2));
    let help = root.run(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("--snapshot-roundtrip"));
}

/// Tests whose expected outcome needs an engine feature that is not there yet, with what the
/// runner reports meanwhile. Remove an entry when `exec.rs` gains the feature.
const ENGINE_GAPS: &[(&str, &str)] = &[];

/// Every test of the mini suite gets its expected outcome: strict/non-strict double runs,
/// onlyStrict, noStrict, raw, each negative phase, async completion, includes, print,
/// $262.evalScript, the instruction budget. The snapshot round-trip gives the same results.
#[test]
fn semantics_of_flags_negatives_and_async() {
    let root = Root::new("semantics");
    let out = root.run(&["--update", "-j", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let actual = root.expectations();
    let last: serde_json::Value = serde_json::from_str(&root.read("last-run.json")).unwrap();
    let mut mismatches = Vec::new();
    for (id, want) in expected() {
        let got = actual.get(&id).cloned().unwrap_or_default();
        match ENGINE_GAPS.iter().find(|(gap, _)| *gap == id) {
            Some((_, why)) => {
                let msg = last["results"][&id]["message"].as_str().unwrap_or("");
                if got != "FAIL" || !msg.contains(why) {
                    mismatches.push(format!("{id}: engine gap; want FAIL ({why}), got {got}: {msg}"));
                }
            }
            None if got != want => {
                let msg = last["results"][&id]["message"].as_str().unwrap_or("");
                mismatches.push(format!("{id}: want {want}, got {got}: {msg}"));
            }
            None => {}
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    let timeout = last["results"]["limits/infinite-loop.js"]["message"].as_str().unwrap();
    assert!(timeout.contains("instruction limit"), "{timeout}");

    // -v on a single passing file shows what it printed.
    let out = root.run(&["-v", "host/print.js"]);
    assert!(stdout(&out).contains("hello from print"), "{}", stdout(&out));

    // The snapshot round-trip gives the same results.
    let out = root.run(&["--compare", "--snapshot-roundtrip"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("compare: 0 newly failing, 0 newly passing, 0 changed"));

    // A deliberately broken builtin fails --compare; restoring it passes.
    let out = root.run(&["--compare", "--break-builtin", "Array.prototype.at"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("pass/array-at.js  PASS -> FAIL"), "{}", stdout(&out));
    let out = root.run(&["--compare", "pass"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}
