//! `amber repl`: read lines from stdin, evaluate each statement once it parses, print its
//! value the way Node's REPL does. Input that ends mid-statement (an unclosed bracket, string
//! or template) is continued on the next line. `.exit` or end of input quits.
//!
//! `amber repl --session NAME [--at SEQ]` evaluates in a copy of a session's state instead, as
//! `amber eval` does, line after line (what one line defines, the next sees; nothing is ever
//! written back, and effects are refused).

use std::io::{BufRead, IsTerminal, Write};

use amber::Outcome;

use clap::Args;

use crate::error::CliResult;
use crate::exit;
use crate::outcome::print_pending;
use crate::run::builder;
use crate::store::StoreLocation;

#[derive(Args)]
pub struct ReplArgs {
    /// Evaluate in a copy of this session's state (effects refused, nothing written).
    #[arg(long, value_name = "NAME")]
    session: Option<String>,
    /// With --session: the state right after this journal record (default: the last one).
    #[arg(long, value_name = "SEQ", requires = "session")]
    at: Option<u64>,
}

pub fn repl(args: ReplArgs, location: &StoreLocation) -> CliResult<u8> {
    match &args.session {
        Some(name) => session_repl(name, args.at, location),
        None => plain_repl(),
    }
}

/// Lines from stdin, each once it parses; `on_line` evaluates one and says whether it was
/// incomplete (then the next line continues it), or asks to stop with an exit status.
fn read_lines(mut on_line: impl FnMut(&str) -> Result<bool, u8>) -> CliResult<u8> {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut buffer = String::new();
    let prompt = |continued: bool| {
        if interactive {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "{}", if continued { "... " } else { "> " });
            let _ = out.flush();
        }
    };
    prompt(false);
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if buffer.is_empty() && line.trim() == ".exit" {
            break;
        }
        buffer.push_str(&line);
        buffer.push('\n');
        if buffer.trim().is_empty() {
            buffer.clear();
            prompt(false);
            continue;
        }
        match on_line(&buffer) {
            Ok(true) => {
                prompt(true);
                continue;
            }
            Ok(false) => {}
            Err(code) => return Ok(code),
        }
        buffer.clear();
        prompt(false);
    }
    if interactive {
        outln!();
    }
    Ok(exit::OK)
}

fn session_repl(name: &str, at: Option<u64>, location: &StoreLocation) -> CliResult<u8> {
    let mut runtime = crate::eval::open_copy(name, at, location)?;
    read_lines(|source| {
        match amber::history::eval_sealed(&mut runtime, source) {
            Ok(Ok(shown)) => outln!("{shown}"),
            Ok(Err(report)) if report.syntax && incomplete(&report.message) => return Ok(true),
            Ok(Err(report)) => errln!("{report}"),
            Err(e) => errln!("amber: {e}"),
        }
        Ok(false)
    })
}

fn plain_repl() -> CliResult<u8> {
    let mut runtime = builder().build()?;
    let mut count = 0u32;
    read_lines(|source| {
        count += 1;
        let evaluated = match runtime.eval(source, &format!("REPL{count}")) {
            Ok(Err(Outcome::Threw(report))) if report.syntax && incomplete(&report.message) => {
                count -= 1;
                return Ok(true);
            }
            Ok(Ok(shown)) => {
                outln!("{shown}");
                runtime.resume()
            }
            Ok(Err(outcome)) => Ok(outcome),
            Err(e) => Err(e),
        };
        match evaluated {
            Ok(Outcome::Threw(report)) => errln!("{report}"),
            Ok(Outcome::Suspended(pending)) => print_pending(&pending, None),
            Ok(Outcome::Completed(_)) => {}
            Ok(Outcome::Exited(code)) => errln!("amber: the program exited with code {code}"),
            Err(e) => {
                errln!("amber: {e}");
                if e.exit_status() != exit::USAGE {
                    return Err(e.exit_status());
                }
            }
        }
        Ok(false)
    })
}

/// A syntax error that more input could fix.
fn incomplete(message: &str) -> bool {
    message.contains("EOF") || message.starts_with("Unterminated") || message.contains("end of input")
}
