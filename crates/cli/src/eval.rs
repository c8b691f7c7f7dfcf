//! `amber eval NAME [--at SEQ] EXPR`: evaluate JavaScript in the global scope of a session's
//! program, on a copy of its state — the newest image (at the journal's end), or the state
//! right after record SEQ (as `amber fork` builds it) — and print the value as `console.log`
//! would (the run is stopped at its first effect after SEQ, not run on). Effects are refused inside (host calls, input, sleep, the network, file writes,
//! timers: a TypeError saying so); nothing is written to the store, and the copy is dropped.

use std::sync::atomic::{AtomicBool, Ordering};

use amber::engine::vm::Stream;
use amber::engine::Vm;
use amber::history::{eval_sealed, journal_prefix, open_frozen_at};
use amber::Runtime;
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::resume::entry_program;
use crate::run::{builder, partial_line_hook, print_hook};
use crate::store::{with_session_options, StoreLocation};

#[derive(Args)]
pub struct EvalArgs {
    /// The session.
    name: String,
    /// Evaluate at the state right after this journal record (default: the last one).
    #[arg(long, value_name = "SEQ")]
    at: Option<u64>,
    /// The JavaScript to evaluate (a script: its completion value is printed).
    expr: String,
}

/// Program output is shown only from the expression itself, not from the run catching up to
/// SEQ (that output belongs to the session, which printed it once).
static SHOW_OUTPUT: AtomicBool = AtomicBool::new(false);

fn eval_print_hook(vm: &mut Vm, stream: Stream, text: &str) {
    if SHOW_OUTPUT.load(Ordering::Relaxed) {
        print_hook(vm, stream, text);
    }
}

fn eval_partial_line_hook(vm: &mut Vm, stream: Stream, text: &str) {
    if SHOW_OUTPUT.load(Ordering::Relaxed) {
        partial_line_hook(vm, stream, text);
    }
}

pub fn eval(args: EvalArgs, location: &StoreLocation) -> CliResult<u8> {
    let mut runtime = open_copy(&args.name, args.at, location)?;
    match eval_sealed(&mut runtime, &args.expr)? {
        Ok(shown) => {
            outln!("{shown}");
            Ok(exit::OK)
        }
        Err(report) => {
            errln!("{report}");
            Ok(exit::UNCAUGHT)
        }
    }
}

/// A copy of session `name`'s state (at its end, or right after record `at`), in memory,
/// with its output shown from here on: what `eval` and `repl --session` evaluate in.
pub fn open_copy(name: &str, at: Option<u64>, location: &StoreLocation) -> CliResult<Runtime> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {name:?}: there is no session store here")))?;
    let loaded = store.load(name)?;
    let (journal, image) = match at {
        None => (loaded.journal.clone(), loaded.image.clone()),
        Some(at) => (journal_prefix(&loaded.journal, at)?, store.image_at_or_before(name, at + 1)?),
    };
    if let Some(image) = &image {
        image.check_code_hashes(&loaded.sources)?;
    }
    let program = entry_program(&loaded)?;
    let base = builder().print_hook(eval_print_hook).partial_line_hook(eval_partial_line_hook);
    let with_files = crate::folder::with_session_files(with_session_options(base, &loaded)?, &loaded, store.dir())?;
    let runtime = open_frozen_at(with_files, &journal, image.as_ref().map(|i| i.bytes.as_slice()), &program)
        .map_err(|e| Failure::from(e).context(format!("cannot bring session {name} to the state asked for")))?;
    SHOW_OUTPUT.store(true, Ordering::Relaxed);
    Ok(runtime)
}
