//! `amber repl` driven through piped stdin, compared with what node 20's REPL (`node -i`)
//! prints for the same lines: the values (stdout) and the first line of each uncaught error.
//! Node's REPL does not wait for a top-level `await` before it reads the next piped line, so
//! node gets its lines one at a time, a moment apart; amber reads them all at once (it
//! finishes each input, awaits included, before the next).
#![allow(clippy::unwrap_used)]

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use support::Sandbox;

/// What a REPL printed: value lines, and the first lines of uncaught errors.
#[derive(Debug, PartialEq)]
struct Printed {
    values: Vec<String>,
    uncaught: Vec<String>,
}

/// node 20's REPL over `lines`, in the sandbox: prompts, the banner and stack frames left out.
fn node(sb: &Sandbox, lines: &[&str]) -> Printed {
    let mut child = Command::new("node")
        .arg("-i")
        .current_dir(&sb.dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node 20 is on the machine");
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        // After `.exit` node has gone: the rest is not read.
        if stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| stdin.flush()).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(150));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut printed = Printed { values: Vec::new(), uncaught: Vec::new() };
    for line in text.lines().skip(2) {
        let mut line = line;
        while let Some(rest) = line.strip_prefix("> ").or_else(|| line.strip_prefix("... ")) {
            line = rest;
        }
        if line.is_empty() || line == ">" || line.starts_with("    at ") {
            continue;
        }
        if line.starts_with("Uncaught ") {
            printed.uncaught.push(line.to_string());
        } else {
            printed.values.push(line.to_string());
        }
    }
    printed
}

/// `amber repl ARGS` over `lines`, all piped at once: (printed, raw stdout, raw stderr).
fn amber(sb: &Sandbox, args: &[&str], lines: &[&str]) -> (Printed, String, String) {
    let mut command = vec!["repl"];
    command.extend_from_slice(args);
    let mut child =
        sb.command(&command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let printed = Printed {
        values: stdout.lines().filter(|l| !l.is_empty()).map(str::to_string).collect(),
        uncaught: stderr.lines().filter(|l| l.starts_with("Uncaught ")).map(str::to_string).collect(),
    };
    (printed, stdout, stderr)
}

const EVERYDAY: &[&str] = &[
    "const p = Promise.resolve(42)",
    "const x = await p",
    "x + 1",
    "_",
    "{a:1}",
    "{a:1, b:2}",
    "{ let q = 1; q }",
    "throw new Error('boom')",
    "_error.message",
    "nope",
    "_error.message",
    "await Promise.reject(new Error('tla'))",
    "_error.message",
    "var w = await 3",
    "w",
    "const [a1, {b1}] = await [1, {b1: 2}]",
    "a1 + b1",
    "for (const i of [1]) await i",
    "await 1; 2",
    "let {v} = require('./sub/m.js')",
    "v",
    "require('path').join('a', 'b')",
    "require('node:util').inspect(new Map([[1, 2]]))",
    "await new Promise(r => setTimeout(() => r('late'), 10))",
    "_",
    "function f() {",
    "  return `seven`",
    "}",
    "f()",
    "class K {}",
    "typeof f + typeof K",
    "process.stdout.write('part')",
    "Promise.reject(new Error('rej')); 1",
    "_error.message",
    "'abc'",
    "_ = 5",
    "_",
    "[1, 2].map(n => n * 2)",
];

#[test]
fn the_repl_prints_what_node_prints() {
    let sb = Sandbox::new("repl-node");
    sb.write("sub/m.js", "module.exports = { v: 41 };\n");
    let node = node(&sb, EVERYDAY);
    let (amber, _, stderr) = amber(&sb, &[], EVERYDAY);
    assert!(node.values.len() > 25, "{node:?}");
    assert_eq!(amber, node, "stderr:\n{stderr}");
}

#[test]
fn dot_commands_as_node_has_them() {
    let sb = Sandbox::new("repl-dot");
    let lines = ["1 + 1", ".help", "[1,", ".break", "'after break'", ".clear", ".exit", "'not reached'"];
    let node = node(&sb, &lines);
    let (_, stdout, _) = amber(&sb, &[], &lines);
    let words = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    // Node's commands, each with its help text (amber adds its own below them).
    let shared: Vec<String> = node.values.iter().filter(|l| l.starts_with('.')).map(|l| words(l)).collect();
    assert!(shared.len() >= 4, "{node:?}");
    for line in &shared {
        let name = line.split(' ').next().unwrap();
        if [".load", ".save", ".editor"].contains(&name) {
            continue; // not in amber's REPL
        }
        assert!(stdout.lines().any(|l| words(l) == *line), "{line:?} missing from:\n{stdout}");
    }
    let values = |text: Vec<String>| {
        text.into_iter().filter(|l| !l.starts_with('.') && !l.starts_with("Press")).collect::<Vec<_>>()
    };
    let ours: Vec<String> = stdout
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('.') && !l.starts_with("End of input"))
        .map(str::to_string)
        .collect();
    assert_eq!(ours, values(node.values));
}

#[test]
fn a_host_operation_an_input_awaits_is_answered_in_the_repl() {
    let sb = Sandbox::new("repl-host");
    let lines = [
        "const r = await amber.call('tool', { q: 1 })",
        "'refused while waiting'",
        ".resolve 1 {\"ok\": true}",
        "r.ok",
        "amber.call('other', {}).then(v => console.log('other gave', v)); 0",
        ".resolve 2 7",
        "const name = await amber.input('name?')",
        ".input 3 ann",
        "name",
        "await amber.call('x', {})",
        ".reject 4 no such thing",
        "_error.message",
        "await amber.call('y', {})",
        ".break",
        "'free again'",
    ];
    let (printed, stdout, stderr) = amber(&sb, &[], &lines);
    assert_eq!(
        stdout, "undefined\ntrue\n0\nother gave 7\nundefined\n'ann'\n'no such thing'\n'free again'\n",
        "stderr:\n{stderr}"
    );
    assert!(stderr.contains("1   call   tool  {\"q\":1}"), "{stderr}");
    assert!(stderr.contains("3   input  \"name?\""), "{stderr}");
    assert!(stderr.contains("answer with .resolve ID JSON"), "{stderr}");
    assert!(stderr.contains("the input above is waiting"), "{stderr}");
    assert_eq!(printed.uncaught, ["Uncaught Error: no such thing"]);

    // `--host` serves them as `amber run` does.
    let (_, stdout, stderr) =
        amber(&sb, &["--host", "tool=cat >/dev/null; echo '{\"n\": 42}'"], &["(await amber.call('tool', {})).n"]);
    assert_eq!(stdout, "42\n", "{stderr}");
}

#[test]
fn process_exit_ends_the_repl_with_its_status() {
    let sb = Sandbox::new("repl-exit");
    let mut child =
        sb.command(&["repl"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"process.exit(3)\n'not reached'\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}
