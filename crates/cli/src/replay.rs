//! `amber replay NAME`: re-execute a session's stored program from the top against its
//! journal, with no image, and check that it does exactly what the journal recorded and ends
//! where the session stands. When the session's newest image was taken at the end of the
//! journal, the replay must also reach the state that image holds (the same canonical state
//! hash): the image is verified by recomputing it. Silent unless `--print`. Divergence, a
//! broken journal or an image the replay does not reproduce: exit 4.

use std::collections::BTreeSet;

use amber::durable::store::{LoadedSession, SessionStatus};
use amber::{Error, Outcome};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::resume::entry_program;
use crate::run::builder;
use crate::store::{with_session_options, StoreLocation};

#[derive(Args)]
pub struct ReplayArgs {
    /// The session.
    name: String,
    /// Print the program's output while replaying.
    #[arg(long)]
    print: bool,
}

pub fn replay(args: ReplayArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let loaded = store.load(&args.name)?;
    let program = entry_program(&loaded)?;
    let records = loaded.journal.len();
    let mut runtime =
        crate::folder::with_session_files(with_session_options(builder(), &loaded)?, &loaded, store.dir())?
            .print_while_replaying(args.print)
            .replay(&loaded.journal)?;
    let result = runtime.run(&program);
    let name = &args.name;
    let status = loaded.meta.status;
    let ended = match result {
        Ok(outcome) => outcome,
        // A run stopped by a limit (or killed) ends early: a replay that goes on past the end
        // of its journal matched every record there is.
        Err(Error::Divergence { ref expected, .. })
            if expected == "the end of the journal"
                && matches!(status, SessionStatus::Failed | SessionStatus::Running) =>
        {
            errln!("amber: replay of {name} matches all {records} journal records (the original run stopped there)");
            return Ok(exit::OK);
        }
        Err(Error::Limit(limit)) if status == SessionStatus::Failed => {
            errln!(
                "amber: replay of {name} matches all {records} journal records (stopped by the same limit: {limit})"
            );
            return Ok(exit::OK);
        }
        Err(e) => return Err(Failure::from(e).context(format!("replay of session {name}"))),
    };
    let open: BTreeSet<u64> = loaded.journal.open_intents().map(|r| r.seq).collect();
    let summary = match (&ended, status) {
        (Outcome::Completed(_), SessionStatus::Completed) => "completed".to_string(),
        (Outcome::Suspended(pending), SessionStatus::Suspended | SessionStatus::Running) => {
            let waiting: BTreeSet<u64> = pending.iter().map(|op| op.seq).collect();
            if waiting != open {
                return Err(Failure::integrity(format!(
                    "replay of session {name} ended waiting on operations with intent seqs {waiting:?}, \
                     but the journal leaves {open:?} open"
                )));
            }
            format!("suspended on {} operation(s)", pending.len())
        }
        (Outcome::Threw(report), SessionStatus::Failed | SessionStatus::Running) => {
            format!("threw: {}", report.to_string().lines().next().unwrap_or(""))
        }
        (Outcome::Completed(_), SessionStatus::Running) => "completed".to_string(),
        (Outcome::Exited(0), SessionStatus::Completed | SessionStatus::Running) => "exited with code 0".to_string(),
        (Outcome::Exited(code), SessionStatus::Failed | SessionStatus::Running) if *code != 0 => {
            format!("exited with code {code}")
        }
        (ended, status) => {
            let what = match ended {
                Outcome::Completed(_) => "completed",
                Outcome::Suspended(_) => "suspended",
                Outcome::Threw(_) => "threw",
                Outcome::Exited(_) => "exited",
            };
            return Err(Failure::integrity(format!(
                "replay of session {name} {what} at the end of its journal, but the session is {}",
                status.name()
            )));
        }
    };
    let verified = verify_image(&loaded, &mut runtime, store.dir())?;
    errln!("amber: replay of {name} matches all {records} journal records ({summary}){verified}");
    Ok(exit::OK)
}

/// Compares the replayed state with the session's newest image, when that image was taken at
/// the end of the journal (an image taken earlier is followed by records a restore would
/// replay itself). Returns the note for the summary line.
fn verify_image(
    loaded: &LoadedSession,
    replayed: &mut amber::Runtime,
    store_dir: &std::path::Path,
) -> CliResult<&'static str> {
    let name = &loaded.meta.name;
    let Some(image) = loaded.image.as_ref().filter(|image| image.seq == loaded.journal.len() as u64) else {
        return Ok("");
    };
    let mut restored = crate::folder::with_session_files(with_session_options(builder(), loaded)?, loaded, store_dir)?
        .restore(&image.bytes, Some(&loaded.journal))
        .map_err(|e| Failure::from(e).context(format!("cannot restore the newest image of session {name}")))?;
    let ours = replayed.state_hash().map_err(|e| Failure::from(e).context(format!("replay of session {name}")))?;
    let theirs = restored.state_hash().map_err(|e| Failure::from(e).context(format!("image of session {name}")))?;
    if ours != theirs {
        return Err(Failure::integrity(format!(
            "replay of session {name} reaches state {ours}, but its newest image (journal length {}) holds state {theirs}",
            image.seq
        )));
    }
    Ok("; the newest image holds the same state")
}
