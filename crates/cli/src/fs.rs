//! `amber fs diff|commit|rollback SESSION`: the overlay's upper layer against the host folder
//! (docs/vfs.md), through the embedding API on the restored session (`Runtime::fs_diff`,
//! `fs_commit`, `fs_rollback`; the logic is `amber::overlay`'s). `diff` lists what the program
//! changed; `commit` writes those changes to the folder (or `--to DIR`), each file atomically
//! (write a temporary file beside it, then rename), after checking that every host file the run
//! read still has the bytes it read — optimistic concurrency: a file changed on the host since
//! is a conflict, and a conflict refuses the whole commit before anything is written.
//! `rollback` discards the changes in the session itself: journaled (an `fs-rollback` record)
//! with the new image in one transaction, so a replay discards them at the same point.

use std::path::{Path, PathBuf};

use amber::durable::store::{LoadedSession, SessionStatus, SessionStore};
use amber::engine::vfs::{Change, FileType};
use amber::overlay::FsCommit;
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

/// The session restored from its newest image, and its overlay's changes
/// ([`amber::Runtime::fs_diff`]).
fn open(name: &str, location: &StoreLocation) -> CliResult<(amber::Runtime, Vec<Change>, LoadedSession)> {
    let store = store_of(name, location)?;
    let loaded = store.load(name)?;
    let mut runtime = restore(name, &store, &loaded)?;
    let changes = runtime.fs_diff().map_err(|e| Failure::from(e).context(format!("session {name}")))?;
    Ok((runtime, changes, loaded))
}

fn letter(change: &Change) -> char {
    match change {
        Change::Added { .. } => 'A',
        Change::Modified { .. } => 'M',
        Change::Deleted { .. } => 'D',
    }
}

fn diff(name: &str, json: bool, location: &StoreLocation) -> CliResult<u8> {
    let (_, changes, _) = open(name, location)?;
    for change in &changes {
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

fn commit(name: &str, to: Option<&Path>, location: &StoreLocation) -> CliResult<u8> {
    let (mut runtime, _, loaded) = open(name, location)?;
    refuse_running(name, &loaded, "commit it")?;
    let done = runtime
        .fs_commit_with(to, &mut crate::atomic::write_atomically)
        .map_err(|e| Failure::from(e).context(format!("session {name}")))?;
    match done {
        FsCommit::Conflicts(conflicts) => {
            errln!("amber: nothing was committed; {} conflict(s):", conflicts.len());
            for c in &conflicts {
                errln!("  {c}");
            }
            Ok(exit::INTEGRITY)
        }
        FsCommit::Committed { root, written } => {
            errln!("amber: committed {written} change(s) of session {name} to {}", root.display());
            Ok(exit::OK)
        }
    }
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
