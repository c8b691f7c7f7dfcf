//! The overlay's upper layer against its host folder (docs/vfs.md), for embedders:
//! [`crate::Runtime::fs_diff`] lists what the program changed, [`crate::Runtime::fs_commit`]
//! writes those changes to the folder (or another directory), and
//! [`crate::Runtime::fs_rollback`] discards them. `amber fs diff|commit|rollback` are these
//! calls on a restored session.
//!
//! A commit is optimistic concurrency: every host entry the run read under a changed path must
//! still be what it read (same bytes, same type, same symlink target), and an added path must
//! not have appeared on the host meanwhile; one conflict refuses the whole commit before
//! anything is written. Then deletions are applied (deepest first), then additions and
//! modifications in path order, each file written atomically (a temporary file beside it,
//! synced, renamed over it).

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use amber_engine::vfs::{Change, FileType, LowerNode, Vfs};

use crate::error::{Error, Result};

/// What [`crate::Runtime::fs_commit`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsCommit {
    /// Every change was written under `root`: `written` entries created, replaced or deleted.
    Committed { root: PathBuf, written: usize },
    /// Nothing was written: these host entries are not what the run read (host path and why).
    Conflicts(Vec<String>),
}

/// Writes one file on the host: path, bytes, permission bits (see [`write_atomically`]).
pub type HostWriter<'a> = &'a mut dyn FnMut(&Path, &[u8], Option<u32>) -> std::io::Result<()>;

/// The upper layer's changes, in path order; an error when the run has no host folder.
pub(crate) fn diff(vfs: &mut Vfs) -> Result<Vec<Change>> {
    if vfs.lower_mount().is_none() {
        return Err(Error::usage("the run has no host folder (lower layer)"));
    }
    vfs.diff().map_err(|e| Error::Image(format!("the overlay's changes cannot be listed: {e}")))
}

/// Writes the upper layer's changes under `to` (default: the mounted folder) with `write`.
pub(crate) fn commit(vfs: &mut Vfs, to: Option<&Path>, write: HostWriter<'_>) -> Result<FsCommit> {
    let changes = diff(vfs)?;
    let mount = vfs.lower_mount().cloned().ok_or_else(|| Error::usage("the run has no host folder (lower layer)"))?;
    let root = to.map_or_else(|| PathBuf::from(&mount.at), Path::to_path_buf);
    let at = mount.at.as_str();
    // Every path the run read under a changed path must still be as read.
    let mut conflicts = Vec::new();
    for change in &changes {
        let path = change.path();
        let rel = mount_rel(at, path);
        let host = host_path(&root, at, path);
        if let Some(why) = conflict(&host, mount.manifest.get(rel), to.is_some()) {
            // An added file identical to what is on the host already is no conflict.
            let same = matches!(change, Change::Added { kind: FileType::File, .. })
                && vfs.read_file(path).ok().map(<[u8]>::to_vec) == std::fs::read(&host).ok();
            if !same {
                conflicts.push(format!("{}: {why}", host.display()));
            }
        }
        if let Change::Deleted { kind: FileType::Dir, .. } = change {
            let below = mount.manifest.iter().filter(|(r, _)| r.starts_with(&format!("{rel}/")));
            for (r, node) in below.filter(|(_, node)| !matches!(node, LowerNode::Absent)) {
                let host = root.join(r);
                if let Some(why) = conflict(&host, Some(node), to.is_some()) {
                    conflicts.push(format!("{}: {why}", host.display()));
                }
            }
        }
    }
    if !conflicts.is_empty() {
        return Ok(FsCommit::Conflicts(conflicts));
    }
    let mut written = 0usize;
    // Deletions first (deepest first), then additions and modifications in path order, so a
    // path deleted and re-added as another type ends as the new one.
    let mut deletions: Vec<&Change> = changes.iter().filter(|c| matches!(c, Change::Deleted { .. })).collect();
    deletions.sort_by(|a, b| b.path().cmp(a.path()));
    for change in deletions {
        let host = host_path(&root, at, change.path());
        let result = match change {
            Change::Deleted { kind: FileType::Dir, .. } => std::fs::remove_dir_all(&host),
            _ => std::fs::remove_file(&host),
        };
        match result {
            Ok(()) => written += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::usage(format!("cannot delete {}: {e} ({written} changes written)", host.display())))
            }
        }
    }
    for change in changes.iter().filter(|c| !matches!(c, Change::Deleted { .. })) {
        let path = change.path();
        let host = host_path(&root, at, path);
        let fail =
            |e: String| Error::usage(format!("cannot write {}: {e} ({written} changes written)", host.display()));
        let kind = match change {
            Change::Added { kind, .. } | Change::Modified { kind, .. } | Change::Deleted { kind, .. } => *kind,
        };
        match kind {
            FileType::Dir => std::fs::create_dir_all(&host).map_err(|e| fail(e.to_string()))?,
            FileType::File => {
                let bytes = vfs.read_file(path).map_err(|e| fail(e.to_string()))?.to_vec();
                let mode = vfs.stat(path).map(|s| s.mode & 0o7777).unwrap_or(0o644);
                if let Some(dir) = host.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
                }
                write(&host, &bytes, Some(mode)).map_err(|e| fail(e.to_string()))?;
            }
            FileType::Symlink => {
                let target = vfs.readlink(path).map_err(|e| fail(e.to_string()))?;
                let _ = std::fs::remove_file(&host);
                std::os::unix::fs::symlink(&target, &host).map_err(|e| fail(e.to_string()))?;
            }
        }
        written += 1;
    }
    Ok(FsCommit::Committed { root, written })
}

/// The host path of VFS path `path` (under the mount `at`) inside `root`.
fn host_path(root: &Path, at: &str, path: &str) -> PathBuf {
    let rel = mount_rel(at, path);
    if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    }
}

/// VFS path `path` relative to the mount `at` ("" for the mount itself).
fn mount_rel<'a>(at: &str, path: &'a str) -> &'a str {
    if at == "/" {
        path.trim_start_matches('/')
    } else {
        path.strip_prefix(at).unwrap_or(path).trim_start_matches('/')
    }
}

/// A conflict, described, if the host entry at `host` is not what the run read (`read`) — or,
/// for an added path, if something is there already. With `elsewhere` (another directory than
/// the folder), a path missing there is no conflict: it is written fresh.
fn conflict(host: &Path, read: Option<&LowerNode>, elsewhere: bool) -> Option<String> {
    let meta = std::fs::symlink_metadata(host).ok();
    match (read, meta) {
        (None | Some(LowerNode::Absent), None) => None,
        (Some(_), None) if elsewhere => None,
        (None | Some(LowerNode::Absent), Some(_)) => Some("exists on the host, but the run did not see it".into()),
        (Some(_), None) => Some("was deleted on the host".into()),
        (Some(LowerNode::File { sha256, .. }), Some(meta)) if meta.is_file() => match std::fs::read(host) {
            Ok(bytes) if amber_engine::vfs::lower::sha256(&bytes) == *sha256 => None,
            Ok(_) => Some("changed on the host since the run read it".into()),
            Err(e) => Some(format!("cannot be read: {e}")),
        },
        (Some(LowerNode::Dir { .. }), Some(meta)) if meta.is_dir() => None,
        (Some(LowerNode::Symlink { target, .. }), Some(meta)) if meta.file_type().is_symlink() => {
            match std::fs::read_link(host) {
                Ok(t) if t.to_str() == Some(target.as_str()) => None,
                _ => Some("a symlink that changed on the host".into()),
            }
        }
        (Some(_), Some(_)) => Some("changed type on the host".into()),
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, synced, then renamed over it
/// (a reader, or a crash at any moment, sees the old file or the new one); with `mode`, the new
/// file gets those permission bits. [`crate::Runtime::fs_commit`]'s writer.
pub fn write_atomically(path: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    let name = path.file_name().ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = dir.join(format!(".{}.amber-tmp-{}", name.to_string_lossy(), std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        if let Some(mode) = mode {
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    // The rename is durable once the directory is (best effort: not every platform syncs one).
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
