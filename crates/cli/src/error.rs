//! [`Failure`]: an error the command reports on stderr with its exit status.

use std::fmt;

use amber::durable::DurableError;
use amber::ErrorKind;

use crate::exit;

/// A failed command: the exit status and the message printed after "amber: ".
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

pub type CliResult<T> = Result<T, Failure>;

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure { code: exit::USAGE, message: message.into() }
    }

    pub fn integrity(message: impl Into<String>) -> Failure {
        Failure { code: exit::INTEGRITY, message: message.into() }
    }

    /// Prefix the message with what was being done.
    pub fn context(self, what: impl fmt::Display) -> Failure {
        Failure { code: self.code, message: format!("{what}: {}", self.message) }
    }

    /// Print the message and return the exit status.
    pub fn report(self) -> u8 {
        errln!("amber: {}", self.message);
        self.code
    }
}

/// The exit status of a kind of failure (DESIGN §8): the one place kinds become statuses.
pub fn status_of(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::Integrity => exit::INTEGRITY,
        ErrorKind::Limit => exit::LIMIT,
        ErrorKind::Io | ErrorKind::Busy | ErrorKind::NotFound | ErrorKind::Usage => exit::USAGE,
    }
}

impl From<DurableError> for Failure {
    fn from(e: DurableError) -> Self {
        amber::Error::Durable(e).into()
    }
}

impl From<amber::Error> for Failure {
    fn from(e: amber::Error) -> Self {
        Failure { code: status_of(e.kind()), message: e.to_string() }
    }
}
