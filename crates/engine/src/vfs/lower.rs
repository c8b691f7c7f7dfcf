//! The lower layer: a read-only tree (the host folder of `amber run`, a deployed bundle in the
//! server) mounted under a VFS directory and read lazily, with the semantics of Linux overlayfs.
//!
//! The VFS itself stays free of host I/O: a [`LowerLayer`] supplied by the embedder answers
//! two questions — what is at a mount-relative path (without following symlinks), and which
//! names a directory holds — and hands out file bytes by content hash. The embedder captures
//! each answer (journals it, stores the bytes once by sha256), so a resumed or replayed run is
//! answered the same way even after the host folder changed.
//!
//! How the two layers combine, all in the ordinary inode tree:
//! - A directory that came from the lower layer carries a [`LowerDir`]: the mount-relative path
//!   it mirrors, the names whose lower state is already known, and (once read) its listing.
//!   Looking up a name that is neither in the directory's entries nor known *probes* the layer
//!   and materializes the answer as an inode (a directory, a symlink, or a [`Content::LowerFile`]
//!   holding only the hash and size). An absent answer is remembered too.
//! - Everything the program changes is upper: writing a lower file copies it up (its content
//!   becomes ordinary bytes); deleting an entry removes it from the directory while the name
//!   stays known, which is the whiteout; a renamed lower directory keeps its [`LowerDir`], so it
//!   still shows what lies beneath its original path (overlayfs' redirect).
//! - `readdir` merges the materialized entries with the listing minus the known names, in name
//!   order.
//!
//! The image therefore holds the upper layer plus, for the lower layer, only the materialized
//! inodes (hashes, never bytes) and the [`LowerMount::manifest`] of every answer the run got:
//! what `fs diff` compares against and what `fs commit` checks the host folder by.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::{normalize, Content, FileType, Inode, Vfs, VfsError, VfsResult, ROOT_INO};

/// A sha256 digest of file bytes.
pub type Sha256 = [u8; 32];

/// What the lower layer holds at one path (symlinks not followed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LowerNode {
    /// Nothing (or something hidden, or a kind the VFS does not model: a socket, a device).
    Absent,
    File {
        sha256: Sha256,
        size: u64,
        perm: u32,
        mtime_ms: i64,
    },
    Dir {
        perm: u32,
        mtime_ms: i64,
    },
    Symlink {
        target: String,
        mtime_ms: i64,
    },
}

/// The embedder's side of the lower layer. Paths are relative to the mount, without a leading
/// slash (`""` is the mount itself, `"a/b.js"` below it); the VFS never asks for `.` or `..`
/// segments and never asks below a name it did not see as a directory.
pub trait LowerLayer: Send {
    /// What is at `rel`. For a file, its bytes are captured: [`LowerLayer::bytes`] must give
    /// them for the returned hash from then on, in this process and any that resumes the run.
    fn lstat(&mut self, rel: &str) -> VfsResult<LowerNode>;
    /// The names in directory `rel` with their types, in any order (the VFS sorts them).
    fn list(&mut self, rel: &str) -> VfsResult<Vec<(String, FileType)>>;
    /// The bytes a file captured with `sha256`.
    fn bytes(&mut self, sha256: &Sha256) -> VfsResult<Arc<[u8]>>;
}

/// A directory's view of the lower layer (module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LowerDir {
    /// The mount-relative path this directory mirrors (its original path if it was renamed).
    pub rel: String,
    /// Names whose lower state has been probed: present ones are in the directory's entries
    /// unless the program removed them since (a whiteout); absent ones are nowhere.
    pub known: BTreeSet<String>,
    /// The lower directory's names and types, once read.
    pub listing: Option<BTreeMap<String, FileType>>,
}

impl LowerDir {
    fn new(rel: String) -> Box<LowerDir> {
        Box::new(LowerDir { rel, known: BTreeSet::new(), listing: None })
    }
}

/// Where the lower layer is mounted, and every answer it gave (the manifest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LowerMount {
    /// The VFS directory the layer is mounted on (absolute, normalized).
    pub at: String,
    /// Each probed mount-relative path and what the layer answered, in path order.
    pub manifest: BTreeMap<String, LowerNode>,
}

/// The embedder's layer, outside the image (re-attached after a restore).
#[derive(Clone, Default)]
pub(super) struct LayerSlot(Option<Arc<Mutex<dyn LowerLayer>>>);

impl LayerSlot {
    fn with<R>(&self, f: impl FnOnce(&mut dyn LowerLayer) -> VfsResult<R>) -> VfsResult<R> {
        let layer = self.0.as_ref().ok_or(VfsError::Io)?;
        let mut guard = layer.lock().map_err(|_| VfsError::Io)?;
        f(&mut *guard)
    }
}

impl PartialEq for LayerSlot {
    fn eq(&self, _: &Self) -> bool {
        true // not state: two trees are equal whoever serves their lower bytes
    }
}

impl std::fmt::Debug for LayerSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "LayerSlot(attached)" } else { "LayerSlot(none)" })
    }
}

/// Lower file bytes read so far in this process, by hash (a cache, outside the image).
#[derive(Clone, Default)]
pub(super) struct BlobCache(BTreeMap<Sha256, Arc<[u8]>>);

impl PartialEq for BlobCache {
    fn eq(&self, _: &Self) -> bool {
        true // a cache: the inodes name the bytes by hash
    }
}

impl std::fmt::Debug for BlobCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlobCache({} blobs)", self.0.len())
    }
}

/// A lookup that changed what the tree knows of the lower layer: a probe of a name (or the
/// note that a listing already showed it absent), or a directory's listing read. Lookups are
/// reads, so a pure computation (`amber.step`) may make them; the embedder, which replays such
/// a computation by its recorded result without running it, logs them
/// ([`Vfs::log_lookups`]) and repeats them in the same order ([`Vfs::repeat_lookup`]) so the
/// replayed tree knows what the live one did. Directories are named by inode number, which is
/// the same in a live run and its replay: both reach the computation with the same tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LowerLookup {
    /// `name` looked up in lower directory `dir`.
    Child { dir: u64, name: String },
    /// Lower directory `dir`'s listing read.
    Listing { dir: u64 },
}

/// The lookups logged while the embedder listens (outside the image).
#[derive(Clone, Default)]
pub(super) struct LookupLog(Option<Vec<LowerLookup>>);

impl LookupLog {
    fn push(&mut self, lookup: LowerLookup) {
        if let Some(log) = &mut self.0 {
            log.push(lookup);
        }
    }
}

impl PartialEq for LookupLog {
    fn eq(&self, _: &Self) -> bool {
        true // not state: a record of how the state was reached
    }
}

impl std::fmt::Debug for LookupLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LookupLog({:?})", self.0.as_ref().map(Vec::len))
    }
}

/// One change of the upper layer against the lower manifest (`amber fs diff`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// A path the lower layer did not have (a file, directory or symlink).
    Added { path: String, kind: FileType },
    /// A lower file whose bytes (or a lower symlink whose target) the program changed.
    Modified { path: String, kind: FileType },
    /// A lower entry the program removed (or renamed away).
    Deleted { path: String, kind: FileType },
}

impl Change {
    /// The VFS path the change is at.
    pub fn path(&self) -> &str {
        match self {
            Change::Added { path, .. } | Change::Modified { path, .. } | Change::Deleted { path, .. } => path,
        }
    }
}

fn node_type(node: &LowerNode) -> Option<FileType> {
    match node {
        LowerNode::Absent => None,
        LowerNode::File { .. } => Some(FileType::File),
        LowerNode::Dir { .. } => Some(FileType::Dir),
        LowerNode::Symlink { .. } => Some(FileType::Symlink),
    }
}

fn join_rel(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

impl Vfs {
    /// Mounts `layer` on directory `at` (created with its parents when missing; `/` mounts on
    /// the root), mode 0755, times `now_ms`. Re-mounting is refused.
    pub fn mount_lower(&mut self, at: &str, layer: Arc<Mutex<dyn LowerLayer>>, now_ms: f64) -> VfsResult<()> {
        if self.lower.is_some() {
            return Err(VfsError::Busy);
        }
        let at = self.resolve(at)?;
        self.layer = LayerSlot(Some(layer));
        // The mount directory itself is not asked about (the embedder opened the folder, so it
        // is a directory): a run that touches no file journals no capture.
        let (perm, mtime_ms) = (0o755, now_ms as i64);
        let ino = if at == "/" {
            ROOT_INO
        } else {
            if let Some((parent, _)) = at.rsplit_once('/').filter(|(p, _)| !p.is_empty()) {
                self.mkdir_all(parent, 0o755, now_ms)?;
            }
            self.mkdir(&at, perm, now_ms)?;
            self.walk(&at, true)?.ino
        };
        let node = self.inode_mut(ino)?;
        node.lower = Some(LowerDir::new(String::new()));
        node.perm = perm & 0o7777;
        node.mtime_ms = mtime_ms as f64;
        let manifest = BTreeMap::from([(String::new(), LowerNode::Dir { perm, mtime_ms })]);
        self.lower = Some(LowerMount { at, manifest });
        Ok(())
    }

    /// Whether `path` (absolute, normalized) is the lower layer's mount directory or one of its
    /// ancestors: removing or renaming it is `EBUSY`, as for a mount point on Linux (the mount
    /// is kept by path, and `diff`, `rollback` and `fs commit` find the folder there).
    pub(super) fn holds_mount(&self, path: &str) -> bool {
        self.lower.as_ref().is_some_and(|m| m.at == path || m.at.starts_with(&format!("{path}/")))
    }

    /// Attaches the layer serving a restored tree's lower bytes and first reads.
    pub fn attach_lower(&mut self, layer: Arc<Mutex<dyn LowerLayer>>) {
        self.layer = LayerSlot(Some(layer));
    }

    /// The mount and manifest, if a lower layer is mounted.
    pub fn lower_mount(&self) -> Option<&LowerMount> {
        self.lower.as_ref()
    }

    /// Starts logging the lookups that change the lower layer's state ([`LowerLookup`]),
    /// dropping any earlier log.
    pub fn log_lookups(&mut self) {
        self.lookups = LookupLog(Some(Vec::new()));
    }

    /// Stops logging and returns the lookups made since [`Vfs::log_lookups`], in order.
    pub fn take_lookups(&mut self) -> Vec<LowerLookup> {
        std::mem::take(&mut self.lookups).0.unwrap_or_default()
    }

    /// Makes `lookup` again (a logged lookup of a computation that is not run again). On the
    /// tree it was logged on, this asks the layer exactly what the first time asked.
    pub fn repeat_lookup(&mut self, lookup: &LowerLookup) -> VfsResult<()> {
        match lookup {
            // A name from a record (a forged journal) must still be one path segment.
            LowerLookup::Child { name, .. }
                if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) =>
            {
                Err(VfsError::Inval)
            }
            LowerLookup::Child { dir, name } => self.child(*dir, name).map(drop),
            LowerLookup::Listing { dir } => self.merged_entries(*dir).map(drop),
        }
    }

    /// The hash and size of the unmodified lower file at `path`, if one is already
    /// materialized there (no probing, no symlinks followed).
    pub fn peek_lower_file(&self, path: &str) -> Option<(Sha256, u64)> {
        let abs = normalize(&self.cwd, path).ok()?;
        let mut ino = ROOT_INO;
        for seg in normalize::segments(&abs) {
            ino = *self.dir_entries(ino).ok()?.get(seg)?;
        }
        match self.inode(ino).ok()?.content {
            Content::LowerFile { sha256, size } => Some((sha256, size)),
            _ => None,
        }
    }

    /// The child `name` of directory `dir`: its entry, or for a lower directory a probe of the
    /// layer when the name is not known yet (materializing what the layer has there).
    pub(super) fn child(&mut self, dir: u64, name: &str) -> VfsResult<Option<u64>> {
        if let Some(&ino) = self.dir_entries(dir)?.get(name) {
            return Ok(Some(ino));
        }
        let rel = match &self.inode(dir)?.lower {
            Some(lower) if !lower.known.contains(name) => join_rel(&lower.rel, name),
            _ => return Ok(None),
        };
        self.lookups.push(LowerLookup::Child { dir, name: name.to_string() });
        if let Some(listing) = self.inode(dir)?.lower.as_ref().and_then(|l| l.listing.as_ref()) {
            if !listing.contains_key(name) {
                // The listing already said the name is absent: no need to ask again.
                self.mark_known(dir, name)?;
                return Ok(None);
            }
        }
        let asked = self.lower.as_ref().and_then(|mount| mount.manifest.get(&rel).cloned());
        let node = match asked {
            // Asked before, so the tree was rolled back since ([`Vfs::rollback`]): the first
            // answer stands, whatever the host holds now (a commit may have written there),
            // and nothing is asked or captured again.
            Some(node) => node,
            None => {
                let node = self.layer.with(|l| l.lstat(&rel))?;
                if let Some(mount) = &mut self.lower {
                    mount.manifest.insert(rel.clone(), node.clone());
                }
                node
            }
        };
        self.mark_known(dir, name)?;
        let inode = match node {
            LowerNode::Absent => return Ok(None),
            LowerNode::File { sha256, size, perm, mtime_ms } => {
                Inode::at_time(Content::LowerFile { sha256, size }, perm, mtime_ms as f64)
            }
            LowerNode::Dir { perm, mtime_ms } => {
                let mut inode = Inode::at_time(Content::Dir(BTreeMap::new()), perm, mtime_ms as f64);
                inode.lower = Some(LowerDir::new(rel));
                inode
            }
            LowerNode::Symlink { target, mtime_ms } => Inode::at_time(Content::Symlink(target), 0o777, mtime_ms as f64),
        };
        let ino = self.alloc(Inode { from_lower: true, ..inode })?;
        self.dir_entries_mut(dir)?.insert(name.to_string(), ino);
        Ok(Some(ino))
    }

    fn mark_known(&mut self, dir: u64, name: &str) -> VfsResult<()> {
        if let Some(lower) = &mut self.inode_mut(dir)?.lower {
            lower.known.insert(name.to_string());
        }
        Ok(())
    }

    /// The merged entries of directory `dir` (module docs), in name order, with their types.
    pub(super) fn merged_entries(&mut self, dir: u64) -> VfsResult<Vec<(String, FileType)>> {
        let needs_listing = matches!(&self.inode(dir)?.lower, Some(l) if l.listing.is_none());
        if needs_listing {
            self.lookups.push(LowerLookup::Listing { dir });
            let rel = self.inode(dir)?.lower.as_ref().map(|l| l.rel.clone()).unwrap_or_default();
            let names = self.layer.with(|l| l.list(&rel))?;
            let listing: BTreeMap<String, FileType> =
                names.into_iter().filter(|(n, _)| !n.is_empty() && n != "." && n != "..").collect();
            if let Some(lower) = &mut self.inode_mut(dir)?.lower {
                lower.listing = Some(listing);
            }
        }
        let mut out: BTreeMap<String, FileType> = BTreeMap::new();
        for (name, ino) in self.dir_entries(dir)? {
            out.insert(name.clone(), self.inodes.get(ino).map_or(FileType::File, Inode::file_type));
        }
        if let Some(lower) = &self.inode(dir)?.lower {
            for (name, kind) in lower.listing.iter().flatten() {
                if !lower.known.contains(name) {
                    out.entry(name.clone()).or_insert(*kind);
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// Whether directory `dir` has no entries in the merged view.
    pub(super) fn merged_is_empty(&mut self, dir: u64) -> VfsResult<bool> {
        Ok(self.merged_entries(dir)?.is_empty())
    }

    /// The bytes of file inode `ino` (lower bytes loaded through the layer on first use).
    pub(super) fn file_bytes(&mut self, ino: u64) -> VfsResult<&[u8]> {
        if let Content::LowerFile { sha256, size } = self.inode(ino)?.content {
            if !self.blobs.0.contains_key(&sha256) {
                let bytes = self.layer.with(|l| l.bytes(&sha256))?;
                if bytes.len() as u64 != size {
                    return Err(VfsError::Io);
                }
                self.blobs.0.insert(sha256, bytes);
            }
        }
        match &self.inode(ino)?.content {
            Content::File(b) => Ok(b),
            Content::LowerFile { sha256, .. } => self.blobs.0.get(sha256).map(|b| &b[..]).ok_or(VfsError::Io),
            Content::Dir(_) => Err(VfsError::IsDir),
            Content::Symlink(_) => Err(VfsError::Inval),
        }
    }

    /// The upper layer's changes against the lower manifest, in path order (module docs).
    /// Only paths under the mount are compared; without a mount the list is empty.
    ///
    /// A directory *continues* the lower layer when it mirrors the lower directory at its own
    /// path ([`LowerDir::rel`] equal to it) and its parent continues too (the mount does). A
    /// directory that does not — made by the program, or a lower directory renamed there —
    /// replaces what the host has at its path, so it and everything beneath it are added (a
    /// lower directory was there: deleted, then added), read or not: the diff first
    /// materializes those. Beneath a continuing directory, entries are compared one by one
    /// with the manifest, and a lower entry gone from it is deleted. This is what `fs commit`
    /// applies: deletions (a directory with everything in it), then additions in path order.
    pub fn diff(&mut self) -> VfsResult<Vec<Change>> {
        let Some(mount) = self.lower.clone() else { return Ok(Vec::new()) };
        let mount_ino = self.walk(&mount.at, true)?.ino;
        self.materialize_replaced(mount_ino)?;
        let prefix = if mount.at == "/" { String::from("/") } else { format!("{}/", mount.at) };
        let rel_of = |path: &str| -> Option<String> {
            if path == mount.at {
                Some(String::new())
            } else {
                path.strip_prefix(&prefix).map(str::to_string)
            }
        };
        let mut changes = Vec::new();
        let mut present: BTreeSet<String> = BTreeSet::new();
        // Directories that continue the lower layer, by path (parents come first in path order).
        let mut continuing: BTreeSet<String> = BTreeSet::from([mount.at.clone()]);
        for (path, kind) in self.walk_tree() {
            let Some(rel) = rel_of(&path) else { continue };
            if rel.is_empty() {
                continue;
            }
            present.insert(rel.clone());
            let Ok(r) = self.walk(&path, false) else { continue };
            let node = self.inode(r.ino)?;
            let mirrors_own = node.lower.as_ref().is_some_and(|l| l.rel == rel);
            if !continuing.contains(normalize::split_parent(&path).0) {
                changes.push(Change::Added { path, kind });
                continue;
            }
            if mirrors_own {
                continuing.insert(path.clone());
            }
            let lower = mount.manifest.get(&rel);
            let same = match (lower, &node.content) {
                (Some(LowerNode::File { sha256, .. }), Content::LowerFile { sha256: h, .. }) => sha256 == h,
                (Some(LowerNode::File { sha256, .. }), Content::File(bytes)) => *sha256 == self::sha256(bytes),
                (Some(LowerNode::Dir { .. }), Content::Dir(_)) => mirrors_own,
                (Some(LowerNode::Symlink { target, .. }), Content::Symlink(t)) => target == t,
                _ => false,
            };
            match lower.and_then(node_type) {
                _ if same => {}
                Some(old) if old == kind && kind != FileType::Dir => {
                    changes.push(Change::Modified { path, kind });
                }
                Some(old) => {
                    changes.push(Change::Deleted { path: path.clone(), kind: old });
                    changes.push(Change::Added { path, kind });
                }
                None => changes.push(Change::Added { path, kind }),
            }
        }
        for (rel, node) in &mount.manifest {
            let Some(kind) = node_type(node) else { continue };
            if rel.is_empty() || present.contains(rel) {
                continue;
            }
            // Only under a continuing directory: beneath a deleted or replaced one, the
            // directory itself is reported.
            let full = normalize::join_name(&mount.at, rel);
            if !continuing.contains(normalize::split_parent(&full).0) {
                continue;
            }
            // Not yet materialized (after a rollback): the layer serves it from the manifest,
            // so it is unchanged, not deleted.
            if self.walk(&full, false).is_ok() {
                continue;
            }
            changes.push(Change::Deleted { path: full, kind });
        }
        changes.sort_by(|a, b| a.path().cmp(b.path()));
        Ok(changes)
    }

    /// Materializes every entry beneath the directories under the mount that do not continue
    /// the lower layer ([`Vfs::diff`]): those are added whole, including lower entries never
    /// read. The rest of the tree is walked only as far as it is materialized, so the diff
    /// reads nothing of a folder the program did not rearrange.
    fn materialize_replaced(&mut self, mount_ino: u64) -> VfsResult<()> {
        // (directory, its mount-relative path, whether everything beneath it is added)
        let mut todo = vec![(mount_ino, String::new(), false)];
        let mut seen = BTreeSet::new();
        while let Some((dir, rel, replaced)) = todo.pop() {
            if !seen.insert(dir) {
                continue;
            }
            let names: Vec<String> = if replaced {
                self.merged_entries(dir)?.into_iter().map(|(name, _)| name).collect()
            } else {
                self.dir_entries(dir)?.keys().cloned().collect()
            };
            for name in names {
                let Some(child) = self.child(dir, &name)? else { continue };
                let node = self.inode(child)?;
                if !matches!(node.content, Content::Dir(_)) {
                    continue;
                }
                let child_rel = join_rel(&rel, &name);
                let mirrors_own = node.lower.as_ref().is_some_and(|l| l.rel == child_rel);
                todo.push((child, child_rel, replaced || !mirrors_own));
            }
        }
        Ok(())
    }

    /// Drops every change of the upper layer under the mount: the tree shows the lower layer as
    /// the run first saw it (`amber fs rollback`). Open descriptors are closed, and the working
    /// directory returns to the mount if it no longer exists.
    pub fn rollback(&mut self, now_ms: f64) -> VfsResult<()> {
        let Some(mount) = self.lower.clone() else { return Ok(()) };
        let ino = self.walk(&mount.at, true)?.ino;
        // The listings the run read, by the lower directory they mirror (a renamed directory
        // carries its original path's).
        let mut listings: BTreeMap<String, BTreeMap<String, FileType>> = BTreeMap::new();
        let mut todo = vec![ino];
        let mut seen = BTreeSet::new();
        while let Some(dir) = todo.pop() {
            let Some(node) = self.inodes.get(&dir) else { continue };
            let Content::Dir(entries) = &node.content else { continue };
            if !seen.insert(dir) {
                continue;
            }
            if let Some(LowerDir { rel, listing: Some(listing), .. }) = node.lower.as_deref() {
                listings.entry(rel.clone()).or_insert_with(|| listing.clone());
            }
            todo.extend(entries.values().copied());
        }
        // Detach the whole mounted tree and start over from a fresh, unprobed mount
        // directory: every earlier answer is still in the manifest, and a lookup takes it
        // from there ([`Vfs::child`]) rather than asking the host again.
        let children: Vec<u64> = self.dir_entries(ino)?.values().copied().collect();
        self.dir_entries_mut(ino)?.clear();
        for child in children {
            self.drop_subtree(child);
        }
        // Descriptors on the dropped tree close; those on files elsewhere (/tmp) stay open.
        let inodes = &self.inodes;
        self.fds.retain(|_, f| inodes.contains_key(&f.ino));
        if let Some(node) = self.inodes.get_mut(&ino) {
            node.lower = Some(LowerDir::new(String::new()));
            node.touch(now_ms);
        }
        // Listings are not in the manifest: the directories that had one are materialized
        // again (from the manifest, parents first) and get it back, so `readdir` shows the
        // folder as the run first listed it too.
        for (rel, listing) in listings {
            let mut dir = Some(ino);
            for name in rel.split('/').filter(|n| !n.is_empty()) {
                // Every step was probed, so this asks nothing; should it fail, the directory
                // just reads its listing afresh.
                dir = dir.and_then(|d| self.child(d, name).ok().flatten());
            }
            let Some(dir) = dir else { continue };
            if let Some(lower) = self.inode_mut(dir)?.lower.as_deref_mut() {
                if lower.rel == rel {
                    lower.listing = Some(listing);
                }
            }
        }
        if self.walk(&self.cwd.clone(), true).is_err() {
            self.cwd = mount.at.clone();
        }
        Ok(())
    }

    /// Removes what only the detached tree at `top` names from the table: its directories, and
    /// the files and symlinks whose every link was inside it. A file also linked elsewhere (a
    /// hard link out of the mount) keeps its inode, one link fewer.
    fn drop_subtree(&mut self, top: u64) {
        let mut todo = vec![top];
        let mut seen = BTreeSet::new();
        while let Some(ino) = todo.pop() {
            let Some(node) = self.inodes.get_mut(&ino) else { continue };
            if ino == ROOT_INO {
                continue;
            }
            if !matches!(node.content, Content::Dir(_)) {
                // One visit per link: a file linked twice inside the tree is visited twice.
                node.nlink = node.nlink.saturating_sub(1);
                if node.nlink > 0 {
                    continue;
                }
            } else if !seen.insert(ino) {
                continue;
            }
            if let Some(node) = self.forget(ino) {
                if let Content::Dir(entries) = node.content {
                    todo.extend(entries.into_values());
                }
            }
        }
    }
}

/// sha256 of `bytes` (what [`LowerNode::File`] names a file's content by).
pub fn sha256(bytes: &[u8]) -> Sha256 {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}
