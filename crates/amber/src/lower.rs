//! The overlay's lower layer over a host folder ([`HostFolder`]), with the capture rule of
//! DESIGN §7: every first answer the folder gives (what is at a path, which names a directory
//! holds) is journaled as a `Capture` record, and every file's bytes are kept once by sha256
//! for the embedder to store as a blob. Replaying — from the top, or the journal tail after an
//! image — the journal answers instead of the folder, so a run sees the files it first saw even
//! after the folder changed or was deleted.
//!
//! The folder is opened once as a directory capability (`cap-std`): every lookup is relative to
//! that handle, so neither `..` nor a symlink can reach outside it. Symlinks are never followed
//! on the host; the VFS resolves them inside itself. Hidden by default ([`is_hidden_name`]):
//! version-control and credential folders, `.env*` files, keys, the session store, anything an
//! `.amberignore` at the folder's root lists (gitignore syntax), and — for a folder that is the
//! host's `/` — the kernel's pseudo-filesystems. [`HostFolder::reveal`] grants paths back.
//!
//! **Code files.** A session moved to new code by an upgrade (crate::history::upgrade) keeps
//! the new text of each module it changed as a stored source; [`HostFolder::with_code_file`]
//! makes such a file stand in for the folder's at its path, answered from the source alone (no
//! journal record: the session's code decides it, and its hash is in the code hashes) as a
//! file of mode 0644 and mtime 0. While an upgrade replays, [`HostFolder::upgrading_from`]
//! names the new code's folder: each file the new code reads there that is text and differs
//! from what the journal captured (or that the journal never saw) becomes such a code file,
//! and [`HostFolder::take_upgraded`] hands the list to the caller to store.
//!
//! Record formats (`function`, `args`, `result`), docs/journal-format.md:
//! - `"fs.lstat"`, `{"path": rel}` → `{"type": "absent"}`, `{"type": "file", "sha256": hex,
//!   "size": n, "mode": perm, "mtime_ms": ms}`, `{"type": "dir", "mode": perm, "mtime_ms": ms}` or
//!   `{"type": "symlink", "target": text, "mtime_ms": ms}`.
//! - `"fs.list"`, `{"path": rel}` → `[[name, "file" | "dir" | "symlink"], …]` in name order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use amber_durable::capability::Capability;
use amber_durable::digest::{from_hex32, to_hex};
use amber_durable::journal::{CallResult, RecordDraft};
use amber_engine::vfs::lower::Sha256;
use amber_engine::vfs::{FileType, LowerLayer, LowerNode, VfsError, VfsResult};
use cap_std::fs::{Dir, MetadataExt};
use serde_json::{json, Value};

use crate::recorder::with_active;

/// Where stored blobs come from (the session store): bytes by sha256, or None.
pub type BlobSource = Box<dyn FnMut(&Sha256) -> Option<Vec<u8>> + Send>;

/// Blobs from the session store in `dir`, opened on first use: a connection of its own, since
/// the lower layer lives inside the VM while its host (the CLI's command, a server slice)
/// holds another.
pub fn store_blobs(dir: &Path) -> BlobSource {
    let dir = dir.to_path_buf();
    let mut store: Option<amber_durable::store::SessionStore> = None;
    Box::new(move |hash| {
        if store.is_none() {
            store = amber_durable::store::SessionStore::open(&dir).ok();
        }
        store.as_ref()?.blob(&amber_durable::digest::Digest(*hash)).ok().flatten()
    })
}

/// Largest lower file captured (bigger ones are `EFBIG` when touched).
pub const MAX_LOWER_FILE_BYTES: u64 = 256 << 20;

/// Names hidden in every directory of the lower layer (module docs).
const HIDDEN_NAMES: [&str; 6] = [".git", ".ssh", ".aws", ".gnupg", ".amber", ".amberignore"];
/// Top-level names hidden when the folder is the host's root.
const HIDDEN_AT_HOST_ROOT: [&str; 4] = ["proc", "sys", "dev", "run"];

/// Whether a name is hidden by default: the folders above, `.env` and `.env.*`/`.envrc`, and
/// private keys (`*.pem`, `*.key`).
pub fn is_hidden_name(name: &str) -> bool {
    HIDDEN_NAMES.contains(&name)
        || name == ".env"
        || name.starts_with(".env.")
        || name == ".envrc"
        || name.ends_with(".pem")
        || name.ends_with(".key")
}

/// A host folder as the lower layer (module docs).
pub struct HostFolder {
    /// The folder's capability; None once it could not be opened (replay without the folder:
    /// the journal must answer everything).
    dir: Option<Dir>,
    /// The folder's canonical host path (for the store exclusion and the host-root rule).
    root: PathBuf,
    /// Canonical host paths never shown (the session store).
    excluded: Vec<PathBuf>,
    /// `.amberignore` at the folder's root.
    ignore: Option<ignore::gitignore::Gitignore>,
    /// Mount-relative paths granted back although hidden.
    revealed: Vec<String>,
    /// Bytes captured or fetched in this process, by hash.
    blobs: BTreeMap<Sha256, Arc<[u8]>>,
    /// Hashes captured live and not yet taken by the embedder ([`HostFolder::take_fresh`]).
    fresh: Vec<Sha256>,
    /// The store's blobs.
    source: Option<BlobSource>,
    /// Files the session's code stands in for (module docs), by mount-relative path: their
    /// hash and size (the bytes are in `blobs`).
    code_files: BTreeMap<String, (Sha256, u64)>,
    /// While an upgrade replays: the new code's folder.
    candidate: Option<Dir>,
    /// Code files the candidate gave in this process, in first-read order.
    upgraded: Vec<UpgradedFile>,
}

/// A file an upgrade's new code changed or added ([`HostFolder::take_upgraded`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpgradedFile {
    /// Its VFS path (mount-relative inside the folder until taken).
    pub path: String,
    /// Its sha256 as the journal captured it, if the journal holds it as a file.
    pub old: Option<Sha256>,
    /// The new text.
    pub text: String,
}

/// The node a code file is answered as: derived from its text alone, so every process (the
/// upgrade's replay, a later resume, a replay from the top) gives the same answer.
fn code_file_node(sha256: Sha256, size: u64) -> LowerNode {
    LowerNode::File { sha256, size, perm: 0o644, mtime_ms: 0 }
}

/// `rel` inside the folder mounted at `at`, as a VFS path.
fn vfs_path(at: &str, rel: &str) -> String {
    format!("{}/{rel}", at.trim_end_matches('/'))
}

impl HostFolder {
    /// Opens `root` (which must be a directory). `excluded` lists host paths never shown
    /// (the session store); `source` gives blobs stored by earlier processes.
    pub fn open(root: &Path, excluded: &[PathBuf], source: Option<BlobSource>) -> Result<HostFolder, String> {
        let canonical = std::fs::canonicalize(root).map_err(|e| format!("cannot open {}: {e}", root.display()))?;
        let dir = Dir::open_ambient_dir(&canonical, cap_std::ambient_authority())
            .map_err(|e| format!("cannot open {}: {e}", root.display()))?;
        let ignore_file = canonical.join(".amberignore");
        let ignore = ignore_file.is_file().then(|| ignore::gitignore::Gitignore::new(&ignore_file).0);
        Ok(HostFolder {
            dir: Some(dir),
            excluded: excluded.iter().filter_map(|p| canonical_to_be(p)).collect(),
            root: canonical,
            ignore,
            revealed: Vec::new(),
            blobs: BTreeMap::new(),
            fresh: Vec::new(),
            source,
            code_files: BTreeMap::new(),
            candidate: None,
            upgraded: Vec::new(),
        })
    }

    /// A folder that is gone (or never was on this machine): every answer must come from the
    /// journal and every byte from `source`.
    pub fn absent(root: &Path, source: Option<BlobSource>) -> HostFolder {
        HostFolder {
            dir: None,
            root: root.to_path_buf(),
            excluded: Vec::new(),
            ignore: None,
            revealed: Vec::new(),
            blobs: BTreeMap::new(),
            fresh: Vec::new(),
            source,
            code_files: BTreeMap::new(),
            candidate: None,
            upgraded: Vec::new(),
        }
    }

    /// The session's code stands in for the folder's file at `rel` (module docs).
    pub fn with_code_file(mut self, rel: &str, text: &str) -> HostFolder {
        self.put_code_file(rel.trim_matches('/'), amber_engine::vfs::lower::sha256(text.as_bytes()), text);
        self
    }

    /// Keeps `text` (of hash `sha256`) as the code file at `rel`; returns its node.
    fn put_code_file(&mut self, rel: &str, sha256: Sha256, text: &str) -> LowerNode {
        let size = text.len() as u64;
        self.blobs.insert(sha256, Arc::from(text.as_bytes()));
        self.code_files.insert(rel.to_string(), (sha256, size));
        code_file_node(sha256, size)
    }

    /// While an upgrade replays: `dir` holds the new code (module docs).
    pub fn upgrading_from(mut self, dir: &Path) -> Result<HostFolder, String> {
        let canonical = std::fs::canonicalize(dir).map_err(|e| format!("cannot open {}: {e}", dir.display()))?;
        let opened = Dir::open_ambient_dir(&canonical, cap_std::ambient_authority())
            .map_err(|e| format!("cannot open {}: {e}", dir.display()))?;
        self.candidate = Some(opened);
        Ok(self)
    }

    /// The code files' hashes by VFS path, the folder being mounted at `at` (the runtime's
    /// code hashes hold them).
    pub fn code_file_hashes(&self, at: &str) -> Vec<(String, Sha256)> {
        self.code_files.iter().map(|(rel, (sha256, _))| (vfs_path(at, rel), *sha256)).collect()
    }

    /// The files the upgrade's new code changed or added since the last call, with their VFS
    /// paths, the folder being mounted at `at`.
    pub fn take_upgraded(&mut self, at: &str) -> Vec<UpgradedFile> {
        let files = std::mem::take(&mut self.upgraded);
        files.into_iter().map(|file| UpgradedFile { path: vfs_path(at, &file.path), ..file }).collect()
    }

    /// The new code's file at `rel`, when an upgrade replays and it differs from what the
    /// journal captured there: it becomes a code file. None: the journal's answer stands
    /// (the candidate has no text file there, or the same bytes).
    fn upgraded_node(&mut self, rel: &str, args: &Value) -> Option<LowerNode> {
        let dir = self.candidate.as_ref()?;
        if rel.is_empty() || self.hidden(rel, false) || !dir.symlink_metadata(rel).ok()?.is_file() {
            return None;
        }
        let text = String::from_utf8(dir.read(rel).ok()?).ok()?;
        let sha256 = amber_engine::vfs::lower::sha256(text.as_bytes());
        // What the session runs there now: its code file (an earlier upgrade's), else what
        // the journal captured.
        let old = match self.code_files.get(rel) {
            Some(&(sha256, _)) => Some(sha256),
            None => {
                let captured = with_active(|r| r.captured_result("fs.lstat", args)).flatten();
                captured.as_ref().and_then(|v| match node_from_json(v) {
                    Some(LowerNode::File { sha256, .. }) => Some(sha256),
                    _ => None,
                })
            }
        };
        if old == Some(sha256) {
            return None;
        }
        let node = self.put_code_file(rel, sha256, &text);
        self.upgraded.push(UpgradedFile { path: rel.to_string(), old, text });
        Some(node)
    }

    /// Grants `rel` (mount-relative, and everything under it) back although hidden.
    pub fn reveal(mut self, rel: &str) -> HostFolder {
        self.revealed.push(rel.trim_matches('/').to_string());
        self
    }

    /// The folder's canonical host path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Blobs captured live since the last call: store them before the journal records that
    /// name them.
    pub fn take_fresh(&mut self) -> Vec<(Sha256, Arc<[u8]>)> {
        let fresh = std::mem::take(&mut self.fresh);
        fresh.into_iter().filter_map(|h| self.blobs.get(&h).map(|b| (h, b.clone()))).collect()
    }

    fn hidden(&self, rel: &str, is_dir: bool) -> bool {
        if self.revealed.iter().any(|r| rel == r || rel.starts_with(&format!("{r}/")) || r.is_empty()) {
            return false;
        }
        let mut segments = rel.split('/');
        let first = segments.next().unwrap_or("");
        if self.root == Path::new("/") && HIDDEN_AT_HOST_ROOT.contains(&first) {
            return true;
        }
        if rel.split('/').any(is_hidden_name) {
            return true;
        }
        let host = self.root.join(rel);
        if self.excluded.iter().any(|e| host.starts_with(e)) {
            return true;
        }
        match &self.ignore {
            Some(ignore) => ignore.matched_path_or_any_parents(rel, is_dir).is_ignore(),
            None => false,
        }
    }

    /// What the host folder holds at `rel`, read live.
    fn read_node(&mut self, rel: &str) -> VfsResult<LowerNode> {
        let dir = self.dir.as_ref().ok_or(VfsError::Io)?;
        let path = if rel.is_empty() { "." } else { rel };
        let meta = match dir.symlink_metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LowerNode::Absent),
            Err(e) if e.raw_os_error() == Some(20) => return Ok(LowerNode::Absent), // ENOTDIR
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => return Err(VfsError::Acces),
            Err(_) => return Err(VfsError::Io),
        };
        let kind = meta.file_type();
        if !rel.is_empty() && self.hidden(rel, kind.is_dir()) {
            return Ok(LowerNode::Absent);
        }
        let mtime_ms = meta.mtime().saturating_mul(1000).saturating_add(meta.mtime_nsec() / 1_000_000);
        let perm = meta.mode() & 0o7777;
        if kind.is_dir() {
            Ok(LowerNode::Dir { perm, mtime_ms })
        } else if kind.is_symlink() {
            let target = dir.read_link_contents(path).map_err(|_| VfsError::Io)?;
            let target = target.to_str().ok_or(VfsError::Io)?.to_string();
            Ok(LowerNode::Symlink { target, mtime_ms })
        } else if kind.is_file() {
            if meta.len() > MAX_LOWER_FILE_BYTES {
                return Err(VfsError::FBig);
            }
            let bytes = dir.read(path).map_err(|e| match e.kind() {
                std::io::ErrorKind::PermissionDenied => VfsError::Acces,
                _ => VfsError::Io,
            })?;
            let sha256 = amber_engine::vfs::lower::sha256(&bytes);
            let size = bytes.len() as u64;
            if let std::collections::btree_map::Entry::Vacant(slot) = self.blobs.entry(sha256) {
                slot.insert(bytes.into());
                self.fresh.push(sha256);
            }
            Ok(LowerNode::File { sha256, size, perm, mtime_ms })
        } else {
            Ok(LowerNode::Absent) // sockets, fifos, devices: not modelled
        }
    }

    /// The names of host directory `rel`, read live (hidden ones and non-UTF-8 names left out).
    fn read_listing(&mut self, rel: &str) -> VfsResult<Vec<(String, FileType)>> {
        let dir = self.dir.as_ref().ok_or(VfsError::Io)?;
        let path = if rel.is_empty() { "." } else { rel };
        let entries = dir.read_dir(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::PermissionDenied => VfsError::Acces,
            std::io::ErrorKind::NotFound => VfsError::NoEnt,
            _ => VfsError::Io,
        })?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else { continue };
            let Ok(kind) = entry.file_type() else { continue };
            let kind = if kind.is_dir() {
                FileType::Dir
            } else if kind.is_symlink() {
                FileType::Symlink
            } else if kind.is_file() {
                FileType::File
            } else {
                continue;
            };
            let child = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            if !self.hidden(&child, kind == FileType::Dir) {
                out.push((name, kind));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }
}

/// `path` made absolute and free of symlinks, whether or not it exists yet: a session store
/// the run is about to create (the first `amber run --session` in a folder) must be hidden
/// too, or the program could read the store it writes to.
fn canonical_to_be(path: &Path) -> Option<PathBuf> {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return Some(canonical);
    }
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    Some(canonical_to_be(parent)?.join(name))
}

impl LowerLayer for HostFolder {
    fn lstat(&mut self, rel: &str) -> VfsResult<LowerNode> {
        let args = json!({ "path": rel });
        // The new code's file first: an upgrade may change a module an earlier one moved.
        if let Some(node) = self.upgraded_node(rel, &args) {
            return Ok(node);
        }
        if let Some(&(sha256, size)) = self.code_files.get(rel) {
            return Ok(code_file_node(sha256, size));
        }
        if let Some(result) = served("fs.lstat", &args)? {
            return node_from_json(&result).ok_or(VfsError::Io);
        }
        let node = self.read_node(rel)?;
        record_live("fs.lstat", args, node_to_json(&node))?;
        Ok(node)
    }

    fn list(&mut self, rel: &str) -> VfsResult<Vec<(String, FileType)>> {
        let args = json!({ "path": rel });
        if let Some(result) = served("fs.list", &args)? {
            return listing_from_json(&result).ok_or(VfsError::Io);
        }
        let listing = self.read_listing(rel)?;
        let value: Vec<Value> = listing.iter().map(|(n, t)| json!([n, t.name()])).collect();
        record_live("fs.list", args, Value::Array(value))?;
        Ok(listing)
    }

    fn bytes(&mut self, sha256: &Sha256) -> VfsResult<Arc<[u8]>> {
        if let Some(bytes) = self.blobs.get(sha256) {
            return Ok(bytes.clone());
        }
        let bytes = self.source.as_mut().and_then(|source| source(sha256)).ok_or(VfsError::Io)?;
        if amber_engine::vfs::lower::sha256(&bytes) != *sha256 {
            return Err(VfsError::Io); // a corrupt store row is an I/O error, never wrong bytes
        }
        let bytes: Arc<[u8]> = bytes.into();
        self.blobs.insert(*sha256, bytes.clone());
        Ok(bytes)
    }
}

/// The journal's answer for a lower-layer read, if it has one (None: live, read the host).
fn served(function: &str, args: &Value) -> VfsResult<Option<Value>> {
    let draft = RecordDraft::capture(function, args.clone(), Value::Null, 0);
    let outcome = with_active(|r| {
        if r.fatal.is_some() {
            return Err(VfsError::Io);
        }
        match r.served_capture(&draft, None) {
            Ok(Some(record)) => match record.result {
                Some(CallResult::Ok(value)) => Ok(Some(value)),
                _ => Err(VfsError::Io),
            },
            Ok(None) => Ok(None),
            Err(e) => {
                r.fatal = Some(e);
                Err(VfsError::Io)
            }
        }
    });
    // No active recorder: a VFS used outside a run (tests, tools); the host answers.
    outcome.unwrap_or(Ok(None))
}

/// Appends a live capture and marks the ledger's FsRead at its seq.
fn record_live(function: &str, args: Value, result: Value) -> VfsResult<()> {
    let outcome = with_active(|r| {
        let timestamp = 0;
        match r.record(RecordDraft::capture(function, args, result, timestamp), None) {
            Ok((seq, _)) => {
                r.ledger.touch(Capability::FsRead, seq);
                Ok(())
            }
            Err(e) => {
                r.fatal = Some(e);
                Err(VfsError::Io)
            }
        }
    });
    // No active recorder: a VFS used outside a run (tests, tools); nothing to journal.
    outcome.unwrap_or(Ok(()))
}

fn node_to_json(node: &LowerNode) -> Value {
    match node {
        LowerNode::Absent => json!({ "type": "absent" }),
        LowerNode::File { sha256, size, perm, mtime_ms } => {
            json!({ "type": "file", "sha256": to_hex(sha256), "size": size, "mode": perm, "mtime_ms": mtime_ms })
        }
        LowerNode::Dir { perm, mtime_ms } => json!({ "type": "dir", "mode": perm, "mtime_ms": mtime_ms }),
        LowerNode::Symlink { target, mtime_ms } => json!({ "type": "symlink", "target": target, "mtime_ms": mtime_ms }),
    }
}

fn node_from_json(v: &Value) -> Option<LowerNode> {
    let perm = || v["mode"].as_u64().and_then(|m| u32::try_from(m & 0o7777).ok());
    let mtime_ms = || v["mtime_ms"].as_i64();
    Some(match v["type"].as_str()? {
        "absent" => LowerNode::Absent,
        "file" => LowerNode::File {
            sha256: from_hex32(v["sha256"].as_str()?)?,
            size: v["size"].as_u64()?,
            perm: perm()?,
            mtime_ms: mtime_ms()?,
        },
        "dir" => LowerNode::Dir { perm: perm()?, mtime_ms: mtime_ms()? },
        "symlink" => LowerNode::Symlink { target: v["target"].as_str()?.to_string(), mtime_ms: mtime_ms()? },
        _ => return None,
    })
}

fn listing_from_json(v: &Value) -> Option<Vec<(String, FileType)>> {
    v.as_array()?
        .iter()
        .map(|e| {
            let kind = match e[1].as_str()? {
                "file" => FileType::File,
                "dir" => FileType::Dir,
                "symlink" => FileType::Symlink,
                _ => return None,
            };
            Some((e[0].as_str()?.to_string(), kind))
        })
        .collect()
}
