//! `amber repl`: read lines from stdin, evaluate each input once it parses, print its value
//! the way Node's REPL does. Input that ends mid-statement (an unclosed bracket, string or
//! template) is continued on the next line (`... ` prompt). As in Node: `{a:1}` is an object
//! literal; `await` works at top level (what `const x = await p` binds, later lines see);
//! `require` loads builtins and CommonJS files relative to the working directory (the folder
//! the REPL runs over, or `--fs DIR`); `_` is the last value and `_error` the last error;
//! `.help`, `.exit`, `.break`, `.clear`. End of input quits.
//!
//! Host operations (`amber.call`, `amber.input`) started by an input wait for an answer, as
//! they would in a suspended run: `--host NAME=CMD` serves them as `amber run` does, and the
//! user answers the others with `.resolve ID JSON`, `.reject ID MESSAGE` or `.input ID TEXT`;
//! an input that awaits one prints its value once it is answered. Nothing is stored.
//!
//! `amber repl --session NAME [--at SEQ]` evaluates in a copy of a session's state instead, as
//! `amber eval` does, line after line (what one line defines, the next sees; nothing is ever
//! written back, and effects are refused).

use std::io::{BufRead, IsTerminal, Write};

use amber::lower::HostFolder;
use amber::{OpKind, Outcome, PendingOp, ReplEval, Runtime};

use clap::Args;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::host::{HostArgs, HostCommands};
use crate::outcome::{describe_op, drive, program_exit_status};
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
    /// The folder the REPL reads (and `require` loads from); default: the working directory.
    #[arg(long, value_name = "DIR", conflicts_with = "session")]
    fs: Option<std::path::PathBuf>,
    #[command(flatten)]
    host: HostArgs,
}

pub fn repl(args: ReplArgs, location: &StoreLocation) -> CliResult<u8> {
    match &args.session {
        Some(name) => session_repl(name, args.at, location),
        None => plain_repl(&args, location),
    }
}

/// What the user typed: code (one line or more, once it parses) or a `.command`.
enum Input<'a> {
    Code(&'a str),
    Command(&'a str, &'a str),
}

/// Lines from stdin: `.commands` and inputs, each once it parses; `on_input` evaluates one
/// and says whether it was incomplete (then the next line continues it), or asks to stop with
/// an exit status.
fn read_lines(mut on_input: impl FnMut(Input<'_>) -> Result<bool, u8>) -> CliResult<u8> {
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
        let trimmed = line.trim();
        // Node: a `.keyword` starts a command when it begins an input; `.break` and `.clear`
        // also end an unfinished one.
        let command = trimmed.strip_prefix('.').filter(|c| c.starts_with(|ch: char| ch.is_ascii_alphabetic()));
        if let Some(command) = command.filter(|c| buffer.is_empty() || matches!(*c, "break" | "clear")) {
            buffer.clear();
            let (name, rest) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
            if name == "exit" {
                break;
            }
            if let Err(code) = on_input(Input::Command(name, rest.trim())) {
                return Ok(code);
            }
            prompt(false);
            continue;
        }
        buffer.push_str(&line);
        buffer.push('\n');
        if buffer.trim().is_empty() {
            buffer.clear();
            prompt(false);
            continue;
        }
        match on_input(Input::Code(&buffer)) {
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

/// `.help` (Node's layout: names padded to the longest plus three).
fn help(commands: &[(&str, &str)]) {
    let longest = commands.iter().map(|(name, _)| name.len() + 1).max().unwrap_or(0);
    for (name, text) in commands {
        outln!(".{name}{}{text}", " ".repeat(longest - name.len() - 1 + 3));
    }
    outln!();
    outln!("End of input (Ctrl+D) exits the REPL");
}

const COMMON_COMMANDS: [(&str, &str); 4] = [
    ("break", "Sometimes you get stuck, this gets you out"),
    ("clear", "Alias for .break"),
    ("exit", "Exit the REPL"),
    ("help", "Print this help message"),
];

fn session_repl(name: &str, at: Option<u64>, location: &StoreLocation) -> CliResult<u8> {
    let mut runtime = crate::eval::open_copy(name, at, location)?;
    read_lines(|input| {
        let source = match input {
            Input::Command("help", _) => {
                help(&COMMON_COMMANDS);
                return Ok(false);
            }
            Input::Command("break" | "clear", _) => return Ok(false),
            Input::Command(..) => {
                errln!("Invalid REPL keyword");
                return Ok(false);
            }
            Input::Code(source) => source,
        };
        match amber::history::eval_sealed(&mut runtime, source) {
            Ok(Ok(shown)) => outln!("{shown}"),
            Ok(Err(report)) if report.syntax && incomplete(&report.message) => return Ok(true),
            Ok(Err(report)) => errln!("{report}"),
            Err(e) => errln!("amber: {e}"),
        }
        Ok(false)
    })
}

/// The plain REPL's state between inputs.
struct Repl {
    runtime: Runtime,
    hosts: HostCommands,
    /// Inputs evaluated (they are named `REPL1`, `REPL2`, … in stack traces, as in Node).
    count: u32,
    /// An input awaits at top level and has not settled.
    awaiting: bool,
    /// The pending operations last listed, by id.
    listed: Vec<u64>,
}

fn plain_repl(args: &ReplArgs, location: &StoreLocation) -> CliResult<u8> {
    let dir = match &args.fs {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Failure::usage(format!("no working directory: {e}")))?,
    };
    let folder = crate::folder::FolderSpec::new(&dir, Vec::new())?;
    let host_folder = HostFolder::open(std::path::Path::new(&folder.root), &[location.dir().to_path_buf()], None)
        .map_err(Failure::usage)?;
    let runtime = builder().lower_folder(host_folder, &folder.root, &folder.cwd).build()?;
    let mut repl =
        Repl { runtime, hosts: HostCommands::parse(&args.host)?, count: 0, awaiting: false, listed: Vec::new() };
    read_lines(|input| match input {
        Input::Code(source) => repl.evaluate(source),
        Input::Command(name, rest) => repl.command(name, rest).map(|()| false),
    })
}

impl Repl {
    /// One input: false once evaluated, true if it is unfinished.
    fn evaluate(&mut self, source: &str) -> Result<bool, u8> {
        if self.awaiting {
            errln!(
                "amber: the input above is waiting: answer its operations (.resolve, .reject, .input) or stop \
                 waiting with .break"
            );
            return Ok(false);
        }
        self.count += 1;
        match self.runtime.repl_eval(source, &format!("REPL{}", self.count)) {
            Ok(ReplEval::Threw(report)) if report.syntax && incomplete(&report.message) => {
                self.count -= 1;
                return Ok(true);
            }
            Ok(ReplEval::Value(shown)) => outln!("{shown}"),
            Ok(ReplEval::Awaiting) => self.awaiting = true,
            Ok(ReplEval::Threw(report)) => errln!("{report}"),
            Ok(ReplEval::Ended(outcome)) => return Err(self.ended(outcome)),
            Err(e) => return self.failed(&e),
        }
        self.run_loop()
    }

    /// `.break`, `.clear`, `.help` and the answers to pending operations.
    fn command(&mut self, name: &str, rest: &str) -> Result<(), u8> {
        let answered = match name {
            "break" | "clear" => {
                if self.awaiting {
                    self.runtime.repl_stop_waiting();
                    self.awaiting = false;
                }
                return Ok(());
            }
            "help" => {
                let mut commands = COMMON_COMMANDS.to_vec();
                commands.extend([
                    ("resolve", "Answer a pending operation: .resolve ID JSON"),
                    ("reject", "Fail a pending operation (it throws an Error): .reject ID MESSAGE"),
                    ("input", "Answer a pending amber.input: .input ID TEXT"),
                ]);
                help(&commands);
                return Ok(());
            }
            "resolve" | "reject" | "input" => self.answer(name, rest),
            _ => Err("Invalid REPL keyword".to_string()),
        };
        match answered {
            Ok(()) => self.run_loop().map(drop),
            Err(message) => {
                errln!("{message}");
                Ok(())
            }
        }
    }

    /// `.resolve ID JSON`, `.reject ID MESSAGE`, `.input ID TEXT`.
    fn answer(&mut self, name: &str, rest: &str) -> Result<(), String> {
        let usage = match name {
            "resolve" => ".resolve ID JSON",
            "reject" => ".reject ID MESSAGE",
            _ => ".input ID TEXT",
        };
        let (id, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let id: u64 = id.parse().map_err(|_| format!("usage: {usage}"))?;
        let text = text.trim();
        let op = self.runtime.pending().into_iter().find(|op| op.id == id);
        let Some(op) = op else { return Err(format!("amber: no operation {id} is pending")) };
        let wanted = if name == "input" { OpKind::Input } else { OpKind::Call };
        if op.kind != wanted && !(name == "reject" && op.kind == OpKind::Input) {
            return Err(format!(
                "amber: operation {id} is not a pending {}",
                if name == "input" { "input" } else { "call" }
            ));
        }
        let done = match name {
            "resolve" => {
                let value = serde_json::from_str(text).map_err(|e| format!("amber: .resolve {id}: not JSON: {e}"))?;
                self.runtime.resolve(id, value)
            }
            "reject" => self.runtime.reject(id, text),
            _ => self.runtime.resolve(id, serde_json::Value::String(text.to_string())),
        };
        done.map_err(|e| format!("amber: {e}"))
    }

    /// Runs the event loop until it is idle (serving `--host` operations and near sleeps),
    /// then reports the awaited input's value and the operations left to answer.
    fn run_loop(&mut self) -> Result<bool, u8> {
        let first = self.runtime.resume();
        let result = drive(&mut self.runtime, first, &self.hosts, None).map_err(Failure::report)?;
        let pending = match result {
            Ok(Outcome::Suspended(pending)) => pending,
            Ok(Outcome::Completed(_)) => Vec::new(),
            Ok(Outcome::Threw(report)) => {
                errln!("{report}");
                self.runtime.pending()
            }
            Ok(outcome @ Outcome::Exited(_)) => return Err(self.ended(outcome)),
            Err(e) => return self.failed(&e),
        };
        if self.awaiting {
            let settled = match self.runtime.repl_settled() {
                Ok(settled) => settled,
                Err(e) => return self.failed(&e),
            };
            match settled {
                Some(ReplEval::Value(shown)) => outln!("{shown}"),
                Some(ReplEval::Threw(report)) => errln!("{report}"),
                Some(ReplEval::Ended(outcome)) => return Err(self.ended(outcome)),
                Some(ReplEval::Awaiting) => {}
                None if pending.is_empty() => {
                    errln!("amber: the awaited promise can never settle: nothing it could wait on is pending");
                    self.runtime.repl_stop_waiting();
                }
                None => {
                    self.list(&pending);
                    return Ok(false);
                }
            }
            self.awaiting = false;
        }
        self.list(&pending);
        Ok(false)
    }

    /// The pending operations, when they changed, with how to answer them.
    fn list(&mut self, pending: &[PendingOp]) {
        let ids: Vec<u64> = pending.iter().map(|op| op.id).collect();
        if ids == self.listed {
            return;
        }
        self.listed = ids;
        let answerable: Vec<&PendingOp> =
            pending.iter().filter(|op| matches!(op.kind, OpKind::Call | OpKind::Input)).collect();
        if answerable.is_empty() {
            return;
        }
        let now = amber::wall_clock_ms();
        errln!("amber: waiting on {} operation{}", answerable.len(), if answerable.len() == 1 { "" } else { "s" });
        for op in &answerable {
            errln!("  {}", describe_op(op, now));
        }
        errln!("amber: answer with .resolve ID JSON, .reject ID MESSAGE or .input ID TEXT");
    }

    /// The program ended (`process.exit`): the REPL exits with its status, as Node's does.
    fn ended(&mut self, outcome: Outcome) -> u8 {
        match outcome {
            Outcome::Exited(code) => program_exit_status(code),
            Outcome::Threw(report) => {
                errln!("{report}");
                exit::UNCAUGHT
            }
            Outcome::Completed(_) | Outcome::Suspended(_) => exit::OK,
        }
    }

    /// An error of the runtime: a usage error is reported and the REPL goes on; others end it.
    fn failed(&self, e: &amber::Error) -> Result<bool, u8> {
        errln!("amber: {e}");
        match crate::error::status_of(e.kind()) {
            exit::USAGE => Ok(false),
            status => Err(status),
        }
    }
}

/// A syntax error that more input could fix.
fn incomplete(message: &str) -> bool {
    message.contains("EOF") || message.starts_with("Unterminated") || message.contains("end of input")
}
