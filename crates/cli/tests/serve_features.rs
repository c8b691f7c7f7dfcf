//! `amber serve` features beyond the main flow: `--host` commands run by the server, the
//! server-sent event stream, an export that `amber import` accepts, limits and uncaught errors
//! as failed sessions, failures retried until attempts run out, and fair share between tenants.
#![allow(clippy::unwrap_used)]

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::time::Duration;

use serde_json::{json, Value};
use support::server::{free_port, tar_of, wait_until, Api, Server};
use support::Sandbox;

/// Deploys `files`, with a manifest granting the functions these programs call unless the
/// files hold one.
fn deploy(api: &Api, files: &[(&str, &str)]) -> String {
    let mut files = files.to_vec();
    if !files.iter().any(|(path, _)| *path == "amber.json") {
        files.push(("amber.json", r#"{ "host": { "double": {}, "flaky": {}, "next": {} } }"#));
    }
    let reply = api.post_raw("/v1/programs", &tar_of(&files), "application/x-tar");
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["id"].as_str().unwrap().to_string()
}

fn finished(doc: &Value) -> bool {
    matches!(doc["status"].as_str(), Some("completed" | "failed" | "cancelled"))
}

#[test]
fn host_commands_events_export_limits_and_errors() {
    let sandbox = Sandbox::new("serve-features");
    let host = "--host=double=node -e 'let s=\"\";process.stdin.on(\"data\",d=>s+=d).on(\"end\",()=>{const a=JSON.parse(s);process.stdout.write(JSON.stringify({twice:a.n*2,key:process.env.AMBER_IDEMPOTENCY_KEY}))})'";
    let server = Server::start(&sandbox.store(), free_port(), &[host, "--slice-instructions", "50000000"]);
    let api = Api::new(&server.url());
    let program = deploy(
        &api,
        &[
            (
                "agent.mjs",
                "await amber.input('go?'); const r = await amber.call('double', { n: 21 }); console.log(r.twice, r.key.startsWith('h1:'));",
            ),
            ("spin.js", "for (;;) {}"),
            ("random.js", "for (let i = 0; i < 3; i++) Math.random();"),
            ("throws.js", "function deep() { throw new TypeError('bad input ' + 7); }\ndeep();"),
            ("flaky.mjs", "try { await amber.call('flaky', {}); } catch (e) { console.log('gave up:', e.message); }"),
            ("amber.json", r#"{ "host": { "double": {}, "flaky": { "retry": { "max_attempts": 2, "backoff_ms": 10 } } } }"#),
        ],
    );

    // Events: subscribe while the session waits on its input, answer it, watch it finish.
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "agent.mjs", "id": "h1" })).status, 201);
    wait_until(&api, "h1", &|doc| doc["status"] == "suspended");
    let mut events = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(events, "GET /v1/sessions/h1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    events.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut reader = BufReader::new(events);
    let mut seen: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut answered = false;
    while !seen.iter().any(|e| e.contains("\"completed\"")) {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(data) = line.trim_end().strip_prefix("data: ") {
            seen.push(data.to_string());
            if !answered {
                assert_eq!(api.post("/v1/sessions/h1/input", &json!({ "text": "go" })).status, 200);
                answered = true;
            }
        }
    }
    assert!(seen.first().is_some_and(|first| first.contains("\"id\":\"h1\"")), "first event is the document: {seen:?}");
    assert!(seen.iter().any(|e| e.contains("\"text\":\"42 true\"")), "output arrives as an event: {seen:?}");

    // The --host command ran on the server, with the idempotency key.
    let doc = wait_until(&api, "h1", &finished);
    assert_eq!(doc["status"], "completed", "{doc}");
    assert_eq!(api.get("/v1/sessions/h1/output").json["stdout"], "42 true\n");

    // The export is an `amber export` file: the CLI imports and inspects it.
    let mut export = Vec::new();
    let mut response = ureq::get(&format!("{}/v1/sessions/h1/export", server.url())).call().unwrap();
    response.body_mut().as_reader().read_to_end(&mut export).unwrap();
    let file = sandbox.dir.join("h1.amber");
    std::fs::write(&file, &export).unwrap();
    let elsewhere = sandbox.dir.join("cli-store");
    let elsewhere = elsewhere.to_str().unwrap();
    let imported = sandbox.amber(&["--store", elsewhere, "import", file.to_str().unwrap()]);
    assert_eq!(imported.code, 0, "{}", imported.stderr);
    let inspected = sandbox.amber(&["--store", elsewhere, "inspect", "h1", "--json"]);
    assert_eq!(inspected.code, 0, "{}", inspected.stderr);
    let view: Value = serde_json::from_str(&inspected.stdout).unwrap();
    assert!(view["journal"].as_array().unwrap().iter().any(|r| r["function"] == "double"), "{view}");

    // A session's policy: with random captured, every Math.random value is journaled.
    let body = json!({ "program": program, "entry": "random.js", "id": "r", "policy": { "random": "captured" } });
    assert_eq!(api.post("/v1/sessions", &body).status, 201);
    wait_until(&api, "r", &finished);
    let journal = api.get("/v1/sessions/r/journal").json;
    let randoms = journal["records"].as_array().unwrap().iter().filter(|r| r["kind"] == "random").count();
    assert_eq!(randoms, 3, "{journal}");

    // A runaway session fails with the limit error instead of holding a worker.
    let spin = json!({ "program": program, "entry": "spin.js", "id": "spin", "max_instructions": 2_000_000 });
    assert_eq!(api.post("/v1/sessions", &spin).status, 201);
    let doc = wait_until(&api, "spin", &finished);
    assert_eq!((doc["status"].as_str(), doc["error"]["code"].as_str()), (Some("failed"), Some("limit")), "{doc}");

    // Without a session budget, the slice budget stops it.
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "spin.js", "id": "spin2" })).status, 201);
    let doc = wait_until(&api, "spin2", &finished);
    assert_eq!((doc["status"].as_str(), doc["error"]["code"].as_str()), (Some("failed"), Some("limit")), "{doc}");
    assert!(doc["error"]["message"].as_str().unwrap().contains("slice instruction limit"), "{doc}");

    // An uncaught error: failed, with node's stack.
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "throws.js", "id": "t" })).status, 201);
    let doc = wait_until(&api, "t", &finished);
    assert_eq!(doc["status"], "failed");
    assert_eq!(doc["error"]["name"], "TypeError");
    assert!(doc["error"]["stack"].as_str().unwrap().contains("at deep (/app/throws.js:1:"), "{doc}");

    // A failing tool: retried once (max_attempts 2), then the error reaches the program.
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "flaky.mjs", "id": "f" })).status, 201);
    for attempt in 1..=2 {
        let claimed = api.post("/v1/ops/claim", &json!({ "names": ["flaky"], "wait_ms": 20000 }));
        assert_eq!(claimed.json["ops"][0]["attempt"], attempt, "{}", claimed.text);
        let claim = claimed.json["ops"][0]["id"].as_str().unwrap().to_string();
        let reply = api.post(&format!("/v1/ops/{claim}/fail"), &json!({ "error": format!("down {attempt}") }));
        assert_eq!(reply.json["completed"], attempt == 2, "{}", reply.text);
    }
    wait_until(&api, "f", &finished);
    assert_eq!(api.get("/v1/sessions/f/output").json["stdout"], "gave up: down 2\n");
}

#[test]
fn a_busy_tenant_does_not_starve_another() {
    let sandbox = Sandbox::new("serve-fair");
    let server = Server::start(&sandbox.store(), free_port(), &["--workers", "1", "--tenant-concurrency", "1"]);
    let api = Api::new(&server.url());
    let program = deploy(&api, &[("work.js", "let x = 0; for (let i = 0; i < 200000; i++) x += i; console.log(x);")]);
    for n in 0..30 {
        let body = json!({ "program": program, "entry": "work.js", "id": format!("big-{n}"), "tenant": "big" });
        assert_eq!(api.post("/v1/sessions", &body).status, 201);
    }
    // Counted from the small tenant's arrival: on a loaded machine many big sessions may have
    // finished while the others were still being created.
    let done_big =
        || (0..30).filter(|n| api.get(&format!("/v1/sessions/big-{n}")).json["status"] == "completed").count();
    let before = done_big();
    let body = json!({ "program": program, "entry": "work.js", "id": "small", "tenant": "small" });
    assert_eq!(api.post("/v1/sessions", &body).status, 201);
    wait_until(&api, "small", &finished);
    let meanwhile = done_big() - before;
    assert!(meanwhile < 10, "the small tenant's one session waited for {meanwhile} of the big tenant's sessions");
    let filtered = api.get("/v1/sessions?tenant=small").json;
    assert_eq!(filtered["sessions"].as_array().unwrap().len(), 1);
}

#[test]
fn the_whole_run_budget_survives_slices_under_the_slice_budget() {
    let sandbox = Sandbox::new("serve-fuel");
    let server = Server::start(&sandbox.store(), free_port(), &["--slice-instructions", "3000000"]);
    let api = Api::new(&server.url());
    // Three slices of about a million instructions each, a call between them.
    let agent = "let x = 0; for (let r = 0; r < 3; r++) { for (let i = 0; i < 100000; i++) x += i; \
                 if (r < 2) await amber.call('next', { r }); } console.log(x);";
    let program = deploy(&api, &[("agent.mjs", agent)]);
    for (id, budget) in [("roomy", 6_000_000u64), ("tight", 2_500_000)] {
        let body = json!({ "program": program, "entry": "agent.mjs", "id": id, "max_instructions": budget });
        assert_eq!(api.post("/v1/sessions", &body).status, 201);
    }
    for id in ["roomy", "tight"] {
        for op in 1..=2u64 {
            let doc = wait_until(&api, id, &|doc| finished(doc) || doc["pending"][0]["id"] == op);
            if finished(&doc) {
                break;
            }
            let reply = api.post(&format!("/v1/sessions/{id}/ops/{op}/resolve"), &json!({ "result": null }));
            assert_eq!(reply.status, 200, "{}", reply.text);
        }
    }
    let roomy = wait_until(&api, "roomy", &finished);
    assert_eq!(roomy["status"], "completed", "each slice fits the slice budget and the run fits its own: {roomy}");
    assert_eq!(api.get("/v1/sessions/roomy/output").json["stdout"], "14999850000\n");
    let tight = wait_until(&api, "tight", &finished);
    assert_eq!(tight["status"], "failed", "{tight}");
    let message = tight["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("instruction limit") && !message.contains("slice"),
        "the run's own budget ran out: {tight}"
    );
}

/// Issue 23 through the server: a gated call is an approval operation in the session's
/// document; the API approves or denies it (a result cannot stand in for a decision), and an
/// ungranted call is refused without ever becoming an operation.
#[test]
fn approvals_are_decided_through_the_api() {
    let sandbox = Sandbox::new("serve-approvals");
    let server = Server::start(&sandbox.store(), free_port(), &[]);
    let api = Api::new(&server.url());
    let agent = "await amber.call('shell', {}).catch((e) => console.log(e.code));\n\
                 for (const amount of [500, 900]) {\n\
                   try { console.log(await amber.call('pay', { amount })); } catch (e) { console.log(e.code, e.message); }\n\
                 }";
    let program = deploy(&api, &[("pay.mjs", agent), ("amber.json", r#"{ "host": { "pay": { "approve": true } } }"#)]);
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "pay.mjs", "id": "p" })).status, 201);
    let pending = |doc: &Value, kind: &str| -> Option<u64> {
        doc["pending"].as_array()?.iter().find(|op| op["kind"] == kind && op["state"] == "pending")?["id"].as_u64()
    };
    let doc = wait_until(&api, "p", &|doc| pending(doc, "approval").is_some());
    let approval = pending(&doc, "approval").unwrap();
    let op = doc["pending"].as_array().unwrap().iter().find(|op| op["id"] == approval).unwrap().clone();
    assert_eq!((op["name"].as_str(), &op["args"]["args"]), (Some("pay"), &json!({ "amount": 500 })), "{doc}");

    let forged = api.post(&format!("/v1/sessions/p/ops/{approval}/resolve"), &json!({ "result": "paid" }));
    assert_eq!(forged.status, 400, "{}", forged.text);
    assert!(forged.text.contains("decide it with approve or deny"), "{}", forged.text);
    assert_eq!(
        api.post(&format!("/v1/sessions/p/ops/{approval}/approve"), &json!({})).status,
        400,
        "a principal is required"
    );
    let reply = api.post(&format!("/v1/sessions/p/ops/{approval}/approve"), &json!({ "principal": "alice" }));
    assert_eq!((reply.status, &reply.json["accepted"]), (200, &json!(true)), "{}", reply.text);

    // Approved: the call itself is an operation now, answered like any other.
    let doc = wait_until(&api, "p", &|doc| pending(doc, "call").is_some());
    let call = pending(&doc, "call").unwrap();
    assert_eq!(api.post(&format!("/v1/sessions/p/ops/{call}/resolve"), &json!({ "result": "paid 500" })).status, 200);
    let doc = wait_until(&api, "p", &|doc| pending(doc, "approval").is_some_and(|id| id != approval));
    let second = pending(&doc, "approval").unwrap();
    let body = json!({ "principal": "bob", "reason": "too much" });
    assert_eq!(api.post(&format!("/v1/sessions/p/ops/{second}/deny"), &body).status, 200);
    let doc = wait_until(&api, "p", &finished);
    assert_eq!(doc["status"], "completed", "{doc}");
    assert_eq!(
        api.get("/v1/sessions/p/output").json["stdout"],
        "ERR_AMBER_DENIED\npaid 500\nERR_AMBER_NOT_APPROVED amber.call(\"pay\") was not approved by bob: too much\n"
    );
    let journal = api.get("/v1/sessions/p/journal").json;
    let principals: Vec<&str> = journal["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "approval-completion")
        .filter_map(|r| r["result"]["ok"]["principal"].as_str())
        .collect();
    assert_eq!(principals, vec!["alice", "bob"], "{journal}");
}

#[test]
fn sessions_are_traced_live_to_an_otlp_collector() {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use prost::Message;
    use support::http_server::{Reply, TestServer};

    let collector = TestServer::start(|_, _| Reply::Full(200, vec![], Vec::new()));
    let sandbox = Sandbox::new("serve-otlp");
    let server = Server::start(&sandbox.store(), free_port(), &["--otlp", &collector.url("")]);
    let api = Api::new(&server.url());
    let agent = "const n = await amber.step('plan', () => 2);\n\
                 console.log(await amber.call('double', { n }));\n\
                 console.log(await amber.call('pay', { amount: 500 }));";
    let manifest = r#"{ "host": { "double": {}, "pay": { "approve": true } } }"#;
    let program = deploy(&api, &[("main.mjs", agent), ("amber.json", manifest)]);
    assert_eq!(api.post("/v1/sessions", &json!({ "program": program, "entry": "main.mjs", "id": "t" })).status, 201);
    let pending = |doc: &Value, kind: &str| -> Option<u64> {
        doc["pending"].as_array()?.iter().find(|op| op["kind"] == kind && op["state"] == "pending")?["id"].as_u64()
    };
    let doc = wait_until(&api, "t", &|doc| pending(doc, "call").is_some());
    let call = pending(&doc, "call").unwrap();
    assert_eq!(api.post(&format!("/v1/sessions/t/ops/{call}/resolve"), &json!({ "result": 4 })).status, 200);
    let doc = wait_until(&api, "t", &|doc| pending(doc, "approval").is_some());
    let approval = pending(&doc, "approval").unwrap();
    let reply = api.post(&format!("/v1/sessions/t/ops/{approval}/approve"), &json!({ "principal": "alice" }));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let doc = wait_until(&api, "t", &|doc| pending(doc, "call").is_some_and(|id| id != call));
    let pay = pending(&doc, "call").unwrap();
    assert_eq!(api.post(&format!("/v1/sessions/t/ops/{pay}/resolve"), &json!({ "result": "paid" })).status, 200);
    assert_eq!(wait_until(&api, "t", &finished)["status"], "completed");

    // Spans arrive as slices commit them, the root once the session ended; each once. The
    // server's own spans (its slices and their commits) join the same trace.
    type Seen = (String, Vec<u8>, Vec<u8>, Vec<u8>);
    let spans = || -> Vec<Seen> {
        collector
            .seen()
            .iter()
            .filter(|s| s.path == "/v1/traces")
            .flat_map(|s| ExportTraceServiceRequest::decode(&s.body[..]).unwrap().resource_spans)
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans)
            .map(|s| (s.name, s.span_id, s.trace_id, s.parent_span_id))
            .collect()
    };
    let mut waited = 0;
    while !spans().iter().any(|(name, ..)| name == "session") && waited < 200 {
        std::thread::sleep(Duration::from_millis(50));
        waited += 1;
    }
    let spans = spans();
    let (host, program): (Vec<&Seen>, Vec<&Seen>) = spans.iter().partition(|(name, ..)| name.starts_with("amber."));
    let mut names: Vec<&str> = program.iter().map(|(name, ..)| name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["approval pay", "call double", "call pay", "session", "step plan"], "{spans:?}");
    assert!(collector.seen().len() > 1, "sent as the session went, not once at its end");
    assert!(spans.iter().all(|(_, _, trace, _)| *trace == spans[0].2));
    let root = &program.iter().find(|(name, ..)| name == "session").unwrap().1;
    let slices: Vec<&Vec<u8>> = host.iter().filter(|(n, ..)| n == "amber.slice").map(|(_, id, ..)| id).collect();
    assert!(!slices.is_empty(), "{spans:?}");
    assert!(host.iter().filter(|(n, ..)| n == "amber.slice").all(|(_, _, _, parent)| parent == root));
    let commits: Vec<&Seen> = host.iter().copied().filter(|(n, ..)| n == "amber.commit").collect();
    assert!(!commits.is_empty() && commits.iter().all(|(_, _, _, parent)| slices.contains(&parent)), "{spans:?}");
}
