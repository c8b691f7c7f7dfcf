//! The virtual filesystem: an in-memory tree that is VM state and rides the image.
//!
//! A durable agent's files live here, never on the host (DESIGN §7, issue 5): `node:fs`
//! reads and writes this tree, the module loader reads sources from it, and the CLI seeds it
//! from a host directory once, at the start of a run. Everything is plain data (BTreeMaps
//! keyed by name and inode number), so the same operations give the same tree, inode numbers
//! and timestamps in every process, and the whole thing serializes with the VM.
//!
//! Entry points:
//! - [`normalize`] (in `normalize.rs`): the one path normalizer. Every method here takes a
//!   path as the program spelled it and resolves it against [`Vfs::cwd`] with it.
//! - [`Vfs`]: the tree ([`Vfs::read_file`], [`Vfs::write_file`], [`Vfs::mkdir_all`],
//!   [`Vfs::stat`], [`Vfs::read_dir`], [`Vfs::rename`], …) and the descriptor table
//!   ([`Vfs::open`], [`Vfs::read`], [`Vfs::write`], [`Vfs::close`]) in `fd.rs`.
//! - [`VfsError`]: what a system call would return, with Linux errno numbers.
//!
//! Time: the VFS has no clock. Every mutating method takes `now_ms` (the caller passes
//! `vm.clock_ms`, the logical clock), which becomes the changed inodes' mtime/ctime.
//!
//! Architecture invariants: no host I/O; no host time; no panics on any input, including a
//! crafted image (an entry naming a missing inode is `ENOENT`, a directory cycle is bounded
//! by path length and by the visited set in [`Vfs::remove_all`]); sizes are bounded by
//! [`VfsLimits`] (`EFBIG` for one file, `ENOSPC` for the upper layer's totals).

mod error;
mod fd;
pub mod lower;
pub mod normalize;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

pub use error::VfsError;
pub use fd::{
    OpenFile, O_ACCMODE, O_APPEND, O_CREAT, O_DIRECTORY, O_EXCL, O_NOFOLLOW, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY,
};
pub use lower::{Change, LowerDir, LowerLayer, LowerLookup, LowerMount, LowerNode};
pub use normalize::normalize;

/// A VFS result.
pub type VfsResult<T> = Result<T, VfsError>;

/// File type bits of `st_mode` (Linux values).
pub const S_IFMT: u32 = 0o170_000;
pub const S_IFREG: u32 = 0o100_000;
pub const S_IFDIR: u32 = 0o040_000;
pub const S_IFLNK: u32 = 0o120_000;

/// Symbolic links followed in one lookup before `ELOOP` (Linux's limit).
pub const MAX_SYMLINKS: u32 = 40;
/// Longest path accepted (`ENAMETOOLONG`), Linux's PATH_MAX.
pub const MAX_PATH: usize = 4096;
/// Longest single name accepted (`ENAMETOOLONG`), Linux's NAME_MAX.
pub const MAX_NAME: usize = 255;
/// The inode number of the root directory.
pub const ROOT_INO: u64 = 1;
/// `st_dev` of every VFS node.
pub const DEV: u64 = 0x414d; // "AM"
/// The owner every node reports (the virtual user of `os.userInfo()`).
pub const UID: u32 = 1000;
pub const GID: u32 = 1000;

/// Size limits (configurable by the embedder; they ride the image with the tree).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VfsLimits {
    /// Largest file in bytes (`EFBIG` past it).
    pub max_file_bytes: u64,
    /// Sum of all file sizes and symlink targets in bytes (`ENOSPC` past it).
    pub max_total_bytes: u64,
    /// Entries of the upper layer: files, directories and symlinks the VFS made (`ENOSPC`
    /// past it). Lower entries the program reads are not counted, nor is the root; a
    /// copied-up lower file stays the lower entry (its bytes count against
    /// `max_total_bytes`).
    pub max_entries: u64,
    /// Open descriptors at once (`EMFILE`).
    pub max_open_files: u32,
}

impl Default for VfsLimits {
    fn default() -> Self {
        VfsLimits { max_file_bytes: 64 << 20, max_total_bytes: 256 << 20, max_entries: 1_000_000, max_open_files: 1024 }
    }
}

/// What an inode holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Content {
    File(Vec<u8>),
    /// A lower-layer file not changed by the program: its bytes live outside the image,
    /// named by hash (`lower.rs`). Writing it copies it up into a `File`.
    LowerFile {
        sha256: lower::Sha256,
        size: u64,
    },
    /// Entries by name, in byte order of the name (what `readdir` returns).
    Dir(BTreeMap<String, u64>),
    /// The link's target, as given to `symlink`.
    Symlink(String),
}

/// The type of a node, as `readdir(…, {withFileTypes})` and `Stats` report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileType {
    File,
    Dir,
    Symlink,
}

impl FileType {
    /// The lower-case name journals and listings use: "file", "dir", "symlink".
    pub fn name(self) -> &'static str {
        match self {
            FileType::File => "file",
            FileType::Dir => "dir",
            FileType::Symlink => "symlink",
        }
    }

    /// The `S_IF*` bits.
    pub fn mode_bits(self) -> u32 {
        match self {
            FileType::File => S_IFREG,
            FileType::Dir => S_IFDIR,
            FileType::Symlink => S_IFLNK,
        }
    }
}

/// One file, directory or symlink.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inode {
    pub content: Content,
    /// Permission bits (`0o7777`).
    pub perm: u32,
    /// Hard links to a file or symlink (directories compute theirs).
    pub nlink: u32,
    pub atime_ms: f64,
    pub mtime_ms: f64,
    pub ctime_ms: f64,
    pub birthtime_ms: f64,
    /// A directory from the lower layer: what lies beneath it (`lower.rs`).
    pub lower: Option<Box<LowerDir>>,
    /// Materialized from the lower layer (not counted against [`VfsLimits::max_entries`]).
    pub from_lower: bool,
}

impl Inode {
    fn new(content: Content, perm: u32, now_ms: f64) -> Inode {
        Inode::at_time(content, perm, now_ms)
    }

    /// An inode all of whose times are `ms`.
    fn at_time(content: Content, perm: u32, ms: f64) -> Inode {
        Inode {
            content,
            perm: perm & 0o7777,
            nlink: 1,
            atime_ms: ms,
            mtime_ms: ms,
            ctime_ms: ms,
            birthtime_ms: ms,
            lower: None,
            from_lower: false,
        }
    }

    pub fn file_type(&self) -> FileType {
        match self.content {
            Content::File(_) | Content::LowerFile { .. } => FileType::File,
            Content::Dir(_) => FileType::Dir,
            Content::Symlink(_) => FileType::Symlink,
        }
    }

    /// Bytes this inode counts against [`VfsLimits::max_total_bytes`].
    fn charged_bytes(&self) -> u64 {
        match &self.content {
            Content::File(b) => b.len() as u64,
            // Lower bytes are not the session's: only what the program writes is charged.
            Content::LowerFile { .. } | Content::Dir(_) => 0,
            Content::Symlink(t) => t.len() as u64,
        }
    }

    fn touch(&mut self, now_ms: f64) {
        self.mtime_ms = now_ms;
        self.ctime_ms = now_ms;
    }
}

/// What `stat` reports (Node's `Stats` fields).
#[derive(Clone, Debug, PartialEq)]
pub struct Stat {
    pub dev: u64,
    pub ino: u64,
    /// File type and permission bits.
    pub mode: u32,
    pub nlink: u64,
    pub uid: u32,
    pub gid: u32,
    pub rdev: u64,
    pub size: u64,
    pub blksize: u64,
    pub blocks: u64,
    pub atime_ms: f64,
    pub mtime_ms: f64,
    pub ctime_ms: f64,
    pub birthtime_ms: f64,
}

impl Stat {
    pub fn file_type(&self) -> Option<FileType> {
        match self.mode & S_IFMT {
            S_IFREG => Some(FileType::File),
            S_IFDIR => Some(FileType::Dir),
            S_IFLNK => Some(FileType::Symlink),
            _ => None,
        }
    }
}

/// A path resolved to an inode: the inode and its canonical (symlink-free) path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub ino: u64,
    pub path: String,
}

/// The virtual filesystem (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vfs {
    /// The working directory relative paths resolve against (normalized, absolute).
    /// `process.cwd()` reads it; the module loader may set it when it seeds the tree.
    pub cwd: String,
    pub limits: VfsLimits,
    /// Bits cleared from the mode of created files and directories.
    pub umask: u32,
    inodes: BTreeMap<u64, Inode>,
    next_ino: u64,
    /// Open descriptors (`fd.rs`).
    fds: BTreeMap<u32, OpenFile>,
    /// Bytes charged against `limits.max_total_bytes`.
    used_bytes: u64,
    /// Inodes counted against `limits.max_entries` (those not `from_lower`).
    upper_entries: u64,
    /// Counter behind `mkdtemp`'s deterministic suffixes.
    temp_counter: u64,
    /// The lower layer's mount and manifest (`lower.rs`).
    lower: Option<LowerMount>,
    /// The embedder's lower layer (outside the image).
    #[serde(skip)]
    layer: lower::LayerSlot,
    /// Lower bytes read in this process (outside the image).
    #[serde(skip)]
    blobs: lower::BlobCache,
    /// While the embedder listens: the lookups that changed the lower layer's state
    /// (`lower.rs`, [`LowerLookup`]; outside the image).
    #[serde(skip)]
    lookups: lower::LookupLog,
}

impl Default for Vfs {
    fn default() -> Self {
        Vfs::new()
    }
}

impl Vfs {
    /// An empty tree: just `/` (mode 0755, times 0), cwd `/`.
    pub fn new() -> Vfs {
        let mut inodes = BTreeMap::new();
        inodes.insert(ROOT_INO, Inode::new(Content::Dir(BTreeMap::new()), 0o755, 0.0));
        Vfs {
            cwd: "/".to_string(),
            limits: VfsLimits::default(),
            umask: 0o022,
            inodes,
            next_ino: ROOT_INO + 1,
            fds: BTreeMap::new(),
            used_bytes: 0,
            upper_entries: 0,
            temp_counter: 0,
            lower: None,
            layer: lower::LayerSlot::default(),
            blobs: lower::BlobCache::default(),
            lookups: lower::LookupLog::default(),
        }
    }

    // ---- paths

    /// `path` resolved against the cwd by [`normalize`], with the length limits checked.
    pub fn resolve(&self, path: &str) -> VfsResult<String> {
        let abs = normalize(&self.cwd, path)?;
        if abs.len() > MAX_PATH || normalize::segments(&abs).any(|s| s.len() > MAX_NAME) {
            return Err(VfsError::NameTooLong);
        }
        Ok(abs)
    }

    /// Change the working directory (`process.chdir`): it must be a directory.
    pub fn set_cwd(&mut self, path: &str) -> VfsResult<()> {
        let abs = self.resolve(path)?;
        let r = self.walk(&abs, true)?;
        self.dir_entries(r.ino)?;
        self.cwd = r.path;
        Ok(())
    }

    /// The inode `path` names, following symlinks (also in the final component if
    /// `follow`); `path` spelled with a trailing slash must name a directory.
    pub fn lookup(&mut self, path: &str, follow: bool) -> VfsResult<Resolved> {
        let abs = self.resolve(path)?;
        let wants_dir = normalize::wants_directory(path);
        let r = self.walk(&abs, follow || wants_dir)?;
        if wants_dir && self.inode(r.ino)?.file_type() != FileType::Dir {
            return Err(VfsError::NotDir);
        }
        Ok(r)
    }

    /// Walk a normalized absolute path from the root.
    fn walk(&mut self, abs: &str, follow_last: bool) -> VfsResult<Resolved> {
        let mut stack: Vec<(String, u64)> = Vec::new();
        let mut pending: VecDeque<String> = normalize::segments(abs).map(str::to_string).collect();
        let mut links = 0;
        while let Some(name) = pending.pop_front() {
            match name.as_str() {
                "." => continue,
                ".." => {
                    stack.pop();
                    continue;
                }
                _ => {}
            }
            let cur = stack.last().map_or(ROOT_INO, |e| e.1);
            let child = self.child(cur, &name)?.ok_or(VfsError::NoEnt)?;
            if let Content::Symlink(target) = &self.inode(child)?.content {
                let target = target.clone();
                if !pending.is_empty() || follow_last {
                    links += 1;
                    if links > MAX_SYMLINKS {
                        return Err(VfsError::Loop);
                    }
                    if target.is_empty() {
                        return Err(VfsError::NoEnt);
                    }
                    if target.starts_with('/') {
                        stack.clear();
                    }
                    let mut expanded: VecDeque<String> = normalize::segments(&target).map(str::to_string).collect();
                    expanded.extend(pending.drain(..));
                    pending = expanded;
                    continue;
                }
            }
            stack.push((name, child));
        }
        let ino = stack.last().map_or(ROOT_INO, |e| e.1);
        let mut path = String::new();
        for (name, _) in &stack {
            path.push('/');
            path.push_str(name);
        }
        if path.is_empty() {
            path.push('/');
        }
        Ok(Resolved { ino, path })
    }

    /// The directory that would hold `path` (symlinks followed) and the final name; the
    /// name is empty when `path` is `/`.
    fn walk_parent(&mut self, path: &str) -> VfsResult<(Resolved, String)> {
        let abs = self.resolve(path)?;
        let (parent, name) = normalize::split_parent(&abs);
        let dir = self.walk(parent, true)?;
        self.dir_entries(dir.ino)?;
        Ok((dir, name.to_string()))
    }

    // ---- inodes

    /// The inode numbered `ino`.
    pub fn inode(&self, ino: u64) -> VfsResult<&Inode> {
        self.inodes.get(&ino).ok_or(VfsError::NoEnt)
    }

    fn inode_mut(&mut self, ino: u64) -> VfsResult<&mut Inode> {
        self.inodes.get_mut(&ino).ok_or(VfsError::NoEnt)
    }

    fn dir_entries(&self, ino: u64) -> VfsResult<&BTreeMap<String, u64>> {
        match &self.inode(ino)?.content {
            Content::Dir(entries) => Ok(entries),
            _ => Err(VfsError::NotDir),
        }
    }

    fn dir_entries_mut(&mut self, ino: u64) -> VfsResult<&mut BTreeMap<String, u64>> {
        match &mut self.inode_mut(ino)?.content {
            Content::Dir(entries) => Ok(entries),
            _ => Err(VfsError::NotDir),
        }
    }

    /// Allocate an inode (`ENOSPC` past the entry or byte limits; a lower entry counts
    /// against neither).
    fn alloc(&mut self, inode: Inode) -> VfsResult<u64> {
        if !inode.from_lower && self.upper_entries >= self.limits.max_entries {
            return Err(VfsError::NoSpc);
        }
        let bytes = inode.charged_bytes();
        self.charge(0, bytes)?;
        if !inode.from_lower {
            self.upper_entries += 1;
        }
        let ino = self.next_ino;
        self.next_ino = self.next_ino.saturating_add(1);
        self.inodes.insert(ino, inode);
        Ok(ino)
    }

    /// Remove inode `ino` from the table, returning what it charged.
    fn forget(&mut self, ino: u64) -> Option<Inode> {
        let node = self.inodes.remove(&ino)?;
        self.used_bytes = self.used_bytes.saturating_sub(node.charged_bytes());
        if !node.from_lower {
            self.upper_entries = self.upper_entries.saturating_sub(1);
        }
        Some(node)
    }

    /// Account a size change from `old` to `new` bytes (`EFBIG` past the file limit, `ENOSPC`
    /// past the total).
    fn charge(&mut self, old: u64, new: u64) -> VfsResult<()> {
        if new > old {
            if new > self.limits.max_file_bytes {
                return Err(VfsError::FBig);
            }
            let total = self.used_bytes.saturating_add(new - old);
            if total > self.limits.max_total_bytes {
                return Err(VfsError::NoSpc);
            }
            self.used_bytes = total;
        } else {
            self.used_bytes = self.used_bytes.saturating_sub(old - new);
        }
        Ok(())
    }

    /// Drop inode `ino` if nothing names it any more (no links, no open descriptor).
    fn release(&mut self, ino: u64) {
        let Some(node) = self.inodes.get(&ino) else { return };
        if node.nlink > 0 || ino == ROOT_INO || self.fds.values().any(|f| f.ino == ino) {
            return;
        }
        self.forget(ino);
    }

    /// Insert `name → ino` into directory `dir`, touching the directory.
    fn link_entry(&mut self, dir: u64, name: &str, ino: u64, now_ms: f64) -> VfsResult<()> {
        self.dir_entries_mut(dir)?.insert(name.to_string(), ino);
        self.inode_mut(dir)?.touch(now_ms);
        Ok(())
    }

    /// Remove entry `name` from directory `dir`, touching it; returns the inode it named.
    fn unlink_entry(&mut self, dir: u64, name: &str, now_ms: f64) -> VfsResult<u64> {
        let ino = self.dir_entries_mut(dir)?.remove(name).ok_or(VfsError::NoEnt)?;
        self.inode_mut(dir)?.touch(now_ms);
        if let Ok(node) = self.inode_mut(ino) {
            node.nlink = node.nlink.saturating_sub(1);
            node.ctime_ms = now_ms;
        }
        Ok(ino)
    }

    fn stat_inode(&self, ino: u64) -> VfsResult<Stat> {
        let node = self.inode(ino)?;
        let (size, nlink) = match &node.content {
            Content::File(b) => (b.len() as u64, u64::from(node.nlink)),
            Content::LowerFile { size, .. } => (*size, u64::from(node.nlink)),
            Content::Symlink(t) => (t.len() as u64, u64::from(node.nlink)),
            Content::Dir(entries) => {
                let subdirs = entries
                    .values()
                    .filter(|i| self.inodes.get(i).is_some_and(|n| matches!(n.content, Content::Dir(_))))
                    .count() as u64;
                (4096, 2 + subdirs)
            }
        };
        Ok(Stat {
            dev: DEV,
            ino,
            mode: node.file_type().mode_bits() | node.perm,
            nlink,
            uid: UID,
            gid: GID,
            rdev: 0,
            size,
            blksize: 4096,
            blocks: size.div_ceil(4096) * 8,
            atime_ms: node.atime_ms,
            mtime_ms: node.mtime_ms,
            ctime_ms: node.ctime_ms,
            birthtime_ms: node.birthtime_ms,
        })
    }

    // ---- queries

    /// `stat(2)`: follows symlinks.
    pub fn stat(&mut self, path: &str) -> VfsResult<Stat> {
        let r = self.lookup(path, true)?;
        self.stat_inode(r.ino)
    }

    /// `lstat(2)`: a final symlink is reported itself.
    pub fn lstat(&mut self, path: &str) -> VfsResult<Stat> {
        let r = self.lookup(path, false)?;
        self.stat_inode(r.ino)
    }

    /// Whether `path` names anything (following symlinks), as `fs.existsSync`.
    pub fn exists(&mut self, path: &str) -> bool {
        self.lookup(path, true).is_ok()
    }

    /// `access(2)` for the virtual owner: `mode` is a mask of R_OK (4), W_OK (2), X_OK (1);
    /// 0 (F_OK) checks existence.
    pub fn access(&mut self, path: &str, mode: u32) -> VfsResult<()> {
        let r = self.lookup(path, true)?;
        let perm = self.inode(r.ino)?.perm;
        let owner = (perm >> 6) & 7;
        if mode & 7 & !owner != 0 {
            return Err(VfsError::Acces);
        }
        Ok(())
    }

    /// The whole content of the file at `path` (symlinks followed).
    pub fn read_file(&mut self, path: &str) -> VfsResult<&[u8]> {
        let r = self.lookup(path, true)?;
        match self.file_bytes(r.ino) {
            Err(VfsError::Inval) => Err(VfsError::Loop),
            other => other,
        }
    }

    /// The entries of the directory at `path`, in name order, with their types (a symlink
    /// entry is reported as a symlink).
    pub fn read_dir(&mut self, path: &str) -> VfsResult<Vec<(String, FileType)>> {
        let r = self.lookup(path, true)?;
        self.merged_entries(r.ino)
    }

    /// The target of the symlink at `path`.
    pub fn readlink(&mut self, path: &str) -> VfsResult<String> {
        let r = self.lookup(path, false)?;
        match &self.inode(r.ino)?.content {
            Content::Symlink(t) => Ok(t.clone()),
            _ => Err(VfsError::Inval),
        }
    }

    /// The canonical path of `path`: absolute, with every symlink resolved.
    pub fn realpath(&mut self, path: &str) -> VfsResult<String> {
        Ok(self.lookup(path, true)?.path)
    }

    /// Bytes charged against [`VfsLimits::max_total_bytes`].
    pub fn used_bytes(&self) -> u64 {
        self.used_bytes
    }

    /// Number of inodes (the root included).
    pub fn inode_count(&self) -> usize {
        self.inodes.len()
    }

    /// Entries counted against [`VfsLimits::max_entries`].
    pub fn upper_entries(&self) -> u64 {
        self.upper_entries
    }

    /// Every file, directory and symlink under `/`, depth first in name order, as
    /// (absolute path, type): what a hash of the tree or a listing walks. Directory cycles
    /// (only possible in a crafted image) are visited once.
    pub fn walk_tree(&self) -> Vec<(String, FileType)> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo = vec![("/".to_string(), ROOT_INO)];
        seen.insert(ROOT_INO);
        while let Some((dir, ino)) = todo.pop() {
            let Ok(entries) = self.dir_entries(ino) else { continue };
            let mut subdirs = Vec::new();
            for (name, child) in entries {
                let path = normalize::join_name(&dir, name);
                let Some(node) = self.inodes.get(child) else { continue };
                out.push((path.clone(), node.file_type()));
                if matches!(node.content, Content::Dir(_)) && seen.insert(*child) {
                    subdirs.push((path, *child));
                }
            }
            todo.extend(subdirs.into_iter().rev());
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    // ---- changes

    /// Create or replace the file at `path` with `data` (`writeFile`). Creates with mode
    /// `0o666 & !umask`.
    pub fn write_file(&mut self, path: &str, data: &[u8], now_ms: f64) -> VfsResult<()> {
        let ino = self.open_file_inode(path, true, 0o666, now_ms)?;
        self.set_content(ino, data.to_vec(), now_ms)
    }

    /// Append `data` to the file at `path`, creating it if needed (`appendFile`).
    pub fn append_file(&mut self, path: &str, data: &[u8], now_ms: f64) -> VfsResult<()> {
        let ino = self.open_file_inode(path, true, 0o666, now_ms)?;
        let mut bytes =
            self.file_bytes(ino).map_err(|e| if e == VfsError::Inval { VfsError::IsDir } else { e })?.to_vec();
        bytes.extend_from_slice(data);
        self.set_content(ino, bytes, now_ms)
    }

    /// Replace a file's bytes, charging the size change.
    fn set_content(&mut self, ino: u64, data: Vec<u8>, now_ms: f64) -> VfsResult<()> {
        let old = match &self.inode(ino)?.content {
            Content::File(b) => b.len() as u64,
            Content::LowerFile { .. } => 0, // copy-up: from now on the bytes are upper
            _ => return Err(VfsError::IsDir),
        };
        self.charge(old, data.len() as u64)?;
        let node = self.inode_mut(ino)?;
        node.content = Content::File(data);
        node.touch(now_ms);
        Ok(())
    }

    /// The inode of the regular file at `path`, created (empty, `perm & !umask`) if absent
    /// and `create`; `EISDIR` for a directory.
    fn open_file_inode(&mut self, path: &str, create: bool, perm: u32, now_ms: f64) -> VfsResult<u64> {
        match self.lookup(path, true) {
            Ok(r) => match self.inode(r.ino)?.content {
                Content::Dir(_) => Err(VfsError::IsDir),
                _ => Ok(r.ino),
            },
            Err(VfsError::NoEnt) if create => self.create_file(path, perm, now_ms),
            Err(e) => Err(e),
        }
    }

    /// Create an empty file at `path`, which must not exist (a dangling symlink there is
    /// followed and its target created, as POSIX `open(O_CREAT)` does).
    fn create_file(&mut self, path: &str, perm: u32, now_ms: f64) -> VfsResult<u64> {
        if normalize::wants_directory(path) {
            return Err(VfsError::IsDir);
        }
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::IsDir);
        }
        if let Some(existing) = self.child(dir.ino, &name)? {
            if let Ok(Content::Symlink(target)) = self.inode(existing).map(|n| &n.content) {
                let target = normalize::normalize(&dir.path, target)?;
                if self.walk(&target, true).is_err() {
                    return self.create_file(&target, perm, now_ms);
                }
            }
            return Err(VfsError::Exist);
        }
        let ino = self.alloc(Inode::new(Content::File(Vec::new()), perm & !self.umask, now_ms))?;
        self.link_entry(dir.ino, &name, ino, now_ms)?;
        Ok(ino)
    }

    /// `mkdir(2)`: `EEXIST` if anything is at `path`.
    pub fn mkdir(&mut self, path: &str, perm: u32, now_ms: f64) -> VfsResult<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() || self.child(dir.ino, &name)?.is_some() {
            return Err(VfsError::Exist);
        }
        let ino = self.alloc(Inode::new(Content::Dir(BTreeMap::new()), perm & !self.umask, now_ms))?;
        self.link_entry(dir.ino, &name, ino, now_ms)
    }

    /// `mkdir -p`: create `path` and missing parents; returns the first directory created
    /// (absolute), or None if `path` already was a directory (Node's `mkdir({recursive})`).
    pub fn mkdir_all(&mut self, path: &str, perm: u32, now_ms: f64) -> VfsResult<Option<String>> {
        let abs = self.resolve(path)?;
        let mut first = None;
        let mut prefix = String::new();
        let count = normalize::segments(&abs).count();
        for (i, seg) in normalize::segments(&abs).enumerate() {
            prefix.push('/');
            prefix.push_str(seg);
            match self.walk(&prefix, true) {
                Ok(r) => {
                    // A file in the way: EEXIST if it is `path` itself, ENOTDIR above it.
                    let last = i + 1 == count;
                    self.dir_entries(r.ino).map_err(|_| if last { VfsError::Exist } else { VfsError::NotDir })?;
                }
                Err(VfsError::NoEnt) => {
                    self.mkdir(&prefix, perm, now_ms)?;
                    first.get_or_insert_with(|| prefix.clone());
                }
                Err(e) => return Err(e),
            }
        }
        Ok(first)
    }

    /// `unlink(2)`: remove a file or symlink (`EISDIR` for a directory; Linux says EISDIR).
    pub fn unlink(&mut self, path: &str, now_ms: f64) -> VfsResult<()> {
        if normalize::wants_directory(path) {
            let r = self.lookup(path, true)?;
            return Err(if self.inode(r.ino)?.file_type() == FileType::Dir {
                VfsError::IsDir
            } else {
                VfsError::NotDir
            });
        }
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::IsDir);
        }
        let ino = self.child(dir.ino, &name)?.ok_or(VfsError::NoEnt)?;
        if matches!(self.inode(ino)?.content, Content::Dir(_)) {
            return Err(VfsError::IsDir);
        }
        self.unlink_entry(dir.ino, &name, now_ms)?;
        self.release(ino);
        Ok(())
    }

    /// `rmdir(2)`: remove an empty directory.
    pub fn rmdir(&mut self, path: &str, now_ms: f64) -> VfsResult<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::Busy);
        }
        let ino = self.child(dir.ino, &name)?.ok_or(VfsError::NoEnt)?;
        if self.inode(ino)?.file_type() != FileType::Dir {
            return Err(VfsError::NotDir);
        }
        if self.holds_mount(&normalize::join_name(&dir.path, &name)) {
            return Err(VfsError::Busy);
        }
        if !self.merged_is_empty(ino)? {
            return Err(VfsError::NotEmpty);
        }
        if self.walk(&self.cwd.clone(), true).is_ok_and(|c| c.ino == ino) {
            // The VFS's cwd must stay a directory; Linux allows this, but a VFS cwd that
            // names nothing would make every relative path fail.
            return Err(VfsError::Busy);
        }
        self.unlink_entry(dir.ino, &name, now_ms)?;
        if let Ok(node) = self.inode_mut(ino) {
            node.nlink = 0;
        }
        self.release(ino);
        Ok(())
    }

    /// `rm -r`: remove `path` (a file, a symlink (not its target) or a directory with
    /// everything under it). Iterative, so deep trees and crafted cycles are safe.
    pub fn remove_all(&mut self, path: &str, now_ms: f64) -> VfsResult<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::Busy);
        }
        let top = self.child(dir.ino, &name)?.ok_or(VfsError::NoEnt)?;
        if self.holds_mount(&normalize::join_name(&dir.path, &name)) {
            return Err(VfsError::Busy);
        }
        self.unlink_entry(dir.ino, &name, now_ms)?;
        let mut seen = BTreeSet::new();
        let mut todo = vec![top];
        while let Some(ino) = todo.pop() {
            if !seen.insert(ino) {
                continue;
            }
            if let Ok(Content::Dir(entries)) = self.inode(ino).map(|n| &n.content) {
                let children: Vec<u64> = entries.values().copied().collect();
                for child in children {
                    if let Ok(node) = self.inode_mut(child) {
                        node.nlink = node.nlink.saturating_sub(1);
                    }
                    todo.push(child);
                }
                if let Ok(entries) = self.dir_entries_mut(ino) {
                    entries.clear();
                }
                if let Ok(node) = self.inode_mut(ino) {
                    node.nlink = 0;
                }
            }
            self.release(ino);
        }
        if self.walk(&self.cwd.clone(), true).is_err() {
            self.cwd = "/".to_string();
        }
        Ok(())
    }

    /// `rename(2)`: move `from` to `to`, replacing a file there or an empty directory.
    pub fn rename(&mut self, from: &str, to: &str, now_ms: f64) -> VfsResult<()> {
        let (from_dir, from_name) = self.walk_parent(from)?;
        if from_name.is_empty() {
            return Err(VfsError::Busy);
        }
        let ino = self.child(from_dir.ino, &from_name)?.ok_or(VfsError::NoEnt)?;
        let (to_dir, to_name) = self.walk_parent(to)?;
        if to_name.is_empty() {
            return Err(VfsError::Busy);
        }
        let moving_dir = matches!(self.inode(ino)?.content, Content::Dir(_));
        if (normalize::wants_directory(from) || normalize::wants_directory(to)) && !moving_dir {
            return Err(VfsError::NotDir);
        }
        let from_path = normalize::join_name(&from_dir.path, &from_name);
        if self.holds_mount(&from_path) {
            return Err(VfsError::Busy);
        }
        if moving_dir && (to_dir.path == from_path || to_dir.path.starts_with(&format!("{from_path}/"))) {
            return Err(VfsError::Inval);
        }
        if let Some(existing) = self.child(to_dir.ino, &to_name)? {
            if existing == ino {
                return Ok(());
            }
            let existing_is_dir = self.inode(existing)?.file_type() == FileType::Dir;
            if existing_is_dir && self.holds_mount(&normalize::join_name(&to_dir.path, &to_name)) {
                return Err(VfsError::Busy);
            }
            if existing_is_dir && moving_dir && !self.merged_is_empty(existing)? {
                return Err(VfsError::NotEmpty);
            }
            match (&self.inode(existing)?.content, moving_dir) {
                (Content::Dir(_), true) => {}
                (Content::Dir(_), false) => return Err(VfsError::IsDir),
                (_, true) => return Err(VfsError::NotDir),
                (_, false) => {}
            }
            self.unlink_entry(to_dir.ino, &to_name, now_ms)?;
            if let Ok(node) = self.inode_mut(existing) {
                if matches!(node.content, Content::Dir(_)) {
                    node.nlink = 0;
                }
            }
            self.release(existing);
        }
        self.dir_entries_mut(from_dir.ino)?.remove(&from_name);
        self.inode_mut(from_dir.ino)?.touch(now_ms);
        self.link_entry(to_dir.ino, &to_name, ino, now_ms)?;
        self.inode_mut(ino)?.ctime_ms = now_ms;
        let cwd = self.cwd.clone();
        if cwd == from_path || cwd.starts_with(&format!("{from_path}/")) {
            let rest = &cwd[from_path.len()..];
            self.cwd = format!("{}{rest}", normalize::join_name(&to_dir.path, &to_name));
        }
        Ok(())
    }

    /// `copyfile`: copy the bytes of file `from` to `to` (replacing it unless `exclusive`).
    pub fn copy_file(&mut self, from: &str, to: &str, exclusive: bool, now_ms: f64) -> VfsResult<()> {
        let data = self.read_file(from)?.to_vec();
        let from_ino = self.lookup(from, true)?.ino;
        let perm = self.inode(from_ino)?.perm;
        let ino = match self.lookup(to, true) {
            Ok(_) if exclusive => return Err(VfsError::Exist),
            Ok(r) => {
                if matches!(self.inode(r.ino)?.content, Content::Dir(_)) {
                    return Err(VfsError::IsDir);
                }
                r.ino
            }
            Err(VfsError::NoEnt) => {
                let umask = std::mem::replace(&mut self.umask, 0);
                let created = self.create_file(to, perm, now_ms);
                self.umask = umask;
                created?
            }
            Err(e) => return Err(e),
        };
        self.set_content(ino, data, now_ms)
    }

    /// `symlink(2)`: create a link at `path` whose target is `target` (stored as given).
    pub fn symlink(&mut self, target: &str, path: &str, now_ms: f64) -> VfsResult<()> {
        if target.contains('\0') {
            return Err(VfsError::Inval);
        }
        if target.len() > MAX_PATH {
            return Err(VfsError::NameTooLong);
        }
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() || self.child(dir.ino, &name)?.is_some() {
            return Err(VfsError::Exist);
        }
        let ino = self.alloc(Inode::new(Content::Symlink(target.to_string()), 0o777, now_ms))?;
        self.link_entry(dir.ino, &name, ino, now_ms)
    }

    /// `link(2)`: a second name for the file at `existing` (directories refused: EPERM).
    pub fn link(&mut self, existing: &str, path: &str, now_ms: f64) -> VfsResult<()> {
        let r = self.lookup(existing, false)?;
        if matches!(self.inode(r.ino)?.content, Content::Dir(_)) {
            return Err(VfsError::Perm);
        }
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() || self.child(dir.ino, &name)?.is_some() {
            return Err(VfsError::Exist);
        }
        self.link_entry(dir.ino, &name, r.ino, now_ms)?;
        let node = self.inode_mut(r.ino)?;
        node.nlink = node.nlink.saturating_add(1);
        node.ctime_ms = now_ms;
        Ok(())
    }

    /// `truncate(2)`: cut or zero-extend the file at `path` to `len` bytes.
    pub fn truncate(&mut self, path: &str, len: u64, now_ms: f64) -> VfsResult<()> {
        let r = self.lookup(path, true)?;
        self.truncate_inode(r.ino, len, now_ms)
    }

    fn truncate_inode(&mut self, ino: u64, len: u64, now_ms: f64) -> VfsResult<()> {
        if self.inode(ino)?.file_type() == FileType::Dir {
            return Err(VfsError::IsDir);
        }
        let mut data = self.file_bytes(ino)?.to_vec();
        if len > self.limits.max_file_bytes {
            return Err(VfsError::FBig);
        }
        data.resize(usize::try_from(len).map_err(|_| VfsError::FBig)?, 0);
        self.set_content(ino, data, now_ms)
    }

    /// `chmod(2)` (symlinks followed).
    pub fn chmod(&mut self, path: &str, perm: u32, now_ms: f64) -> VfsResult<()> {
        let r = self.lookup(path, true)?;
        let node = self.inode_mut(r.ino)?;
        node.perm = perm & 0o7777;
        node.ctime_ms = now_ms;
        Ok(())
    }

    /// `utimes(2)`: set access and modification times (ms since the epoch).
    pub fn utimes(&mut self, path: &str, atime_ms: f64, mtime_ms: f64, follow: bool, now_ms: f64) -> VfsResult<()> {
        let r = self.lookup(path, follow)?;
        let node = self.inode_mut(r.ino)?;
        node.atime_ms = atime_ms;
        node.mtime_ms = mtime_ms;
        node.ctime_ms = now_ms;
        Ok(())
    }

    /// `mkdtemp`: create a directory named `prefix` + six characters, chosen by a counter
    /// that rides the image (deterministic, unlike the host's random suffix). Returns the
    /// name as spelled (relative if `prefix` is), as Node does.
    pub fn mkdtemp(&mut self, prefix: &str, now_ms: f64) -> VfsResult<String> {
        const ALPHABET: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for _ in 0..100 {
            self.temp_counter = self.temp_counter.wrapping_add(1);
            // splitmix64: spreads consecutive counters over the alphabet.
            let mut z = self.temp_counter.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let mut name = prefix.to_string();
            for i in 0..6 {
                name.push(ALPHABET[((z >> (i * 10)) % 62) as usize] as char);
            }
            match self.mkdir(&name, 0o700, now_ms) {
                Ok(()) => return Ok(name),
                Err(VfsError::Exist) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(VfsError::Exist)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod lower_tests;
