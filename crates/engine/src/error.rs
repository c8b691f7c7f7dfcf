//! Errors: JS throws (catchable) and engine faults (not catchable: resource limits).

use crate::value::Value;

/// Why a call returned abruptly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Throw {
    /// A JS exception carrying the thrown value.
    Value(Value),
    /// A resource limit: unwinds through every JS handler to the embedder.
    Limit(Limit),
}

/// Resource limits the embedder sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Limit {
    /// `--max-instructions` ran out.
    Fuel,
    /// `--max-heap` exceeded.
    Heap,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Fuel => write!(f, "instruction limit exceeded"),
            Limit::Heap => write!(f, "heap limit exceeded"),
        }
    }
}

/// Result of anything that may run JS.
pub type JsResult<T> = Result<T, Throw>;

/// The kinds of native error the engine raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Error,
    TypeError,
    ReferenceError,
    SyntaxError,
    RangeError,
    EvalError,
    UriError,
    AggregateError,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Error => "Error",
            ErrorKind::TypeError => "TypeError",
            ErrorKind::ReferenceError => "ReferenceError",
            ErrorKind::SyntaxError => "SyntaxError",
            ErrorKind::RangeError => "RangeError",
            ErrorKind::EvalError => "EvalError",
            ErrorKind::UriError => "URIError",
            ErrorKind::AggregateError => "AggregateError",
        }
    }
}

/// A parse or early error, reported before any code runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxErrorReport {
    pub message: String,
    pub filename: String,
    pub line: u32,
    pub column: u32,
    /// The offending source line, for a caret display.
    pub source_line: String,
}

/// Characters of the offending line shown either side of the caret: a generated or hostile
/// line can be megabytes long (a file nested a million levels deep printed 2 MB to stderr).
const CARET_CONTEXT: usize = 60;

impl std::fmt::Display for SyntaxErrorReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let column = self.column.saturating_sub(1) as usize;
        let start = column.saturating_sub(CARET_CONTEXT);
        let mut rest = self.source_line.chars().skip(start);
        let shown: String = rest.by_ref().take(2 * CARET_CONTEXT).collect();
        let (before, after) = (if start > 0 { "..." } else { "" }, if rest.next().is_some() { "..." } else { "" });
        write!(
            f,
            "{}:{}:{}\n{before}{shown}{after}\n{}^\n\nSyntaxError: {}",
            self.filename,
            self.line,
            self.column,
            " ".repeat(before.len() + column - start),
            self.message
        )
    }
}

/// Why running a script or the job queue stopped, as the embedder sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// Early error: nothing ran.
    Syntax(SyntaxErrorReport),
    /// An uncaught exception.
    Threw {
        value: Value,
        /// Constructor name of the thrown error ("TypeError"), or "" for non-errors.
        name: String,
        message: String,
        /// V8-format stack (`Name: message\n    at f (file:line:col)`), or the ToString of a
        /// thrown non-error.
        stack: String,
    },
    Limit(Limit),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Syntax(s) => write!(f, "{s}"),
            RunError::Threw { stack, .. } => write!(f, "Uncaught {stack}"),
            RunError::Limit(l) => write!(f, "{l}"),
        }
    }
}

impl std::error::Error for RunError {}
