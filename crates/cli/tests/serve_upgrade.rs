//! `POST /v1/sessions/{id}/upgrade` against a real `amber serve`, over SQLite and (with
//! `AMBER_TEST_POSTGRES`) PostgreSQL: a program whose module change alters a call before the
//! frontier is refused with the divergence and leaves the session exactly as it was; one that
//! fixes the code after the frontier (a changed module and a new one) moves the session, which
//! survives a SIGKILL of the server and finishes on the new code.
#![allow(clippy::unwrap_used)]

mod support;

use serde_json::{json, Value};
use support::server::{free_port, fresh_database, tar_of, wait_until, Api, Server};
use support::Sandbox;

const MAIN: &str = "import { label } from \"./lib/label.mjs\";
const a = await amber.call(\"next\", { q: label(\"one\") });
const b = await amber.call(\"next\", { q: label(a) });
console.log(label(b));
";
const LABEL: &str = "export const label = (x) => `v1:${x}`;\n";
const MANIFEST: &str = r#"{ "host": { "next": {} } }"#;

fn deploy(api: &Api, files: &[(&str, &str)]) -> String {
    let reply = api.post_raw("/v1/programs", &tar_of(files), "application/x-tar");
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["id"].as_str().unwrap().to_string()
}

/// The one pending operation of a suspended session: (op id, its args).
fn waiting_on(api: &Api, id: &str) -> (u64, Value) {
    let doc = wait_until(api, id, &|doc| doc["status"] == "suspended" && doc["pending"][0]["state"] == "pending");
    (doc["pending"][0]["id"].as_u64().unwrap(), doc["pending"][0]["args"].clone())
}

/// What the store shows of a session: its document (without timestamps) and its journal.
fn observed(api: &Api, id: &str) -> (Value, Value) {
    let mut doc = api.get(&format!("/v1/sessions/{id}")).json;
    doc.as_object_mut().unwrap().remove("updated_ms");
    (doc, api.get(&format!("/v1/sessions/{id}/journal")).json)
}

fn hash(text: &str) -> String {
    amber::durable::digest::Digest::of(text.as_bytes()).to_string().replace("sha256:", "")
}

fn upgrade_moves_a_waiting_session(mut server: Server) {
    let api = Api::new(&server.url());
    let v1 = deploy(&api, &[("main.mjs", MAIN), ("lib/label.mjs", LABEL), ("amber.json", MANIFEST)]);
    let body = json!({ "id": "u1", "program": v1, "entry": "main.mjs" });
    assert_eq!(api.post("/v1/sessions", &body).status, 201);
    let (first, args) = waiting_on(&api, "u1");
    assert_eq!(args["q"], "v1:one");
    assert_eq!(api.post(&format!("/v1/sessions/u1/ops/{first}/resolve"), &json!({ "result": "x" })).status, 200);
    let (second, args) = waiting_on(&api, "u1");
    assert_eq!(args["q"], "v1:x");

    // Requests that cannot be served, each with its status.
    assert_eq!(api.post("/v1/sessions/u1/upgrade", &json!({})).status, 400);
    assert_eq!(api.post("/v1/sessions/u1/upgrade", &json!({ "program": "nope" })).status, 404);
    assert_eq!(api.post("/v1/sessions/nope/upgrade", &json!({ "program": v1 })).status, 404);
    let elsewhere = deploy(&api, &[("other.mjs", MAIN), ("lib/label.mjs", LABEL), ("amber.json", MANIFEST)]);
    let reply = api.post("/v1/sessions/u1/upgrade", &json!({ "program": elsewhere }));
    assert_eq!(reply.status, 400, "{}", reply.text);

    // A module change that alters a call before the frontier: refused, the session untouched.
    let before = observed(&api, "u1");
    let bad =
        deploy(&api, &[("main.mjs", MAIN), ("lib/label.mjs", &LABEL.replace("v1", "v2")), ("amber.json", MANIFEST)]);
    let refused = api.post("/v1/sessions/u1/upgrade", &json!({ "program": bad }));
    assert_eq!(refused.status, 409, "{}", refused.text);
    let error = &refused.json["error"];
    assert_eq!(error["code"], "divergence", "{}", refused.text);
    assert!(error["details"]["expected"].as_str().unwrap().contains("v1:one"), "{}", refused.text);
    assert!(error["details"]["actual"].as_str().unwrap().contains("v2:one"), "{}", refused.text);
    assert!(error["details"]["location"].as_str().unwrap().ends_with("main.mjs:2:23"), "{}", refused.text);
    assert_eq!(observed(&api, "u1"), before, "the session is exactly as it was");

    // The fix after the frontier: a changed module (same behaviour before it) and a new one.
    let main = MAIN
        .replace("console.log(label(b));", "console.log(shout(label(b)));")
        .replace("\nconst a", "\nimport { shout } from \"./lib/shout.mjs\";\nconst a");
    let label = LABEL.replace("`v1:${x}`", "\"v1:\" + x");
    let shout = "export const shout = (s) => s.toUpperCase() + \"!\";\n";
    let v2 = deploy(
        &api,
        &[("main.mjs", &main), ("lib/label.mjs", &label), ("lib/shout.mjs", shout), ("amber.json", MANIFEST)],
    );
    let moved = api.post("/v1/sessions/u1/upgrade", &json!({ "program": v2 }));
    assert_eq!(moved.status, 200, "{}", moved.text);
    let doc = &moved.json;
    assert_eq!((doc["program"].as_str(), doc["previous_program"].as_str()), (Some(v2.as_str()), Some(v1.as_str())));
    let journal = before.1["records"].as_array().unwrap().len() as u64;
    assert_eq!((doc["seq"].as_u64(), doc["replayed"].as_u64()), (Some(journal), Some(journal)), "{doc}");
    assert_eq!(doc["from"]["/app/main.mjs"], hash(MAIN), "{doc}");
    assert_eq!(doc["to"]["/app/main.mjs"], hash(&main), "{doc}");
    assert_eq!(doc["from"]["/app/lib/label.mjs"], hash(LABEL), "{doc}");
    assert_eq!(doc["to"]["/app/lib/label.mjs"], hash(&label), "{doc}");
    assert_eq!(doc["to"]["/app/lib/shout.mjs"], hash(shout), "{doc}");
    let modules: Vec<&str> = doc["modules"].as_array().unwrap().iter().map(|m| m["path"].as_str().unwrap()).collect();
    assert_eq!(modules, ["/app/lib/label.mjs", "/app/lib/shout.mjs"], "{doc}");
    let records = api.get("/v1/sessions/u1/journal").json["records"].as_array().unwrap().clone();
    assert_eq!(records.len() as u64, journal + 1, "one upgrade record");
    assert_eq!(records.last().unwrap()["args"]["to"], doc["to"], "the record holds the hashes");

    // The move is durable: a killed and restarted server runs the new code to the end.
    server.kill_and_restart();
    assert_eq!(api.get("/v1/sessions/u1").json["program"], v2);
    let (op, _) = waiting_on(&api, "u1");
    assert_eq!(op, second, "the same operation is pending");
    assert_eq!(api.post(&format!("/v1/sessions/u1/ops/{op}/resolve"), &json!({ "result": "y" })).status, 200);
    let done = wait_until(&api, "u1", &|doc| matches!(doc["status"].as_str(), Some("completed" | "failed")));
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(api.get("/v1/sessions/u1/output").json["stdout"], "V1:Y!\n");

    // A finished session cannot move.
    let reply = api.post("/v1/sessions/u1/upgrade", &json!({ "program": v1 }));
    assert_eq!((reply.status, reply.json["error"]["code"].as_str()), (409, Some("conflict")), "{}", reply.text);
}

#[test]
fn upgrade_over_sqlite() {
    let sandbox = Sandbox::new("serve-upgrade");
    upgrade_moves_a_waiting_session(Server::start(&sandbox.store(), free_port(), &[]));
}

#[test]
fn upgrade_over_postgres() {
    let Some(url) = fresh_database("upgrade") else { return };
    let sandbox = Sandbox::new("serve-upgrade-pg");
    upgrade_moves_a_waiting_session(Server::start(&sandbox.dir.join("cache"), free_port(), &["--database", &url]));
}
