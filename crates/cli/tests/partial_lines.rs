//! A partial line (written with `process.stdout.write` or `process.stderr.write`, no newline
//! yet) is printed by the process that wrote it: a run that suspends prints it before it exits
//! with the suspended status, and the process that resumes the run does not print it again.
//! The bytes of every process together equal what node prints for the same program (node
//! answers the host call itself: `amber` is not defined there).
#![allow(clippy::unwrap_used)]

mod support;

use std::process::Command;

use support::{expect, Sandbox};

const PROGRAM: &str = r#"
const ask = (v) => typeof amber === "object" ? amber.call("tool", { v }) : Promise.resolve(v * 10);
process.stdout.write("waiting...");
process.stderr.write("err-part");
const a = await ask(1);
process.stdout.write(`got ${a}; `);
process.stdout.write("again...");
const b = await ask(2);
console.log("done", b);
process.stderr.write(" end\n");
process.stdout.write("tail");
"#;

/// (stdout, stderr) of `node FILE` in the sandbox.
fn node(sb: &Sandbox, file: &str) -> (String, String) {
    let out = Command::new("node").arg(file).current_dir(&sb.dir).output().expect("node 20 is on the machine");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_partial_line_is_printed_by_the_process_that_wrote_it() {
    let sb = Sandbox::new("partial");
    let file = sb.write("agent.mjs", PROGRAM);
    let (node_out, node_err) = node(&sb, &file);

    let run = sb.amber(&["run", &file, "--session", "s"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "waiting...", "the suspending process prints the partial line");
    assert!(run.stderr.starts_with("err-part\namber: suspended"), "{}", run.stderr);

    let first = sb.amber(&["resume", "s", "--resolve", "1=10"]);
    expect(&first, 75);
    assert_eq!(first.stdout, "got 10; again...", "nothing printed twice");
    assert!(first.stderr.starts_with("amber: suspended"), "{}", first.stderr);

    let last = sb.amber(&["resume", "s", "--resolve", "2=20"]);
    expect(&last, 0);
    assert_eq!(format!("{}{}{}", run.stdout, first.stdout, last.stdout), node_out);
    assert_eq!(format!("err-part{}", last.stderr), node_err);

    // Replay re-prints the run's output once, byte for byte.
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, node_out);
}

#[test]
fn output_at_the_end_of_a_run_is_not_given_a_newline() {
    let sb = Sandbox::new("partial-end");
    let file = sb.write("end.js", "process.stdout.write('a');\nprocess.stdout.write('b\\nc');\n");
    let (node_out, _) = node(&sb, &file);
    let run = sb.amber(&["run", &file]);
    expect(&run, 0);
    assert_eq!(run.stdout, node_out);
}
