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
