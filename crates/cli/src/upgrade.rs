//! `amber upgrade NAME --program FILE|DIR`: move a suspended session to new code. The new
//! entry file (FILE, or DIR's file at the entry's path within the session's folder) is
//! replayed strictly against the session's journal — with DIR, every module the new code
//! reads from DIR that differs from what the journal captured (or that is new) is the new
//! code too; if it reproduces every record and ends waiting on the same operations, the
//! session continues on it: its entry source becomes the new text, each changed module is
//! stored as a source that stands in for the folder's file from now on, an upgrade record
//! with both sets of code hashes is appended, and the replayed state is saved as a new image
//! (the previous image is kept as the older one). Otherwise the first divergence is reported
//! (seq, what the journal recorded, what the new code did, where) with exit status 4, and the
//! session is left exactly as it was.

use std::collections::BTreeMap;
use std::path::PathBuf;

use amber::durable::digest::Digest;
use amber::durable::store::{LoadedSession, SessionStatus, Source};
use amber::{Error, Program};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::run::builder;
use crate::store::{with_session_options, StoreLocation};

#[derive(Args)]
pub struct UpgradeArgs {
    /// The session.
    name: String,
    /// The new code: the entry file, or a folder laid out as the session's folder (its entry
    /// at the same relative path; every module the new code reads from it is new code).
    #[arg(long, value_name = "FILE|DIR")]
    program: PathBuf,
}

pub fn upgrade(args: UpgradeArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let lease = store.acquire(&args.name)?;
    let loaded = store.load(&args.name)?;
    let name = &args.name;
    if loaded.meta.status != SessionStatus::Suspended {
        return Err(Failure::usage(format!(
            "session {name} is {}; only a suspended session can move to new code",
            loaded.meta.status.name()
        )));
    }
    let entry = loaded.meta.entry.clone();
    let folder = crate::folder::FolderSpec::of_session(&loaded)?;
    let upgrade_from = args.program.is_dir().then_some(args.program.as_path());
    let file = match upgrade_from {
        Some(dir) => match folder.as_ref().and_then(|f| f.relative(&entry)) {
            Some(rel) => dir.join(rel),
            None => dir.join(
                std::path::Path::new(&entry).file_name().ok_or_else(|| Failure::usage("the entry has no file name"))?,
            ),
        },
        None => args.program.clone(),
    };
    let text =
        std::fs::read_to_string(&file).map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
    let old = loaded
        .sources
        .iter()
        .find(|s| s.path == entry)
        .ok_or_else(|| Failure::integrity(format!("session {name} does not store its entry source {entry:?}")))?;
    let from = BTreeMap::from([(entry.clone(), old.sha256)]);
    let mut sources: Vec<Source> =
        loaded.sources.iter().map(|s| if s.path == entry { Source::new(&entry, &text) } else { s.clone() }).collect();
    let upgraded = LoadedSession { sources: sources.clone(), ..loaded.clone() };
    let module = loaded.meta.module;
    let program = Program { filename: entry.clone(), source: text.clone(), module, commonjs: !module };
    let with_files = crate::folder::with_session_files_upgrading(
        with_session_options(builder(), &upgraded)?,
        &upgraded,
        store.dir(),
        upgrade_from,
    )?;
    let amber::history::Upgraded { mut runtime, files } =
        match amber::history::upgrade(with_files, &loaded.journal, &program, &from) {
            Ok(upgraded) => upgraded,
            Err(e @ Error::Divergence { .. }) => {
                return Err(Failure::from(e)
                    .context(format!("session {name} was not upgraded ({} is left exactly as it was)", name)))
            }
            Err(e) => return Err(Failure::from(e).context(format!("upgrade of session {name}"))),
        };
    for file in &files {
        sources.retain(|s| s.path != file.path);
        sources.push(Source::new(&file.path, &file.text));
    }
    let image = runtime.snapshot()?;
    let records = runtime.take_records();
    let [record] = records.as_slice() else {
        return Err(Failure::integrity(format!(
            "upgrade of session {name}: expected one upgrade record, got {}",
            records.len()
        )));
    };
    // Blobs first (the code blobs of modules the new code compiled): the image names them.
    let blobs = runtime.take_blobs();
    store.put_blobs(&blobs.iter().map(|(h, b)| (*h, &b[..])).collect::<Vec<_>>())?;
    store.upgrade(&lease, &sources, record, &image)?;
    let to = Digest::of(text.as_bytes());
    errln!(
        "amber: session {name} now runs {} (sha256 {to}): the new code replayed all {} journal records; upgrade recorded at seq {}",
        file.display(),
        loaded.journal.len(),
        record.seq
    );
    for file in &files {
        errln!("amber:   module {} is new code (sha256 {})", file.path, Digest::of(file.text.as_bytes()));
    }
    Ok(exit::OK)
}
