//! `amber run --database` and `amber resume --database` on the PostgreSQL store servers share
//! (`AMBER_TEST_POSTGRES`, started by `.ci/postgres`): the CLI deploys the project, runs the
//! session's slices itself, and stores results as the API would; a real `amber serve
//! --database` on the same database runs the same sessions, each side continuing what the
//! other left.
#![allow(clippy::unwrap_used)]

mod support;

use std::process::Command;

use serde_json::json;
use support::server::{free_port, fresh_database, wait_until, Api, Server};
use support::{expect, Sandbox};

const AGENT: &str = r#"import fs from "node:fs";
console.log("start", fs.existsSync(".env"), fs.readFileSync("data.txt", "utf8"));
const colour = await amber.call("ask", { q: "colour" });
console.log("colour", colour);
await amber.sleep(20);
const ok = await amber.input("go on?");
console.log("done", ok);
"#;

/// The project: an agent, a data file, and secrets the bundle must leave out.
fn project(sandbox: &Sandbox) {
    sandbox.write("app/package.json", r#"{ "type": "module" }"#);
    sandbox.write("app/agent.js", AGENT);
    sandbox.write("app/data.txt", "hello");
    sandbox.write("app/.env", "TOKEN=CANARY-ENV-4711");
    sandbox.write("app/.ssh/id_ed25519", "CANARY-KEY-4711");
}

/// Blobs of the database holding `needle`.
fn blobs_holding(url: &str, needle: &str) -> String {
    let sql = format!("SELECT count(*) FROM amber.blobs WHERE position('{needle}'::bytea in bytes) > 0");
    let out = Command::new("psql").args([url, "-tAc", &sql]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn run_and_resume_a_session_in_the_database() {
    let Some(url) = fresh_database("cli_run") else { return };
    let sandbox = Sandbox::new("database-run");
    project(&sandbox);
    let app = sandbox.dir.join("app");

    let out = sandbox.amber_in(&app, &["run", "--database", &url, "--session", "one", "agent.js"]);
    expect(&out, 75);
    assert_eq!(out.stdout, "start false hello\n");
    assert!(out.stderr.contains("1   call   ask  {\"q\":\"colour\"}"), "{}", out.stderr);
    assert!(out.stderr.contains("amber resume one --database --resolve 1='<json>'"), "{}", out.stderr);
    // The session is the database's, not the local store's (which holds only bundle copies).
    assert!(!sandbox.store().join("sessions.db").exists());
    // What the overlay hides never reaches the store.
    assert_eq!(blobs_holding(&url, "CANARY-ENV-4711"), "0");
    assert_eq!(blobs_holding(&url, "CANARY-KEY-4711"), "0");
    assert_eq!(blobs_holding(&url, "hello"), "1");

    // The result is stored and delivered; the 20 ms sleep is waited for in the same command.
    let out = sandbox.amber_in(&app, &["resume", "one", "--database", &url, "--resolve", "1=\"blue\""]);
    expect(&out, 75);
    assert_eq!(out.stdout, "colour blue\n");
    assert!(out.stderr.contains("input  \"go on?\""), "{}", out.stderr);
    let out = sandbox.amber_env(&["resume", "one", "--database", "--input", "yes"], &[("AMBER_DATABASE_URL", &url)]);
    expect(&out, 0);
    assert_eq!(out.stdout, "done yes\n");
    let out = sandbox.amber(&["resume", "one", "--database", &url]);
    expect(&out, 2);
    assert!(out.stderr.contains("session one has completed"), "{}", out.stderr);
    let out = sandbox.amber_in(&app, &["run", "--database", &url, "--session", "one", "agent.js"]);
    expect(&out, 2);
    assert!(out.stderr.contains("already exists in the database"), "{}", out.stderr);

    // The journal holds one completion per operation, as a server's slices write it.
    let out = sandbox.amber(&["inspect", "one", "--database", &url, "--json"]);
    expect(&out, 0);
    let view: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(view["session"]["status"], "completed", "{view:#}");

    // An uncaught error and a refused flag keep the local run's exit statuses.
    sandbox.write("app/boom.js", "throw new Error(\"boom\");\n");
    let out = sandbox.amber_in(&app, &["run", "--database", &url, "boom.js"]);
    expect(&out, 1);
    assert!(out.stderr.starts_with("Uncaught Error: boom"), "{}", out.stderr);
    let out = sandbox.amber_in(&app, &["run", "--database", &url, "--seed", &"0".repeat(64), "agent.js"]);
    expect(&out, 2);
    assert!(out.stderr.contains("--seed is not available with --database"), "{}", out.stderr);
    let out = sandbox.amber(&["resume", "nobody", "--database", &url]);
    expect(&out, 2);
    assert!(out.stderr.contains("no session \"nobody\" in the database"), "{}", out.stderr);
}

#[test]
fn the_cli_and_a_server_continue_each_others_sessions() {
    let Some(url) = fresh_database("cli_server") else { return };
    let sandbox = Sandbox::new("database-run-server");
    project(&sandbox);
    let app = sandbox.dir.join("app");
    let server = Server::start(&sandbox.dir.join("server-cache"), free_port(), &["--database", &url]);
    let api = Api::new(&server.url());

    // Started by the CLI, answered through the server's API: the server runs it to the input.
    let out = sandbox.amber_in(&app, &["run", "--database", &url, "--session", "two", "agent.js"]);
    expect(&out, 75);
    assert_eq!(api.post("/v1/sessions/two/ops/1/resolve", &json!({ "result": "green" })).status, 200);
    wait_until(&api, "two", &|doc| doc["status"] == "suspended" && doc["pending"][0]["kind"] == "input");
    // Then the CLI answers the input and runs the last slice (or follows the server running it).
    let out = sandbox.amber(&["resume", "two", "--database", &url, "--input", "sure"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "done sure\n");
    let output = api.get("/v1/sessions/two/output").json;
    assert_eq!(output["stdout"], "start false hello\ncolour green\ndone sure\n", "{output:#}");
}
