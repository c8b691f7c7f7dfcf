//! Real network clients from npm, unmodified — axios (its node adapter, follow-redirects,
//! zlib), node-fetch 2 — and `http.get` piped into `fs.createWriteStream`, run under node and
//! under amber against the same loopback server: the output must be node's, each amber run
//! must send each request exactly once, and `amber replay` must send nothing. The scripts are
//! `crates/node/tests/parity/packages/fixtures/net/*.js`; the packages are the parity
//! packages (`npm ci` in `crates/node/tests/parity/packages`, as .ci/run does).

#![allow(clippy::unwrap_used)]

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;
use support::http_server::{Reply, TestServer};
use support::{expect, Sandbox};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/tests/parity/packages/fixtures/net")
}

fn ensure_packages() {
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/tests/parity/packages");
    if !packages.join("node_modules/axios").exists() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&packages)
            .status()
            .expect("npm (the network package tests install the parity packages)");
        assert!(status.success(), "npm ci failed");
    }
}

fn server() -> TestServer {
    TestServer::start(|seen, _| match seen.path.as_str() {
        "/json" => Reply::json(200, &json!({ "ok": true, "n": 1 })),
        "/redirect" => Reply::Full(302, vec![("location".into(), "/json".into())], Vec::new()),
        "/fail" => Reply::json(500, &json!({ "error": "boom" })),
        "/gzip" => {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            z.write_all(br#"{"zipped":true}"#).unwrap();
            let headers =
                vec![("content-type".into(), "application/json".into()), ("content-encoding".into(), "gzip".into())];
            Reply::Full(200, headers, z.finish().unwrap())
        }
        "/post" => {
            let got: serde_json::Value = serde_json::from_slice(&seen.body).unwrap_or(serde_json::Value::Null);
            Reply::json(200, &json!({ "got": got, "ct": seen.header("content-type") }))
        }
        "/hang" => Reply::Hang,
        _ => Reply::text(404, "nope"),
    })
}

/// Runs `script` under node, then under amber as session `name`; returns both outputs.
fn both(sb: &Sandbox, server: &TestServer, script: &str, name: &str) -> (String, String) {
    let file = fixtures().join(script);
    let base = server.url("");
    let node = Command::new("node").arg(&file).arg(&base).arg("node").output().expect("node on PATH");
    assert!(node.status.success(), "node {script}: {}", String::from_utf8_lossy(&node.stderr));
    let file = file.to_str().unwrap();
    let allow = format!("127.0.0.1:{}", server.port);
    let out = sb.amber(&["run", file, "--session", name, "--allow-net", &allow, "--", &base, "amber"]);
    expect(&out, 0);
    (String::from_utf8_lossy(&node.stdout).into_owned(), out.stdout)
}

/// A server that speaks the OpenAI chat completions API and the Anthropic messages API, JSON
/// and server-sent events, with fixed answers.
fn model_server() -> TestServer {
    TestServer::start(|seen, _| {
        let request: serde_json::Value = serde_json::from_slice(&seen.body).unwrap_or_default();
        let streamed = request["stream"] == true;
        let sse = |events: Vec<String>| {
            let chunks = events.into_iter().map(|e| (Duration::from_millis(20), e.into_bytes())).collect();
            Reply::Chunked(200, vec![("content-type".into(), "text/event-stream".into())], chunks)
        };
        match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/v1/chat/completions") if request["model"] == "missing" => Reply::json(
                404,
                &json!({ "error": { "message": "The model `missing` does not exist", "type": "invalid_request_error", "code": "model_not_found" } }),
            ),
            ("POST", "/v1/chat/completions") if streamed => {
                let mut events: Vec<String> = ["Hel", "lo", " there"]
                    .iter()
                    .map(|t| {
                        let chunk = json!({ "id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test",
                            "choices": [{ "index": 0, "delta": { "content": t }, "finish_reason": null }] });
                        format!("data: {chunk}\n\n")
                    })
                    .collect();
                events.push("data: [DONE]\n\n".into());
                sse(events)
            }
            ("POST", "/v1/chat/completions") => Reply::json(
                200,
                &json!({ "id": "c0", "object": "chat.completion", "created": 1, "model": "gpt-test",
                    "choices": [{ "index": 0, "message": { "role": "assistant", "content": "Hi!" }, "finish_reason": "stop" }],
                    "usage": { "prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5 } }),
            ),
            ("POST", "/v1/messages") if streamed => {
                let mut events = vec![
                    (
                        "message_start",
                        json!({ "type": "message_start", "message": { "id": "m1", "type": "message", "role": "assistant", "model": "claude-test", "content": [], "stop_reason": null, "stop_sequence": null, "usage": { "input_tokens": 3, "output_tokens": 0 } } }),
                    ),
                    (
                        "content_block_start",
                        json!({ "type": "content_block_start", "index": 0, "content_block": { "type": "text", "text": "" } }),
                    ),
                ];
                for t in ["Yes", ", ", "indeed"] {
                    events.push(("content_block_delta", json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": t } })));
                }
                events.push(("content_block_stop", json!({ "type": "content_block_stop", "index": 0 })));
                events.push(("message_delta", json!({ "type": "message_delta", "delta": { "stop_reason": "end_turn", "stop_sequence": null }, "usage": { "output_tokens": 3 } })));
                events.push(("message_stop", json!({ "type": "message_stop" })));
                sse(events.into_iter().map(|(name, data)| format!("event: {name}\ndata: {data}\n\n")).collect())
            }
            ("POST", "/v1/messages") => Reply::json(
                200,
                &json!({ "id": "m0", "type": "message", "role": "assistant", "model": "claude-test",
                    "content": [{ "type": "text", "text": format!("You said {}", request["messages"][0]["content"]) }],
                    "stop_reason": "end_turn", "stop_sequence": null, "usage": { "input_tokens": 3, "output_tokens": 4 } }),
            ),
            _ => Reply::text(404, "no such route"),
        }
    })
}

/// The official openai and @anthropic-ai/sdk packages, unmodified: a plain and a streamed
/// call to each, the agent suspended on `amber.input` between them and resumed in a new
/// process; the output is node's, the server saw each request once, replay sends nothing.
#[test]
fn the_model_sdks_run_unmodified_across_a_suspension_and_replay() {
    ensure_packages();
    let server = model_server();
    let sb = Sandbox::new("net-models");
    let file = fixtures().join("models.js");
    let base = server.url("");
    let keys = [("OPENAI_API_KEY", "sk-test-openai-0123456789"), ("ANTHROPIC_API_KEY", "sk-test-anthropic-9876543210")];
    let node = Command::new("node").arg(&file).arg(&base).envs(keys).output().expect("node on PATH");
    assert!(node.status.success(), "node: {}", String::from_utf8_lossy(&node.stderr));
    let node_out = String::from_utf8_lossy(&node.stdout).into_owned();
    let node_requests = server.seen().len();
    server.clear();

    let file = file.to_str().unwrap();
    let allow = format!("127.0.0.1:{}", server.port);
    let secrets = ["--secret", "OPENAI_API_KEY", "--secret", "ANTHROPIC_API_KEY"];
    let run = [&["run", file, "--session", "m", "--allow-net", &allow][..], &secrets, &["--", &base]].concat();
    let first = sb.amber_env(&run, &keys);
    expect(&first, 75);
    assert_eq!(server.seen().len(), 2, "the OpenAI calls before the suspension");
    // The keys are secrets: no file of the store holds them, though the image holds the SDK
    // clients and the journal their requests.
    assert_no_secret_in(&sb.store(), &keys.map(|(_, v)| v));
    let inspect = sb.amber(&["inspect", "m"]);
    assert!(
        inspect.stdout.contains("\nsecrets       OPENAI_API_KEY, ANTHROPIC_API_KEY (names only"),
        "{}",
        inspect.stdout
    );
    let missing = sb.amber(&["resume", "m", "--input", "yes"]);
    expect(&missing, 2);
    assert!(missing.stderr.contains("OPENAI_API_KEY"), "{}", missing.stderr);
    let second = sb.amber_env(&["resume", "m", "--input", "yes"], &keys);
    expect(&second, 0);
    assert_eq!(first.stdout + &second.stdout, node_out);
    let seen = server.seen();
    assert_eq!(seen.len(), node_requests, "amber sent {} requests, node {node_requests}", seen.len());
    let idempotency: std::collections::BTreeSet<_> = seen.iter().filter_map(|s| s.header("idempotency-key")).collect();
    assert_eq!(idempotency.len(), seen.len(), "every request has its own key");
    assert!(seen.iter().any(|s| s.header("authorization") == Some("Bearer sk-test-openai-0123456789")));
    assert!(seen.iter().any(|s| s.header("x-api-key") == Some("sk-test-anthropic-9876543210")));
    assert_no_secret_in(&sb.store(), &keys.map(|(_, v)| v));
    let replayed = sb.amber_env(&["replay", "m", "--print"], &keys);
    expect(&replayed, 0);
    assert_eq!(server.seen().len(), seen.len(), "replay sent a request");
}

/// No file under `dir` (the store: database, WAL, transform cache) contains any of `values`.
fn assert_no_secret_in(dir: &Path, values: &[&str]) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            assert_no_secret_in(&path, values);
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for value in values {
            let found = bytes.windows(value.len()).any(|w| w == value.as_bytes());
            assert!(!found, "{} holds a secret in clear", path.display());
        }
    }
}

#[test]
fn axios_node_fetch_and_http_pipe_behave_as_under_node_and_send_once() {
    ensure_packages();
    let server = server();
    let sb = Sandbox::new("net-packages");
    for (script, requests) in [("axios.js", 8), ("node_fetch.js", 7), ("http_pipe.js", 1)] {
        let name = script.trim_end_matches(".js").replace('_', "-");
        let (node, amber) = both(&sb, &server, script, &name);
        assert_eq!(amber, node, "{script}: amber's output differs from node's");
        // node's run and amber's: each sent every request once (a redirect is two).
        let seen = server.seen();
        let ours: Vec<_> = seen.iter().filter(|s| s.header("idempotency-key").is_some()).collect();
        assert_eq!(ours.len(), requests, "{script}: amber sent {} requests", ours.len());
        let before = seen.len();
        let replayed = sb.amber(&["replay", &name]);
        expect(&replayed, 0);
        assert_eq!(server.seen().len(), before, "{script}: replay sent a request");
        // Clear the log for the next script.
        server.clear();
    }
}

/// The SDK flow under SIGKILL: the run is killed at each of its durability points up to the
/// suspension, resumed in fresh processes and finished; the output is node's, a request is
/// sent again only when its response had not been committed — at most once more, with the
/// same `Idempotency-Key` — and no kill loses or repeats a committed call.
#[test]
fn the_model_sdks_resend_only_the_call_in_flight_after_a_kill() {
    ensure_packages();
    let server = model_server();
    let file = fixtures().join("models.js");
    let base = server.url("");
    let keys = [("OPENAI_API_KEY", "sk-test-openai-0123456789"), ("ANTHROPIC_API_KEY", "sk-test-anthropic-9876543210")];
    let node = Command::new("node").arg(&file).arg(&base).envs(keys).output().expect("node on PATH");
    assert!(node.status.success(), "node: {}", String::from_utf8_lossy(&node.stderr));
    let node_out = String::from_utf8_lossy(&node.stdout).into_owned();
    server.clear();

    let file = file.to_str().unwrap();
    let allow = format!("127.0.0.1:{}", server.port);
    let secrets = ["--secret", "OPENAI_API_KEY", "--secret", "ANTHROPIC_API_KEY"];
    let run = [&["run", file, "--session", "m", "--allow-net", &allow][..], &secrets, &["--", &base]].concat();
    let (mut point, mut resent) = (1, 0);
    loop {
        let sb = Sandbox::new("net-models-kill");
        server.clear();
        let kill_at = point.to_string();
        let env = [keys[0], keys[1], ("AMBER_FAULT_KILL_AT", kill_at.as_str())];
        let first = sb.amber_env(&run, &env);
        if first.code == 75 {
            eprintln!(
                "killed the SDK run at each of its {} durability points; {resent} requests sent again",
                point - 1
            );
            assert!(resent >= 1, "no kill fell between a request's intent and its completion");
            break;
        }
        assert_eq!(first.code, -1, "exit {}:\n{}\n{}", first.code, first.stdout, first.stderr);
        point += 1;
        assert!(point < 60, "the run never suspended");
        if !sb.amber(&["sessions"]).stdout.contains('m') {
            assert!(server.seen().is_empty(), "a request left before the session existed");
            continue;
        }
        // Continue to the suspension, then past it.
        let mut printed = first.stdout.clone();
        let caught_up = sb.amber_env(&["resume", "m"], &keys);
        assert!(
            caught_up.code == 75,
            "resume after a kill at {kill_at}: exit {}\n{}",
            caught_up.code,
            caught_up.stderr
        );
        printed.push_str(&caught_up.stdout);
        let finished = sb.amber_env(&["resume", "m", "--input", "yes"], &keys);
        expect(&finished, 0);
        printed.push_str(&finished.stdout);
        // Output is at least once: a line printed before the kill may be printed again.
        let mut lines: Vec<&str> = printed.lines().collect();
        lines.dedup();
        assert_eq!(lines.join("\n") + "\n", node_out, "killed at point {kill_at}");
        let seen = server.seen();
        let mut by_key: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
        for s in &seen {
            by_key.entry(s.header("idempotency-key").unwrap()).or_default().push(s.path.as_str());
        }
        for (key, paths) in &by_key {
            assert!(paths.len() <= 2, "{key} sent {} times (kill at {kill_at})", paths.len());
            assert!(paths.windows(2).all(|w| w[0] == w[1]), "one key on two requests: {paths:?}");
            resent += paths.len() - 1;
        }
    }
}
