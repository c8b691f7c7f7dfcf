//! Driving a run to a stopping point the user must act on, and reporting it.
//!
//! After the runtime returns `Suspended`, the CLI serves what it can itself: network requests
//! (`Runtime::serve_network`, after their intent records are committed), operations with
//! a `--host` command (their intent records are committed first), and durable sleeps due
//! within [`MAX_INLINE_WAIT_MS`] when nothing else is pending (it waits for them). Anything
//! else is the user's to answer with `amber resume`.

use std::io::Write;

use amber::{OpKind, Outcome, PendingOp, Runtime};

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::host::{execute_all, HostCommands};
use crate::store::Held;
use crate::time::{due_in, iso};

/// Sleeps due within this many ms are waited for in-process rather than suspending.
pub const MAX_INLINE_WAIT_MS: u64 = 60_000;

/// Serve `--host` operations and near sleeps until the run stops on something else.
/// `session` names the idempotency key's session ("" for a run with no session yet).
pub fn drive(
    runtime: &mut Runtime,
    first: amber::Result<Outcome>,
    hosts: &HostCommands,
    held: Option<&Held<'_>>,
) -> CliResult<amber::Result<Outcome>> {
    let mut result = first;
    loop {
        let Ok(Outcome::Suspended(pending)) = &result else { return Ok(result) };
        if runtime.network_pending() {
            // Intent before effect: the requests' intent records are committed first.
            if let Some(held) = held {
                held.persist_records(runtime)?;
            }
            if runtime.serve_network()? {
                crate::fault::point();
                result = runtime.resume();
                continue;
            }
        }
        let served: Vec<(PendingOp, String)> =
            pending.iter().filter_map(|op| hosts.command_for(op).map(|cmd| (op.clone(), cmd.to_string()))).collect();
        if !served.is_empty() {
            // Intent before effect: the operations' intent records are committed first.
            if let Some(held) = held {
                held.persist_records(runtime)?;
            }
            let session = held.map_or("", |h| h.name());
            let run_id = runtime.run_id().unwrap_or_default();
            // Concurrently; delivered (so journaled) in operation order.
            let outcomes = execute_all(&served, hosts, session, &run_id);
            for ((op, _), served) in served.iter().zip(outcomes) {
                crate::fault::point();
                for attempt in &served.attempts {
                    runtime.record_attempt(op.id, attempt)?;
                }
                runtime.resolve_with_duration(op.id, served.result, served.duration_ms)?;
            }
            result = runtime.resume();
            continue;
        }
        if pending.iter().all(|op| op.kind == OpKind::Sleep) {
            if let Some(due) = runtime.next_sleep_due_ms() {
                let now = amber::wall_clock_ms();
                if due <= now.saturating_add(MAX_INLINE_WAIT_MS) {
                    if due > now {
                        let _ = std::io::stdout().flush();
                        std::thread::sleep(std::time::Duration::from_millis(due - now));
                    }
                    runtime.complete_due_sleeps(amber::wall_clock_ms());
                    result = runtime.resume();
                    continue;
                }
            }
        }
        return Ok(result);
    }
}

/// Prints how the run stopped (stderr) and returns the exit status.
pub fn report(result: amber::Result<Outcome>, session: Option<&str>) -> u8 {
    let _ = std::io::stdout().flush();
    crate::run::end_partial_stderr();
    match result {
        Ok(Outcome::Completed(_)) => exit::OK,
        Ok(Outcome::Exited(code)) => program_exit_status(code),
        Ok(Outcome::Threw(report)) => {
            errln!("{report}");
            exit::UNCAUGHT
        }
        Ok(Outcome::Suspended(pending)) => {
            print_pending(&pending, session);
            exit::SUSPENDED
        }
        Err(e) => Failure::from(e).report(),
    }
}

/// `process.exit(code)`: the status the program asked for, as a process sees it — unless it
/// is one of the statuses amber itself reports (usage, integrity, limit, suspended, internal
/// error), which a program cannot fake: such an exit is reported as 1 with a message, so a
/// script driving amber never mistakes a program's `process.exit(75)` for a suspension.
pub fn program_exit_status(code: i32) -> u8 {
    let status = (code & 0xff) as u8;
    if exit::RESERVED.contains(&status) {
        errln!(
            "amber: the program called process.exit({code}); status {status} is reserved for amber's own \
             reports (see `amber --help`), so it exits with status {}",
            exit::UNCAUGHT
        );
        return exit::UNCAUGHT;
    }
    status
}

/// The pending operations, one a line, with what to type next.
pub fn print_pending(pending: &[PendingOp], session: Option<&str>) {
    crate::run::end_partial_stderr();
    let now = amber::wall_clock_ms();
    match session {
        Some(name) => errln!(
            "amber: suspended: session {name} is waiting on {} operation{}",
            pending.len(),
            if pending.len() == 1 { "" } else { "s" }
        ),
        None => errln!("amber: suspended, waiting on {} operation(s)", pending.len()),
    }
    for op in pending {
        errln!("  {}", describe_op(op, now));
    }
    if let Some(name) = session {
        let mut hint = format!("amber: resume with: amber resume {name}");
        for op in pending {
            match op.kind {
                OpKind::Call => hint.push_str(&format!(" --resolve {}='<json>'", op.id)),
                OpKind::Input => hint.push_str(&format!(" --input {}='<text>'", op.id)),
                OpKind::Approval => hint.push_str(&format!(" --approve {} (or --deny {}='<reason>')", op.id, op.id)),
                // Resuming re-sends it (with the same Idempotency-Key) or reads on.
                OpKind::Sleep | OpKind::Http => {}
            }
        }
        errln!("{hint}");
    }
}

/// `1  call   search  {"q":"x"}` / `3  sleep  due in 4.0s (2024-…)`.
pub fn describe_op(op: &PendingOp, now: u64) -> String {
    match op.kind {
        OpKind::Call => format!("{:<3} call   {}  {}", op.id, op.name, op.args),
        OpKind::Input => format!("{:<3} input  {:?}", op.id, op.name),
        // A capability's first use (`Net`, `FsDelete`) names the operation that waits.
        OpKind::Approval => format!(
            "{:<3} approve  {} {}  {}  ({})",
            op.id,
            op.args["capability"].as_str().unwrap_or("call"),
            op.args["call"].as_str().unwrap_or(&op.name),
            op.args["args"],
            op.args["rule"].as_str().unwrap_or("")
        ),
        OpKind::Http => match op.name.as_str() {
            "fetch" => format!(
                "{:<3} http   {} {}",
                op.id,
                op.args["method"].as_str().unwrap_or("GET"),
                shown_url(&op.args["url"])
            ),
            _ => format!("{:<3} http   reading the body of the request at seq {}", op.id, op.args["request"]),
        },
        OpKind::Sleep => {
            let due = op.due_time_ms.unwrap_or(0);
            format!("{:<3} sleep  {} ({})", op.id, due_in(due, now), iso(due))
        }
    }
}

/// A journaled URL as text: a secret's place (a parts array, docs/journal-format.md) shows as
/// `{NAME}`.
fn shown_url(url: &serde_json::Value) -> String {
    match url {
        serde_json::Value::Array(parts) => parts
            .iter()
            .map(|p| match p.as_str() {
                Some(s) => s.to_string(),
                None => format!("{{{}}}", p["$secret"].as_str().unwrap_or("secret")),
            })
            .collect(),
        other => other.as_str().unwrap_or("").to_string(),
    }
}
