//! Code blobs through PostgreSQL (`AMBER_TEST_POSTGRES`; docs/snapshot-format.md, "Code
//! blobs"): the compiled code of a bundle's module is stored once in the shared database, and
//! images only name it. Another server restores such an image, an upgrade's new code blob
//! reaches it the same way, and an export from the database carries the blob, so the session
//! resumes in a local store with no server and no bundle. (An upgraded session's export does
//! not resume locally yet: the CLI has no lower layer for a server session, so the upgraded
//! module's text, a stored source rather than a blob, is not found: docs/server.md, "Not yet".)
#![allow(clippy::unwrap_used)]

mod support;

use serde_json::json;
use support::server::{free_port, fresh_database, tar_of, wait_until, Api, Server};
use support::{expect, Sandbox};

/// `twice` is called after each suspension, so a code block compiled from its module is live
/// in every image: the image names the module's code blob.
const MAIN: &str = "import { twice } from \"./lib/twice.mjs\";
const a = await amber.call(\"next\", { q: twice(1) });
const b = await amber.call(\"next\", { q: twice(a) });
console.log(twice(b));
";
const TWICE: &str = "export const twice = (x) => x * 2;\n";
const MANIFEST: &str = r#"{ "host": { "next": {} } }"#;

fn deploy(api: &Api, files: &[(&str, &str)]) -> String {
    let reply = api.post_raw("/v1/programs", &tar_of(files), "application/x-tar");
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["id"].as_str().unwrap().to_string()
}

/// The pending operation of a suspended session, and its args' `q`.
fn waiting_on(api: &Api, id: &str) -> (u64, serde_json::Value) {
    let doc = wait_until(api, id, &|doc| doc["status"] == "suspended" && doc["pending"][0]["state"] == "pending");
    (doc["pending"][0]["id"].as_u64().unwrap(), doc["pending"][0]["args"]["q"].clone())
}

/// The code blobs the newest image of an export names, as `amber inspect FILE --json` shows.
fn exported_code_blobs(sb: &Sandbox, api: &Api, id: &str, file: &str) -> Vec<serde_json::Value> {
    let (status, bytes) = api.get_bytes(&format!("/v1/sessions/{id}/export"));
    assert_eq!(status, 200);
    std::fs::write(sb.dir.join(file), bytes).unwrap();
    let inspect = sb.amber(&["inspect", file, "--json"]);
    expect(&inspect, 0);
    let doc: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    doc["image"]["manifest"]["code_blobs"].as_array().unwrap().clone()
}

#[test]
fn code_blobs_in_postgres_restore_on_another_server_and_travel_in_exports() {
    let Some(url) = fresh_database("codeblobs") else { return };
    let sb = Sandbox::new("serve-code-blobs");
    let args = ["--database", url.as_str(), "--lease-ms", "1000"];
    let mut a = Server::start(&sb.dir.join("cache-a"), free_port(), &args);
    let b = Server::start(&sb.dir.join("cache-b"), free_port(), &args);
    let (api_a, api_b) = (Api::new(&a.url()), Api::new(&b.url()));
    let v1 = deploy(&api_a, &[("main.mjs", MAIN), ("lib/twice.mjs", TWICE), ("amber.json", MANIFEST)]);
    let body = json!({ "id": "c1", "program": v1, "entry": "main.mjs" });
    assert_eq!(api_a.post("/v1/sessions", &body).status, 201);
    let (first, q) = waiting_on(&api_a, "c1");
    assert_eq!(q, 2);
    let v1_blobs = exported_code_blobs(&sb, &api_a, "c1", "v1.amber");
    assert_eq!(v1_blobs.len(), 1, "the module's code blob, named by the image");
    // The export carries the code blob (and the module's captured bytes): imported into a
    // local store, the session resumes without the server or its bundle.
    expect(&sb.amber(&["import", "v1.amber", "--as", "local"]), 0);
    let local = sb.amber(&["resume", "local", "--resolve", &format!("{first}=5")]);
    assert_eq!(local.code, 75, "{}", local.stderr);
    let inspect = sb.amber(&["inspect", "local", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&inspect.stdout).unwrap();
    assert_eq!(doc["image"]["manifest"]["code_blobs"].as_array().unwrap(), &v1_blobs, "restored, not compiled again");
    let second_local = doc["pending"][0]["id"].as_u64().unwrap();
    let local = sb.amber(&["resume", "local", "--resolve", &format!("{second_local}=7")]);
    assert_eq!((local.code, local.stdout.as_str()), (0, "14\n"), "{}", local.stderr);

    // An upgrade on a compiles the changed module: its new code blob goes to the database
    // with the upgraded image (same behaviour before the frontier, different after it).
    let twice_v2 = "export const twice = (x) => x + x + 0;\n";
    let main_v2 = MAIN.replace("console.log(twice(b));", "console.log(\"v2\", twice(b));");
    let v2 = deploy(&api_a, &[("main.mjs", &main_v2), ("lib/twice.mjs", twice_v2), ("amber.json", MANIFEST)]);
    let moved = api_a.post("/v1/sessions/c1/upgrade", &json!({ "program": v2 }));
    assert_eq!(moved.status, 200, "{}", moved.text);
    let v2_blobs = exported_code_blobs(&sb, &api_a, "c1", "v2.amber");
    assert_eq!(v2_blobs.len(), 1);
    assert_ne!(v2_blobs, v1_blobs, "the upgraded image names the new module's code");

    // a is gone; b restores the upgraded image, whose code it never compiled, from the
    // database's blobs.
    a.kill();
    assert_eq!(api_b.post(&format!("/v1/sessions/c1/ops/{first}/resolve"), &json!({ "result": 5 })).status, 200);
    let (second, q) = waiting_on(&api_b, "c1");
    assert_eq!(q, 10);
    let exported = exported_code_blobs(&sb, &api_b, "c1", "b.amber");
    assert_eq!(exported, v2_blobs, "b's image names the same blob: restored, not compiled again");

    // Blob collection while b runs: the first code blob, which no image names since b's
    // slice replaced the pre-upgrade image, goes; everything the session needs stays.
    let gc = sb.amber(&["gc", "--database", &url, "--grace-ms", "0"]);
    expect(&gc, 0);
    assert!(gc.stderr.contains("removed 1 blobs"), "{}", gc.stderr);
    assert_eq!(api_b.post(&format!("/v1/sessions/c1/ops/{second}/resolve"), &json!({ "result": 7 })).status, 200);
    let done = wait_until(&api_b, "c1", &|doc| matches!(doc["status"].as_str(), Some("completed" | "failed")));
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(api_b.get("/v1/sessions/c1/output").json["stdout"], "v2 14\n");
    assert_eq!(api_b.get_bytes("/v1/sessions/c1/export").0, 200, "every blob it names is still stored");
}
