//! The `amber` command: run JavaScript programs, and (with sessions) suspend, resume, replay
//! and inspect them (DESIGN §8). Only this crate knows clap and the terminal.
//!
//! Architecture invariant: everything durable goes through the `amber` embedding API and the
//! session store of `amber-durable` (and, for `amber serve`, amber-server over amber-store);
//! this crate adds argument parsing, terminal output, the `--host` command bridge and exit
//! statuses.
#![forbid(unsafe_code)]

/// `println!` that ignores a closed stdout (`amber inspect x | head` must not panic).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `eprintln!` that ignores a closed stderr (`amber run x 2>&1 | head -1` must not panic, and
/// must not strand the session half-run).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod atomic;
mod database;
mod database_run;
mod error;
mod eval;
mod fault;
mod folder;
mod fork;
mod fs;
mod host;
mod image_key;
mod inspect;
mod log;
mod outcome;
mod repl;
mod replay;
mod resume;
mod run;
mod serve;
mod sessions;
mod store;
mod time;
mod trace;
mod transport;
mod upgrade;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit statuses (DESIGN §8).
pub mod exit {
    pub const OK: u8 = 0;
    pub const UNCAUGHT: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const INTEGRITY: u8 = 4;
    pub const LIMIT: u8 = 5;
    pub const SUSPENDED: u8 = 75;
    /// The engine panicked (a bug).
    pub const INTERNAL: u8 = 70;
    /// Statuses only amber reports: a program's `process.exit` with one of these becomes 1.
    pub const RESERVED: [u8; 5] = [USAGE, INTEGRITY, LIMIT, INTERNAL, SUSPENDED];
}

/// The exit statuses as `amber --help` lists them (a test checks it names every status).
const EXIT_STATUS_HELP: &str = "Exit status: 0 completed; 1 uncaught error; 2 usage or I/O error; 4 replay divergence \
     or corrupt image; 5 resource limit; 70 internal error (a bug); 75 suspended, operations pending. A program's \
     process.exit(N) exits with N, except that N in {2, 4, 5, 70, 75} becomes 1: those are amber's own.";

#[derive(Parser)]
#[command(name = "amber", version, about = "Amber: a JavaScript engine with built-in durability", after_help = EXIT_STATUS_HELP)]
struct Cli {
    /// Session store directory (default: $AMBER_STORE, else .amber in the working directory).
    #[arg(long, global = true, value_name = "DIR")]
    store: Option<PathBuf>,
    /// Authenticate images with HMAC-SHA256 under the key in FILE (default: $AMBER_IMAGE_KEY,
    /// the key's text). The key is never stored.
    #[arg(long, global = true, value_name = "FILE")]
    image_key_file: Option<PathBuf>,
    #[command(flatten)]
    transport: transport::TransportArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a JavaScript file (as a durable session with --session, or when it suspends).
    Run(Box<run::RunArgs>),
    /// Deliver results to a suspended session and continue it.
    Resume(resume::ResumeArgs),
    /// Re-execute a session from the top against its journal; report any divergence.
    Replay(replay::ReplayArgs),
    /// Show a session's or an image/export file's policy, capabilities, pending operations,
    /// journal and heap statistics.
    Inspect(inspect::InspectArgs),
    /// A session's journal as a timeline: operations, steps, sleeps, inputs, reads, with seq,
    /// logical time and duration.
    Log(log::LogArgs),
    /// A session's journal as OpenTelemetry traces: to an OTLP/HTTP collector (--otlp URL) or
    /// a file (-o FILE, OTLP JSON or protobuf); printed as OTLP JSON without either.
    Trace(trace::TraceArgs),
    /// Start a new session from a session's state right after one of its journal records.
    Fork(fork::ForkArgs),
    /// Evaluate JavaScript in a session's global scope, on a copy of its state (effects refused).
    Eval(eval::EvalArgs),
    /// Move a suspended session to new code, if the new code replays its journal.
    Upgrade(upgrade::UpgradeArgs),
    /// List sessions (with --database, those of the PostgreSQL store servers share).
    Sessions(sessions::ListArgs),
    /// Write a session (sources, newest image, journal) to one file.
    Export(sessions::ExportArgs),
    /// Add a session from an export file.
    Import(sessions::ImportArgs),
    /// Delete a session, and the stored blobs no other session names.
    Delete(sessions::DeleteArgs),
    /// Remove stored blobs nothing names (file captures, bodies and code of deleted sessions,
    /// orphans of crashed runs) once older than the grace period.
    Gc(sessions::GcArgs),
    /// A session's changes to its host folder: `fs diff NAME`, `fs commit NAME [--to DIR]`, `fs rollback NAME`.
    Fs(fs::FsArgs),
    /// Read-eval-print loop (reads lines from stdin); with --session, in a copy of a session's state.
    Repl(repl::ReplArgs),
    /// Run many sessions behind an HTTP API (docs/server.md).
    Serve(Box<serve::ServeArgs>),
    /// Upload a program folder to a server; prints the program id.
    Deploy(serve::DeployArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { exit::USAGE } else { exit::OK });
        }
    };
    // The interpreter is stackless for JS calls; native re-entries and the compiler's
    // recursion get a generous thread stack.
    let handle = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
        let store = store::StoreLocation::new(cli.store);
        amber::node::loader::typescript::set_store(Box::new(store::TransformDir(store.dir().join("typescript"))));
        if let Err(failure) = image_key::init(cli.image_key_file.as_deref()) {
            return failure.report();
        }
        if let Err(failure) = transport::init(&cli.transport) {
            return failure.report();
        }
        let result = match cli.command {
            Command::Run(args) => run::run(*args, &store),
            Command::Resume(args) => resume::resume(args, &store),
            Command::Replay(args) => replay::replay(args, &store),
            Command::Inspect(args) => inspect::inspect(args, &store),
            Command::Log(args) => log::log(args, &store),
            Command::Trace(args) => trace::trace(args, &store),
            Command::Fork(args) => fork::fork(args, &store),
            Command::Eval(args) => eval::eval(args, &store),
            Command::Upgrade(args) => upgrade::upgrade(args, &store),
            Command::Sessions(args) => sessions::list(args, &store),
            Command::Export(args) => sessions::export(args, &store),
            Command::Import(args) => sessions::import(args, &store),
            Command::Delete(args) => sessions::delete(args, &store),
            Command::Gc(args) => sessions::gc(args, &store),
            Command::Fs(args) => fs::fs(args, &store),
            Command::Repl(args) => repl::repl(args, &store),
            Command::Serve(args) => serve::serve(*args, &store),
            Command::Deploy(args) => serve::deploy(args),
        };
        result.unwrap_or_else(|failure| failure.report())
    });
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        Ok(Err(_)) => {
            errln!("amber: internal error (the engine panicked); please report this bug");
            ExitCode::from(exit::INTERNAL)
        }
        Err(e) => {
            errln!("amber: cannot start the VM thread: {e}");
            ExitCode::from(exit::USAGE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_every_exit_status() {
        let help = EXIT_STATUS_HELP;
        for status in
            [exit::OK, exit::UNCAUGHT, exit::USAGE, exit::INTEGRITY, exit::LIMIT, exit::INTERNAL, exit::SUSPENDED]
        {
            assert!(help.contains(&format!("{status} ")), "`amber --help` does not name exit status {status}");
        }
        let reserved: Vec<String> = exit::RESERVED.iter().map(u8::to_string).collect();
        assert!(help.contains(&format!("{{{}}}", reserved.join(", "))), "the reserved statuses changed: {reserved:?}");
    }
}
