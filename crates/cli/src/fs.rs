//! `amber fs diff|commit|rollback SESSION`: the overlay's upper layer against the host folder
//! (docs/vfs.md). `diff` lists what the program changed; `commit` writes those changes to the
//! folder (or `--to DIR`), each file atomically (write a temporary file beside it, then
//! rename), after checking that every host file the run read still has the bytes it read —
//! optimistic concurrency: a file changed on the host since is a conflict, and a conflict
//! refuses the whole commit before anything is written. `rollback` discards the changes in the
//! session itself: journaled (an `fs-rollback` record) with the new image in one transaction,
//! so a replay discards them at the same point.

use std::path::{Path, PathBuf};

use amber::durable::store::{LoadedSession, SessionStatus, SessionStore};
use amber::engine::vfs::{Change, FileType, LowerNode};
use clap::{Args, Subcommand};

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::store::{with_session_options, StoreLocation};

#[derive(Args)]
pub struct FsArgs {
    #[command(subcommand)]
    command: FsCommand,
}

#[derive(Subcommand)]
enum FsCommand {
    /// List the session's changes to its folder: A added, M modified, D deleted.
    Diff {
        /// The session.
        name: String,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the session's changes to its folder (or --to DIR); refuses if any host file the
    /// run read has changed since.
    Commit {
        /// The session.
        name: String,
        /// Write into DIR instead of the session's folder.
        #[arg(long, value_name = "DIR")]
        to: Option<PathBuf>,
    },
    /// Discard the session's changes to its folder: the program sees the folder as it was
    /// (the bytes the run first read). Only when the session is not running; journaled.
    Rollback {
        /// The session.
        name: String,
    },
}

pub fn fs(args: FsArgs, location: &StoreLocation) -> CliResult<u8> {
    match args.command {
        FsCommand::Diff { name, json } => diff(&name, json, location),
        FsCommand::Commit { name, to } => commit(&name, to.as_deref(), location),
        FsCommand::Rollback { name } => rollback(&name, location),
    }
}

/// The session's VFS as its newest image holds it: the changes, the manifest, the mount.
struct Upper {
    changes: Vec<Change>,
    runtime: amber::Runtime,
    mount: amber::engine::vfs::LowerMount,
}

fn store_of(name: &str, location: &StoreLocation) -> CliResult<SessionStore> {
    location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {name:?}: there is no session store here")))
}

/// The session restored from its newest image (with the journal, so records past the image
/// are served first).
fn restore(name: &str, store: &SessionStore, loaded: &LoadedSession) -> CliResult<amber::Runtime> {
    let image = loaded
        .image
        .as_ref()
        .ok_or_else(|| Failure::usage(format!("session {name} has no image yet (it has not suspended or finished)")))?;
    let builder =
        crate::folder::with_session_files(with_session_options(crate::run::builder(), loaded)?, loaded, store.dir())?;
    builder
        .restore(&image.bytes, Some(&loaded.journal))
        .map_err(|e| Failure::from(e).context(format!("cannot restore session {name}")))
}

fn refuse_running(name: &str, loaded: &LoadedSession, what: &str) -> CliResult<()> {
    if loaded.meta.status == SessionStatus::Running {
        return Err(Failure::usage(format!(
            "session {name} is running (or crashed while running: `amber resume {name}` recovers it); {what} when it is suspended or finished"
        )));
    }
    Ok(())
}

fn open(name: &str, location: &StoreLocation) -> CliResult<(Upper, LoadedSession)> {
    let store = store_of(name, location)?;
    let loaded = store.load(name)?;
    let mut runtime = restore(name, &store, &loaded)?;
    let vfs = &mut runtime.vm_mut().vfs;
    let mount =
        vfs.lower_mount().cloned().ok_or_else(|| Failure::usage(format!("session {name} runs over no host folder")))?;
    let changes = vfs.diff().map_err(|e| Failure::integrity(format!("session {name}: {e}")))?;
    Ok((Upper { changes, runtime, mount }, loaded))
}

fn letter(change: &Change) -> char {
    match change {
        Change::Added { .. } => 'A',
        Change::Modified { .. } => 'M',
        Change::Deleted { .. } => 'D',
    }
}

fn diff(name: &str, json: bool, location: &StoreLocation) -> CliResult<u8> {
    let (upper, _) = open(name, location)?;
    for change in &upper.changes {
        let kind = match change {
            Change::Added { kind, .. } | Change::Modified { kind, .. } | Change::Deleted { kind, .. } => *kind,
        };
        if json {
            let op = match letter(change) {
                'A' => "added",
                'M' => "modified",
                _ => "deleted",
            };
            outln!("{}", serde_json::json!({ "change": op, "path": change.path(), "type": kind.name() }));
        } else {
            let slash = if kind == FileType::Dir { "/" } else { "" };
            outln!("{} {}{slash}", letter(change), change.path());
        }
    }
    Ok(exit::OK)
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

/// A conflict, described, if the host entry at `host` is not what the run read (`read`) —
/// or, for an added path, if something is there already. With `elsewhere` (`--to DIR`), a path missing in DIR is no conflict: it is written fresh.
fn conflict(host: &Path, read: Option<&LowerNode>, elsewhere: bool) -> Option<String> {
    let meta = std::fs::symlink_metadata(host).ok();
    match (read, meta) {
        (None | Some(LowerNode::Absent), None) => None,
        (Some(_), None) if elsewhere => None,
        (None | Some(LowerNode::Absent), Some(_)) => Some("exists on the host, but the run did not see it".into()),
        (Some(_), None) => Some("was deleted on the host".into()),
        (Some(LowerNode::File { sha256, .. }), Some(meta)) if meta.is_file() => match std::fs::read(host) {
            Ok(bytes) if amber::engine::vfs::lower::sha256(&bytes) == *sha256 => None,
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

fn commit(name: &str, to: Option<&Path>, location: &StoreLocation) -> CliResult<u8> {
    let (mut upper, loaded) = open(name, location)?;
    refuse_running(name, &loaded, "commit it")?;
    let root = match to {
        Some(dir) => dir.to_path_buf(),
        None => PathBuf::from(&upper.mount.at),
    };
    let at = upper.mount.at.clone();
    // Every path the run read under a changed path must still be as read.
    let mut conflicts = Vec::new();
    for change in &upper.changes {
        let path = change.path();
        let rel = mount_rel(&at, path);
        let host = host_path(&root, &at, path);
        let read = upper.mount.manifest.get(rel);
        let below = |r: &&String| r.starts_with(&format!("{rel}/"));
        let checks: Vec<(&String, &LowerNode)> = match change {
            Change::Deleted { kind: FileType::Dir, .. } => {
                upper.mount.manifest.iter().filter(|(r, _)| below(r)).collect()
            }
            _ => Vec::new(),
        };
        if let Some(why) = conflict(&host, read, to.is_some()) {
            // An added file identical to what is on the host already is no conflict.
            let same = matches!(change, Change::Added { kind: FileType::File, .. })
                && upper.runtime.vm_mut().vfs.read_file(path).ok().map(<[u8]>::to_vec) == std::fs::read(&host).ok();
            if !same {
                conflicts.push(format!("{}: {why}", host.display()));
            }
        }
        for (r, node) in checks {
            let host = root.join(r);
            if let Some(why) = conflict(&host, Some(node), to.is_some()).filter(|_| !matches!(node, LowerNode::Absent))
            {
                conflicts.push(format!("{}: {why}", host.display()));
            }
        }
    }
    if !conflicts.is_empty() {
        errln!("amber: nothing was committed; {} conflict(s):", conflicts.len());
        for c in &conflicts {
            errln!("  {c}");
        }
        return Ok(exit::INTEGRITY);
    }
    let vfs = &mut upper.runtime.vm_mut().vfs;
    let mut written = 0usize;
    // Deletions first (deepest first), then additions and modifications in path order, so a
    // path deleted and re-added as another type ends as the new one.
    let mut deletions: Vec<&Change> = upper.changes.iter().filter(|c| matches!(c, Change::Deleted { .. })).collect();
    deletions.sort_by(|a, b| b.path().cmp(a.path()));
    for change in deletions {
        let host = host_path(&root, &at, change.path());
        let result = match change {
            Change::Deleted { kind: FileType::Dir, .. } => std::fs::remove_dir_all(&host),
            _ => std::fs::remove_file(&host),
        };
        match result {
            Ok(()) => written += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Failure::usage(format!(
                    "cannot delete {}: {e} ({written} changes written)",
                    host.display()
                )))
            }
        }
    }
    for change in upper.changes.iter().filter(|c| !matches!(c, Change::Deleted { .. })) {
        let path = change.path();
        let host = host_path(&root, &at, path);
        let fail =
            |e: String| Failure::usage(format!("cannot write {}: {e} ({written} changes written)", host.display()));
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
                crate::atomic::write_atomically(&host, &bytes, Some(mode)).map_err(|e| fail(e.to_string()))?;
            }
            FileType::Symlink => {
                let target = vfs.readlink(path).map_err(|e| fail(e.to_string()))?;
                let _ = std::fs::remove_file(&host);
                std::os::unix::fs::symlink(&target, &host).map_err(|e| fail(e.to_string()))?;
            }
        }
        written += 1;
    }
    errln!("amber: committed {written} change(s) of session {name} to {}", root.display());
    Ok(exit::OK)
}

fn rollback(name: &str, location: &StoreLocation) -> CliResult<u8> {
    let store = store_of(name, location)?;
    let lease = store.acquire(name)?;
    let loaded = store.load(name)?;
    refuse_running(name, &loaded, "roll it back")?;
    let mut runtime = restore(name, &store, &loaded)?;
    let changes = runtime.fs_rollback().map_err(|e| Failure::from(e).context(format!("session {name}")))?;
    // The record and the image of the state after it, in one transaction: a crash leaves the
    // session as it was or rolled back, never half.
    let image = runtime.snapshot()?;
    let records = runtime.take_records();
    let blobs = runtime.take_blobs();
    store.put_blobs(&blobs.iter().map(|(h, b)| (*h, &b[..])).collect::<Vec<_>>())?;
    store.append_progress(&lease, &records, &[], Some(&image))?;
    let seq = records.last().map_or(0, |r| r.seq);
    errln!("amber: discarded {changes} change(s) of session {name} (fs-rollback recorded at seq {seq})");
    Ok(exit::OK)
}
