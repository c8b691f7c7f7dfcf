//! Issue 24 end to end: `amber log`, `fork`, `eval` and `upgrade`, each step a real `amber`
//! process against a temporary session store.
#![allow(clippy::unwrap_used)]

mod support;

use amber::durable::journal::{CallRecord, Journal, RecordDraft};
use support::{expect, Sandbox};

/// Two tool calls, a step and a sleep; globals an `eval` can read.
const AGENT: &str = r#"
globalThis.config = { model: "m1", tries: 3 };
globalThis.seen = [];
(async () => {
  const a = await amber.call("tool", { q: 1 });
  seen.push(a);
  const n = await amber.step("double", () => a * 2);
  const b = await amber.call("tool", { q: 2 });
  seen.push(b);
  await amber.sleep(5);
  console.log("result", a, n, b);
})();
"#;

const NESTED: &str = r#"
(async () => {
  const outer = "o";
  const keep = () => outer;
  for (let i = 0; i < 1; i++) {
    const inner = i + 10;
    const f = () => inner;
    { let x = 1; const g = () => x; g(); }
    await amber.call("tool", {});
    f(); keep();
  }
})();
"#;

/// Every row of the store's session tables, as bytes, in a fixed order (the lock table is
/// left out: holding a session writes it).
fn rows(sb: &Sandbox) -> Vec<(String, Vec<u8>)> {
    let db = sb.db();
    let mut out = Vec::new();
    for (table, order) in [
        ("sessions", "name"),
        ("sources", "session, path"),
        ("images", "session, seq"),
        ("journal", "session, seq"),
        ("forks", "session"),
    ] {
        let mut stmt = db.prepare(&format!("SELECT * FROM {table} ORDER BY {order}")).unwrap();
        let columns = stmt.column_count();
        let mut query = stmt.query([]).unwrap();
        while let Some(row) = query.next().unwrap() {
            let mut bytes = Vec::new();
            for i in 0..columns {
                match row.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Null => bytes.push(0),
                    rusqlite::types::ValueRef::Integer(n) => bytes.extend_from_slice(&n.to_le_bytes()),
                    rusqlite::types::ValueRef::Real(f) => bytes.extend_from_slice(&f.to_le_bytes()),
                    rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                        bytes.extend_from_slice(t)
                    }
                }
                bytes.push(0xff);
            }
            out.push((table.to_string(), bytes));
        }
    }
    out
}

/// The rows of `table` for `session`.
fn count(sb: &Sandbox, table: &str, session: &str) -> i64 {
    sb.db().query_row(&format!("SELECT COUNT(*) FROM {table} WHERE session = ?1"), [session], |r| r.get(0)).unwrap()
}

/// A session suspended on its first tool call (op 1).
fn started(sb: &Sandbox, name: &str) {
    let file = sb.write("agent.js", AGENT);
    expect(&sb.amber(&["run", &file, "--session", name]), 75);
}

#[test]
fn log_shows_each_operation_once_with_its_completion_time_and_duration() {
    let sb = Sandbox::new("log");
    started(&sb, "s");
    expect(&sb.amber(&["resume", "s", "--resolve", "1=3"]), 75);
    let log = sb.amber(&["log", "s"]);
    expect(&log, 0);
    let lines: Vec<&str> = log.stdout.lines().collect();
    assert_eq!(lines[0], "session s (suspended), 5 journal records", "{}", log.stdout);
    assert!(lines[1].starts_with("  0    +0.000s  run start at "), "{}", log.stdout);
    assert!(
        lines[2].starts_with("  1    +0.000s  call #1 \"tool\" {\"q\":1} -> 3  (answered at seq 2, "),
        "{}",
        log.stdout
    );
    assert!(lines[3].contains("step \"double\" -> 6"), "{}", log.stdout);
    assert!(lines[4].contains("call #2 \"tool\" {\"q\":2}  (pending)"), "{}", log.stdout);
    assert_eq!(lines.len(), 5, "{}", log.stdout);
    // Each record the program made names where (the agent's lines 5, 7 and 8).
    let agent = sb.dir.join("agent.js");
    for (line, at) in [(2, 5), (3, 7), (4, 8)] {
        let want = format!("  at {}:{at}:", agent.display());
        assert!(lines[line].contains(&want), "{want} in {}", lines[line]);
    }

    expect(&sb.amber(&["resume", "s", "--resolve", "2=4"]), 0);
    let json = sb.amber(&["log", "s", "--json"]);
    expect(&json, 0);
    let view: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let entries = view["entries"].as_array().unwrap();
    let kinds: Vec<&str> = entries.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["run-start", "call", "step", "call", "sleep"]);
    let sleep = &entries[4];
    assert_eq!(sleep["op_id"], 3);
    assert_eq!(sleep["pending"], false);
    assert_eq!(sleep["completed_seq"], 7);
    assert_eq!(sleep["args"], serde_json::json!({"ms": 5}));
    assert_eq!(entries[3]["completed_seq"], 5);
    assert_eq!(entries[3]["result"], serde_json::json!({"ok": 4}));
    assert!(entries[3]["duration_ms"].is_u64() && entries[0]["logical_time_ms"].is_u64());
    assert_eq!(view["records"], 8);
    assert!(entries[4]["location"].as_str().unwrap().ends_with("agent.js:10:15"), "{}", entries[4]);

    let missing = sb.amber(&["log", "nope"]);
    expect(&missing, 2);
    assert!(missing.stderr.contains("session \"nope\" not found"), "{}", missing.stderr);
}

#[test]
fn forks_at_the_frontier_and_in_the_middle_finish_independently_and_replay() {
    let sb = Sandbox::new("fork");
    started(&sb, "p");
    expect(&sb.amber(&["resume", "p", "--resolve", "1=3"]), 75);
    let parent_rows: Vec<_> = rows(&sb).into_iter().filter(|(t, _)| t != "sessions").collect();

    // At the frontier: the fork waits on the same op 2 as the parent.
    let front = sb.amber(&["fork", "p", "front"]);
    expect(&front, 75);
    assert!(
        front.stderr.contains("forked session p after its record 4 as front (from its image at journal length 5)"),
        "{}",
        front.stderr
    );
    assert!(front.stderr.contains("2   call   tool  {\"q\":2}"), "{}", front.stderr);
    // In the middle: right after op 1's intent (seq 1), op 1 is pending again.
    let mid = sb.amber(&["fork", "p", "mid", "--at", "1"]);
    expect(&mid, 75);
    assert!(mid.stderr.contains("1   call   tool  {\"q\":1}"), "{}", mid.stderr);
    // The parent is untouched; the forks copied neither its records nor its sources.
    assert!(parent_rows.iter().all(|row| rows(&sb).contains(row)), "the parent's rows are unchanged");
    assert_eq!(count(&sb, "journal", "front"), 1, "the fork's own journal is its fork record");
    assert_eq!(count(&sb, "sources", "mid") + count(&sb, "sources", "front"), 0, "a fork shares its parent's sources");

    // Each branch gets its own answers and finishes on its own.
    let done = sb.amber(&["resume", "front", "--resolve", "2=10"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "result 3 6 10\n");
    expect(&sb.amber(&["resume", "mid", "--resolve", "1=100"]), 75);
    let mid_done = sb.amber(&["resume", "mid", "--resolve", "2=200"]);
    expect(&mid_done, 0);
    assert_eq!(mid_done.stdout, "result 100 200 200\n");
    let parent_done = sb.amber(&["resume", "p", "--resolve", "2=4"]);
    expect(&parent_done, 0);
    assert_eq!(parent_done.stdout, "result 3 6 4\n");
    for name in ["p", "front", "mid"] {
        let replay = sb.amber(&["replay", name]);
        expect(&replay, 0);
        assert!(
            replay.stderr.contains("(completed); the newest image holds the same state"),
            "{name}: {}",
            replay.stderr
        );
    }
    let log = sb.amber(&["log", "mid"]);
    assert!(log.stdout.contains("forked from p after its record 1"), "{}", log.stdout);
    assert!(log.stdout.contains("  2    +0.000s  fork \"p\""), "{}", log.stdout);
    // The fork's prefix is the parent's, and so are its locations.
    assert!(log.stdout.contains(&format!("  at {}:5:", sb.dir.join("agent.js").display())), "{}", log.stdout);

    // A session with forks cannot be deleted out from under them; an export of a fork
    // carries the whole history and imports as a session of its own.
    let export = sb.dir.join("mid.amber");
    expect(&sb.amber(&["export", "mid", "-o", export.to_str().unwrap()]), 0);
    expect(&sb.amber(&["import", export.to_str().unwrap(), "--as", "mid2"]), 0);
    let replay = sb.amber(&["replay", "mid2"]);
    expect(&replay, 0);
}

#[test]
fn a_fork_of_a_fork_and_a_tampered_parent() {
    let sb = Sandbox::new("fork2");
    started(&sb, "p");
    expect(&sb.amber(&["resume", "p", "--resolve", "1=3"]), 75);
    expect(&sb.amber(&["fork", "p", "f", "--at", "1"]), 75);
    expect(&sb.amber(&["resume", "f", "--resolve", "1=5"]), 75);
    // f's records: 0-1 p's, 2 the fork, 3 op 1's completion, 4 the step, 5 op 2's intent.
    let ff = sb.amber(&["fork", "f", "ff", "--at", "4"]);
    expect(&ff, 75);
    assert!(ff.stderr.contains("2   call   tool  {\"q\":2}"), "{}", ff.stderr);
    let done = sb.amber(&["resume", "ff", "--resolve", "2=7"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "result 5 10 7\n");
    let replay = sb.amber(&["replay", "ff"]);
    expect(&replay, 0);
    assert!(replay.stderr.contains("matches all 10 journal records"), "{}", replay.stderr);

    // Rewrite p's journal with another first call, re-chained so that p itself verifies:
    // the forks, whose fork records name p's old record 1, are then broken, and say why.
    let db = sb.db();
    let records: Vec<CallRecord> = {
        let mut stmt = db.prepare("SELECT record FROM journal WHERE session = 'p' ORDER BY seq").unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, Vec<u8>>(0)).unwrap();
        rows.map(|b| CallRecord::decode(&b.unwrap()).unwrap()).collect()
    };
    let mut forged = Journal::new();
    for record in &records {
        let args = if record.seq == 1 { serde_json::json!({"q": 9}) } else { record.args.clone() };
        forged
            .append(RecordDraft {
                parent_seq: record.parent_seq,
                kind: record.kind,
                function: record.function.clone(),
                args,
                result: record.result.clone(),
                duration_ms: record.duration_ms,
                timestamp: record.timestamp,
            })
            .unwrap();
    }
    for record in forged.records() {
        db.execute(
            "UPDATE journal SET record = ?2 WHERE session = 'p' AND seq = ?1",
            rusqlite::params![record.seq as i64, record.encode().unwrap()],
        )
        .unwrap();
    }
    // A thorough forger drops p's images too, which hold the old head hash.
    db.execute("DELETE FROM images WHERE session = 'p'", []).unwrap();
    drop(db);
    expect(&sb.amber(&["log", "p"]), 0);
    for name in ["f", "ff"] {
        let replay = sb.amber(&["replay", name]);
        expect(&replay, 4);
        assert!(
            replay.stderr.contains("hash chain broken at seq 2")
                && replay.stderr.contains("the parent's journal changed after the fork"),
            "{name}: {}",
            replay.stderr
        );
        let resume = sb.amber(&["resume", name]);
        expect(&resume, 4);
    }
}

#[test]
fn frames_name_the_captured_bindings_in_scope_at_the_await() {
    let sb = Sandbox::new("frames");
    // The function's and the loop body's captured bindings are in scope at the await; the
    // closed block's `x` is not; `i` is a register.
    let nested = sb.write("nested.js", NESTED);
    expect(&sb.amber(&["run", &nested, "--session", "n"]), 75);
    let frames = sb.amber(&["eval", "n", "[$frames[0].outer, $frames[0].inner, $frames[0].i, 'x' in $frames[0]]"]);
    assert_eq!(frames.stdout, "[ 'o', 10, 0, false ]\n", "{}", frames.stderr);
}

#[test]
fn eval_reads_globals_on_a_copy_refuses_effects_and_changes_nothing() {
    let sb = Sandbox::new("eval");
    started(&sb, "s");
    expect(&sb.amber(&["resume", "s", "--resolve", "1=3"]), 75);
    let before = rows(&sb);
    let shown = sb.amber(&["eval", "s", "config"]);
    expect(&shown, 0);
    // node 20: console.log({ model: "m1", tries: 3 }) and console.log("str").
    assert_eq!(shown.stdout, "{ model: 'm1', tries: 3 }\n");
    let s = sb.amber(&["eval", "s", "'m' + 'x'"]);
    assert_eq!(s.stdout, "mx\n");
    // The awaiting frame's locals: `n` is a register; `a` is captured by the step's closure,
    // so it lives in an environment slot, named by the await's suspend site.
    let frames = sb.amber(&["eval", "s", "[$frames.length, $frames[0].n, $frames[0].a]"]);
    assert_eq!(frames.stdout, "[ 1, 6, 3 ]\n", "{}", frames.stderr);
    let seen = sb.amber(&["eval", "s", "seen"]);
    assert_eq!(seen.stdout, "[ 3 ]\n");
    // Right after the step (seq 3), seen holds op 1's answer; right after op 1's intent,
    // nothing has been seen yet.
    assert_eq!(sb.amber(&["eval", "s", "--at", "3", "seen"]).stdout, "[ 3 ]\n");
    let early = sb.amber(&["eval", "s", "--at", "1", "seen.length"]);
    expect(&early, 0);
    assert_eq!(early.stdout, "0\n");
    // Writing a global changes the copy only.
    let write = sb.amber(&["eval", "s", "config.tries = 9; config.tries"]);
    assert_eq!(write.stdout, "9\n");
    assert_eq!(sb.amber(&["eval", "s", "config.tries"]).stdout, "3\n");
    for (expr, what) in [
        ("amber.call('x', {})", "amber.call"),
        ("amber.input('?')", "amber.input"),
        ("amber.sleep(1)", "amber.sleep"),
        ("setTimeout(() => {}, 1)", "setTimeout"),
        ("process.getBuiltinModule('fs').writeFileSync('/tmp/x', 'y')", "node:fs open (a write)"),
    ] {
        let refused = sb.amber(&["eval", "s", expr]);
        expect(&refused, 1);
        assert!(
            refused.stderr.contains(&format!("TypeError: {what}"))
                && refused.stderr.contains("cannot be used in amber eval"),
            "{expr}: {}",
            refused.stderr
        );
    }
    let thrown = sb.amber(&["eval", "s", "throw new Error('boom')"]);
    expect(&thrown, 1);
    assert!(thrown.stderr.contains("Error: boom"), "{}", thrown.stderr);
    assert_eq!(rows(&sb), before, "eval wrote nothing: the image bytes, journal and sources are unchanged");
    let replay = sb.amber(&["replay", "s"]);
    expect(&replay, 0);
}

const FIXED: &str = r#"
globalThis.config = { model: "m1", tries: 3 };
globalThis.seen = [];
(async () => {
  const a = await amber.call("tool", { q: 1 });
  seen.push(a);
  const n = await amber.step("double", () => a * 2);
  const b = await amber.call("tool", { q: 2 });
  seen.push(b);
  await amber.sleep(5);
  console.log("fixed", a + n + b);
})();
"#;

#[test]
fn upgrade_moves_a_session_to_code_that_replays_and_refuses_code_that_diverges() {
    let sb = Sandbox::new("upgrade");
    started(&sb, "s");
    expect(&sb.amber(&["resume", "s", "--resolve", "1=3"]), 75);

    // New code that calls the tool with other args before the frontier: refused, untouched.
    let before = rows(&sb);
    let bad = sb.write("bad/agent.js", &FIXED.replace("{ q: 2 }", "{ q: 20 }"));
    let diverged = sb.amber(&["upgrade", "s", "--program", &bad]);
    expect(&diverged, 4);
    assert!(diverged.stderr.contains("session s was not upgraded"), "{}", diverged.stderr);
    assert!(
        diverged.stderr.contains("diverged at journal seq 4: the journal recorded call \"tool\" with args {\"q\":2}, but the program did call \"tool\" with args {\"q\":20}"),
        "{}",
        diverged.stderr
    );
    assert!(diverged.stderr.contains("agent.js:8:"), "the divergence names the source location: {}", diverged.stderr);
    assert_eq!(rows(&sb), before, "the session is exactly as it was");

    // New code that differs only after the frontier: the session continues on it.
    let old_image: Vec<u8> = sb
        .db()
        .query_row("SELECT bytes FROM images WHERE session = 's' ORDER BY seq DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();
    sb.write("fixed/agent.js", FIXED);
    let fixed = "fixed";
    let up = sb.amber(&["upgrade", "s", "--program", fixed]);
    expect(&up, 0);
    assert!(
        up.stderr.contains("the new code replayed all 5 journal records; upgrade recorded at seq 5"),
        "{}",
        up.stderr
    );
    let images: Vec<Vec<u8>> = {
        let db = sb.db();
        let mut stmt = db.prepare("SELECT bytes FROM images WHERE session = 's' ORDER BY seq").unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    assert_eq!(images.len(), 2);
    assert_eq!(images[0], old_image, "the previous image is kept");
    let log = sb.amber(&["log", "s", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&log.stdout).unwrap();
    let upgrade = view["entries"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(upgrade["kind"], "upgrade");
    let hash = |text: &str| amber::durable::digest::Digest::of(text.as_bytes()).to_string();
    let entry = upgrade["args"]["from"].as_object().unwrap().keys().next().unwrap().clone();
    assert_eq!(upgrade["args"]["from"][&entry], hash(AGENT).trim_start_matches("sha256:"));
    assert_eq!(upgrade["args"]["to"][&entry], hash(FIXED).trim_start_matches("sha256:"));
    expect(&sb.amber(&["replay", "s"]), 0);

    let done = sb.amber(&["resume", "s", "--resolve", "2=4"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "fixed 13\n");
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, "fixed 13\n");

    let completed = sb.amber(&["upgrade", "s", "--program", fixed]);
    expect(&completed, 2);
    assert!(completed.stderr.contains("only a suspended session"), "{}", completed.stderr);
}

/// A module program: the entry and a module it imports, both read through the folder.
const MODULAR_MAIN: &str = r#"import { label } from "./lib/label.mjs";
const a = await amber.call("tool", { q: label("one") });
const b = await amber.call("tool", { q: a });
console.log(label(b));
"#;
const LABEL: &str = "export const label = (x) => `v1:${x}`;\n";

#[test]
fn upgrade_from_a_folder_moves_changed_and_new_modules_and_refuses_one_that_diverges() {
    let sb = Sandbox::new("upgrade-modules");
    sb.write("app/main.mjs", MODULAR_MAIN);
    sb.write("app/lib/label.mjs", LABEL);
    let app = sb.dir.join("app");
    expect(&sb.amber_in(&app, &["run", "main.mjs", "--session", "m"]), 75);
    expect(&sb.amber(&["resume", "m", "--resolve", "1=\"x\""]), 75);

    // A module change that alters a call before the frontier: refused, the session untouched.
    let before = rows(&sb);
    sb.write("bad/main.mjs", MODULAR_MAIN);
    sb.write("bad/lib/label.mjs", &LABEL.replace("v1", "v2"));
    let diverged = sb.amber(&["upgrade", "m", "--program", "bad"]);
    expect(&diverged, 4);
    assert!(
        diverged.stderr.contains("the journal recorded call \"tool\" with args {\"q\":\"v1:one\"}, but the program did call \"tool\" with args {\"q\":\"v2:one\"}"),
        "{}",
        diverged.stderr
    );
    assert_eq!(rows(&sb), before, "the session is exactly as it was");

    // A changed module (same behaviour before the frontier) and a new one: the session moves.
    let main = MODULAR_MAIN
        .replace("console.log(label(b));", "console.log(shout(label(b)));")
        .replace("\nconst a", "\nimport { shout } from \"./lib/shout.mjs\";\nconst a");
    let label = LABEL.replace("`v1:${x}`", "\"v1:\" + x");
    let shout = "export const shout = (s) => s.toUpperCase() + \"!\";\n";
    sb.write("next/main.mjs", &main);
    sb.write("next/lib/label.mjs", &label);
    sb.write("next/lib/shout.mjs", shout);
    let up = sb.amber(&["upgrade", "m", "--program", "next"]);
    expect(&up, 0);
    let label_path = std::fs::canonicalize(&app).unwrap().join("lib/label.mjs").display().to_string();
    let shout_path = std::fs::canonicalize(&app).unwrap().join("lib/shout.mjs").display().to_string();
    for path in [&label_path, &shout_path] {
        assert!(up.stderr.contains(&format!("module {path} is new code")), "{path}: {}", up.stderr);
    }
    let log = sb.amber(&["log", "m", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&log.stdout).unwrap();
    let upgrade = view["entries"].as_array().unwrap().last().unwrap().clone();
    let hash = |text: &str| amber::durable::digest::Digest::of(text.as_bytes()).to_string().replace("sha256:", "");
    assert_eq!(upgrade["args"]["from"][&label_path], hash(LABEL), "{upgrade}");
    assert_eq!(upgrade["args"]["to"][&label_path], hash(&label), "{upgrade}");
    assert_eq!(upgrade["args"]["to"][&shout_path], hash(shout), "{upgrade}");
    assert!(upgrade["args"]["from"].get(&shout_path).is_none(), "a new module has no old hash: {upgrade}");

    // A second upgrade changes a module the first one moved (and leaves the other as it is).
    let louder = shout.replace("\"!\"", "\"!!\"");
    sb.write("again/main.mjs", &main);
    sb.write("again/lib/label.mjs", &label);
    sb.write("again/lib/shout.mjs", &louder);
    let again = sb.amber(&["upgrade", "m", "--program", "again"]);
    expect(&again, 0);
    assert!(again.stderr.contains(&format!("module {shout_path} is new code")), "{}", again.stderr);
    assert!(!again.stderr.contains(&format!("module {label_path}")), "label.mjs did not change: {}", again.stderr);
    let log = sb.amber(&["log", "m", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&log.stdout).unwrap();
    let second = view["entries"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(second["args"]["from"][&shout_path], hash(shout), "{second}");
    assert_eq!(second["args"]["to"][&shout_path], hash(&louder), "{second}");

    // The new modules are the session's own code now: the folder's copies may go.
    std::fs::remove_dir_all(app.join("lib")).unwrap();
    let done = sb.amber(&["resume", "m", "--resolve", "2=\"y\""]);
    expect(&done, 0);
    assert_eq!(done.stdout, "V1:Y!!\n");
    let replay = sb.amber(&["replay", "m", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, "V1:Y!!\n");
}

#[test]
fn repl_session_evaluates_line_after_line_on_one_copy() {
    let sb = Sandbox::new("repl");
    started(&sb, "s");
    expect(&sb.amber(&["resume", "s", "--resolve", "1=3"]), 75);
    let before = rows(&sb);
    let mut child = sb
        .command(&["repl", "--session", "s"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"globalThis.x = seen[0] * 2\n[x,\nconfig.model]\namber.input('?')\nx\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "6\n[ 6, 'm1' ]\n6\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("amber.input cannot be used in amber eval"));
    assert_eq!(rows(&sb), before, "the session is unchanged");
}
