//! `amber fork NAME NEW [--at SEQ]`: a new session NEW at NAME's state right after journal
//! record SEQ (default: the last). NEW shares NAME's history (its records up to SEQ) and
//! sources; its own journal starts with a fork record naming NAME, SEQ and that record's
//! hash. The state comes from NAME's nearest image at or before SEQ, with the records after
//! it replayed (or from a replay from the top when there is none); from SEQ on the fork runs
//! live to its next safe point, like a `resume` without results. NAME is not written.

use amber::history::{fork_journal, open_at};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::host::{HostArgs, HostCommands};
use crate::outcome::{drive, report};
use crate::resume::entry_program;
use crate::run::builder;
use crate::store::{with_session_options, Held, StoreLocation};

#[derive(Args)]
pub struct ForkArgs {
    /// The session to fork.
    name: String,
    /// The new session's name.
    new: String,
    /// Fork right after this journal record (default: the last one).
    #[arg(long, value_name = "SEQ")]
    at: Option<u64>,
    #[command(flatten)]
    host: HostArgs,
}

pub fn fork(args: ForkArgs, location: &StoreLocation) -> CliResult<u8> {
    let hosts = HostCommands::parse(&args.host)?;
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let parent = store.load(&args.name)?;
    let at = match args.at {
        Some(at) => at,
        None => (parent.journal.len() as u64)
            .checked_sub(1)
            .ok_or_else(|| Failure::usage(format!("session {} has no journal records yet", args.name)))?,
    };
    let journal = fork_journal(&args.name, &parent.journal, at)?;
    let Some(fork_record) = journal.records().last() else {
        return Err(Failure::integrity("the fork journal is empty"));
    };
    store.create_fork(&args.name, &args.new, fork_record)?;
    let held = Held { store: &store, lease: store.acquire(&args.new)? };
    let loaded = store.load(&args.new)?;
    let image = store.image_at_or_before(&args.name, at + 1)?;
    if let Some(image) = &image {
        image.check_code_hashes(&loaded.sources)?;
    }
    let program = entry_program(&loaded)?;
    let with_files =
        crate::folder::with_session_files(with_session_options(builder(), &loaded)?, &loaded, store.dir())?;
    let opened = open_at(with_files, &journal, image.as_ref().map(|i| i.bytes.as_slice()), &program);
    let (mut runtime, outcome) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            // Nothing ran: a fork that cannot reach its state is not left behind.
            drop(held);
            let _ = store.delete(&args.new);
            return Err(Failure::from(e).context(format!("cannot fork session {} at seq {at}", args.name)));
        }
    };
    let from = match &image {
        Some(image) => format!("its image at journal length {}", image.seq),
        None => "a replay from the top".to_string(),
    };
    errln!("amber: forked session {} after its record {at} as {} (from {from})", args.name, args.new);
    let result = drive(&mut runtime, outcome, &hosts, Some(&held))?;
    held.finish(&mut runtime, &result)?;
    Ok(report(result, Some(&args.new)))
}
