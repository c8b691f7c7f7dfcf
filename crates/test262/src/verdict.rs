//! Judging one execution (INTERPRETING.md, "Test Results", "negative", the `async` flag).
//!
//! `exec` reduces whatever the engine reported to an engine-neutral [`Execution`]; this module
//! decides PASS / FAIL / TIMEOUT from it, so the rules are tested without an engine.

use crate::expectations::Outcome;
use crate::frontmatter::{Negative, Phase};

/// What `print` receives when an async test completes.
pub const ASYNC_COMPLETE: &str = "Test262:AsyncTestComplete";
/// The prefix of what `print` receives when an async test fails.
pub const ASYNC_FAILURE: &str = "Test262:AsyncTestFailure:";

/// Why an execution stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// An error escaped the test, at a phase.
    Error {
        phase: Phase,
        /// The thrown value's constructor name (`TypeError`, `Test262Error`…); empty when the
        /// thrown value is not an object with a constructor (e.g. a string).
        name: String,
        message: String,
    },
    /// The instruction budget ran out.
    Limit(String),
    /// The heap budget ran out.
    OutOfMemory(String),
    /// A harness file failed, or the runner could not set the test up.
    Harness(String),
    /// The engine lacks something the test needs (modules, a `$262` capability…).
    Unsupported(String),
    /// `--snapshot-roundtrip`: imaging or restoring the VM failed.
    Snapshot(String),
}

/// An execution as `exec` saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Execution {
    /// `None`: evaluation and the job queue completed normally.
    pub failure: Option<Failure>,
    /// The strings passed to `print`, in order.
    pub printed: Vec<String>,
}

/// The verdict and, when it is not PASS, why.
pub fn judge(exec: &Execution, negative: Option<&Negative>, is_async: bool) -> (Outcome, String) {
    match (&exec.failure, negative) {
        (Some(Failure::Limit(what)), _) => (Outcome::Timeout, what.clone()),
        (Some(Failure::OutOfMemory(what)), _) => (Outcome::Fail, what.clone()),
        (Some(Failure::Harness(why)), _) => (Outcome::Fail, format!("harness: {why}")),
        (Some(Failure::Unsupported(why)), _) => (Outcome::Fail, format!("unsupported: {why}")),
        (Some(Failure::Snapshot(why)), _) => (Outcome::Fail, format!("snapshot round-trip: {why}")),
        (Some(Failure::Error { phase, name, message }), Some(neg)) => {
            if *phase == neg.phase && *name == neg.error_type {
                (Outcome::Pass, String::new())
            } else {
                (
                    Outcome::Fail,
                    format!(
                        "expected {} at {} phase, got {} at {} phase: {message}",
                        neg.error_type,
                        phase_name(neg.phase),
                        display_name(name),
                        phase_name(*phase)
                    ),
                )
            }
        }
        (Some(Failure::Error { phase, name, message }), None) => {
            (Outcome::Fail, format!("uncaught {} at {} phase: {message}", display_name(name), phase_name(*phase)))
        }
        (None, Some(neg)) => (
            Outcome::Fail,
            format!("expected {} at {} phase, but the test completed normally", neg.error_type, phase_name(neg.phase)),
        ),
        (None, None) if is_async => judge_async(&exec.printed),
        (None, None) => (Outcome::Pass, String::new()),
    }
}

fn judge_async(printed: &[String]) -> (Outcome, String) {
    if let Some(failure) = printed.iter().find(|l| l.starts_with(ASYNC_FAILURE)) {
        return (Outcome::Fail, failure.clone());
    }
    if printed.iter().any(|l| l == ASYNC_COMPLETE) {
        return (Outcome::Pass, String::new());
    }
    (Outcome::Fail, format!("async test finished without printing {ASYNC_COMPLETE} (the job queue is empty)"))
}

pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Parse => "parse",
        Phase::Resolution => "resolution",
        Phase::Runtime => "runtime",
    }
}

fn display_name(name: &str) -> &str {
    if name.is_empty() {
        "a non-error value"
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neg(phase: Phase, t: &str) -> Negative {
        Negative { phase, error_type: t.into() }
    }

    fn error(phase: Phase, name: &str) -> Execution {
        Execution { failure: Some(Failure::Error { phase, name: name.into(), message: "m".into() }), printed: vec![] }
    }

    #[test]
    fn positive_tests() {
        assert_eq!(judge(&Execution::default(), None, false).0, Outcome::Pass);
        let (o, m) = judge(&error(Phase::Runtime, "Test262Error"), None, false);
        assert_eq!(o, Outcome::Fail);
        assert_eq!(m, "uncaught Test262Error at runtime phase: m");
        let (o, m) = judge(&error(Phase::Parse, "SyntaxError"), None, false);
        assert_eq!(o, Outcome::Fail);
        assert!(m.contains("parse phase"));
    }

    #[test]
    fn each_negative_phase() {
        for phase in [Phase::Parse, Phase::Resolution, Phase::Runtime] {
            let n = neg(phase, "SyntaxError");
            assert_eq!(judge(&error(phase, "SyntaxError"), Some(&n), false).0, Outcome::Pass);
            // Wrong constructor.
            let (o, m) = judge(&error(phase, "ReferenceError"), Some(&n), false);
            assert_eq!(o, Outcome::Fail);
            assert!(m.contains("expected SyntaxError"), "{m}");
            // Completed normally.
            let (o, m) = judge(&Execution::default(), Some(&n), false);
            assert_eq!(o, Outcome::Fail);
            assert!(m.contains("completed normally"));
        }
        // Right constructor, wrong phase: a runtime SyntaxError does not satisfy a parse test.
        let n = neg(Phase::Parse, "SyntaxError");
        let (o, m) = judge(&error(Phase::Runtime, "SyntaxError"), Some(&n), false);
        assert_eq!(o, Outcome::Fail);
        assert!(m.contains("at runtime phase"));
        // $DONOTEVALUATE throws a string: no constructor name.
        let (o, m) = judge(&error(Phase::Runtime, ""), Some(&n), false);
        assert_eq!(o, Outcome::Fail);
        assert!(m.contains("non-error value"));
    }

    #[test]
    fn async_completion() {
        let run = |lines: &[&str]| Execution { failure: None, printed: lines.iter().map(|s| s.to_string()).collect() };
        assert_eq!(judge(&run(&["Test262:AsyncTestComplete"]), None, true).0, Outcome::Pass);
        assert_eq!(judge(&run(&["hello", "Test262:AsyncTestComplete"]), None, true).0, Outcome::Pass);
        let (o, m) = judge(&run(&["Test262:AsyncTestFailure:Test262Error: boom"]), None, true);
        assert_eq!(o, Outcome::Fail);
        assert_eq!(m, "Test262:AsyncTestFailure:Test262Error: boom");
        let (o, _) = judge(&run(&["Test262:AsyncTestComplete", "Test262:AsyncTestFailure:x"]), None, true);
        assert_eq!(o, Outcome::Fail);
        let (o, m) = judge(&run(&[]), None, true);
        assert_eq!(o, Outcome::Fail);
        assert!(m.contains("without printing"));
        // Not async: printing is irrelevant.
        assert_eq!(judge(&run(&[]), None, false).0, Outcome::Pass);
    }

    #[test]
    fn limits_and_setup_failures() {
        let e = |f: Failure| Execution { failure: Some(f), printed: vec![] };
        assert_eq!(judge(&e(Failure::Limit("fuel".into())), None, false).0, Outcome::Timeout);
        let n = neg(Phase::Parse, "SyntaxError");
        assert_eq!(judge(&e(Failure::Limit("fuel".into())), Some(&n), false).0, Outcome::Timeout);
        for f in [
            Failure::Harness("x".into()),
            Failure::Unsupported("modules".into()),
            Failure::Snapshot("bad image".into()),
            Failure::OutOfMemory("heap limit exceeded".into()),
        ] {
            assert_eq!(judge(&e(f.clone()), None, false).0, Outcome::Fail);
            assert_eq!(judge(&e(f), Some(&n), false).0, Outcome::Fail);
        }
    }
}
