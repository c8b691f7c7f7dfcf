//! The README's conformance and speed figures are derived from the files that hold the
//! measurements (`conformance/summary.json` and `expectations.json`, written by
//! `amber-test262 --update`; `benches/RESULTS.md` and `benches/RESULTS-corpus.md`, written by
//! `benches/run.sh` and `benches/corpus.sh`), so a run that moves a number and leaves the README
//! behind fails here with the sentence to paste.
//!
//! It lives with the conformance runner because most of the figures are its output.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    let path = root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The README with every run of whitespace made one space: its sentences wrap at any word.
fn readme_text() -> String {
    read("README.md").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// 53239 -> "53,239", as the README writes counts.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "99.37% (53,239 / 53,575)", rounded as `summary.json` rounds (two decimals).
fn figure(passed: u64, total: u64) -> String {
    let percent = if total == 0 { 0.0 } else { passed as f64 * 100.0 / total as f64 };
    format!("{percent:.2}% ({} / {})", thousands(passed), thousands(total))
}

fn summary_figure(summary: &Value, group: &str) -> (String, u64) {
    let count = |field: &str| {
        summary[group][field].as_u64().unwrap_or_else(|| panic!("summary.json: {group}.{field} is not a count"))
    };
    (figure(count("passed"), count("total")), count("crash"))
}

/// Passed and total test files whose path starts with `prefix` and not with any of `except`.
fn directory_figure(expectations: &serde_json::Map<String, Value>, prefix: &str, except: &[&str]) -> String {
    let files =
        expectations.iter().filter(|(path, _)| path.starts_with(prefix) && !except.iter().any(|e| path.starts_with(e)));
    let (mut passed, mut total) = (0, 0);
    for (_, outcome) in files {
        total += 1;
        passed += u64::from(outcome.as_str() == Some("PASS"));
    }
    assert!(total > 0, "expectations.json holds no file under {prefix}");
    figure(passed, total)
}

fn assert_readme_says(readme: &str, sentence: &str, source: &str) {
    assert!(
        readme.contains(sentence),
        "README.md no longer matches {source}; it should say:\n\n{sentence}\n\n(regenerate {source} first if it is \
         the stale one)"
    );
}

#[test]
fn readme_conformance_figures_match_the_committed_results() {
    let summary: Value = serde_json::from_str(&read("conformance/summary.json")).expect("summary.json parses");
    let expectations: Value =
        serde_json::from_str(&read("conformance/expectations.json")).expect("expectations.json parses");
    let expectations = expectations.as_object().expect("expectations.json is an object of files");

    let (full, crashes) = summary_figure(&summary, "full");
    let (main, _) = summary_figure(&summary, "main");
    let (core, _) = summary_figure(&summary, "core");
    let temporal = directory_figure(expectations, "built-ins/Temporal/", &[]);
    let intl_temporal = directory_figure(expectations, "intl402/Temporal/", &[]);
    let intl = directory_figure(expectations, "intl402/", &["intl402/Temporal/"]);
    let crash_clause = if crashes == 0 { "no crashes".to_string() } else { format!("{crashes} crashing files") };
    let sentence = format!(
        "full {full}, main {main}, core {core}, `built-ins/Temporal` {temporal}, `intl402/Temporal` \
         {intl_temporal}, `intl402` outside Temporal {intl}, {crash_clause},"
    );
    assert_readme_says(&readme_text(), &sentence, "conformance/summary.json and expectations.json");
}

/// The figures in a results file in `benches/RESULTS.md`'s shape: the geomean row's time and
/// RSS ratios and the line "Worst program ratio: T (time), R (peak RSS)."
fn bench_ratios(results: &str) -> (String, String) {
    let geomean = results.lines().find(|l| l.starts_with("| **geomean**")).expect("the results file has a geomean row");
    let bold: Vec<&str> = geomean.split('|').map(str::trim).filter(|c| c.starts_with("**") && c.len() > 4).collect();
    let time = bold.get(1).expect("the geomean row holds the time ratio").trim_matches('*').to_string();
    let worst = results
        .lines()
        .find_map(|l| l.strip_prefix("Worst program ratio: "))
        .expect("the results file states the worst program ratio");
    let worst = worst.trim_end_matches('.').to_string();
    (time, worst)
}

/// The README's sentence for a results file in RESULTS.md's shape: "G x QuickJS's time
/// (geometric mean; worst program T x), peak memory at most R x QuickJS's."
fn speed_sentence(results: &str, file: &str) -> String {
    let (geomean, worst) = bench_ratios(results);
    let (worst_time, worst_rss) = worst
        .split_once(" (time), ")
        .and_then(|(t, rest)| Some((t, rest.strip_suffix(" (peak RSS)")?)))
        .unwrap_or_else(|| panic!("{file} worst-ratio line has an unknown shape: {worst}"));
    format!(
        "{geomean}x QuickJS's time (geometric mean; worst program {worst_time}x), peak memory at most {worst_rss}x \
         QuickJS's."
    )
}

#[test]
fn readme_speed_figures_match_the_committed_benchmark_results() {
    // RESULTS.md from benches/run.sh (the V8 programs), RESULTS-corpus.md from
    // benches/corpus.sh (the held-out corpus): same table shape, one sentence each.
    for file in ["benches/RESULTS.md", "benches/RESULTS-corpus.md"] {
        let sentence = speed_sentence(&read(file), file);
        assert_readme_says(&readme_text(), &sentence, file);
    }
}

#[test]
fn counts_are_written_as_the_readme_writes_them() {
    assert_eq!(thousands(7), "7");
    assert_eq!(thousands(1_328), "1,328");
    assert_eq!(thousands(53_575), "53,575");
    assert_eq!(thousands(1_000_000), "1,000,000");
    assert_eq!(figure(1_270, 1_328), "95.63% (1,270 / 1,328)");
}
