//! The three headline figures and `conformance/summary.json`.
//!
//! Counted per test file (a file passes only if all of its modes pass):
//! - **full**: every test file under `test/`;
//! - **main**: without `staging/`, `annexB/`, `intl402/`, and without files whose `features`
//!   include one listed under "## Proposed language features" in `features.txt`;
//! - **core**: main without files whose `features` include `Temporal`.

use crate::expectations::{Expectations, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Top-level directories of `test/` that are not part of "main".
pub const EXCLUDED_FROM_MAIN: [&str; 3] = ["staging", "annexB", "intl402"];

/// The feature that separates "main" from "core".
pub const CORE_EXCLUDED_FEATURE: &str = "Temporal";

/// The headline counts of the pinned suite (issue 3); a test checks the listing reproduces them.
pub const PINNED_TOTALS: [(&str, u64); 3] = [("full", 53_575), ("main", 46_832), ("core", 42_231)];

/// Which headline groups a test belongs to (every test is in "full").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    pub main: bool,
    pub core: bool,
}

pub fn classify(id: &str, features: &[String], proposed: &BTreeSet<String>) -> Groups {
    let top = id.split('/').next().unwrap_or("");
    let main = !EXCLUDED_FROM_MAIN.contains(&top) && !features.iter().any(|f| proposed.contains(f));
    let core = main && !features.iter().any(|f| f == CORE_EXCLUDED_FEATURE);
    Groups { main, core }
}

/// One headline figure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub passed: u64,
    pub total: u64,
    pub percent: f64,
    pub crash: u64,
    pub timeout: u64,
    pub skip: u64,
}

impl Figure {
    fn add(&mut self, outcome: Option<Outcome>) {
        self.total += 1;
        match outcome {
            Some(Outcome::Pass) => self.passed += 1,
            Some(Outcome::Crash) => self.crash += 1,
            Some(Outcome::Timeout) => self.timeout += 1,
            Some(Outcome::Skip) => self.skip += 1,
            Some(Outcome::Fail) | None => {}
        }
    }

    fn finish(&mut self) {
        self.percent = percent(self.passed, self.total);
    }
}

/// `passed / total` as a percentage rounded to two decimals.
pub fn percent(passed: u64, total: u64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (passed as f64 * 10_000.0 / total as f64).round() / 100.0
}

/// `conformance/summary.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The tc39/test262 commit measured.
    pub suite: String,
    pub full: Figure,
    pub main: Figure,
    pub core: Figure,
}

/// A test as the summary and the README see it.
#[derive(Clone, Debug)]
pub struct TestInfo {
    pub id: String,
    pub features: Vec<String>,
    pub groups: Groups,
}

/// Counts `results` over every test of the suite; a test with no result has not passed.
pub fn summarize(suite: &str, tests: &[TestInfo], results: &Expectations) -> Summary {
    let mut s = Summary { suite: suite.to_string(), ..Summary::default() };
    for t in tests {
        let outcome = results.get(&t.id).copied();
        s.full.add(outcome);
        if t.groups.main {
            s.main.add(outcome);
        }
        if t.groups.core {
            s.core.add(outcome);
        }
    }
    s.full.finish();
    s.main.finish();
    s.core.finish();
    s
}

pub fn to_json(summary: &Summary) -> String {
    let mut text = serde_json::to_string_pretty(summary).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proposed() -> BTreeSet<String> {
        ["decorators".to_string(), "ShadowRealm".to_string()].into()
    }

    fn info(id: &str, features: &[&str]) -> TestInfo {
        let features: Vec<String> = features.iter().map(|s| s.to_string()).collect();
        let groups = classify(id, &features, &proposed());
        TestInfo { id: id.into(), features, groups }
    }

    #[test]
    fn classification() {
        let g = |id: &str, f: &[&str]| info(id, f).groups;
        assert_eq!(g("built-ins/Array/a.js", &[]), Groups { main: true, core: true });
        assert_eq!(g("language/x.js", &["class"]), Groups { main: true, core: true });
        assert_eq!(g("built-ins/Temporal/a.js", &["Temporal"]), Groups { main: true, core: false });
        for top in ["staging/a.js", "annexB/b.js", "intl402/c.js"] {
            assert_eq!(g(top, &[]), Groups { main: false, core: false });
        }
        assert_eq!(g("language/d.js", &["class", "decorators"]), Groups { main: false, core: false });
        // Only the top-level directory matters.
        assert_eq!(g("built-ins/staging/a.js", &[]), Groups { main: true, core: true });
    }

    #[test]
    fn figures() {
        let tests = vec![
            info("built-ins/a.js", &[]),
            info("built-ins/b.js", &[]),
            info("built-ins/t.js", &["Temporal"]),
            info("staging/s.js", &[]),
            info("language/c.js", &[]),
        ];
        let results: Expectations = [
            ("built-ins/a.js", Outcome::Pass),
            ("built-ins/b.js", Outcome::Crash),
            ("built-ins/t.js", Outcome::Pass),
            ("staging/s.js", Outcome::Pass),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
        let s = summarize("abc", &tests, &results);
        assert_eq!((s.full.passed, s.full.total, s.full.crash), (3, 5, 1));
        assert_eq!(s.full.percent, 60.0);
        assert_eq!((s.main.passed, s.main.total), (2, 4));
        assert_eq!((s.core.passed, s.core.total), (1, 3));
        assert_eq!(s.core.percent, 33.33);
        let text = to_json(&s);
        assert!(text.contains("\"passed\": 3"));
        let back: Summary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn percent_rounds() {
        assert_eq!(percent(0, 0), 0.0);
        assert_eq!(percent(2, 3), 66.67);
        assert_eq!(percent(46_832, 46_832), 100.0);
    }
}
