//! The `amber` command: run JavaScript programs, and (with sessions) suspend, resume and
//! replay them. Only this crate knows clap and the terminal.
#![forbid(unsafe_code)]

mod run;

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
}

#[derive(Parser)]
#[command(name = "amber", version, about = "Amber: a JavaScript engine with built-in durability")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a JavaScript file.
    Run(run::RunArgs),
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
    let handle = std::thread::Builder::new().stack_size(256 << 20).spawn(move || match cli.command {
        Command::Run(args) => run::run(args),
    });
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        Ok(Err(_)) => {
            eprintln!("amber: internal error (the engine panicked); please report this bug");
            ExitCode::from(70)
        }
        Err(e) => {
            eprintln!("amber: cannot start the VM thread: {e}");
            ExitCode::from(exit::USAGE)
        }
    }
}
