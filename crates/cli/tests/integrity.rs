//! Durability and integrity contracts (issue 15), over real processes: a rejected step is
//! journaled and replays, a program cannot fake amber's exit statuses, a closed pipe never
//! panics or strands a session, a killed export keeps the previous file, an oversized record
//! rejects one call, idempotency keys are unique, `--seed`/`--start-time` reproduce images, a
//! live step refuses writes and timers and carries its random state, a step's first reads of
//! the host folder replay to the same state, an edited image row is
//! detected, host commands run concurrently under `--host-timeout`, and an image key
//! authenticates images and journal heads without being stored.
#![allow(clippy::unwrap_used)]

mod support;

use std::io::Read;
use std::process::Stdio;

use amber::durable::journal::{CallRecord, CallResult, Journal, RecordDraft};
use support::{expect, Sandbox};

const STEPS: &str = r#"
(async () => {
  try { await amber.step("bad", () => undefined); } catch (e) { console.log("bad:", e.message); }
  try { await amber.step("a", async () => 1); } catch (e) { console.log("a:", e.message); }
  const p = amber.step("b", () => 1n);
  console.log("returned a promise:", p instanceof Promise);
  try { await p; } catch (e) { console.log("b:", e.constructor.name); }
  console.log("good:", await amber.step("good", () => 2));
  console.log("ask:", await amber.input("ok?"));
})();
"#;

#[test]
fn a_rejected_step_is_journaled_and_replays() {
    let sb = Sandbox::new("rejected-step");
    let file = sb.write("steps.js", STEPS);
    let run = sb.amber(&["run", &file, "--session", "s"]);
    expect(&run, 75);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("bad: amber.step \"bad\" result"), "{}", run.stdout);
    assert!(lines[1].contains("returned a Promise; steps must be synchronous"), "{}", run.stdout);
    assert_eq!(&lines[2..], ["returned a promise: true", "b: TypeError", "good: 2"], "{}", run.stdout);
    // Replay re-executes the unchanged program: the rejected steps are served from the journal.
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, run.stdout);
    let done = sb.amber(&["resume", "s", "--input", "yes"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "ask: yes\n");
    let replay = sb.amber(&["replay", "s"]);
    expect(&replay, 0);
    assert!(replay.stderr.contains("matches all"), "{}", replay.stderr);
}

#[test]
fn a_program_cannot_exit_with_amber_s_own_statuses() {
    let sb = Sandbox::new("reserved-exit");
    for (code, expected) in [(75, 1), (4, 1), (5, 1), (2, 1), (70, 1), (3, 3), (0, 0), (1, 1), (300, 44)] {
        let file = sb.write(&format!("exit{code}.js"), &format!("console.log('bye'); process.exit({code});"));
        let run = sb.amber(&["run", &file]);
        expect(&run, expected);
        assert_eq!(run.stdout, "bye\n");
        let reserved = expected != (code & 0xff);
        assert_eq!(run.stderr.contains("is reserved"), reserved, "{code}: {}", run.stderr);
    }
}

/// `amber run … 2>&1 | head -1`: both streams into a pipe whose reader leaves after a line.
#[test]
fn a_closed_pipe_neither_panics_nor_strands_the_session() {
    let sb = Sandbox::new("broken-pipe");
    let program = "for (let i = 0; i < 20000; i++) { console.log('out', i); console.error('err', i); }\n\
                   amber.step('done', () => 1).then((v) => console.log('finished', v));";
    let file = sb.write("chatty.js", program);
    let mut child = sb
        .command(&["run", &file, "--session", "chatty"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one chunk of each stream, then close both.
    let mut buf = [0u8; 64];
    let _ = child.stdout.take().unwrap().read(&mut buf);
    let _ = child.stderr.take().unwrap().read(&mut buf);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "a closed pipe is not a failure of the run");
    let sessions = sb.amber(&["sessions"]);
    assert!(sessions.stdout.contains("chatty") && sessions.stdout.contains("completed"), "{}", sessions.stdout);
    let replay = sb.amber(&["replay", "chatty"]);
    expect(&replay, 0);
}

/// A kill at any moment of `export` leaves the previous export whole (or the new one).
#[test]
fn a_killed_export_never_destroys_the_previous_file() {
    let sb = Sandbox::new("atomic-export");
    let file = sb.write("ask.js", "amber.input('a?').then((a) => amber.input('b?' + a)).then(console.log);");
    expect(&sb.amber(&["run", &file, "--session", "s"]), 75);
    expect(&sb.amber(&["export", "s", "-o", "s.amber"]), 0);
    let old = std::fs::read(sb.dir.join("s.amber")).unwrap();
    expect(&sb.amber(&["resume", "s", "--input", "x"]), 75);
    for at in 1..=3 {
        let killed = sb.amber_env(&["export", "s", "-o", "s.amber"], &[("AMBER_FAULT_KILL_AT", &at.to_string())]);
        assert_ne!(killed.code, 0, "point {at} exists");
        let now = std::fs::read(sb.dir.join("s.amber")).unwrap();
        if at < 3 {
            assert_eq!(now, old, "killed at point {at}: the previous export is untouched");
        }
        // Whatever is there imports.
        let other = Sandbox::new("atomic-import");
        std::fs::copy(sb.dir.join("s.amber"), other.dir.join("s.amber")).unwrap();
        expect(&other.amber(&["import", "s.amber"]), 0);
    }
    expect(&sb.amber(&["export", "s", "-o", "s.amber"]), 0);
    assert_ne!(std::fs::read(sb.dir.join("s.amber")).unwrap(), old);
}

const BIG: &str = r#"
(async () => {
  try { await amber.call("big", {}); } catch (e) { console.log("result:", e.name, e.message.includes("record limit")); }
  try { await amber.call("echo", "x".repeat(17 << 20)); } catch (e) { console.log("args:", e.name, e.message.includes("record limit")); }
  try { await amber.step("huge", () => "y".repeat(17 << 20)); } catch (e) { console.log("step:", e.name); }
  console.log("then:", await amber.call("echo", { small: 1 }));
})();
"#;

/// A host result, call arguments or a step result over the record limit reject that call
/// only: the program catches it, goes on, completes, and replays.
#[test]
fn an_oversized_record_rejects_that_call_only() {
    let sb = Sandbox::new("oversized");
    let file = sb.write("big.js", BIG);
    let big = "node -e 'process.stdout.write(JSON.stringify(\"x\".repeat(17 << 20)))'";
    let run = sb.amber(&["run", &file, "--session", "s", "--host", &format!("big={big}"), "--host", "echo=cat"]);
    expect(&run, 0);
    assert_eq!(
        run.stdout, "result: RangeError true\nargs: RangeError true\nstep: RangeError\nthen: { small: 1 }\n",
        "{}",
        run.stderr
    );
    let replay = sb.amber(&["replay", "s"]);
    expect(&replay, 0);
}

/// Idempotency keys differ between runs, with or without a session, and between two stores'
/// sessions of the same name.
#[test]
fn idempotency_keys_are_unique_across_runs_and_sessions() {
    let sb = Sandbox::new("keys");
    let file = sb.write("key.js", "amber.call('key', {}).then((k) => console.log(k));");
    let host = "key=printf '\"%s\"' \"$AMBER_IDEMPOTENCY_KEY\"";
    let mut keys = Vec::new();
    for session in [None, None, Some("same")] {
        let mut args = vec!["run", &file, "--host", host];
        if let Some(name) = session {
            args.extend(["--session", name]);
        }
        let run = sb.amber(&args);
        expect(&run, 0);
        keys.push(run.stdout.trim().to_string());
    }
    let other = Sandbox::new("keys-other");
    other.write("key.js", "amber.call('key', {}).then((k) => console.log(k));");
    let run = other.amber(&["run", "key.js", "--host", host, "--session", "same"]);
    expect(&run, 0);
    keys.push(run.stdout.trim().to_string());
    assert!(keys[0].starts_with(':') && keys[0].ends_with(":1"), "{keys:?}");
    assert!(keys[2].starts_with("same:") && keys[3].starts_with("same:"), "{keys:?}");
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
}

/// `--seed` and `--start-time` make two fresh runs image byte-identically.
#[test]
fn seed_and_start_time_make_fresh_runs_byte_identical() {
    let sb = Sandbox::new("reproducible");
    let file = sb.write(
        "r.js",
        "const r = Math.random(), t = Date.now(), b = crypto.getRandomValues(new Uint8Array(4));\n\
         console.log(r, t, b.join());\namber.input('go?').then(console.log);",
    );
    let seed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let mut outputs = Vec::new();
    for name in ["a", "b", "c"] {
        // Crypto randomness is captured (fresh) by default; seeded, it comes from the seed.
        let mut args =
            vec!["run", &file, "--session", name, "--start-time", "1700000000000", "--policy", "crypto=seeded"];
        if name != "c" {
            args.extend(["--seed", seed]);
        }
        let run = sb.amber(&args);
        expect(&run, 75);
        outputs.push(run.stdout);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_ne!(outputs[0], outputs[2], "without --seed the draws are fresh");
    assert!(outputs[0].contains(" 1700000000000 "), "{}", outputs[0]);
    let db = sb.db();
    let image = |name: &str| -> Vec<u8> {
        db.query_row("SELECT bytes FROM images WHERE session = ?1 ORDER BY seq DESC LIMIT 1", [name], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(image("a"), image("b"), "same seed and start time: the same image bytes");
    let bad = sb.amber(&["run", &file, "--seed", "12"]);
    expect(&bad, 2);
}

const IMPURE_STEPS: &str = r#"
const fs = require('fs');
const effects = {
  writeFileSync: () => fs.writeFileSync('out.txt', 'x'),
  appendFileSync: () => fs.appendFileSync('out.txt', 'x'),
  openSyncForWriting: () => fs.openSync('out.txt', 'w'),
  mkdirSync: () => fs.mkdirSync('dir'),
  rmSync: () => fs.rmSync('data.txt'),
  unlinkSync: () => fs.unlinkSync('data.txt'),
  renameSync: () => fs.renameSync('data.txt', 'moved.txt'),
  copyFileSync: () => fs.copyFileSync('data.txt', 'copy.txt'),
  symlinkSync: () => fs.symlinkSync('data.txt', 'link.txt'),
  truncateSync: () => fs.truncateSync('data.txt', 1),
  utimesSync: () => fs.utimesSync('data.txt', 1, 1),
  writeFileCallback: () => fs.writeFile('out.txt', 'x', () => {}),
  mkdirCallback: () => fs.mkdir('dir', () => {}),
  chdir: () => process.chdir('/'),
  setTimeout: () => setTimeout(() => {}, 1),
  setInterval: () => setInterval(() => {}, 1),
  setImmediate: () => setImmediate(() => {}),
  clearTimeout: () => clearTimeout(0),
  sleep: () => amber.sleep(1),
};
(async () => {
  for (const [name, effect] of Object.entries(effects)) {
    try {
      await amber.step(name, () => { effect(); return 0; });
      console.log(name, 'ran');
    } catch (e) {
      console.log(name, e.name, e.message.includes('cannot be used inside amber.step'));
    }
  }
  let refusal = null;
  await amber.step('promise', () => { fs.promises.writeFile('out.txt', 'x').catch((e) => { refusal = e; }); return 0; });
  await null;
  console.log('promise form', refusal.name, refusal.message.includes('cannot be used inside amber.step'));
  console.log('reads', await amber.step('read', () => fs.readFileSync('data.txt', 'utf8')), fs.existsSync('out.txt'));
})();
"#;

const RANDOM_STEP: &str = r#"
(async () => {
  const drawn = await amber.step('draw', () => [Math.random(), Math.random()]);
  console.log('drawn', drawn.length, String(Math.random()));
  const answer = await amber.input('go?');
  console.log('after', answer, String(Math.random()));
})();
"#;

/// Issue 15 item 2: inside a live step, VFS writes (sync, callback and promise forms) and
/// timers throw a TypeError; reads and Math.random are allowed, and the generator state a
/// step leaves is journaled, so a replay that skips the step draws the same numbers after it.
#[test]
fn a_live_step_refuses_writes_and_timers_and_carries_the_random_state() {
    let sb = Sandbox::new("pure-step");
    sb.write("data.txt", "lower");
    let file = sb.write("impure.js", IMPURE_STEPS);
    let run = sb.amber(&["run", &file]);
    expect(&run, 0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let refused = [
        "writeFileSync",
        "appendFileSync",
        "openSyncForWriting",
        "mkdirSync",
        "rmSync",
        "unlinkSync",
        "renameSync",
        "copyFileSync",
        "symlinkSync",
        "truncateSync",
        "utimesSync",
        "writeFileCallback",
        "mkdirCallback",
        "chdir",
        "setTimeout",
        "setInterval",
        "setImmediate",
        "clearTimeout",
        "sleep",
    ];
    for name in refused {
        assert!(lines.contains(&format!("{name} TypeError true").as_str()), "{name} was not refused:\n{}", run.stdout);
    }
    assert!(lines.contains(&"promise form TypeError true"), "{}", run.stdout);
    assert!(lines.contains(&"reads lower false"), "{}", run.stdout);

    // Math.random inside a step: the replay skips the step, yet draws the same numbers after it.
    let file = sb.write("random.js", RANDOM_STEP);
    let run = sb.amber(&["run", &file, "--session", "r"]);
    expect(&run, 75);
    let drawn = run.stdout.lines().find(|l| l.starts_with("drawn 2 ")).unwrap().to_string();
    let replay = sb.amber(&["replay", "r", "--print"]);
    expect(&replay, 0);
    assert!(replay.stdout.lines().any(|l| l == drawn), "live: {drawn}\nreplay:\n{}", replay.stdout);
    let resumed = sb.amber(&["resume", "r", "--input", "yes"]);
    expect(&resumed, 0);
    let after = resumed.stdout.lines().find(|l| l.starts_with("after yes ")).unwrap().to_string();
    let replay = sb.amber(&["replay", "r", "--print"]);
    expect(&replay, 0);
    assert!(replay.stdout.lines().any(|l| l == after), "live: {after}\nreplay:\n{}", replay.stdout);
    let inspect = sb.amber(&["inspect", "r", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    let states =
        view["journal"].as_array().unwrap().iter().filter(|r| r["function"] == "amber.step.generators").count();
    assert_eq!(states, 1, "the draw step's generator state is journaled once");
}

const READING_STEP: &str = r#"
const fs = require('fs');
(async () => {
  // Each step is the first to touch what it reads: a file, a listing, a missing name, a
  // symlinked directory, and a builtin whose body is evaluated first here.
  const text = await amber.step('read', () => fs.readFileSync('lib/data.txt', 'utf8'));
  const names = await amber.step('list', () => fs.readdirSync('lib').join(','));
  const missing = await amber.step('missing', () => fs.existsSync('lib/nothing.txt'));
  const linked = await amber.step('linked', () => fs.readdirSync('alias').length);
  const digest = await amber.step('hash', () => require('node:crypto').createHash('sha256').update(text).digest('hex'));
  let refusal = 'ran';
  try { await amber.step('module', () => require('./lib/mod.js')); } catch (e) { refusal = e.name + ': ' + e.message; }
  console.log(text, names, missing, linked, digest.slice(0, 8));
  console.log(refusal);
  console.log('module after the step', require('./lib/mod.js'));
  console.log('answer', await amber.input('go?'), fs.readFileSync('lib/other.txt', 'utf8'));
})();
"#;

/// Issue 15 item 2, reads: the first lookups a live step makes in the host folder, the builtins
/// it evaluates first and the capability flags it touches are journaled with the step and
/// repeated by a replay that skips it, so `amber replay` of an honest session matches its
/// images (it once failed the image check, exit 4). Loading a file module inside a step is
/// refused.
#[test]
fn a_step_that_reads_the_host_folder_first_replays_to_the_same_state() {
    let sb = Sandbox::new("reading-step");
    sb.write("lib/data.txt", "lower");
    sb.write("lib/other.txt", "other");
    sb.write("lib/mod.js", "module.exports = 42;");
    std::os::unix::fs::symlink("lib", sb.dir.join("alias")).unwrap();
    let file = sb.write("reads.js", READING_STEP);
    let run = sb.amber(&["run", &file, "--session", "s"]);
    expect(&run, 75);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "lower data.txt,mod.js,other.txt false 3 8c6fb1e9", "{}", run.stdout);
    assert!(
        lines[1].starts_with("TypeError: Loading the module '")
            && lines[1].contains("cannot be used inside amber.step"),
        "{}",
        run.stdout
    );
    assert_eq!(lines[2], "module after the step 42", "{}", run.stdout);
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, run.stdout);
    assert!(replay.stderr.contains("matches all"), "{}", replay.stderr);
    // The host folder changes; the resumed run and the replays still see the first bytes.
    sb.write("lib/data.txt", "changed");
    let done = sb.amber(&["resume", "s", "--input", "yes"]);
    expect(&done, 0);
    assert_eq!(done.stdout, "answer yes other\n");
    let replay = sb.amber(&["replay", "s", "--print"]);
    expect(&replay, 0);
    assert!(replay.stderr.contains("matches all"), "{}", replay.stderr);
    assert!(replay.stdout.starts_with(lines[0]), "{}", replay.stdout);
}

/// Issue 15 item 8: the journal position an image was taken at is sealed inside it; the
/// store row's seq must agree, so editing `images.seq` (which once made `amber replay` skip
/// its image check and let a forged heap through) is an integrity failure everywhere.
#[test]
fn an_edited_image_row_seq_is_detected() {
    let sb = Sandbox::new("image-seq");
    let file = sb.write(
        "two.js",
        "(async () => { const a = await amber.input('a?'); const b = await amber.input('b?'); console.log(a, b); })();",
    );
    expect(&sb.amber(&["run", &file, "--session", "s"]), 75);
    expect(&sb.amber(&["resume", "s", "--input", "one"]), 75);
    let db = sb.db();
    let newest: i64 = db.query_row("SELECT max(seq) FROM images WHERE session = 's'", [], |r| r.get(0)).unwrap();
    db.execute("DELETE FROM images WHERE session = 's' AND seq < ?1", [newest]).unwrap();
    db.execute("UPDATE images SET seq = 0 WHERE session = 's'", []).unwrap();
    for args in [&["replay", "s"][..], &["resume", "s", "--input", "two"], &["inspect", "s"]] {
        let out = sb.amber(args);
        expect(&out, 4);
        assert!(out.stderr.contains("the image itself records journal length"), "{args:?}: {}", out.stderr);
    }
}

/// Issue 15 item 9, code hashes: an image re-sealed with a code hash that is not the stored
/// source's is refused before it restores (exit 4), and the honest re-seal restores.
#[test]
fn a_resealed_image_with_a_forged_code_hash_is_refused() {
    use amber::durable::digest::Digest;
    use amber::durable::image::{decode_image, encode_image};
    let sb = Sandbox::new("code-hash");
    let file = sb.write("wait.js", "(async () => console.log('got', await amber.input('a?')))();");
    expect(&sb.amber(&["run", &file, "--session", "s"]), 75);
    let db = sb.db();
    let image: Vec<u8> = db.query_row("SELECT bytes FROM images WHERE session = 's'", [], |r| r.get(0)).unwrap();
    let reseal = |forge: bool| {
        let (mut manifest, payload) = decode_image(&image, None).unwrap();
        assert!(!manifest.code_hashes.is_empty(), "the image names its code");
        if forge {
            let path = manifest.code_hashes.keys().next().unwrap().clone();
            manifest.code_hashes.insert(path, Digest::of(b"(async () => console.log('other code'))();"));
        }
        let bytes = encode_image(&manifest, &payload, None).unwrap();
        db.execute("UPDATE images SET bytes = ?1 WHERE session = 's'", [&bytes]).unwrap();
    };
    reseal(true);
    let out = sb.amber(&["resume", "s", "--input", "x"]);
    expect(&out, 4);
    assert!(out.stderr.contains("is not the stored source's"), "{}", out.stderr);
    reseal(false);
    let out = sb.amber(&["resume", "s", "--input", "x"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "got x\n");
}

/// Issue 15 item 4: the operations a suspension hands `--host` commands run concurrently,
/// and their completions are journaled in operation order; `--host-timeout MS` rejects a call
/// whose command runs longer and kills the command's whole process group.
#[test]
fn host_commands_run_concurrently_and_a_timeout_kills_the_process_group() {
    let sb = Sandbox::new("host-timeout");
    let file = sb.write(
        "par.js",
        "(async () => {\n  const r = await Promise.all([1, 2, 3].map((n) => amber.call('slow', { n })));\n  console.log(r.map((x) => x.n).join(' '));\n})();\n",
    );
    // The third answers first: completions still go into the journal in operation order.
    let slow = "slow=sleep $(( 4 - AMBER_OP_ID ))e-1; sleep 1; cat";
    let started = std::time::Instant::now();
    let out = sb.amber(&["run", &file, "--session", "p", "--host", slow, "--host-timeout", "20000"]);
    let elapsed = started.elapsed();
    expect(&out, 0);
    assert_eq!(out.stdout, "1 2 3\n");
    assert!(elapsed.as_secs_f64() < 3.0, "three 1.1-1.3 s commands took {elapsed:?}: not concurrent");
    let inspect = sb.amber(&["inspect", "p", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    let completed: Vec<u64> = view["journal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "call-completion")
        .map(|r| r["parent_seq"].as_u64().unwrap())
        .collect();
    let mut sorted = completed.clone();
    sorted.sort_unstable();
    assert_eq!(completed.len(), 3);
    assert_eq!(completed, sorted, "completions journaled in operation order");
    expect(&sb.amber(&["replay", "p"]), 0);

    let file = sb.write(
        "hang.js",
        "amber.call('hang', {}).then((v) => console.log('answered', v), (e) => console.log('rejected:', e.message));\n",
    );
    let hang = "hang=sleep 30 & echo $! > child.pid; wait";
    let out = sb.amber(&["run", &file, "--session", "h", "--host", hang, "--host-timeout", "300"]);
    expect(&out, 0);
    assert!(out.stdout.starts_with("rejected: host command for \"hang\" timed out after 300 ms"), "{}", out.stdout);
    let child = std::fs::read_to_string(sb.dir.join("child.pid")).unwrap().trim().to_string();
    let alive = || {
        std::path::Path::new(&format!("/proc/{child}")).exists()
            && !std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default().contains(") Z ")
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while alive() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive(), "the command's background child {child} outlived the timeout");
    expect(&sb.amber(&["replay", "h"]), 0);
    expect(&sb.amber(&["run", &file, "--host", hang, "--host-timeout", "0"]), 2);
}

/// Issue 15 item 10: with `--image-key-file` (or `AMBER_IMAGE_KEY`) images are HMAC'd; an
/// image re-sealed without the key, a missing key or another key is an integrity failure;
/// the key is stored nowhere.
#[test]
fn an_image_key_authenticates_images_and_is_never_stored() {
    let sb = Sandbox::new("image-key");
    let key = "canary-key-8d1f0c6e";
    sb.write("key.txt", &format!("{key}\n"));
    let file = sb.write("ask.js", "amber.input('name?').then((n) => console.log('hello', n));");
    let keyed = ["--image-key-file", "key.txt"];
    expect(&sb.amber(&[&["run", &file, "--session", "k"][..], &keyed].concat()), 75);
    let text = sb.amber(&[&["inspect", "k"][..], &keyed].concat());
    assert!(text.stdout.contains(", HMAC"), "{}", text.stdout);
    // Without the key, or with another, the image is refused.
    let out = sb.amber(&["resume", "k", "--input", "x"]);
    expect(&out, 4);
    let out = sb.amber_env(&["resume", "k", "--input", "x"], &[("AMBER_IMAGE_KEY", "another key")]);
    expect(&out, 4);
    // Re-sealed after an edit by someone without the key: refused.
    let db = sb.db();
    let image: Vec<u8> = db.query_row("SELECT bytes FROM images WHERE session = 'k'", [], |r| r.get(0)).unwrap();
    let (manifest, payload) = amber::durable::image::decode_image(&image, Some(key.as_bytes())).unwrap();
    let forged = amber::durable::image::encode_image(&manifest, &payload, Some(b"guessed key")).unwrap();
    db.execute("UPDATE images SET bytes = ?1 WHERE session = 'k'", [&forged]).unwrap();
    expect(&sb.amber(&[&["resume", "k", "--input", "x"][..], &keyed].concat()), 4);
    db.execute("UPDATE images SET bytes = ?1 WHERE session = 'k'", [&image]).unwrap();
    // The environment variable serves as well as the file, and the session goes on.
    let out = sb.amber_env(&["resume", "k", "--input", "bob"], &[("AMBER_IMAGE_KEY", key)]);
    expect(&out, 0);
    assert_eq!(out.stdout, "hello bob\n");
    expect(&sb.amber(&[&["replay", "k"][..], &keyed].concat()), 0);
    expect(&sb.amber(&[&["export", "k", "-o", "k.amber"][..], &keyed].concat()), 0);
    for stored in std::fs::read_dir(sb.store()).unwrap().map(|e| e.unwrap().path()).chain([sb.dir.join("k.amber")]) {
        if stored.is_file() {
            let bytes = std::fs::read(&stored).unwrap();
            assert!(!bytes.windows(key.len()).any(|w| w == key.as_bytes()), "the key is in {}", stored.display());
        }
    }
}

/// The records of session `name` re-chained after `edit` changes them, written back over its
/// rows: what someone who can edit the store but holds no key can do.
fn rechain_journal(db: &rusqlite::Connection, name: &str, edit: impl Fn(&mut RecordDraft)) {
    let rows: Vec<Vec<u8>> = {
        let mut stmt = db.prepare("SELECT record FROM journal WHERE session = ?1 ORDER BY seq").unwrap();
        let rows = stmt.query_map([name], |r| r.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let mut journal = Journal::new();
    for bytes in rows {
        let r = CallRecord::decode(&bytes).unwrap();
        let mut draft = RecordDraft {
            parent_seq: r.parent_seq,
            kind: r.kind,
            function: r.function,
            args: r.args,
            result: r.result,
            duration_ms: r.duration_ms,
            timestamp: r.timestamp,
        };
        edit(&mut draft);
        journal.append(draft).unwrap();
    }
    for record in journal.records() {
        db.execute(
            "UPDATE journal SET record = ?3 WHERE session = ?1 AND seq = ?2",
            rusqlite::params![name, record.seq as i64, record.encode().unwrap()],
        )
        .unwrap();
    }
}

/// Issue 15 item 10, journal heads: with an image key the store tags each session's journal
/// head (HMAC) in the same transaction as every append. Without a key, a journal re-chained by
/// someone who can edit the store, with the images deleted, replays as if it were true; with
/// one, that forgery, a truncated journal, a removed tag, a missing or another key are each
/// refused (exit 4) — and an export carries the tag to the importing store.
#[test]
fn an_image_key_authenticates_journal_heads() {
    let sb = Sandbox::new("head-tag");
    sb.write("key.txt", "head-key\n");
    let file = sb.write(
        "two.js",
        "(async () => { const a = await amber.input('a?'); const b = await amber.input('b?'); console.log(a, b); })();",
    );
    let keyed = |args: &[&str]| sb.amber(&[args, &["--image-key-file", "key.txt"]].concat());
    let evil = |d: &mut RecordDraft| {
        if d.result == Some(CallResult::Ok(serde_json::json!("one"))) {
            d.result = Some(CallResult::Ok(serde_json::json!("evil")));
        }
    };
    expect(&sb.amber(&["run", &file, "--session", "plain"]), 75);
    expect(&sb.amber(&["resume", "plain", "--input", "one"]), 75);
    expect(&keyed(&["run", &file, "--session", "k"]), 75);
    expect(&keyed(&["resume", "k", "--input", "one"]), 75);
    let db = sb.db();

    // Without a key the hash chain is all there is: the forgery replays.
    db.execute("DELETE FROM images WHERE session = 'plain'", []).unwrap();
    rechain_journal(&db, "plain", evil);
    let out = sb.amber(&["resume", "plain", "--input", "two"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "evil two\n");

    // With a key: the same forgery is refused before anything runs.
    let rows = |session: &str| -> Vec<(i64, Vec<u8>)> {
        let mut stmt = db.prepare("SELECT seq, record FROM journal WHERE session = ?1 ORDER BY seq").unwrap();
        let rows = stmt.query_map([session], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        rows.map(Result::unwrap).collect()
    };
    let honest = rows("k");
    let restore = || {
        db.execute("DELETE FROM journal WHERE session = 'k'", []).unwrap();
        for (seq, bytes) in &honest {
            db.execute(
                "INSERT INTO journal (session, seq, record) VALUES ('k', ?1, ?2)",
                rusqlite::params![seq, bytes],
            )
            .unwrap();
        }
    };
    let images: Vec<(i64, Vec<u8>, i64)> = {
        let mut stmt = db.prepare("SELECT seq, bytes, created FROM images WHERE session = 'k'").unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap();
        rows.map(Result::unwrap).collect()
    };
    db.execute("DELETE FROM images WHERE session = 'k'", []).unwrap();
    rechain_journal(&db, "k", evil);
    let refused = |what: &str, out: support::Out| {
        expect(&out, 4);
        assert!(out.stderr.contains("journal head"), "{what}: {}", out.stderr);
    };
    refused("re-chained", keyed(&["resume", "k", "--input", "two"]));
    refused("re-chained, replay", keyed(&["replay", "k"]));
    restore();
    let last = honest.last().unwrap().0;
    db.execute("DELETE FROM journal WHERE session = 'k' AND seq = ?1", [last]).unwrap();
    refused("truncated", keyed(&["resume", "k", "--input", "two"]));
    restore();
    let tag: Vec<u8> = db.query_row("SELECT tag FROM heads WHERE session = 'k'", [], |r| r.get(0)).unwrap();
    db.execute("DELETE FROM heads WHERE session = 'k'", []).unwrap();
    refused("tag removed", keyed(&["resume", "k", "--input", "two"]));
    db.execute("INSERT INTO heads (session, tag) VALUES ('k', ?1)", [&tag]).unwrap();
    refused("no key", sb.amber(&["resume", "k", "--input", "two"]));
    refused("another key", sb.amber_env(&["resume", "k", "--input", "two"], &[("AMBER_IMAGE_KEY", "other")]));
    for (seq, bytes, created) in &images {
        db.execute(
            "INSERT INTO images (session, seq, bytes, created) VALUES ('k', ?1, ?2, ?3)",
            rusqlite::params![seq, bytes, created],
        )
        .unwrap();
    }
    // Showing a session needs no key.
    expect(&sb.amber(&["inspect", "k"]), 0);

    // The tag travels in an export; an importing store with another key refuses it.
    expect(&keyed(&["export", "k", "-o", "k.amber"]), 0);
    refused("import, another key", sb.amber_env(&["import", "k.amber", "--as", "k3"], &[("AMBER_IMAGE_KEY", "other")]));
    expect(&keyed(&["import", "k.amber", "--as", "k2"]), 0);
    let out = keyed(&["resume", "k2", "--input", "two"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "one two\n");

    // The honest session goes on, and its history replays.
    let out = keyed(&["resume", "k", "--input", "two"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "one two\n");
    expect(&keyed(&["replay", "k"]), 0);
}
