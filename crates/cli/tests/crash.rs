//! SIGKILL at every durability point of a session (`AMBER_FAULT_KILL_AT`, see
//! `crates/cli/src/fault.rs`): before and after each store write, and after each `--host`
//! command ran but before its result was committed. After every kill the session resumes in
//! a fresh process and finishes with the output of a run that was never interrupted; nothing
//! committed is lost (the journal replays, the files the program wrote are all there), and a
//! host command runs again only if its result had not been committed (at-least-once).

#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Out, Sandbox};

const AGENT: &str = r#"
const fs = require('fs');
(async () => {
  let total = 0;
  for (let i = 1; i <= 3; i++) {
    const r = await amber.call('echo', { i });
    total += r.i;
    fs.appendFileSync('log.txt', 'call ' + i + '\n');
  }
  const name = await amber.input('name?');
  await amber.sleep(5);
  console.log('done', total, name, fs.readFileSync('log.txt', 'utf8').split('\n').length - 1);
})();
"#;

const HOST: &str = "echo=tee -a calls.txt";
const KILLED: i32 = -1;

fn killed_or(out: &Out, code: i32) -> bool {
    assert!(out.code == KILLED || out.code == code, "exit {}:\n{}\n{}", out.code, out.stdout, out.stderr);
    out.code == KILLED
}

/// Resumes `name` until it completes, answering the input; returns everything it printed.
fn finish(sb: &Sandbox, name: &str) -> String {
    let mut printed = String::new();
    for _ in 0..4 {
        let out = sb.amber(&["resume", name, "--host", HOST]);
        printed.push_str(&out.stdout);
        match out.code {
            0 => return printed,
            2 if out.stderr.contains("has completed") => return printed,
            75 if out.stderr.contains("input") => {
                let out = sb.amber(&["resume", name, "--input", "bob", "--host", HOST]);
                printed.push_str(&out.stdout);
                expect(&out, 0);
                return printed;
            }
            75 => {}
            _ => panic!("resume of {name} exited {}:\n{}", out.code, out.stderr),
        }
    }
    panic!("session {name} did not finish");
}

/// What must hold once a session that was killed somewhere has been finished.
fn check_finished(sb: &Sandbox, name: &str, printed: &str) {
    assert!(printed.contains("done 6 bob 3\n"), "{name}: {printed}");
    let inspect = sb.amber(&["inspect", name, "--json"]);
    expect(&inspect, 0);
    let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    assert_eq!(view["session"]["status"], "completed", "{name}");
    let records = view["journal"].as_array().unwrap();
    let calls = records.iter().filter(|r| r["function"] == "echo" && r["result"].is_object()).count();
    assert_eq!(calls, 3, "{name}: one committed result per call");
    let replay = sb.amber(&["replay", name]);
    expect(&replay, 0);
}

#[test]
fn a_session_killed_at_any_durability_point_resumes_without_losing_anything() {
    let sb = Sandbox::new("crash");
    sb.write("agent.js", AGENT);
    let mut points = 0;
    // The run serving the host calls, killed at its n-th point.
    for n in 1.. {
        let name = format!("r{n}");
        let _ = std::fs::remove_file(sb.dir.join("calls.txt"));
        let at = n.to_string();
        let out =
            sb.amber_env(&["run", "agent.js", "--session", &name, "--host", HOST], &[("AMBER_FAULT_KILL_AT", &at)]);
        if !killed_or(&out, 75) {
            break;
        }
        points += 1;
        let mut printed = out.stdout;
        if sb.amber(&["inspect", &name]).stderr.contains("not found") {
            // Killed before the session was created: nothing was committed; run it again.
            let again = sb.amber(&["run", "agent.js", "--session", &name, "--host", HOST]);
            expect(&again, 75);
        }
        printed += &finish(&sb, &name);
        check_finished(&sb, &name, &printed);
        let executions = std::fs::read_to_string(sb.dir.join("calls.txt")).unwrap_or_default().matches("\"i\"").count();
        assert!((3..=4).contains(&executions), "{name}: the host ran {executions} times");
        assert!(n < 40, "more durability points than expected");
    }
    eprintln!("killed the run at each of its {points} durability points");
    assert!(points >= 8, "only {points} points in the run");
    // The resume that answers the input and sleeps, killed at its m-th point.
    let mut points = 0;
    for m in 1.. {
        let name = format!("i{m}");
        expect(&sb.amber(&["run", "agent.js", "--session", &name, "--host", HOST]), 75);
        let at = m.to_string();
        let out = sb.amber_env(&["resume", &name, "--input", "bob"], &[("AMBER_FAULT_KILL_AT", &at)]);
        if !killed_or(&out, 0) {
            check_finished(&sb, &name, &out.stdout);
            break;
        }
        points += 1;
        let printed = out.stdout + &finish(&sb, &name);
        check_finished(&sb, &name, &printed);
        assert!(m < 20, "more durability points than expected");
    }
    eprintln!("killed the resume at each of its {points} durability points");
    assert!(points >= 3, "only {points} points in the resume");
}

const TWO_CALLS: &str = r#"
(async () => {
  const a = await amber.call('first', {});
  console.log('a', a);
  const b = await amber.call('second', { a });
  console.log('b', b);
})();
"#;

/// Issue 15 item 6: a resume killed between its journal commit and its image save leaves the
/// newest image listing operation 1, which the journal has already completed. `inspect` must
/// show what the journal says is pending (operation 2), and the user's retry of the same
/// `--resolve 1=…` must not fail on the id it was shown.
#[test]
fn after_a_crash_between_the_journal_commit_and_the_image_save_inspect_and_resolve_agree_with_the_journal() {
    let sb = Sandbox::new("stale");
    sb.write("two.js", TWO_CALLS);
    let mut behind = 0;
    for n in 1.. {
        let name = format!("s{n}");
        expect(&sb.amber(&["run", "two.js", "--session", &name]), 75);
        let at = n.to_string();
        let out = sb.amber_env(&["resume", &name, "--resolve", "1=5"], &[("AMBER_FAULT_KILL_AT", &at)]);
        if !killed_or(&out, 75) {
            break;
        }
        let inspect = sb.amber(&["inspect", &name, "--json"]);
        expect(&inspect, 0);
        let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
        let journal = view["journal"].as_array().unwrap();
        let first_done = journal.iter().any(|r| r["kind"] == "call-completion" && r["function"] == "first");
        if view["records_past_image"].as_u64().unwrap_or(0) > 0 {
            behind += 1;
            let text = sb.amber(&["inspect", &name]);
            assert!(text.stdout.contains("caught up"), "{name}: {}", text.stdout);
        }
        let pending: Vec<(u64, String)> = view["pending"]
            .as_array()
            .unwrap()
            .iter()
            .map(|op| (op["id"].as_u64().unwrap(), op["name"].as_str().unwrap().to_string()))
            .collect();
        let expected = if first_done { (2, "second".to_string()) } else { (1, "first".to_string()) };
        assert_eq!(pending, vec![expected], "{name}: inspect must agree with the journal");
        // The user retries the command that was interrupted: harmless either way.
        let again = sb.amber(&["resume", &name, "--resolve", "1=5"]);
        expect(&again, 75);
        if first_done {
            assert!(again.stderr.contains("operation 1 already has a result"), "{name}: {}", again.stderr);
        }
        assert!(again.stderr.contains("2   call   second"), "{name}: {}", again.stderr);
        let last = sb.amber(&["resume", &name, "--resolve", "2=7"]);
        expect(&last, 0);
        assert_eq!(last.stdout, "b 7\n", "{name}");
        expect(&sb.amber(&["replay", &name]), 0);
        assert!(n < 20, "more durability points than expected");
    }
    assert!(behind >= 1, "no kill point fell between the journal commit and the image save");
}

/// Whether session `name` exists, and if it does, that it finishes like an uninterrupted one.
fn whole_or_absent(sb: &Sandbox, name: &str) {
    let inspect = sb.amber(&["inspect", name]);
    if inspect.code != 0 {
        assert!(
            inspect.stderr.contains("not found") || inspect.stderr.contains("no session"),
            "{name}: {}",
            inspect.stderr
        );
        expect(&sb.amber(&["import", "src.amber", "--as", name]), 0);
    }
    let printed = finish(sb, name);
    check_finished(sb, name, &printed);
}

/// The SIGKILL test covers `import` too: killed at each of its durability points and at
/// arbitrary moments, an import leaves the session whole or absent, never half there.
#[test]
fn a_killed_import_leaves_the_session_whole_or_absent() {
    let sb = Sandbox::new("crash-import");
    sb.write("agent.js", AGENT);
    expect(&sb.amber(&["run", "agent.js", "--session", "src", "--host", HOST]), 75);
    expect(&sb.amber(&["export", "src", "-o", "src.amber"]), 0);
    let mut points = 0;
    for n in 1.. {
        let name = format!("m{n}");
        let at = n.to_string();
        let out = sb.amber_env(&["import", "src.amber", "--as", &name], &[("AMBER_FAULT_KILL_AT", &at)]);
        let killed = killed_or(&out, 0);
        whole_or_absent(&sb, &name);
        if !killed {
            break;
        }
        points += 1;
        assert!(n < 10, "more durability points than expected");
    }
    assert!(points >= 2, "only {points} points in the import");
    // SIGKILL at arbitrary moments of a real import.
    for (i, delay_ms) in [0u64, 1, 2, 4, 8, 16, 32].into_iter().enumerate() {
        let name = format!("t{i}");
        let mut child = sb.command(&["import", "src.amber", "--as", &name]).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        whole_or_absent(&sb, &name);
    }
}
