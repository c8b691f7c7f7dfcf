//! [`Error`]: why the runtime could not go on (as opposed to the program throwing, which is
//! an [`crate::Outcome::Threw`]), and the CLI exit status each maps to (DESIGN §8).

use std::fmt;

use amber_durable::DurableError;
use amber_engine::Limit;

/// Result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Every failure of the embedding API; messages name the item (seq, op id, session).
#[derive(Debug)]
pub enum Error {
    /// The durability layer refused something: a corrupt image or journal, a policy, the store.
    Durable(DurableError),
    /// Replay: the program did something other than what the journal recorded at `seq`.
    Divergence {
        /// Journal seq of the record that did not match.
        seq: u64,
        /// What the journal recorded there.
        expected: String,
        /// What the program did.
        actual: String,
        /// JS source position of the program's action (`file:line:col`), when known.
        location: Option<String>,
    },
    /// An image's heap payload failed to decode or verify, or disagrees with its manifest.
    Image(String),
    /// A resource limit (`max_instructions`, `max_heap_bytes`) stopped the program.
    Limit(Limit),
    /// The embedder asked for something invalid: an unknown operation id, a value that is not
    /// JSON, a policy this runtime cannot honour, running a program twice.
    Usage(String),
}

/// What kind of failure an [`Error`] is, for a front end to map to its own reporting (the
/// CLI's exit statuses, the server's error codes): the embedding API names no exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Corrupt, truncated, tampered or mismatched data; a replay that diverged.
    Integrity,
    /// A resource limit stopped the program.
    Limit,
    /// The file system or the session store failed.
    Io,
    /// Another live process holds the session.
    Busy,
    /// The named session, record or file does not exist.
    NotFound,
    /// The caller asked for something invalid.
    Usage,
}

impl Error {
    /// The kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Durable(e) => match e.class() {
                amber_durable::ErrorClass::Integrity => ErrorKind::Integrity,
                amber_durable::ErrorClass::Io => ErrorKind::Io,
                amber_durable::ErrorClass::Busy => ErrorKind::Busy,
                amber_durable::ErrorClass::NotFound => ErrorKind::NotFound,
                amber_durable::ErrorClass::Usage => ErrorKind::Usage,
            },
            Error::Divergence { .. } | Error::Image(_) => ErrorKind::Integrity,
            Error::Limit(_) => ErrorKind::Limit,
            Error::Usage(_) => ErrorKind::Usage,
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Durable(e) => write!(f, "{e}"),
            Error::Divergence { seq, expected, actual, location } => {
                write!(f, "replay diverged at journal seq {seq}: the journal recorded {expected}, but the program did {actual}")?;
                match location {
                    Some(at) => write!(f, " (at {at})"),
                    None => Ok(()),
                }
            }
            Error::Image(detail) => write!(f, "image rejected: {detail}"),
            Error::Limit(l) => write!(f, "{l}"),
            Error::Usage(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Durable(e) => Some(e),
            _ => None,
        }
    }
}

impl From<DurableError> for Error {
    fn from(e: DurableError) -> Self {
        match e {
            DurableError::Divergence { seq, expected, actual } => {
                Error::Divergence { seq, expected, actual, location: None }
            }
            other => Error::Durable(other),
        }
    }
}
