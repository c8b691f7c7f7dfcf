//! `DurableError`: every failure this crate reports, and the class of failure it is.

use std::fmt;

use crate::policy::{Mode, PolicySurface};

/// Result type of this crate.
pub type Result<T> = std::result::Result<T, DurableError>;

/// What kind of failure an error is; a front end maps each kind to its own reporting (the
/// CLI's exit statuses, DESIGN §8, live only in the CLI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// Corrupt, truncated, tampered or mismatched data; replay divergence.
    Integrity,
    /// The file system or the SQLite store failed.
    Io,
    /// Another live process holds the session.
    Busy,
    /// The named session, record or file does not exist.
    NotFound,
    /// The caller asked for something invalid: bad name, unsafe policy, value too deep.
    Usage,
}

/// Every error of `amber-durable`; messages name the item (seq, op id, offset, session).
#[derive(Debug)]
pub enum DurableError {
    /// A file-system operation failed.
    Io {
        /// What was being done, with the path.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The SQLite session store failed.
    Store {
        /// What was being done, with the session name when there is one.
        context: String,
        /// The underlying error.
        source: rusqlite::Error,
    },
    /// The container does not start with the expected magic bytes.
    BadMagic {
        /// Which container ("image", "journal", "export").
        what: &'static str,
        /// The magic that was expected.
        expected: &'static str,
    },
    /// The container's format version is not the one this build reads.
    UnsupportedVersion {
        /// Which container or store.
        what: &'static str,
        /// The version found in the data.
        found: u32,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// An image was made by another engine version (migrate by replay instead).
    EngineVersionMismatch {
        /// Engine version recorded in the image.
        image: String,
        /// Engine version of the running build.
        running: String,
    },
    /// The data ends before a field it declares.
    Truncated {
        /// Which field.
        what: &'static str,
        /// Byte offset where the field starts.
        offset: u64,
        /// Bytes the field needs.
        needed: u64,
        /// Bytes that remain.
        available: u64,
    },
    /// The data is malformed.
    Corrupt {
        /// Which field or structure.
        what: &'static str,
        /// Byte offset of the problem, when known.
        offset: Option<u64>,
        /// What is wrong.
        detail: String,
    },
    /// The sha256 seal does not match the sealed bytes.
    BadSeal {
        /// Which container.
        what: &'static str,
        /// Byte offset of the seal.
        offset: u64,
    },
    /// HMAC authentication failed, or a key was missing or unexpected.
    Authentication {
        /// Which container.
        what: &'static str,
        /// What is wrong.
        detail: &'static str,
    },
    /// A size exceeds a decoder or encoder limit.
    LimitExceeded {
        /// Which field.
        what: &'static str,
        /// The size found or requested.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The journal's hash chain or record structure is broken at `seq`.
    BrokenChain {
        /// First record that fails verification.
        seq: u64,
        /// What is wrong.
        detail: String,
    },
    /// A record could not be appended (the journal is left unchanged).
    InvalidRecord {
        /// The seq the record would have had.
        seq: u64,
        /// What is wrong.
        detail: String,
    },
    /// Replay asked for something other than what the journal recorded at `seq`.
    Divergence {
        /// Seq of the journal record.
        seq: u64,
        /// What the journal recorded.
        expected: String,
        /// What the replaying program did.
        actual: String,
    },
    /// A value cannot be journaled or imaged (for example JSON nested too deeply).
    InvalidValue {
        /// Which value (function name, op id).
        what: String,
        /// What is wrong.
        detail: String,
    },
    /// A policy surface is in a mode that a durable run cannot use.
    PolicyRejected {
        /// The surface.
        surface: PolicySurface,
        /// Its mode.
        mode: Mode,
    },
    /// A restore asked for a policy that differs from the image's.
    PolicyMismatch {
        /// The surface that differs.
        surface: PolicySurface,
        /// Mode recorded in the image.
        image: Mode,
        /// Mode requested for the restore.
        requested: Mode,
    },
    /// A session name is not acceptable.
    InvalidName {
        /// The name.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// A session with this name already exists.
    AlreadyExists {
        /// The session name.
        session: String,
    },
    /// Another live process holds the session.
    Busy {
        /// The session name (or "store" when the whole database was locked).
        session: String,
        /// Process id of the holder, when known.
        owner_pid: Option<u32>,
    },
    /// The lease on a session was lost (its lock row was removed).
    LeaseLost {
        /// The session name.
        session: String,
    },
    /// Something named does not exist.
    NotFound {
        /// Kind of thing ("session", "image", "journal record").
        what: &'static str,
        /// Its name or number.
        name: String,
    },
}

impl DurableError {
    /// The exit class a front end should report this error with.
    pub fn class(&self) -> ErrorClass {
        match self {
            DurableError::Io { .. } => ErrorClass::Io,
            DurableError::Store { source, .. } => {
                if is_sqlite_busy(source) {
                    ErrorClass::Busy
                } else {
                    ErrorClass::Io
                }
            }
            DurableError::BadMagic { .. }
            | DurableError::UnsupportedVersion { .. }
            | DurableError::EngineVersionMismatch { .. }
            | DurableError::Truncated { .. }
            | DurableError::Corrupt { .. }
            | DurableError::BadSeal { .. }
            | DurableError::Authentication { .. }
            | DurableError::LimitExceeded { .. }
            | DurableError::BrokenChain { .. }
            | DurableError::Divergence { .. } => ErrorClass::Integrity,
            DurableError::InvalidRecord { .. }
            | DurableError::InvalidValue { .. }
            | DurableError::PolicyRejected { .. }
            | DurableError::PolicyMismatch { .. }
            | DurableError::InvalidName { .. }
            | DurableError::AlreadyExists { .. } => ErrorClass::Usage,
            DurableError::Busy { .. } | DurableError::LeaseLost { .. } => ErrorClass::Busy,
            DurableError::NotFound { .. } => ErrorClass::NotFound,
        }
    }

    /// Wraps an I/O error with what was being done.
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        DurableError::Io { context: context.into(), source }
    }

    /// Wraps a SQLite error with what was being done.
    pub fn store(context: impl Into<String>, source: rusqlite::Error) -> Self {
        DurableError::Store { context: context.into(), source }
    }

    /// A corrupt-data error with an offset.
    pub(crate) fn corrupt_at(what: &'static str, offset: u64, detail: impl Into<String>) -> Self {
        DurableError::Corrupt { what, offset: Some(offset), detail: detail.into() }
    }
}

/// True when SQLite reports that another connection holds the database lock.
fn is_sqlite_busy(error: &rusqlite::Error) -> bool {
    matches!(error.sqlite_error_code(), Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

impl fmt::Display for DurableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurableError::Io { context, source } => write!(f, "{context}: {source}"),
            DurableError::Store { context, source } => {
                if is_sqlite_busy(source) {
                    write!(f, "{context}: session store is locked by another process")
                } else {
                    write!(f, "{context}: session store error: {source}")
                }
            }
            DurableError::BadMagic { what, expected } => {
                write!(f, "{what}: bad magic at offset 0 (expected {expected:?})")
            }
            DurableError::UnsupportedVersion { what, found, supported } => {
                write!(f, "{what}: format version {found} is not supported (this build reads version {supported})")
            }
            DurableError::EngineVersionMismatch { image, running } => {
                write!(f, "image was made by engine {image:?} but this is engine {running:?}; migrate by replay")
            }
            DurableError::Truncated { what, offset, needed, available } => {
                write!(f, "{what}: truncated at offset {offset} (needs {needed} bytes, {available} remain)")
            }
            DurableError::Corrupt { what, offset: Some(offset), detail } => {
                write!(f, "{what}: corrupt at offset {offset}: {detail}")
            }
            DurableError::Corrupt { what, offset: None, detail } => write!(f, "{what}: corrupt: {detail}"),
            DurableError::BadSeal { what, offset } => {
                write!(f, "{what}: seal at offset {offset} does not match the content (corrupt or tampered)")
            }
            DurableError::Authentication { what, detail } => write!(f, "{what}: {detail}"),
            DurableError::LimitExceeded { what, size, limit } => {
                write!(f, "{what}: size {size} exceeds the limit of {limit} bytes")
            }
            DurableError::BrokenChain { seq, detail } => {
                write!(f, "journal: hash chain broken at seq {seq}: {detail}")
            }
            DurableError::InvalidRecord { seq, detail } => {
                write!(f, "journal: cannot append record seq {seq}: {detail}")
            }
            DurableError::Divergence { seq, expected, actual } => {
                write!(f, "replay diverged at seq {seq}: journal recorded {expected}, program did {actual}")
            }
            DurableError::InvalidValue { what, detail } => write!(f, "{what}: {detail}"),
            DurableError::PolicyRejected { surface, mode } => {
                write!(f, "policy: {surface} mode {mode} is not allowed in a durable run (it is not journaled)")
            }
            DurableError::PolicyMismatch { surface, image, requested } => {
                write!(f, "policy: {surface} was {image} when the image was made; cannot restore with {requested}")
            }
            DurableError::InvalidName { name, reason } => {
                write!(f, "invalid session name {name:?}: {reason}")
            }
            DurableError::AlreadyExists { session } => {
                write!(f, "session {session:?} already exists")
            }
            DurableError::Busy { session, owner_pid: Some(pid) } => {
                write!(f, "session {session:?} is busy: process {pid} holds it")
            }
            DurableError::Busy { session, owner_pid: None } => {
                write!(f, "session {session:?} is busy: another process holds it")
            }
            DurableError::LeaseLost { session } => {
                write!(f, "session {session:?}: this process no longer holds the session lock")
            }
            DurableError::NotFound { what, name } => write!(f, "{what} {name:?} not found"),
        }
    }
}

impl std::error::Error for DurableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DurableError::Io { source, .. } => Some(source),
            DurableError::Store { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_their_classes() {
        let chain = DurableError::BrokenChain { seq: 7, detail: "hash".into() };
        assert_eq!(chain.class(), ErrorClass::Integrity);
        assert!(chain.to_string().contains("seq 7"));
        let busy = DurableError::Busy { session: "s".into(), owner_pid: Some(42) };
        assert_eq!(busy.class(), ErrorClass::Busy);
        assert!(busy.to_string().contains("42"));
        let missing = DurableError::NotFound { what: "session", name: "x".into() };
        assert_eq!(missing.class(), ErrorClass::NotFound);
    }
}
