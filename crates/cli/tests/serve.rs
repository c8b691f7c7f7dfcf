//! `amber serve` end to end: a real server process on a loopback port, a program deployed with
//! `amber deploy`, 200 sessions, the reference tool worker (examples/tool-worker.mjs, run by
//! node) serving their tool calls, this test resolving the rest through the API, answering
//! inputs, and durable sleeps waking on their own. Every session's output must be node's
//! (tests/serve/node-run.mjs runs the same agent under node). Then the same while the server
//! is killed with SIGKILL at random moments and restarted: every session completes, each
//! operation's result is journaled exactly once, output is neither lost nor repeated, and the
//! tool worker ran an operation twice only where a crash fell between its claim and its
//! completion.
#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::server::{free_port, fresh_database, Api, Server};
use support::Sandbox;

const SESSIONS: u64 = 200;

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What node prints for the agent with argument `n`, for every n (8 node processes at a time).
fn expected(count: u64) -> BTreeMap<u64, (String, String)> {
    let ns: Vec<u64> = (0..count).collect();
    let mut out = BTreeMap::new();
    for batch in ns.chunks(8) {
        let children: Vec<(u64, Child)> = batch
            .iter()
            .map(|&n| {
                let child = Command::new("node")
                    .arg(here().join("node-run.mjs"))
                    .arg(n.to_string())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("node 20 runs the reference");
                (n, child)
            })
            .collect();
        for (n, child) in children {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "node agent {n}: {}", String::from_utf8_lossy(&output.stderr));
            out.insert(n, (String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap()));
        }
    }
    out
}

/// Deploys the agent, with `manifest` as its amber.json (default: the three functions it
/// calls, granted with no conditions).
fn deploy(sandbox: &Sandbox, server: &Server, manifest: Option<&str>) -> String {
    let agent = sandbox.dir.join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::copy(here().join("agent/agent.mjs"), agent.join("agent.mjs")).unwrap();
    let granted = r#"{ "host": { "add": {}, "upper": {}, "review": {} } }"#;
    std::fs::write(agent.join("amber.json"), manifest.unwrap_or(granted)).unwrap();
    let out = sandbox.amber(&["deploy", agent.to_str().unwrap(), "--server", &server.url()]);
    assert_eq!(out.code, 0, "deploy: {}", out.stderr);
    out.stdout.trim().to_string()
}

fn start_tool_worker(server: &Server, log: &Path) -> Child {
    Command::new("node")
        .arg(repo().join("examples/tool-worker.mjs"))
        .args(["--server", &server.url(), "--names", "add,upper", "--concurrency", "4", "--log"])
        .arg(log)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs the tool worker")
}

fn create_sessions(api: &Api, program: &str, count: u64) {
    for n in 0..count {
        let body =
            json!({ "id": format!("job-{n}"), "program": program, "entry": "agent.mjs", "argv": [n.to_string()] });
        let reply = api.post("/v1/sessions", &body);
        assert!(reply.status == 201 || reply.status == 200, "create {n}: {} {}", reply.status, reply.text);
    }
}

/// Every session, following the cursor.
fn all_sessions(api: &Api) -> Vec<Value> {
    let mut sessions = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/sessions?limit=50&cursor={c}"),
            None => "/v1/sessions?limit=50".to_string(),
        };
        let reply = api.get(&path);
        assert_eq!(reply.status, 200, "{}", reply.text);
        sessions.extend(reply.json["sessions"].as_array().unwrap().iter().cloned());
        match reply.json["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return sessions,
        }
    }
}

/// Answers what a person answers (review calls, inputs) until every session has ended; calls
/// `between` after each round. Returns how many rounds it took.
fn answer_until_done(api: &Api, count: u64, deadline: Duration, between: &mut dyn FnMut()) {
    let until = Instant::now() + deadline;
    loop {
        let sessions = all_sessions(api);
        let finished = sessions
            .iter()
            .filter(|s| matches!(s["status"].as_str(), Some("completed" | "failed" | "cancelled")))
            .count();
        if finished as u64 == count && sessions.len() as u64 == count {
            return;
        }
        assert!(Instant::now() < until, "sessions still running after {deadline:?}: {finished} of {count} finished");
        for session in sessions.iter().filter(|s| s["status"] == "suspended") {
            let id = session["id"].as_str().unwrap();
            let n: u64 = id.trim_start_matches("job-").parse().unwrap();
            let doc = api.get(&format!("/v1/sessions/{id}")).json;
            for op in doc["pending"].as_array().into_iter().flatten().filter(|op| op["state"] == "pending") {
                let reply = match (op["kind"].as_str(), op["name"].as_str()) {
                    (Some("call"), Some("review")) => api.post(
                        &format!("/v1/sessions/{id}/ops/{}/resolve", op["id"]),
                        &json!({ "result": { "ok": n.is_multiple_of(2) } }),
                    ),
                    (Some("input"), _) => api.post(
                        &format!("/v1/sessions/{id}/input"),
                        &json!({ "text": format!("user-{n}"), "op": op["id"] }),
                    ),
                    _ => continue,
                };
                assert_eq!(reply.status, 200, "answering {id} op {}: {}", op["id"], reply.text);
            }
        }
        between();
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Operations each agent issues: add, upper, review, an input for every third, a sleep for
/// every fifth.
fn ops_of(n: u64) -> usize {
    3 + usize::from(n.is_multiple_of(3)) + usize::from(n.is_multiple_of(5))
}

/// Every session completed with node's output, and its journal holds exactly one completion
/// per operation.
fn check_sessions(api: &Api, expected: &BTreeMap<u64, (String, String)>) {
    for (n, (stdout, stderr)) in expected {
        let id = format!("job-{n}");
        let doc = api.get(&format!("/v1/sessions/{id}")).json;
        assert_eq!(doc["status"], "completed", "{id}: {doc}");
        let output = api.get(&format!("/v1/sessions/{id}/output")).json;
        assert_eq!(output["stdout"].as_str().unwrap(), stdout, "{id} stdout");
        assert_eq!(output["stderr"].as_str().unwrap(), stderr, "{id} stderr");
        let journal = api.get(&format!("/v1/sessions/{id}/journal")).json;
        let records = journal["records"].as_array().unwrap();
        let mut completions: BTreeMap<u64, usize> = BTreeMap::new();
        for record in records.iter().filter(|r| r["kind"].as_str().unwrap_or("").ends_with("-completion")) {
            *completions.entry(record["parent_seq"].as_u64().unwrap()).or_default() += 1;
        }
        assert_eq!(completions.len(), ops_of(*n), "{id}: completions by intent {completions:?}");
        assert!(completions.values().all(|&c| c == 1), "{id}: an operation completed twice: {completions:?}");
    }
}

/// Executions per idempotency key in the tool worker's log: (keys, keys run more than once).
fn worker_runs(log: &Path) -> (usize, usize) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut runs: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines() {
        let entry: Value = serde_json::from_str(line).unwrap();
        *runs.entry(entry["key"].as_str().unwrap().to_string()).or_default() += 1;
    }
    (runs.len(), runs.values().filter(|&&c| c > 1).count())
}

struct Worker(Child);

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn two_hundred_sessions_complete_with_node_output() {
    let sandbox = Sandbox::new("serve");
    let expected = expected(SESSIONS);
    let mut server = Server::start(&sandbox.store(), free_port(), &["--workers", "4"]);
    let api = Api::new(&server.url());
    // Default claim timeouts (60 s): without crashes, nothing expires.
    let program = deploy(&sandbox, &server, None);
    let log = sandbox.dir.join("tool-worker.log");
    let _worker = Worker(start_tool_worker(&server, &log));
    create_sessions(&api, &program, SESSIONS);
    answer_until_done(&api, SESSIONS, Duration::from_secs(600), &mut || {});
    check_sessions(&api, &expected);
    let (keys, repeated) = worker_runs(&log);
    assert_eq!(keys as u64, SESSIONS * 2, "the tool worker ran add and upper of every session");
    assert_eq!(repeated, 0, "without crashes no operation runs twice");
    let metrics = api.get("/metrics").text;
    assert!(metrics.contains(&format!("amber_sessions{{status=\"completed\"}} {SESSIONS}")), "{metrics}");
    assert_eq!(server.terminate(), Some(0), "SIGTERM stops the server cleanly");
}

#[test]
fn sessions_survive_the_server_being_killed_at_random_moments() {
    let sandbox = Sandbox::new("serve-kill");
    let expected = expected(SESSIONS);
    let mut server = Server::start(&sandbox.store(), free_port(), &["--workers", "4"]);
    let api = Api::new(&server.url());
    // Short claim timeouts: a claim whose answer a kill lost is handed out again in seconds.
    let manifest = r#"{ "host": { "add": { "timeout_ms": 3000 }, "upper": { "timeout_ms": 3000 }, "review": {} } }"#;
    let program = deploy(&sandbox, &server, Some(manifest));
    let log = sandbox.dir.join("tool-worker.log");
    let _worker = Worker(start_tool_worker(&server, &log));
    create_sessions(&api, &program, SESSIONS);
    // A small deterministic generator, seeded by the clock (printed, to reproduce a failure).
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    eprintln!("kill schedule seed {seed}");
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut kills = 0u32;
    let mut kill_at = Instant::now() + Duration::from_millis(300 + next() % 1500);
    answer_until_done(&api, SESSIONS, Duration::from_secs(900), &mut || {
        if kills < 8 && Instant::now() >= kill_at {
            server.kill_and_restart();
            kills += 1;
            kill_at = Instant::now() + Duration::from_millis(300 + next() % 1500);
        }
    });
    assert!(kills > 0, "the server was killed at least once");
    check_sessions(&api, &expected);
    let (keys, repeated) = worker_runs(&log);
    eprintln!(
        "{kills} kills; the tool worker ran {keys} operations, {repeated} of them more than once \
         (a kill between claim and completion)"
    );
    assert_eq!(keys as u64, SESSIONS * 2, "every tool operation ran");
    // A kill between a claim's commit and its answer reaching the worker, or a claim that
    // expired while the machine was loaded by the kills, runs an operation again (with the
    // same idempotency key); the journal still holds one result per operation (checked above).
    assert!(repeated <= kills as usize * 4, "{repeated} repeated runs for {kills} kills of a 4-way worker");
}

#[test]
fn two_servers_sharing_postgres_run_every_session_through_kills() {
    const COUNT: u64 = 100;
    let Some(url) = fresh_database("shared") else { return };
    let sandbox = Sandbox::new("serve-pg");
    let expected = expected(COUNT);
    // Short leases: a killed server's sessions move to the other one two seconds after its
    // last commit.
    let args = ["--workers", "2", "--database", url.as_str(), "--lease-ms", "2000"];
    let a = Server::start(&sandbox.dir.join("cache-a"), free_port(), &args);
    let mut b = Server::start(&sandbox.dir.join("cache-b"), free_port(), &args);
    let (api_a, api_b) = (Api::new(&a.url()), Api::new(&b.url()));
    let manifest = r#"{ "host": { "add": { "timeout_ms": 3000 }, "upper": { "timeout_ms": 3000 }, "review": {} } }"#;
    // Deployed through a, run by both: b materializes the bundle from the database.
    let program = deploy(&sandbox, &a, Some(manifest));
    let log = sandbox.dir.join("tool-worker.log");
    let _worker = Worker(start_tool_worker(&b, &log));
    for n in 0..COUNT {
        let api = if n % 2 == 0 { &api_a } else { &api_b };
        let body =
            json!({ "id": format!("job-{n}"), "program": program, "entry": "agent.mjs", "argv": [n.to_string()] });
        let reply = api.post("/v1/sessions", &body);
        assert!(reply.status == 201 || reply.status == 200, "create {n}: {} {}", reply.status, reply.text);
    }
    let mut kills = 0u32;
    let mut kill_at = Instant::now() + Duration::from_millis(1500);
    answer_until_done(&api_a, COUNT, Duration::from_secs(900), &mut || {
        if kills < 3 && Instant::now() >= kill_at {
            b.kill_and_restart();
            kills += 1;
            kill_at = Instant::now() + Duration::from_millis(2500);
        }
    });
    check_sessions(&api_b, &expected);
    let (keys, repeated) = worker_runs(&log);
    eprintln!("{kills} kills of one of two servers; the tool worker ran {keys} operations, {repeated} more than once");
    assert_eq!(keys as u64, COUNT * 2, "every tool operation ran");
    assert!(repeated <= kills as usize * 4, "{repeated} repeated runs for {kills} kills");
}
