//! `amber repl`: read lines from stdin, evaluate each statement once it parses, print its
//! value the way Node's REPL does. Input that ends mid-statement (an unclosed bracket, string
//! or template) is continued on the next line. `.exit` or end of input quits.

use std::io::{BufRead, IsTerminal, Write};

use amber::Outcome;

use crate::error::CliResult;
use crate::exit;
use crate::outcome::print_pending;
use crate::run::builder;

pub fn repl() -> CliResult<u8> {
    let mut runtime = builder().build()?;
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut buffer = String::new();
    let mut count = 0u32;
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
        count += 1;
        let evaluated = match runtime.eval(&buffer, &format!("REPL{count}")) {
            Ok(Err(Outcome::Threw(report))) if report.syntax && incomplete(&report.message) => {
                count -= 1;
                prompt(true);
                continue;
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
                    return Ok(e.exit_status());
                }
            }
        }
        buffer.clear();
        prompt(false);
    }
    if interactive {
        outln!();
    }
    Ok(exit::OK)
}

/// A syntax error that more input could fix.
fn incomplete(message: &str) -> bool {
    message.contains("EOF") || message.starts_with("Unterminated") || message.contains("end of input")
}
