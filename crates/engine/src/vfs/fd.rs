//! The descriptor table: open files with their position and flags, part of the [`Vfs`] so
//! descriptors survive an image like everything else.
//!
//! Descriptors are numbered from 3 (0–2 are the standard streams), lowest free first, as
//! POSIX does. An unlinked file stays readable through a descriptor until it is closed.

use serde::{Deserialize, Serialize};

use super::{Content, FileType, Stat, Vfs, VfsError, VfsResult};

/// `open(2)` flags (Linux values; Node's `fs.constants`).
pub const O_RDONLY: u32 = 0;
pub const O_WRONLY: u32 = 1;
pub const O_RDWR: u32 = 2;
pub const O_ACCMODE: u32 = 3;
pub const O_CREAT: u32 = 0o100;
pub const O_EXCL: u32 = 0o200;
pub const O_TRUNC: u32 = 0o1000;
pub const O_APPEND: u32 = 0o2000;
pub const O_DIRECTORY: u32 = 0o200_000;
pub const O_NOFOLLOW: u32 = 0o400_000;

/// The first descriptor handed out.
const FIRST_FD: u32 = 3;

/// An open file description.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenFile {
    pub ino: u64,
    /// The `O_*` flags it was opened with.
    pub flags: u32,
    /// The file position for reads and writes without an explicit position.
    pub position: u64,
    /// The path it was opened by (absolute), for messages.
    pub path: String,
}

impl OpenFile {
    fn readable(&self) -> bool {
        matches!(self.flags & O_ACCMODE, O_RDONLY | O_RDWR)
    }

    fn writable(&self) -> bool {
        matches!(self.flags & O_ACCMODE, O_WRONLY | O_RDWR)
    }
}

impl Vfs {
    /// `open(2)`: a new descriptor for `path`. `perm` is the mode of a file `O_CREAT`
    /// creates (the umask is applied).
    pub fn open(&mut self, path: &str, flags: u32, perm: u32, now_ms: f64) -> VfsResult<u32> {
        if self.fds.len() >= self.limits.max_open_files as usize {
            return Err(VfsError::MFile);
        }
        let writable = matches!(flags & O_ACCMODE, O_WRONLY | O_RDWR);
        let ino = match self.lookup(path, flags & O_NOFOLLOW == 0) {
            Ok(_) if flags & O_CREAT != 0 && flags & O_EXCL != 0 => return Err(VfsError::Exist),
            Ok(r) => {
                let kind = self.inode(r.ino)?.file_type();
                match kind {
                    FileType::Symlink => return Err(VfsError::Loop),
                    FileType::Dir if writable || flags & O_CREAT != 0 => return Err(VfsError::IsDir),
                    FileType::File if flags & O_DIRECTORY != 0 => return Err(VfsError::NotDir),
                    FileType::File if flags & O_TRUNC != 0 && writable => {
                        self.truncate_inode(r.ino, 0, now_ms)?;
                    }
                    _ => {}
                }
                r.ino
            }
            Err(VfsError::NoEnt) if flags & O_CREAT != 0 => {
                if flags & O_EXCL != 0 && self.lookup(path, false).is_ok() {
                    return Err(VfsError::Exist);
                }
                self.create_file(path, perm, now_ms)?
            }
            Err(e) => return Err(e),
        };
        let fd = (FIRST_FD..).find(|fd| !self.fds.contains_key(fd)).ok_or(VfsError::MFile)?;
        let path = self.resolve(path)?;
        self.fds.insert(fd, OpenFile { ino, flags, position: 0, path });
        Ok(fd)
    }

    /// `close(2)`.
    pub fn close(&mut self, fd: u32) -> VfsResult<()> {
        let file = self.fds.remove(&fd).ok_or(VfsError::BadF)?;
        self.release(file.ino);
        Ok(())
    }

    /// The open file behind `fd`.
    pub fn fd(&self, fd: u32) -> VfsResult<&OpenFile> {
        self.fds.get(&fd).ok_or(VfsError::BadF)
    }

    /// Open descriptors, in order.
    pub fn open_fds(&self) -> impl Iterator<Item = (u32, &OpenFile)> {
        self.fds.iter().map(|(fd, f)| (*fd, f))
    }

    /// `read(2)`/`pread(2)`: up to `len` bytes from `position` (or the file position, which
    /// then advances).
    pub fn read(&mut self, fd: u32, len: usize, position: Option<u64>) -> VfsResult<Vec<u8>> {
        let file = self.fd(fd)?;
        if !file.readable() {
            return Err(VfsError::BadF);
        }
        let start = position.unwrap_or(file.position);
        let ino = file.ino;
        let bytes = self.file_bytes(ino)?;
        let from = usize::try_from(start).unwrap_or(usize::MAX).min(bytes.len());
        let to = from.saturating_add(len).min(bytes.len());
        let out = bytes[from..to].to_vec();
        if position.is_none() {
            if let Some(f) = self.fds.get_mut(&fd) {
                f.position = start.saturating_add(out.len() as u64);
            }
        }
        Ok(out)
    }

    /// `write(2)`/`pwrite(2)`: write `data` at `position` (or the file position, which then
    /// advances). With `O_APPEND` every write goes to the end (Linux ignores the position).
    pub fn write(&mut self, fd: u32, data: &[u8], position: Option<u64>, now_ms: f64) -> VfsResult<usize> {
        let file = self.fd(fd)?;
        if !file.writable() {
            return Err(VfsError::BadF);
        }
        let (ino, append, cur) = (file.ino, file.flags & O_APPEND != 0, file.position);
        let mut bytes = self.file_bytes(ino)?.to_vec();
        let start = if append { bytes.len() as u64 } else { position.unwrap_or(cur) };
        let end = start.checked_add(data.len() as u64).ok_or(VfsError::FBig)?;
        if end > self.limits.max_file_bytes {
            return Err(VfsError::FBig);
        }
        let (start, end) = (start as usize, end as usize);
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[start..end].copy_from_slice(data);
        self.set_content(ino, bytes, now_ms)?;
        if position.is_none() || append {
            if let Some(f) = self.fds.get_mut(&fd) {
                f.position = end as u64;
            }
        }
        Ok(data.len())
    }

    /// `fstat(2)`.
    pub fn fstat(&self, fd: u32) -> VfsResult<Stat> {
        let ino = self.fd(fd)?.ino;
        self.stat_inode(ino)
    }

    /// `ftruncate(2)`.
    pub fn ftruncate(&mut self, fd: u32, len: u64, now_ms: f64) -> VfsResult<()> {
        let file = self.fd(fd)?;
        if !file.writable() {
            return Err(VfsError::Inval);
        }
        let ino = file.ino;
        self.truncate_inode(ino, len, now_ms)
    }

    /// The whole content of the file behind `fd` from its position on (what
    /// `fs.readFile(fd)` reads); advances the position to the end.
    pub fn read_to_end(&mut self, fd: u32) -> VfsResult<Vec<u8>> {
        let file = self.fd(fd)?;
        let pos = file.position;
        let size = match &self.inode(file.ino)?.content {
            Content::File(b) => b.len() as u64,
            Content::LowerFile { size, .. } => *size,
            Content::Dir(_) => return Err(VfsError::IsDir),
            Content::Symlink(_) => return Err(VfsError::Inval),
        };
        self.read(fd, size.saturating_sub(pos) as usize, None)
    }
}
