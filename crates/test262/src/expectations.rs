//! Per-test outcomes, the committed `conformance/expectations.json`, and the comparison of a
//! run against it (`--compare`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The result of one test file (all of its modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Outcome {
    Pass,
    Fail,
    /// Out of instructions, or killed by the wall-clock watchdog.
    Timeout,
    /// The worker panicked, aborted or overflowed its native stack.
    Crash,
    /// Not run, by a rule in `test262/config.toml` (counts as a failure).
    Skip,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [Outcome::Pass, Outcome::Fail, Outcome::Timeout, Outcome::Crash, Outcome::Skip];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Timeout => "TIMEOUT",
            Outcome::Crash => "CRASH",
            Outcome::Skip => "SKIP",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Test id → outcome, sorted by id.
pub type Expectations = BTreeMap<String, Outcome>;

/// Reads an expectations file; a missing file is an empty map.
pub fn load(path: &Path) -> Result<Expectations, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Expectations::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The file's text: one `"id": "OUTCOME"` per line, sorted, so a diff shows exactly which
/// tests flipped.
pub fn to_json(expectations: &Expectations) -> String {
    let mut out = String::from("{\n");
    let mut first = true;
    for (id, outcome) in expectations {
        if !first {
            out.push_str(",\n");
        }
        first = false;
        let key = serde_json::to_string(id).unwrap_or_else(|_| format!("\"{id}\""));
        out.push_str(&format!("  {key}: \"{outcome}\""));
    }
    out.push_str("\n}\n");
    out
}

/// One test whose outcome differs from the committed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub id: String,
    /// `None` when the test is not in the committed file (a new test).
    pub before: Option<Outcome>,
    pub after: Outcome,
}

/// A run compared with the committed expectations, restricted to the tests that ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// PASS before, anything else now: a regression.
    pub newly_failing: Vec<Change>,
    /// Not PASS (or unknown) before, PASS now.
    pub newly_passing: Vec<Change>,
    /// A failure that changed kind (FAIL → TIMEOUT, CRASH → FAIL…), or a new failing test.
    pub changed: Vec<Change>,
}

impl Diff {
    pub fn is_regression(&self) -> bool {
        !self.newly_failing.is_empty()
    }

    pub fn is_empty(&self) -> bool {
        self.newly_failing.is_empty() && self.newly_passing.is_empty() && self.changed.is_empty()
    }
}

/// Compares `actual` (the tests that ran) with `committed`.
pub fn diff(committed: &Expectations, actual: &Expectations) -> Diff {
    let mut d = Diff::default();
    for (id, &after) in actual {
        let before = committed.get(id).copied();
        if before == Some(after) {
            continue;
        }
        let change = Change { id: id.clone(), before, after };
        match (before, after) {
            (Some(Outcome::Pass), _) => d.newly_failing.push(change),
            (_, Outcome::Pass) => d.newly_passing.push(change),
            _ => d.changed.push(change),
        }
    }
    d
}

/// Replaces the entries of `base` that ran with their new outcomes; entries for ids that are
/// no longer tests (`valid`) are dropped.
pub fn merge(base: &Expectations, actual: &Expectations, valid: &dyn Fn(&str) -> bool) -> Expectations {
    let mut out: Expectations = base.iter().filter(|(id, _)| valid(id)).map(|(id, o)| (id.clone(), *o)).collect();
    for (id, o) in actual {
        out.insert(id.clone(), *o);
    }
    out
}

/// The human report of a diff.
pub fn render_diff(d: &Diff) -> String {
    let mut out = String::new();
    let mut section = |title: &str, items: &[Change]| {
        if items.is_empty() {
            return;
        }
        out.push_str(&format!("{title} ({}):\n", items.len()));
        for c in items {
            let before = c.before.map_or("(new)", Outcome::name);
            out.push_str(&format!("  {}  {before} -> {}\n", c.id, c.after));
        }
    };
    section("newly failing", &d.newly_failing);
    section("newly passing", &d.newly_passing);
    section("changed", &d.changed);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(items: &[(&str, Outcome)]) -> Expectations {
        items.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn json_is_sorted_one_per_line_and_round_trips() {
        let e = exp(&[("b/x.js", Outcome::Fail), ("a/y.js", Outcome::Pass), ("a/\"q\".js", Outcome::Crash)]);
        let text = to_json(&e);
        assert_eq!(text, "{\n  \"a/\\\"q\\\".js\": \"CRASH\",\n  \"a/y.js\": \"PASS\",\n  \"b/x.js\": \"FAIL\"\n}\n");
        let back: Expectations = serde_json::from_str(&text).unwrap();
        assert_eq!(back, e);
        assert_eq!(to_json(&Expectations::new()), "{\n\n}\n");
        let empty: Expectations = serde_json::from_str(&to_json(&Expectations::new())).unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn diff_classifies_changes() {
        use Outcome::*;
        let committed = exp(&[
            ("pass-stays", Pass),
            ("pass-breaks", Pass),
            ("pass-crashes", Pass),
            ("fail-fixed", Fail),
            ("skip-fixed", Skip),
            ("fail-times-out", Fail),
            ("fail-stays", Fail),
            ("not-run", Pass),
        ]);
        let actual = exp(&[
            ("pass-stays", Pass),
            ("pass-breaks", Fail),
            ("pass-crashes", Crash),
            ("fail-fixed", Pass),
            ("skip-fixed", Pass),
            ("fail-times-out", Timeout),
            ("fail-stays", Fail),
            ("brand-new-pass", Pass),
            ("brand-new-fail", Fail),
        ]);
        let d = diff(&committed, &actual);
        let ids = |v: &[Change]| v.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&d.newly_failing), ["pass-breaks", "pass-crashes"]);
        assert_eq!(ids(&d.newly_passing), ["brand-new-pass", "fail-fixed", "skip-fixed"]);
        assert_eq!(ids(&d.changed), ["brand-new-fail", "fail-times-out"]);
        assert!(d.is_regression());
        let report = render_diff(&d);
        assert!(report.contains("newly failing (2):\n  pass-breaks  PASS -> FAIL\n"));
        assert!(report.contains("brand-new-pass  (new) -> PASS"));

        let same = diff(&committed, &exp(&[("pass-stays", Pass), ("fail-stays", Fail)]));
        assert!(same.is_empty() && !same.is_regression());
    }

    #[test]
    fn merge_keeps_what_did_not_run() {
        use Outcome::*;
        let base = exp(&[("a", Pass), ("b", Fail), ("gone", Pass)]);
        let ran = exp(&[("b", Pass), ("c", Crash)]);
        let merged = merge(&base, &ran, &|id| id != "gone");
        assert_eq!(merged, exp(&[("a", Pass), ("b", Pass), ("c", Crash)]));
    }
}
