//! `amber serve`'s API refuses what it must, with the documented status and a JSON error:
//! malformed JSON, unknown sessions and operations, a second different result, oversized
//! bodies, missing and wrong tokens, a tenant reaching another tenant's session, a tool worker
//! completing an expired claim. And docs/openapi.yaml lists every route the server serves.
#![allow(clippy::unwrap_used)]

mod support;

use std::time::Duration;

use serde_json::json;
use support::server::{free_port, tar_of, wait_until, Api, Server};
use support::Sandbox;

const ADMIN: &str = "admin-token-for-tests-0001";
const ACME: &str = "tenant-acme-token-0000001";
const OTHER: &str = "tenant-other-token-000001";
const WORKER: &str = "worker-token-for-tests-01";

fn error_code(reply: &support::server::Reply) -> &str {
    reply.json["error"]["code"].as_str().unwrap_or_else(|| panic!("not a JSON error: {} {}", reply.status, reply.text))
}

/// Waits until `id` reaches `status`.
fn wait_for(api: &Api, id: &str, status: &str) -> serde_json::Value {
    wait_until(api, id, &|doc| doc["status"] == status)
}

#[test]
fn the_api_refuses_bad_requests_with_json_errors() {
    let sandbox = Sandbox::new("serve-api");
    let tokens = json!({ "tokens": [
        { "token": ADMIN, "role": "admin" },
        { "token": ACME, "role": "tenant", "tenant": "acme" },
        { "token": OTHER, "role": "tenant", "tenant": "other" },
        { "token": WORKER, "role": "worker" },
    ]});
    let token_file = sandbox.write("tokens.json", &tokens.to_string());
    let token_path = sandbox.dir.join(token_file);
    let server = Server::start(
        &sandbox.store(),
        free_port(),
        &["--token-file", token_path.to_str().unwrap(), "--max-body", "4K", "--max-bundle", "64K"],
    );
    let anonymous = Api::new(&server.url());
    let admin = Api::new(&server.url()).with_token(ADMIN);
    let acme = Api::new(&server.url()).with_token(ACME);
    let other = Api::new(&server.url()).with_token(OTHER);
    let worker = Api::new(&server.url()).with_token(WORKER);

    // Tokens.
    assert_eq!(anonymous.get("/healthz").status, 200, "health needs no token");
    let reply = anonymous.get("/v1/sessions");
    assert_eq!((reply.status, error_code(&reply)), (401, "unauthorized"));
    let reply = Api::new(&server.url()).with_token("not-a-token-at-all-000").get("/v1/sessions");
    assert_eq!((reply.status, error_code(&reply)), (401, "unauthorized"));
    let reply = worker.get("/v1/sessions");
    assert_eq!((reply.status, error_code(&reply)), (403, "forbidden"));
    let reply = acme.post("/v1/ops/claim", &json!({}));
    assert_eq!((reply.status, error_code(&reply)), (403, "forbidden"));

    // Programs: a bad bundle, an oversized one, a good one.
    let reply = acme.post_raw("/v1/programs", b"definitely not a tar archive", "application/x-tar");
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let big = "x".repeat(70_000);
    let reply = acme.post_raw("/v1/programs", &tar_of(&[("big.js", &big)]), "application/x-tar");
    assert_eq!((reply.status, error_code(&reply)), (413, "payload_too_large"));
    let agent = "const v = await amber.call('tool', {}); console.log(v); await amber.sleep(60000);";
    // A program without a manifest, or with a broken one, is refused.
    let reply = acme.post_raw("/v1/programs", &tar_of(&[("agent.mjs", agent)]), "application/x-tar");
    assert_eq!((reply.status, error_code(&reply)), (422, "manifest_required"));
    let broken = tar_of(&[("agent.mjs", agent), ("amber.json", r#"{"host": {"tool": {"retry": 3}}}"#)]);
    let reply = acme.post_raw("/v1/programs", &broken, "application/x-tar");
    assert_eq!((reply.status, error_code(&reply)), (422, "invalid_manifest"));
    assert!(reply.text.contains("host.tool.retry: expected an object"), "{}", reply.text);
    let granted = r#"{"host": {"tool": {}}}"#;
    let reply =
        acme.post_raw("/v1/programs", &tar_of(&[("agent.mjs", agent), ("amber.json", granted)]), "application/x-tar");
    assert_eq!(reply.status, 201, "{}", reply.text);
    let program = reply.json["id"].as_str().unwrap().to_string();
    assert_eq!(acme.get(&format!("/v1/programs/{program}")).json["files"][0]["path"], "agent.mjs");

    // Sessions: malformed bodies, unknown fields, unknown programs and entries, oversized.
    for (body, code) in [
        (&b"{not json"[..], 400),
        (b"[1,2]", 400),
        (b"{\"program\": 5}", 400),
        (b"{\"program\": \"p\", \"entry\": \"e\", \"surprise\": 1}", 400),
    ] {
        let reply = acme.post_raw("/v1/sessions", body, "application/json");
        assert_eq!((reply.status, error_code(&reply)), (code, "bad_request"), "{}", String::from_utf8_lossy(body));
    }
    let reply = acme.post("/v1/sessions", &json!({ "program": "0".repeat(64), "entry": "agent.mjs" }));
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    let reply = acme.post("/v1/sessions", &json!({ "program": program, "entry": "missing.js" }));
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let reply = acme.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "id": "bad id!" }));
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let reply =
        acme.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "argv": ["y".repeat(5000)] }));
    assert_eq!((reply.status, error_code(&reply)), (413, "payload_too_large"));
    for policy in [json!({ "random": "host" }), json!({ "weather": "captured" }), json!({ "random": "sometimes" })] {
        let reply = acme.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "policy": policy }));
        assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"), "{policy}: {}", reply.text);
    }
    let reply = acme.post(
        "/v1/sessions",
        &json!({ "program": program, "entry": "agent.mjs", "secrets": ["AMBER_TEST_NO_SUCH_SECRET"] }),
    );
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));

    // Idempotent creation: the same body again is 200, another body with the same id is 409.
    let body = json!({ "program": program, "entry": "agent.mjs", "id": "a1", "tenant": "ignored" });
    let reply = acme.post("/v1/sessions", &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["tenant"], "acme", "a tenant token creates in its own tenant");
    assert_eq!(acme.post("/v1/sessions", &body).status, 200);
    let reply =
        acme.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "id": "a1", "argv": ["x"] }));
    assert_eq!((reply.status, error_code(&reply)), (409, "conflict"));

    // Another tenant cannot see it; the admin can.
    let reply = other.get("/v1/sessions/a1");
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    assert_eq!(other.get("/v1/sessions").json["sessions"].as_array().unwrap().len(), 0);
    assert_eq!(admin.get("/v1/sessions/a1").status, 200);
    let reply = acme.get("/v1/sessions?status=bogus");
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let reply = acme.get("/v1/sessions?limit=0");
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));

    // Operations: unknown ones, a second different result, the wrong kind.
    let doc = wait_for(&acme, "a1", "suspended");
    assert_eq!(doc["pending"][0]["name"], "tool");
    let reply = acme.post("/v1/sessions/a1/ops/99/resolve", &json!({ "result": 1 }));
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    let reply = acme.post("/v1/sessions/nope/ops/1/resolve", &json!({ "result": 1 }));
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    let reply = acme.post("/v1/sessions/a1/ops/x/resolve", &json!({ "result": 1 }));
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let reply = acme.post("/v1/sessions/a1/ops/1/resolve", &json!({ "value": 1 }));
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));
    let reply = acme.post("/v1/sessions/a1/input", &json!({ "text": "hi" }));
    assert_eq!((reply.status, error_code(&reply)), (409, "conflict"), "no input is pending");

    // A tool worker claims the call, lets the claim expire, and can no longer complete it.
    let claimed = worker.post("/v1/ops/claim", &json!({ "names": ["tool"], "wait_ms": 5000 }));
    assert_eq!(claimed.status, 200, "{}", claimed.text);
    let claim = claimed.json["ops"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(claimed.json["ops"][0]["session"], "a1");
    let reply = worker.post("/v1/ops/claim", &json!({ "names": ["tool"] }));
    assert_eq!(reply.json["ops"].as_array().unwrap().len(), 0, "claimed ops are not handed out twice");
    let reply = worker.post("/v1/ops/nope:1:1/complete", &json!({ "result": 1 }));
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    let reply = worker.post("/v1/ops/claim", &json!({ "names": "tool" }));
    assert_eq!((reply.status, error_code(&reply)), (400, "bad_request"));

    // The API resolves it meanwhile; the worker's late completion is refused, the same
    // resolve again is fine, another value is a conflict.
    let reply = acme.post("/v1/sessions/a1/ops/1/resolve", &json!({ "result": "from the api" }));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let reply = acme.post("/v1/sessions/a1/ops/1/resolve", &json!({ "result": "from the api" }));
    assert_eq!((reply.status, reply.json["duplicate"].as_bool()), (200, Some(true)));
    let reply = acme.post("/v1/sessions/a1/ops/1/resolve", &json!({ "result": "another" }));
    assert_eq!((reply.status, error_code(&reply)), (409, "conflict"));
    let reply = worker.post(&format!("/v1/ops/{claim}/complete"), &json!({ "result": "late" }));
    assert_eq!((reply.status, error_code(&reply)), (409, "conflict"));

    wait_until(&acme, "a1", &|doc| doc["status"] == "suspended" && doc["pending"][0]["kind"] == "sleep");
    assert_eq!(acme.get("/v1/sessions/a1/output").json["stdout"], "from the api\n");
    let reply = acme.post("/v1/sessions/a1/cancel", &json!({}));
    assert_eq!(reply.status, 200, "{}", reply.text);
    wait_for(&acme, "a1", "cancelled");
    let reply = acme.post("/v1/sessions/a1/cancel", &json!({}));
    assert_eq!(reply.status, 200, "cancelling twice is fine");

    // Unknown routes are JSON 404s too.
    let reply = admin.get("/v1/nothing-here");
    assert_eq!((reply.status, error_code(&reply)), (404, "not_found"));
    assert!(admin.get("/metrics").text.contains("amber_sessions{status=\"cancelled\"} 1"));
}

#[test]
fn an_expired_claim_is_handed_to_another_worker() {
    let sandbox = Sandbox::new("serve-claims");
    let server = Server::start(&sandbox.store(), free_port(), &[]);
    let api = Api::new(&server.url());
    let manifest = r#"{ "host": { "slow": { "timeout_ms": 300 } } }"#;
    let agent = "console.log(await amber.call('slow', { n: 1 }));";
    let reply =
        api.post_raw("/v1/programs", &tar_of(&[("agent.mjs", agent), ("amber.json", manifest)]), "application/x-tar");
    let program = reply.json["id"].as_str().unwrap().to_string();
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "id": "c" })).status, 201);
    let first = api.post("/v1/ops/claim", &json!({ "names": ["slow"], "wait_ms": 10000 }));
    let first_claim = first.json["ops"][0]["id"].as_str().unwrap().to_string();
    let key = first.json["ops"][0]["idempotency_key"].clone();
    std::thread::sleep(Duration::from_millis(400));
    let second = api.post("/v1/ops/claim", &json!({ "names": ["slow"], "wait_ms": 10000 }));
    assert_eq!(second.json["ops"][0]["attempt"], 2, "{}", second.text);
    assert_eq!(second.json["ops"][0]["idempotency_key"], key, "the key stays across attempts");
    let second_claim = second.json["ops"][0]["id"].as_str().unwrap().to_string();
    let reply = api.post(&format!("/v1/ops/{first_claim}/complete"), &json!({ "result": "first" }));
    assert_eq!((reply.status, error_code(&reply)), (409, "conflict"));
    let reply = api.post(&format!("/v1/ops/{second_claim}/complete"), &json!({ "result": "second" }));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let reply = api.post(&format!("/v1/ops/{second_claim}/complete"), &json!({ "result": "second" }));
    assert_eq!((reply.status, reply.json["duplicate"].as_bool()), (200, Some(true)), "a retried completion");
    wait_for(&api, "c", "completed");
    assert_eq!(api.get("/v1/sessions/c/output").json["stdout"], "second\n");
}

#[test]
fn the_openapi_document_lists_every_route() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.yaml")).unwrap();
    let mut documented = Vec::new();
    let mut path: Option<String> = None;
    for line in doc.lines() {
        if let Some(p) = line.strip_prefix("  /").and_then(|rest| rest.strip_suffix(':')) {
            path = Some(format!("/{p}"));
        } else if let (Some(p), Some(method)) = (&path, line.strip_prefix("    ").and_then(|m| m.strip_suffix(':'))) {
            if ["get", "post", "put", "delete", "patch"].contains(&method) {
                documented.push((method.to_string(), p.clone()));
            }
        } else if !line.starts_with(' ') {
            path = None;
        }
    }
    let served: Vec<(String, String)> =
        amber_server::api::ROUTES.iter().map(|(m, p)| (m.to_string(), p.to_string())).collect();
    for route in &served {
        assert!(documented.contains(route), "docs/openapi.yaml lacks {route:?}");
    }
    for route in &documented {
        assert!(served.contains(route), "docs/openapi.yaml documents {route:?}, which the server does not serve");
    }
}

#[test]
fn a_program_can_be_uploaded_as_a_multipart_form() {
    let sandbox = Sandbox::new("serve-multipart");
    let server = Server::start(&sandbox.store(), free_port(), &[]);
    let api = Api::new(&server.url());
    let boundary = "amber-test-boundary";
    let part = |path: &str, text: &str| {
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{path}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n{text}\r\n"
        )
    };
    let body = format!(
        "{}{}{}--{boundary}--\r\n",
        part("main.js", "console.log(require('./lib/two.js') * 21);"),
        part("lib/two.js", "module.exports = 2;"),
        part("amber.json", "{}")
    );
    let reply = api.post_raw("/v1/programs", body.as_bytes(), &format!("multipart/form-data; boundary={boundary}"));
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["files"], 3);
    let same = api.post_raw(
        "/v1/programs",
        &tar_of(&[
            ("amber.json", "{}"),
            ("lib/two.js", "module.exports = 2;"),
            ("main.js", "console.log(require('./lib/two.js') * 21);"),
        ]),
        "application/x-tar",
    );
    assert_eq!(same.json["id"], reply.json["id"], "the same files give the same program id, however uploaded");
    let program = reply.json["id"].as_str().unwrap();
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "main.js", "id": "m" })).status, 201);
    wait_for(&api, "m", "completed");
    assert_eq!(api.get("/v1/sessions/m/output").json["stdout"], "42\n");
    let broken = api.post_raw("/v1/programs", b"--x\r\nnot a form", "multipart/form-data; boundary=x");
    assert_eq!((broken.status, error_code(&broken)), (400, "bad_request"));
}
