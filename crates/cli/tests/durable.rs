//! The durable CLI end to end: every step runs the real `amber` binary in a fresh process
//! against a temporary session store, as a user would.
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use support::{expect, Sandbox};

const AGENT: &str = r#"
class Counter { constructor() { this.n = 0; } inc() { return ++this.n; } }
const t0 = Date.now();
(async () => {
  const c = new Counter();
  const seen = new Map([["r", Math.random()]]);
  console.log("start");
  const pending = Promise.all([amber.call("search", { q: "amber", n: 2 }), amber.input("Approve?")]);
  const [hits, answer] = await pending;
  setTimeout(() => console.log("timer", c.inc()), 5);
  const n = await amber.step("count", () => hits.length);
  await amber.sleep(20);
  console.log("hits", n, "answer", answer, "kept", seen.get("r") === seen.get("r"), Date.now() - t0 >= 20);
})();
"#;

#[test]
fn run_suspend_resume_in_fresh_processes_then_replay() {
    let sb = Sandbox::new("flow");
    let file = sb.write("agent.js", AGENT);
    let run = sb.amber(&["run", &file, "--session", "s1"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "start\n");
    assert!(run.stderr.contains("1   call   search  {\"n\":2,\"q\":\"amber\"}"), "{}", run.stderr);
    assert!(run.stderr.contains("2   input  \"Approve?\""), "{}", run.stderr);

    let first = sb.amber(&["resume", "s1", "--resolve", "1=[\"a\",\"b\"]"]);
    expect(&first, 75);
    assert_eq!(first.stdout, "");
    assert!(first.stderr.contains("waiting on 1 operation"), "{}", first.stderr);

    let second = sb.amber(&["resume", "s1", "--input", "yes"]);
    expect(&second, 0);
    assert_eq!(second.stdout, "timer 1\nhits 2 answer yes kept true true\n");

    let again = sb.amber(&["resume", "s1"]);
    expect(&again, 2);
    assert!(again.stderr.contains("has completed"), "{}", again.stderr);

    let replay = sb.amber(&["replay", "s1"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, "", "replay is silent without --print");
    assert!(replay.stderr.contains("matches all 8 journal records (completed)"), "{}", replay.stderr);
    let printed = sb.amber(&["replay", "s1", "--print"]);
    expect(&printed, 0);
    assert_eq!(printed.stdout, format!("{}{}{}", run.stdout, first.stdout, second.stdout));

    let sessions = sb.amber(&["sessions"]);
    assert!(sessions.stdout.contains("s1") && sessions.stdout.contains("completed"), "{}", sessions.stdout);
}

#[test]
fn a_run_that_suspends_without_a_session_is_kept_under_a_generated_name() {
    let sb = Sandbox::new("generated");
    let file = sb.write("ask.js", "amber.input('name?').then((n) => console.log('hello', n));");
    let run = sb.amber(&["run", &file]);
    expect(&run, 75);
    let name = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("amber: the run suspended; it is kept as session "))
        .unwrap()
        .to_string();
    let done = sb.amber(&["resume", &name, "--input", "1=world"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "hello world\n");
    // A run that completes leaves no store behind.
    let sb = Sandbox::new("ephemeral");
    let file = sb.write("plain.js", "setTimeout(() => console.log('done'), 100)");
    let plain = sb.amber(&["run", &file]);
    expect(&plain, 0);
    assert_eq!(plain.stdout, "done\n");
    assert!(!sb.dir.join("store").exists());
}

#[test]
fn host_commands_serve_calls_and_failures_reject() {
    let sb = Sandbox::new("host");
    let file = sb.write(
        "tools.js",
        r#"(async () => {
             const r = await amber.call("search", { q: "x" });
             console.log("result", JSON.stringify(r));
             try { await amber.call("broken", {}); } catch (e) { console.log("rejected:", e.message); }
           })();"#,
    );
    let tool =
        sb.write("search.sh", "read args; echo \"{\\\"echo\\\":$args,\\\"key\\\":\\\"$AMBER_IDEMPOTENCY_KEY\\\"}\"");
    let run = sb.amber(&[
        "run",
        &file,
        "--session",
        "h",
        "--host",
        &format!("search=sh {tool}"),
        "--host",
        "broken=echo no such index >&2; exit 3",
    ]);
    expect(&run, 0);
    // The key is session:run:seq, the run id 16 hex digits.
    let key = run.stdout.split("\"key\":\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap();
    let parts: Vec<&str> = key.split(':').collect();
    assert_eq!(parts.len(), 3, "{key}");
    assert!(parts[0] == "h" && parts[2] == "1" && parts[1].len() == 16, "{key}");
    assert!(parts[1].bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
    assert_eq!(run.stdout, format!("result {{\"echo\":{{\"q\":\"x\"}},\"key\":\"{key}\"}}\nrejected: no such index\n"));
    expect(&sb.amber(&["replay", "h"]), 0);
}

#[test]
fn replay_divergence_and_broken_journals_exit_4() {
    let sb = Sandbox::new("diverge");
    let file = sb.write("agent.js", AGENT);
    for name in ["src", "jnl"] {
        expect(&sb.amber(&["run", &file, "--session", name]), 75);
        expect(&sb.amber(&["resume", name, "--resolve", "1=[1]"]), 75);
    }
    // A changed program (stored source edited consistently, hash included).
    let db = sb.db();
    let entry = "path LIKE '%/agent.js'";
    let text: String =
        db.query_row(&format!("SELECT text FROM sources WHERE session = 'src' AND {entry}"), [], |r| r.get(0)).unwrap();
    let changed = text.replace("n: 2", "n: 3");
    let hash = amber::durable::digest::sha256(changed.as_bytes()).to_vec();
    let update = format!("UPDATE sources SET text = ?1, sha256 = ?2 WHERE session = 'src' AND {entry}");
    db.execute(&update, rusqlite::params![changed, hash]).unwrap();
    let replay = sb.amber(&["replay", "src"]);
    expect(&replay, 4);
    assert!(replay.stderr.contains("diverged at journal seq 1"), "{}", replay.stderr);
    assert!(replay.stderr.contains("\"n\":2") && replay.stderr.contains("\"n\":3"), "{}", replay.stderr);
    assert!(replay.stderr.contains("/agent.js:8:"), "{}", replay.stderr);
    // An edited journal record breaks the chain.
    let record: Vec<u8> =
        db.query_row("SELECT record FROM journal WHERE session = 'jnl' AND seq = 1", [], |r| r.get(0)).unwrap();
    let mut edited = record.clone();
    edited[8] ^= 1;
    db.execute("UPDATE journal SET record = ?1 WHERE session = 'jnl' AND seq = 1", [edited]).unwrap();
    for args in [&["replay", "jnl"][..], &["resume", "jnl"], &["inspect", "jnl"]] {
        let out = sb.amber(args);
        expect(&out, 4);
        assert!(out.stderr.contains("hash chain broken at seq 1"), "{}", out.stderr);
    }
}

#[test]
fn corrupt_images_exit_4_and_a_lost_image_is_recovered_from_the_journal() {
    let sb = Sandbox::new("image");
    let file = sb.write("agent.js", AGENT);
    for name in ["bad", "lost"] {
        expect(&sb.amber(&["run", &file, "--session", name]), 75);
        expect(&sb.amber(&["resume", name, "--resolve", "1=[1,2,3]"]), 75);
    }
    let db = sb.db();
    let image: Vec<u8> = db
        .query_row("SELECT bytes FROM images WHERE session = 'bad' ORDER BY seq DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();
    for corrupt in [image[..image.len() / 2].to_vec(), {
        let mut b = image.clone();
        let at = b.len() / 3;
        b[at] ^= 0x10;
        b
    }] {
        db.execute("UPDATE images SET bytes = ?1 WHERE session = 'bad'", [corrupt]).unwrap();
        let out = sb.amber(&["resume", "bad", "--input", "yes"]);
        expect(&out, 4);
        assert!(out.stderr.contains("cannot restore session bad"), "{}", out.stderr);
    }
    // Every image gone: resume re-executes the journal (silently) and goes on.
    db.execute("DELETE FROM images WHERE session = 'lost'", []).unwrap();
    let out = sb.amber(&["resume", "lost", "--input", "yes"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "timer 1\nhits 3 answer yes kept true true\n");
}

#[test]
fn a_busy_session_is_refused_and_a_killed_run_resumes() {
    let sb = Sandbox::new("busy");
    let file = sb.write("slow.js", "amber.call('slow', {}).then((v) => console.log('got', v));");
    // The host command outlasts the test: the run is killed while it runs.
    let mut holder = sb.command(&["run", &file, "--session", "b", "--host", "slow=sleep 60; echo 1"]).spawn().unwrap();
    let started = Instant::now();
    let busy = loop {
        let out = sb.amber(&["resume", "b"]);
        if out.stderr.contains("busy") || started.elapsed() > Duration::from_secs(10) {
            break out;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    expect(&busy, 2);
    assert!(busy.stderr.contains("session \"b\" is busy"), "{}", busy.stderr);
    // SIGKILL while the host command runs: the intent is committed, the result is not. The
    // lock is taken before the intent is written, so wait for the intent (on a loaded
    // machine the run can be refused as busy well before it reaches the call).
    let db = sb.db();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let records: i64 =
            db.query_row("SELECT COUNT(*) FROM journal WHERE session = 'b'", [], |r| r.get(0)).unwrap_or(0);
        if records >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
    let inspect = sb.amber(&["inspect", "b", "--json"]);
    expect(&inspect, 0);
    let json: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    assert_eq!(json["journal"][1]["kind"], "call-intent");
    assert_eq!(json["journal"].as_array().unwrap().len(), 2);
    // The next resume re-runs the operation (at least once) and completes.
    let out = sb.amber(&["resume", "b", "--host", "slow=echo 2"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "got 2\n");
    expect(&sb.amber(&["replay", "b"]), 0);
}

#[test]
fn bad_arguments_exit_2() {
    let sb = Sandbox::new("args");
    let file = sb.write("ask.js", "amber.input('x'); amber.call('f', 1);");
    expect(&sb.amber(&["run", &file, "--session", "a"]), 75);
    for args in [
        &["frobnicate"][..],
        &["run"],
        &["run", "missing.js"],
        &["run", &file, "--session", "bad name"],
        &["run", &file, "--session", "a"],
        &["run", &file, "--host", "noequals"],
        &["resume", "nosuch"],
        &["resume", "a", "--resolve", "x"],
        &["resume", "a", "--resolve", "9=1"],
        &["resume", "a", "--resolve", "2=not json"],
        &["resume", "a", "--input", "2=text"],
        &["replay", "nosuch"],
        &["inspect", "nosuch"],
        &["export", "a"],
        &["import", "missing.amber"],
    ] {
        let out = sb.amber(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{args:?}: {}", out.stderr);
    }
    // Nothing was delivered by the failed attempts.
    let out = sb.amber(&["resume", "a", "--input", "yes", "--resolve", "2=true"]);
    expect(&out, 0);
}

#[test]
fn errors_limits_and_unhandled_rejections() {
    let sb = Sandbox::new("errors");
    let thrower = sb.write("throw.js", "function f() { throw new Error('boom') }\nf();");
    let out = sb.amber(&["run", &thrower]);
    expect(&out, 1);
    // A `.js` entry is CommonJS, named by its absolute path as in Node.
    assert!(out.stderr.starts_with("Uncaught Error: boom\n    at f (/"), "{}", out.stderr);
    assert!(out.stderr.contains("/throw.js:1:"), "{}", out.stderr);
    let rejecter = sb.write("reject.js", "Promise.reject(new TypeError('nope'));");
    let out = sb.amber(&["run", &rejecter]);
    expect(&out, 1);
    assert!(out.stderr.starts_with("Uncaught (in promise) TypeError: nope"), "{}", out.stderr);
    let looper = sb.write("loop.js", "amber.input('x').then(() => { for (;;) {} });");
    expect(&sb.amber(&["run", &looper, "--session", "l", "--max-instructions", "100000"]), 75);
    let out = sb.amber(&["resume", "l", "--input", "go"]);
    expect(&out, 5);
    assert!(out.stderr.contains("instruction limit exceeded"), "{}", out.stderr);
    expect(&sb.amber(&["replay", "l"]), 0);
}

#[test]
fn durable_sleeps_wait_across_processes() {
    let sb = Sandbox::new("sleep");
    let file = sb.write("nap.js", "(async () => { await amber.sleep(3600000); console.log('woke'); })();");
    let out = sb.amber(&["run", &file, "--session", "nap"]);
    expect(&out, 75);
    assert!(out.stderr.contains("sleep  due in 59m") || out.stderr.contains("sleep  due in 60m"), "{}", out.stderr);
    let out = sb.amber(&["resume", "nap"]);
    expect(&out, 75);
    assert!(out.stderr.contains("sleep  due in"), "{}", out.stderr);
}

#[test]
fn export_import_inspect() {
    let sb = Sandbox::new("export");
    let file = sb.write("agent.js", AGENT);
    expect(&sb.amber(&["run", &file, "--session", "e"]), 75);
    expect(&sb.amber(&["export", "e", "-o", "e.amber"]), 0);
    let inspect = sb.amber(&["inspect", "e.amber", "--json"]);
    expect(&inspect, 0);
    let json: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    assert_eq!(json["session"]["name"], "e");
    assert_eq!(json["pending"][0]["kind"], "call");
    assert_eq!(json["pending"][0]["name"], "search");
    assert_eq!(json["pending"][1]["kind"], "input");
    assert_eq!(json["policy"]["random"], "seeded");
    assert_eq!(json["journal"][0]["kind"], "run-start");
    let text = sb.amber(&["inspect", "e"]);
    expect(&text, 0);
    // In the order the program touched them: the clock and Math.random before the first call.
    assert!(text.stdout.contains("capabilities  Clock@1 Random@1 HostCall@1 Input@2"), "{}", text.stdout);
    expect(&sb.amber(&["import", "e.amber", "--as", "e2"]), 0);
    expect(&sb.amber(&["import", "e.amber"]), 2);
    let out = sb.amber(&["resume", "e2", "--resolve", "1=[]", "--input", "2=no"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "timer 1\nhits 0 answer no kept true true\n");
    let mut bytes = std::fs::read(sb.dir.join("e.amber")).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(sb.dir.join("bad.amber"), bytes).unwrap();
    expect(&sb.amber(&["inspect", "bad.amber"]), 4);
    expect(&sb.amber(&["import", "bad.amber"]), 4);
}

#[test]
fn repl_reads_statements_from_stdin() {
    let sb = Sandbox::new("repl");
    let mut child =
        sb.command(&["repl"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"let x = 20\nfunction f(a) {\n  return a + x\n}\nf(22)\n'h' + 'i'\nnope()\n[1, { a: 2 }]\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "undefined\nundefined\n42\n'hi'\n[ 1, { a: 2 } ]\n");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("Uncaught ReferenceError"));
    assert!(out.status.success());
    let _ = Path::new(".");
}

/// Issue 5's agent: writes files, hashes them, draws random bytes, sleeps on timers, waits on
/// a tool; imaged at the suspension and finished in a fresh process with the same files and
/// output as a run that never stopped; replay reproduces the random bytes from the journal.
const NODE_AGENT: &str = r#"
const fs = require('node:fs');
const crypto = require('node:crypto');
const { setTimeout: sleep } = require('node:timers/promises');
(async () => {
  fs.mkdirSync('out/logs', { recursive: true });
  fs.writeFileSync('out/a.txt', 'hello');
  const bytes = crypto.randomBytes(8).toString('hex');
  fs.writeFileSync('out/rand.txt', bytes);
  const hash = crypto.createHash('sha256').update(fs.readFileSync('out/a.txt')).digest('hex');
  console.log('hash', hash);
  await sleep(50);
  const answer = await amber.call('tool', { hash: hash.slice(0, 8) });
  fs.appendFileSync('out/a.txt', ' ' + answer.word);
  await new Promise((resolve) => setTimeout(resolve, 20));
  fs.writeFileSync('out/logs/done', String(fs.statSync('out/a.txt').size));
  console.log('random kept', fs.readFileSync('out/rand.txt', 'utf8') === bytes, bytes.length);
  console.log('files', fs.readdirSync('out', { recursive: true }).sort().join(','));
  console.log('final', fs.readFileSync('out/a.txt', 'utf8'), fs.readFileSync('out/logs/done', 'utf8'));
  console.log('bytes', bytes);
})();
"#;

#[test]
fn a_node_agent_keeps_its_files_and_random_bytes_across_processes_and_replay() {
    let sb = Sandbox::new("node-agent");
    sb.write("tool.sh", "#!/bin/sh\ncat > /dev/null\necho '{\"word\":\"world\"}'\n");
    let file = sb.write("agent.js", NODE_AGENT);
    let tool = format!("tool=sh {}", sb.dir.join("tool.sh").display());
    let straight = sb.amber(&["run", &file, "--session", "straight", "--host", &tool]);
    expect(&straight, 0);

    let run = sb.amber(&["run", &file, "--session", "s"]);
    expect(&run, 75);
    let resumed = sb.amber(&["resume", "s", "--resolve", "1={\"word\":\"world\"}"]);
    expect(&resumed, 0);
    let interrupted = format!("{}{}", run.stdout, resumed.stdout);
    let without_bytes = |s: &str| s.lines().filter(|l| !l.starts_with("bytes ")).collect::<Vec<_>>().join("\n");
    assert_eq!(without_bytes(&interrupted), without_bytes(&straight.stdout));
    assert!(interrupted.contains("files a.txt,logs,logs/done,rand.txt\nfinal hello world 11\n"), "{interrupted}");
    assert!(interrupted.contains("random kept true 16"), "{interrupted}");
    // The files live in the session's virtual filesystem, never on the host.
    assert!(!sb.dir.join("out").exists());

    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, interrupted, "replay serves the same random bytes from the journal");
    let inspect = sb.amber(&["inspect", "s"]);
    for capability in ["FsRead", "FsWrite", "CryptoHash", "CryptoRandom", "Timer", "HostCall"] {
        assert!(inspect.stdout.contains(capability), "{capability} missing:\n{}", inspect.stdout);
    }
}

#[test]
fn replay_verifies_the_newest_image() {
    use amber::durable::image::{decode_image, encode_image};
    let sb = Sandbox::new("verify");
    let file =
        sb.write("a.js", "globalThis.kept = 'alpha-marker'; amber.input('go').then((v) => console.log(kept, v));");
    expect(&sb.amber(&["run", &file, "--session", "a"]), 75);
    let replay = sb.amber(&["replay", "a"]);
    expect(&replay, 0);
    assert!(replay.stderr.contains("the newest image holds the same state"), "{}", replay.stderr);
    // A well-formed, sealed image that fits the journal but holds another state.
    let db = sb.db();
    let image: Vec<u8> = db
        .query_row("SELECT bytes FROM images WHERE session = 'a' ORDER BY seq DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let (manifest, mut payload) = decode_image(&image, None).unwrap();
    let places: Vec<usize> = (0..payload.len() - 12).filter(|&i| &payload[i..i + 12] == b"alpha-marker").collect();
    assert!(!places.is_empty(), "the string is in the payload");
    for at in places {
        payload[at..at + 12].copy_from_slice(b"omega-marker");
    }
    let forged = encode_image(&manifest, &payload, None).unwrap();
    db.execute("UPDATE images SET bytes = ?1 WHERE session = 'a'", [forged]).unwrap();
    let replay = sb.amber(&["replay", "a"]);
    expect(&replay, 4);
    assert!(replay.stderr.contains("but its newest image (journal length 2) holds state"), "{}", replay.stderr);
}

#[test]
fn a_session_keeps_the_policy_it_was_started_with() {
    let sb = Sandbox::new("policy");
    let file = sb.write(
        "r.js",
        "const r0 = Math.random, a = r0();\namber.input('go').then((v) => console.log(v, Math.random === r0, a !== Math.random()));\n",
    );
    expect(&sb.amber(&["run", &file, "--policy", "random=captured", "--session", "p"]), 75);
    let inspect = sb.amber(&["inspect", "p"]);
    assert!(inspect.stdout.contains("policy        random=captured"), "{}", inspect.stdout);
    let done = sb.amber(&["resume", "p", "--input", "yes"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "yes true true\n");
    let replay = sb.amber(&["replay", "p", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, done.stdout);
    // Each Math.random call is a journal record.
    let inspect = sb.amber(&["inspect", "p", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    let draws = view["journal"].as_array().unwrap().iter().filter(|r| r["function"] == "Math.random").count();
    assert_eq!(draws, 2);
    for bad in ["random", "rand=seeded", "random=bogus", "clock=host"] {
        let out = sb.amber(&["run", &file, "--policy", bad]);
        expect(&out, 2);
        assert!(out.stderr.contains("policy"), "{bad}: {}", out.stderr);
    }
}

#[test]
fn a_session_keeps_the_arguments_and_environment_it_was_started_with() {
    let sb = Sandbox::new("process-inputs");
    let file = sb.write(
        "p.js",
        "const show = () => console.log(JSON.stringify(process.argv.slice(2)), JSON.stringify(process.env));\nshow();\namber.input('go').then(show);\n",
    );
    // Only what --env names reaches the program; a bare NAME copies the host's value.
    let started = sb.amber_env(
        &["run", "--env", "GREETING", "--env", "MODE=a=b", "--env", "UNSET_HERE", &file, "--session", "s", "x", "--y"],
        &[("GREETING", "hello"), ("HOME_SECRET", "no")],
    );
    expect(&started, 75);
    let line = "[\"x\",\"--y\"] {\"GREETING\":\"hello\",\"MODE\":\"a=b\"}\n";
    assert_eq!(started.stdout, line);
    // Resumed in a fresh process, and replayed from the top, the program sees the same inputs.
    let done = sb.amber(&["resume", "s", "--input", "ok"]);
    expect(&done, 0);
    assert_eq!(done.stdout, line);
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, format!("{line}{line}"));
    expect(&sb.amber(&["run", "--env", "=x", &file]), 2);
}

const TEMPORAL_AGENT: &str = r#"
const zdt = Temporal.ZonedDateTime.from("2024-03-10T01:30:00-05:00[America/New_York]");
const dur = Temporal.Duration.from({ hours: 1, minutes: 45 });
const before = Temporal.Now.instant();
(async () => {
  console.log("start", zdt.toString(), dur.toString(), Temporal.Now.timeZoneId());
  const answer = await amber.input("Go?");
  const later = zdt.add(dur);
  const now = Temporal.Now.instant();
  console.log(answer, Temporal.Now.timeZoneId(), later.toString(), later.offset, dur.total("minutes"),
    Temporal.Instant.compare(before, now) <= 0, now.epochMilliseconds <= Date.now());
  const date = new Date(Date.UTC(2024, 6, 1, 12));
  console.log(date.toString(), date.getHours(), new Date(2024, 6, 1, 9).getTime());
})();
"#;

#[test]
fn temporal_values_live_across_a_suspend_and_resume_and_replay() {
    let sb = Sandbox::new("temporal");
    let file = sb.write("agent.js", TEMPORAL_AGENT);
    let bad = sb.amber(&["run", &file, "--tz", "Mars/Olympus"]);
    expect(&bad, 2);
    assert!(bad.stderr.contains("not a time zone"), "{}", bad.stderr);

    let run = sb.amber(&["run", &file, "--session", "t1", "--tz", "Asia/Kolkata"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "start 2024-03-10T01:30:00-05:00[America/New_York] PT1H45M Asia/Kolkata\n");

    // A fresh process: the ZonedDateTime and the Duration come back from the image and
    // keep working (the DST gap at 02:00 is crossed on the restored value).
    let resumed = sb.amber_env(&["resume", "t1", "--input", "go"], &[("TZ", "America/Los_Angeles")]);
    expect(&resumed, 0);
    // Date's local time is the session's zone too (node prints the last line with
    // TZ=Asia/Kolkata), whatever TZ the resuming process has.
    assert_eq!(
        resumed.stdout,
        "go Asia/Kolkata 2024-03-10T04:15:00-04:00[America/New_York] -04:00 105 true true\n\
         Mon Jul 01 2024 17:30:00 GMT+0530 (India Standard Time) 17 1719804600000\n"
    );

    // Temporal.Now read the journaled logical clock, and the session kept its zone, so the
    // replay matches.
    let printed = sb.amber(&["replay", "t1", "--print"]);
    expect(&printed, 0);
    assert_eq!(printed.stdout, format!("{}{}", run.stdout, resumed.stdout));
}

const INTL_AGENT: &str = r#"
const collator = new Intl.Collator(undefined, { numeric: true });
const plurals = new Intl.PluralRules("ar-EG");
const money = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
const segments = new Intl.Segmenter("en", { granularity: "word" }).segment("Hello durable world")[Symbol.iterator]();
const words = ["z", "ä", "a10", "a2", "Z", "b"];
const dates = new Intl.DateTimeFormat("de-DE", { dateStyle: "full", timeStyle: "short", timeZone: "Europe/Berlin" });
const clock = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "short", hour: "numeric", minute: "2-digit" });
const when = Date.UTC(2024, 6, 1, 12, 30);
(async () => {
  console.log("start", words.slice().sort(collator.compare).join(" "), segments.next().value.segment);
  const answer = await amber.input("Go?");
  console.log(answer, words.slice().sort(collator.compare).join(" "),
    [0, 1, 2, 5, 11, 100].map((n) => plurals.select(n)).join(" "), "ä".localeCompare("z"));
  console.log(money.format(1234.5), (1234.5).toLocaleString(), [...segments].map((s) => s.segment).join("|"));
  console.log(dates.format(when), "|", clock.format(when), "|", clock.resolvedOptions().timeZone);
})();
"#;

#[test]
fn intl_objects_and_the_run_locale_live_across_a_suspend_and_resume() {
    let sb = Sandbox::new("intl");
    let file = sb.write("agent.js", INTL_AGENT);
    let bad = sb.amber(&["run", &file, "--locale", "en_US"]);
    expect(&bad, 2);
    assert!(bad.stderr.contains("not a locale"), "{}", bad.stderr);

    // Swedish sorts ä after z; node 20 prints the same lines for "sv-SE" given explicitly.
    let run = sb.amber(&["run", &file, "--session", "i1", "--locale", "sv-SE"]);
    expect(&run, 75);
    assert_eq!(run.stdout, "start a2 a10 b z Z ä Hello\n");

    // A fresh process: the Collator (with its bound compare), the PluralRules, the
    // NumberFormat, the two DateTimeFormats (node prints their line the same) and the
    // half-consumed Segment Iterator come back from the image, and
    // localeCompare and toLocaleString without locales still use the session's locale.
    let resumed = sb.amber(&["resume", "i1", "--input", "go"]);
    expect(&resumed, 0);
    assert_eq!(
        resumed.stdout,
        "go a2 a10 b z Z ä zero one two few many other 1\n1.234,50\u{a0}€ 1\u{a0}234,5  |durable| |world\n\
         Montag, 1. Juli 2024 um 14:30 | 8:30 AM EDT | America/New_York\n"
    );

    let printed = sb.amber(&["replay", "i1", "--print"]);
    expect(&printed, 0);
    assert_eq!(printed.stdout, format!("{}{}", run.stdout, resumed.stdout));
}

/// Issue 15 item 15: FsRead, Random and Clock are stamped with the journal position of their
/// first touch, not that of the next safe point, so the ledger orders them among the host
/// calls as the program made them (`inspect` lists the ledger in that order).
#[test]
fn capabilities_are_stamped_at_their_first_touch() {
    let sb = Sandbox::new("touch");
    sb.write("data.txt", "hello");
    let file = sb.write(
        "touch.js",
        r#"const fs = require('fs');
(async () => {
  await amber.call('first', {});
  const text = fs.readFileSync(__dirname + '/data.txt', 'utf8');
  const r = Math.random();
  const t = Date.now();
  await amber.call('second', {});
  console.log(text, r < 1, t > 0);
})();
"#,
    );
    let run = sb.amber(&["run", &file, "--session", "t", "--host", "first=echo 1", "--host", "second=echo 2"]);
    expect(&run, 0);
    assert_eq!(run.stdout, "hello true true\n");
    let inspect = sb.amber(&["inspect", "t", "--json"]);
    expect(&inspect, 0);
    let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    let seq_of = |kind: &str, function: &str| {
        view["journal"].as_array().unwrap().iter().find(|r| r["kind"] == kind && r["function"] == function).unwrap()
            ["seq"]
            .as_u64()
            .unwrap()
    };
    let first_done = seq_of("call-completion", "first");
    let second_issued = seq_of("call-intent", "second");
    let at =
        |cap: &str| view["capabilities"][cap].as_u64().unwrap_or_else(|| panic!("{cap}: {}", view["capabilities"]));
    assert_eq!(at("HostCall"), seq_of("call-intent", "first"));
    let (fs_read, random, clock) = (at("FsRead"), at("Random"), at("Clock"));
    assert!(first_done < fs_read, "FsRead@{fs_read} is not after the first call's completion (seq {first_done})");
    assert!(fs_read <= random && random <= clock, "FsRead@{fs_read} Random@{random} Clock@{clock}");
    assert!(clock <= second_issued, "Clock@{clock} is after the second call's intent (seq {second_issued})");
    let text = sb.amber(&["inspect", "t"]);
    let line = text.stdout.lines().find(|l| l.starts_with("capabilities")).unwrap();
    let fs_at = line.find("FsRead@").unwrap();
    assert!(line.find("HostCall@").unwrap() < fs_at && fs_at < line.find("Random@").unwrap(), "{line}");
}

#[test]
fn a_session_keeps_the_native_depth_limit_it_was_started_with() {
    let sb = Sandbox::new("native-depth");
    // Recursion through a builtin: each JS frame costs two native levels (forEach and the
    // interpreter it re-enters), so the depth reached shows the limit in force.
    let file = sb.write(
        "deep.js",
        "function depth() { let n = 0; const f = () => { n++; [0].forEach(f); }; try { f(); } catch (e) { return `${e.name} ${n}`; } }\nconsole.log(depth());\namber.input('go').then(() => console.log(depth()));\n",
    );
    let default = sb.amber(&["run", &file, "--session", "d"]);
    expect(&default, 75);
    // Above the default, so a resume or replay that fell back to it would stop sooner.
    let started = sb.amber(&["run", &file, "--session", "s", "--max-native-depth", "30000"]);
    expect(&started, 75);
    assert_ne!(started.stdout, default.stdout);
    let depth = |stdout: &str| -> u32 { stdout.trim().strip_prefix("RangeError ").unwrap().parse().unwrap() };
    assert!((14_000..=15_000).contains(&depth(&started.stdout)), "{}", started.stdout);
    // Resumed in a fresh process (from a promise job, a level deeper) and replayed from the
    // top, the program runs under the stored limit, not the default's 12,000 frames.
    let done = sb.amber(&["resume", "s", "--input", "ok"]);
    expect(&done, 0);
    assert!((14_000..=15_000).contains(&depth(&done.stdout)), "{}", done.stdout);
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, format!("{}{}", started.stdout, done.stdout));
    let low = sb.amber(&["run", &file, "--max-native-depth", "100"]);
    expect(&low, 75);
    assert_eq!(low.stdout.trim(), "RangeError 49");
    expect(&sb.amber(&["run", &file, "--max-native-depth", "0"]), 2);
}
