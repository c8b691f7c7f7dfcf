//! `amber sessions --database` and `amber inspect NAME --database` over the PostgreSQL store
//! a real `amber serve --database` writes (`AMBER_TEST_POSTGRES`, started by `.ci/postgres`):
//! the CLI lists the servers' sessions and shows one's image, pending operation and journal,
//! without a server and without taking a lease.
#![allow(clippy::unwrap_used)]

mod support;

use serde_json::{json, Value};
use support::server::{free_port, fresh_database, tar_of, wait_until, Api, Server};
use support::Sandbox;

const MAIN: &str = "const answer = await amber.call(\"ask\", { q: \"colour\" });\nconsole.log(answer);\n";
const MANIFEST: &str = r#"{ "host": { "ask": {} } }"#;

#[test]
fn sessions_and_inspect_read_the_servers_database() {
    let Some(url) = fresh_database("views") else { return };
    let sandbox = Sandbox::new("database-views");
    let server = Server::start(&sandbox.dir.join("cache"), free_port(), &["--database", &url]);
    let api = Api::new(&server.url());
    let reply =
        api.post_raw("/v1/programs", &tar_of(&[("main.mjs", MAIN), ("amber.json", MANIFEST)]), "application/x-tar");
    assert_eq!(reply.status, 201, "{}", reply.text);
    let program = reply.json["id"].as_str().unwrap().to_string();
    for id in ["alpha", "beta"] {
        let body = json!({ "id": id, "program": program, "entry": "main.mjs" });
        assert_eq!(api.post("/v1/sessions", &body).status, 201);
        wait_until(&api, id, &|doc| doc["status"] == "suspended" && doc["pending"][0]["state"] == "pending");
    }
    let op = api.get("/v1/sessions/beta").json["pending"][0]["id"].as_u64().unwrap();
    assert_eq!(api.post(&format!("/v1/sessions/beta/ops/{op}/resolve"), &json!({ "result": "blue" })).status, 200);
    wait_until(&api, "beta", &|doc| doc["status"] == "completed");

    // Every session, oldest first, with its status and entry; the local store is not created.
    let out = sandbox.amber(&["sessions", "--database", &url]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<Vec<&str>> = out.stdout.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines.len(), 3, "{}", out.stdout);
    assert_eq!(lines[0], ["NAME", "STATUS", "UPDATED", "ENTRY"]);
    assert_eq!((lines[1][0], lines[1][1], lines[1][3]), ("alpha", "suspended", "main.mjs"));
    assert_eq!((lines[2][0], lines[2][1], lines[2][3]), ("beta", "completed", "main.mjs"));
    assert!(!sandbox.store().exists(), "a read-only command created the local store");

    // `--database` without a value reads $AMBER_DATABASE_URL.
    let out = sandbox.amber_env(&["sessions", "--database"], &[("AMBER_DATABASE_URL", &url)]);
    assert_eq!((out.code, out.stdout.lines().count()), (0, 3), "{}", out.stderr);
    let out = sandbox.command(&["sessions", "--database"]).env_remove("AMBER_DATABASE_URL").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("AMBER_DATABASE_URL"));

    // The suspended session: its pending call and the journal the server committed.
    let out = sandbox.amber(&["inspect", "alpha", "--database", &url, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let view: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(view["session"]["name"], "alpha");
    assert_eq!(view["pending"][0]["name"], "ask", "{view:#}");
    assert_eq!(view["pending"][0]["args"], json!({ "q": "colour" }));
    assert_eq!(view["image"]["seal_ok"], true);
    let journal = view["journal"].as_array().unwrap();
    assert!(journal.iter().any(|r| r["function"] == "ask"), "{journal:#?}");

    // The finished one shows its result in the journal; the text view names it too.
    let out = sandbox.amber(&["inspect", "beta", "--database", &url, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let view: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(view["journal"].as_array().unwrap().iter().any(|r| r["result"]["ok"] == "blue"), "{view:#}");
    let out = sandbox.amber(&["inspect", "beta", "--database", &url]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("beta"), "{}", out.stdout);

    // No such session: a usage error (2), and nothing written.
    let out = sandbox.amber(&["inspect", "gamma", "--database", &url]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no session \"gamma\" in the database"), "{}", out.stderr);
    // An unreachable database: 2 with the reason.
    let out = sandbox.amber(&["sessions", "--database", "postgres://amber@127.0.0.1:1/none"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("opening the database"), "{}", out.stderr);
}
