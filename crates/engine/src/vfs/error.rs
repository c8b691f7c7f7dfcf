//! VFS errors: one variant per POSIX error code the filesystem can report, with Linux's errno
//! numbers and libuv's descriptions, so the fs layer can build Node's error objects
//! (`ENOENT: no such file or directory, open '/x'`, `errno: -2`).

use serde::{Deserialize, Serialize};

/// A filesystem error (what a system call would have returned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VfsError {
    /// EPERM: operation not permitted.
    Perm,
    /// ENOENT: no such file or directory.
    NoEnt,
    /// EBADF: bad file descriptor.
    BadF,
    /// EACCES: permission denied.
    Acces,
    /// EBUSY: resource busy or locked.
    Busy,
    /// EEXIST: file already exists.
    Exist,
    /// EXDEV: cross-device link not permitted.
    XDev,
    /// ENOTDIR: not a directory.
    NotDir,
    /// EISDIR: illegal operation on a directory.
    IsDir,
    /// EINVAL: invalid argument.
    Inval,
    /// EMFILE: too many open files.
    MFile,
    /// EFBIG: file too large.
    FBig,
    /// ENOSPC: no space left on device.
    NoSpc,
    /// ENAMETOOLONG: name too long.
    NameTooLong,
    /// ENOTEMPTY: directory not empty.
    NotEmpty,
    /// ELOOP: too many symbolic links encountered.
    Loop,
    /// EIO: the lower layer could not be read (the host folder failed, or an image's captured
    /// bytes are missing from the store).
    Io,
    /// EROFS: the filesystem is read-only (`--fs-readonly`).
    RoFs,
}

impl VfsError {
    /// Every variant (tests and tables).
    pub const ALL: [VfsError; 18] = [
        VfsError::Perm,
        VfsError::NoEnt,
        VfsError::BadF,
        VfsError::Acces,
        VfsError::Busy,
        VfsError::Exist,
        VfsError::XDev,
        VfsError::NotDir,
        VfsError::IsDir,
        VfsError::Inval,
        VfsError::MFile,
        VfsError::FBig,
        VfsError::NoSpc,
        VfsError::NameTooLong,
        VfsError::NotEmpty,
        VfsError::Loop,
        VfsError::Io,
        VfsError::RoFs,
    ];

    /// The error code Node puts on `err.code` (`"ENOENT"`).
    pub fn code(self) -> &'static str {
        self.info().0
    }

    /// The Linux errno (positive; Node's `err.errno` is its negation).
    pub fn errno(self) -> i32 {
        self.info().1
    }

    /// libuv's description (`"no such file or directory"`).
    pub fn description(self) -> &'static str {
        self.info().2
    }

    fn info(self) -> (&'static str, i32, &'static str) {
        match self {
            VfsError::Perm => ("EPERM", 1, "operation not permitted"),
            VfsError::NoEnt => ("ENOENT", 2, "no such file or directory"),
            VfsError::BadF => ("EBADF", 9, "bad file descriptor"),
            VfsError::Acces => ("EACCES", 13, "permission denied"),
            VfsError::Busy => ("EBUSY", 16, "resource busy or locked"),
            VfsError::Exist => ("EEXIST", 17, "file already exists"),
            VfsError::XDev => ("EXDEV", 18, "cross-device link not permitted"),
            VfsError::NotDir => ("ENOTDIR", 20, "not a directory"),
            VfsError::IsDir => ("EISDIR", 21, "illegal operation on a directory"),
            VfsError::Inval => ("EINVAL", 22, "invalid argument"),
            VfsError::MFile => ("EMFILE", 24, "too many open files"),
            VfsError::FBig => ("EFBIG", 27, "file too large"),
            VfsError::NoSpc => ("ENOSPC", 28, "no space left on device"),
            VfsError::NameTooLong => ("ENAMETOOLONG", 36, "name too long"),
            VfsError::NotEmpty => ("ENOTEMPTY", 39, "directory not empty"),
            VfsError::Loop => ("ELOOP", 40, "too many symbolic links encountered"),
            VfsError::Io => ("EIO", 5, "i/o error"),
            VfsError::RoFs => ("EROFS", 30, "read-only file system"),
        }
    }
}

impl std::fmt::Display for VfsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code(), self.description())
    }
}

impl std::error::Error for VfsError {}
