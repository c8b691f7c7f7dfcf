//! Crypto randomness is Captured (DESIGN §7): a run draws `randomBytes` live, suspends on a
//! host call, resumes in a fresh process, and `amber replay` reproduces the same bytes from
//! the journal. Each step runs the real `amber` binary.
#![allow(clippy::unwrap_used)]

mod support;

use support::{expect, Sandbox};

const AGENT: &str = r#"
import { randomBytes, randomUUID, randomInt, createHash } from "node:crypto";
const before = randomBytes(16).toString("hex");
console.log("before", before);
const answer = await amber.call("tool", { q: 1 });
const after = randomBytes(8).toString("hex");
const uuid = randomUUID();
const n = randomInt(1000000);
const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
const raw = Buffer.from(await crypto.subtle.exportKey("raw", key)).toString("base64");
console.log("after", answer, after, uuid, n, raw);
console.log("digest", createHash("sha256").update(before + after).digest("hex"));
"#;

#[test]
fn captured_random_bytes_replay_identically_across_processes() {
    let sb = Sandbox::new("replay");
    sb.write("agent.mjs", AGENT);
    let run = sb.amber(&["run", "agent.mjs", "--session", "r"]);
    expect(&run, 75);
    let before = run.stdout.lines().find(|l| l.starts_with("before ")).unwrap().to_string();
    assert_eq!(before.len(), "before ".len() + 32, "{}", run.stdout);

    let resumed = sb.amber(&["resume", "r", "--resolve", "1=\"ok\""]);
    expect(&resumed, 0);
    assert!(resumed.stdout.starts_with("after ok "), "{}", resumed.stdout);

    // Replay re-executes from the top against the journal: the same bytes, not fresh ones.
    let replay = sb.amber(&["replay", "r", "--print"]);
    expect(&replay, 0);
    assert_eq!(replay.stdout, format!("{}\n{}", before, resumed.stdout), "stderr:\n{}", replay.stderr);

    // Every draw is a journaled random record; the ledger says the run used crypto randomness.
    let inspect = sb.amber(&["inspect", "r", "--json"]);
    expect(&inspect, 0);
    let randoms = inspect.stdout.matches("\"random\"").count();
    assert!(randoms >= 5, "expected at least 5 random records:\n{}", inspect.stdout);
    assert!(inspect.stdout.contains("CryptoRandom"), "{}", inspect.stdout);
}

#[test]
fn a_fresh_run_draws_fresh_bytes() {
    let sb = Sandbox::new("fresh");
    sb.write("r.mjs", "import { randomBytes } from 'node:crypto'; console.log(randomBytes(16).toString('hex'));");
    let a = sb.amber(&["run", "r.mjs"]);
    let b = sb.amber(&["run", "r.mjs"]);
    expect(&a, 0);
    expect(&b, 0);
    assert_eq!(a.stdout.trim().len(), 32);
    assert_ne!(a.stdout, b.stdout, "two runs drew the same random bytes");
}
