//! `amber upgrade NAME --program FILE|DIR`: move a suspended session to new code. The new
//! entry file (FILE, or DIR's file of the entry's name) is replayed strictly against the
//! session's journal; if it reproduces every record and ends waiting on the same operations,
//! the session continues on it: its entry source becomes the new text, an upgrade record
//! with both code hashes is appended, and the replayed state is saved as a new image (the
//! previous image is kept as the older one). Otherwise the first divergence is reported
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
    /// The new code: the entry file, or a folder holding a file of the entry's name.
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
    let file = if args.program.is_dir() {
        let base =
            std::path::Path::new(&entry).file_name().ok_or_else(|| Failure::usage("the entry has no file name"))?;
        args.program.join(base)
    } else {
        args.program.clone()
    };
    let text =
        std::fs::read_to_string(&file).map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
    let old = loaded
        .sources
        .iter()
        .find(|s| s.path == entry)
        .ok_or_else(|| Failure::integrity(format!("session {name} does not store its entry source {entry:?}")))?;
    let from = BTreeMap::from([(entry.clone(), old.sha256)]);
    let sources: Vec<Source> =
        loaded.sources.iter().map(|s| if s.path == entry { Source::new(&entry, &text) } else { s.clone() }).collect();
    let upgraded = LoadedSession { sources: sources.clone(), ..loaded.clone() };
    let module = loaded.meta.module;
    let program = Program { filename: entry.clone(), source: text.clone(), module, commonjs: !module };
    let with_files =
        crate::folder::with_session_files(with_session_options(builder(), &upgraded)?, &upgraded, store.dir())?;
    let mut runtime = match amber::history::upgrade(with_files, &loaded.journal, &program, &from) {
        Ok(runtime) => runtime,
        Err(e @ Error::Divergence { .. }) => {
            return Err(Failure::from(e)
                .context(format!("session {name} was not upgraded ({} is left exactly as it was)", name)))
        }
        Err(e) => return Err(Failure::from(e).context(format!("upgrade of session {name}"))),
    };
    let image = runtime.snapshot()?;
    let records = runtime.take_records();
    let [record] = records.as_slice() else {
        return Err(Failure::integrity(format!(
            "upgrade of session {name}: expected one upgrade record, got {}",
            records.len()
        )));
    };
    store.upgrade(&lease, &sources, record, &image)?;
    let to = Digest::of(text.as_bytes());
    errln!(
        "amber: session {name} now runs {} (sha256 {to}): the new code replayed all {} journal records; upgrade recorded at seq {}",
        file.display(),
        loaded.journal.len(),
        record.seq
    );
    Ok(exit::OK)
}
