//! Issue 23 end to end: a program manifest (`amber.json` beside the program) mediates every
//! `amber.call` — by any path — gates calls on approvals decided in later processes, and
//! retries a flaky `--host` command with the same idempotency key; each session replays
//! without divergence.
#![allow(clippy::unwrap_used)]

mod support;

use serde_json::Value;
use support::{expect, Sandbox};

const MANIFEST: &str = r#"{
  "host": {
    "search": { "args": { "type": "object", "required": ["q"],
                          "properties": { "q": { "type": "string", "minLength": 1 } } } },
    "pay": { "args": { "type": "object", "required": ["amount"] },
             "approve": { "when": { "/amount": { "gt": 100 } } } }
  }
}"#;

/// Reaches for ungranted functions by a computed name and from a required module, sends
/// args that fail the schema, then pays three amounts (two need approval).
const AGENT: &str = r#"
const tools = require("./tools.js");
const show = (what, p) => p.then(
  (v) => console.log(what, "ok", JSON.stringify(v)),
  (e) => console.log(what, e.code, e.message));
(async () => {
  await show("computed", amber.call(["ev", "al"].join(""), {}));
  await show("module", tools.wipe());
  await show("schema", amber.call("search", { q: "" }));
  await show("search", amber.call("search", { q: "amber" }));
  await show("small", amber.call("pay", { amount: 20 }));
  await show("large", amber.call("pay", { amount: 500 }));
  await show("huge", amber.call("pay", { amount: 5000 }));
})();
"#;

const TOOLS: &str = r#"exports.wipe = () => amber.call("shell", { cmd: "rm -rf /" });"#;

fn journal(sb: &Sandbox, session: &str) -> Vec<Value> {
    let out = sb.amber(&["inspect", session, "--json"]);
    expect(&out, 0);
    let view: Value = serde_json::from_str(&out.stdout).unwrap();
    view["journal"].as_array().unwrap().clone()
}

#[test]
fn calls_are_mediated_and_approvals_decided_across_processes() {
    let sb = Sandbox::new("grants");
    sb.write("agent/amber.json", MANIFEST);
    sb.write("agent/tools.js", TOOLS);
    let agent = sb.write("agent/main.js", AGENT);
    let hosts = ["--host", "search=echo '[\"hit\"]'", "--host", "pay=sed s/amount/paid/"];
    let mut run = vec!["run", agent.as_str(), "--session", "s"];
    run.extend(hosts);
    let out = sb.amber(&run);
    expect(&out, 75);
    assert_eq!(
        out.stdout,
        "computed ERR_AMBER_DENIED amber.call(\"eval\"): the program manifest grants no host function \"eval\" (granted: pay, search)\n\
         module ERR_AMBER_DENIED amber.call(\"shell\"): the program manifest grants no host function \"shell\" (granted: pay, search)\n\
         schema ERR_AMBER_INVALID_ARGS amber.call(\"search\"): args/q fails the manifest's schema: \"\" is shorter than 1 character\n\
         search ok [\"hit\"]\n\
         small ok {\"paid\":20}\n"
    );
    assert!(out.stderr.contains("approve  call pay  {\"amount\":500}  (/amount gt 100)"), "{}", out.stderr);
    assert!(out.stderr.contains("--approve 3"), "{}", out.stderr);

    // The gated call cannot be answered as if it ran; it is approved in another process.
    let out = sb.amber(&["resume", "s", "--resolve", "3=1"]);
    expect(&out, 2);
    assert!(out.stderr.contains("decide it with approve or deny"), "{}", out.stderr);
    let mut resume = vec!["resume", "s", "--approve", "3", "--principal", "alice@example.com"];
    resume.extend(hosts);
    let out = sb.amber(&resume);
    expect(&out, 75);
    assert_eq!(out.stdout, "large ok {\"paid\":500}\n");
    let mut resume = vec!["resume", "s", "--deny", "5=over the weekly limit", "--principal", "bob"];
    resume.extend(hosts);
    let out = sb.amber(&resume);
    expect(&out, 0);
    assert_eq!(
        out.stdout,
        "huge ERR_AMBER_NOT_APPROVED amber.call(\"pay\") was not approved by bob: over the weekly limit\n"
    );

    // Who decided, and the approved call as the approval's child; nothing for refused calls.
    let records = journal(&sb, "s");
    let decisions: Vec<(&str, bool)> = records
        .iter()
        .filter(|r| r["kind"] == "approval-completion")
        .map(|r| (r["result"]["ok"]["principal"].as_str().unwrap(), r["result"]["ok"]["approved"].as_bool().unwrap()))
        .collect();
    assert_eq!(decisions, vec![("alice@example.com", true), ("bob", false)]);
    let approval_seq = records.iter().find(|r| r["kind"] == "approval-intent").unwrap()["seq"].clone();
    let approved = records.iter().find(|r| r["kind"] == "call-intent" && r["parent_seq"] == approval_seq).unwrap();
    assert_eq!(approved["args"], serde_json::json!({ "amount": 500 }));
    assert!(!records.iter().any(|r| r["function"] == "eval" || r["function"] == "shell"));

    let out = sb.amber(&["inspect", "s"]);
    assert!(out.stdout.contains("grants        pay (args schema; approval when /amount gt 100)"), "{}", out.stdout);
    // Replay from the top under the stored manifest: the same refusals and decisions.
    let out = sb.amber(&["replay", "s"]);
    expect(&out, 0);
}

#[test]
fn a_flaky_host_is_retried_with_one_idempotency_key_and_a_hung_one_times_out() {
    let sb = Sandbox::new("grants-retry");
    sb.write(
        "agent/amber.json",
        r#"{ "host": {
             "flaky": { "retry": { "max_attempts": 3, "backoff_ms": 20 } },
             "slow": { "timeout_ms": 300, "retry": { "max_attempts": 2, "backoff_ms": 10, "retry_on": ["timeout"] } },
             "broken": { "retry": { "max_attempts": 5, "backoff_ms": 10, "retry_on": ["timeout"] } } } }"#,
    );
    let agent = sb.write(
        "agent/main.js",
        r#"(async () => {
  console.log("flaky", await amber.call("flaky", {}));
  await amber.call("slow", {}).catch((e) => console.log("slow", e.message));
  await amber.call("broken", {}).catch((e) => console.log("broken", e.code, e.message));
})();"#,
    );
    let keys = sb.dir.join("keys");
    let flaky = format!(
        "echo \"$AMBER_IDEMPOTENCY_KEY\" >> {keys}; n=$(wc -l < {keys}); if [ $n -lt 3 ]; then echo down >&2; exit 1; fi; echo $n",
        keys = keys.display()
    );
    let broken = r#"echo '{"code":"E_QUOTA","message":"quota exhausted"}' >&2; exit 1"#;
    let out = sb.amber(&[
        "run",
        &agent,
        "--session",
        "r",
        "--host",
        &format!("flaky={flaky}"),
        "--host",
        "slow=sleep 5",
        "--host",
        &format!("broken={broken}"),
    ]);
    expect(&out, 0);
    assert_eq!(
        out.stdout,
        "flaky 3\n\
         slow host command for \"slow\" timed out after 300 ms; its process group was killed\n\
         broken E_QUOTA quota exhausted\n"
    );
    let lines: Vec<String> = std::fs::read_to_string(&keys).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|k| *k == lines[0]), "one key for every attempt: {lines:?}");

    let records = journal(&sb, "r");
    let attempts: Vec<(String, u64, Value)> = records
        .iter()
        .filter(|r| r["kind"] == "attempt")
        .map(|r| {
            (
                r["function"].as_str().unwrap().to_string(),
                r["args"]["attempt"].as_u64().unwrap(),
                r["args"]["code"].clone(),
            )
        })
        .collect();
    assert_eq!(
        attempts,
        vec![
            ("flaky".into(), 1, Value::from("exit:1")),
            ("flaky".into(), 2, Value::from("exit:1")),
            ("slow".into(), 1, Value::from("timeout")),
        ]
    );
    let backoffs: Vec<u64> =
        records.iter().filter(|r| r["kind"] == "attempt").map(|r| r["args"]["backoff_ms"].as_u64().unwrap()).collect();
    assert_eq!(backoffs, vec![20, 40, 10]);
    let out = sb.amber(&["replay", "r"]);
    expect(&out, 0);
}

#[test]
fn a_bad_manifest_is_a_usage_error_naming_the_key() {
    let sb = Sandbox::new("grants-bad");
    sb.write("agent/amber.json", r#"{ "host": { "pay": { "aprove": true } } }"#);
    let agent = sb.write("agent/main.js", "console.log(1)");
    let out = sb.amber(&["run", &agent]);
    expect(&out, 2);
    assert!(out.stderr.contains("host.pay.aprove: not a manifest key"), "{}", out.stderr);
    let other = sb.write("other.json", r#"{ "random": "captured" }"#);
    let out = sb.amber(&["run", &agent, "--manifest", &other, "--policy", "random=seeded"]);
    expect(&out, 2);
    assert!(out.stderr.contains("conflicts with the manifest"), "{}", out.stderr);
}

#[test]
fn a_readonly_manifest_refuses_writes_and_keeps_reads() {
    let sb = Sandbox::new("grants-readonly");
    sb.write("agent/amber.json", r#"{ "fs": { "readonly": true, "max_file_bytes": 1024 } }"#);
    sb.write("agent/data.txt", "hello");
    let agent = sb.write(
        "agent/main.js",
        r#"const fs = require("fs");
console.log(fs.readFileSync(__dirname + "/data.txt", "utf8"));
for (const write of [() => fs.writeFileSync("/tmp/x", "1"), () => fs.unlinkSync(__dirname + "/data.txt"), () => fs.mkdirSync("/tmp/d")]) {
  try { write(); console.log("wrote"); } catch (e) { console.log(e.code, e.message); }
}"#,
    );
    let out = sb.amber(&["run", &agent]);
    expect(&out, 0);
    let dir = std::fs::canonicalize(sb.dir.join("agent")).unwrap();
    assert_eq!(
        out.stdout,
        format!(
            "hello\nEROFS EROFS: read-only file system, open '/tmp/x'\n\
             EROFS EROFS: read-only file system, unlink '{}/data.txt'\n\
             EROFS EROFS: read-only file system, mkdir '/tmp/d'\n",
            dir.display()
        )
    );
}

/// `approve_capabilities`: the first request to each new host, the first delete and the
/// first key generation wait for a human; concurrent first uses share one approval, an approved host is not asked again, a
/// synchronous delete cannot wait and says so, a path around the gate is refused, and a
/// denial rejects the operation. Each session replays without divergence.
#[test]
fn first_uses_of_gated_capabilities_wait_for_approval() {
    let server = support::http_server::TestServer::start(|_, _| support::http_server::Reply::text(200, "ok"));
    let sb = Sandbox::new("grants-capabilities");
    sb.write(
        "agent/amber.json",
        r#"{ "approve_capabilities": ["Net", "FsDelete", "CryptoKeygen"], "net": { "allow": ["127.0.0.1", "localhost"] } }"#,
    );
    let agent = sb.write(
        "agent/main.js",
        &format!(
            r#"const fs = require("fs");
const http = require("http");
const url = "{url}";
(async () => {{
  fs.writeFileSync("/tmp/x.txt", "1");
  try {{ fs.unlinkSync("/tmp/x.txt"); }} catch (e) {{ console.log("sync", e.code); }}
  try {{ require("node:internal/net").request({{ method: "GET", url, protocol: "http:", hostname: "127.0.0.1", port: {port}, headers: [] }}, null); }}
  catch (e) {{ console.log("around", e.code); }}
  const [a, b] = await Promise.all([fetch(url), fetch(url)]);
  console.log("fetched", a.status, b.status, await a.text());
  await new Promise((done) => http.get(url, (res) => {{ console.log("http", res.statusCode); res.resume(); res.on("end", done); }}));
  await fs.promises.unlink("/tmp/x.txt");
  fs.writeFileSync("/tmp/y.txt", "1");
  fs.unlinkSync("/tmp/y.txt");
  console.log("deleted", fs.existsSync("/tmp/x.txt"), fs.existsSync("/tmp/y.txt"));
  await fetch("http://localhost:{port}/").catch((e) => console.log("denied", e.cause.code, e.cause.message));
  const key = await crypto.subtle.generateKey({{ name: "HMAC", hash: "SHA-256" }}, true, ["sign"]);
  console.log("key", key.algorithm.name);
}})();"#,
            url = server.url("/"),
            port = server.port
        ),
    );
    let out = sb.amber(&["run", &agent, "--session", "c"]);
    expect(&out, 75);
    assert_eq!(out.stdout, "sync ERR_AMBER_APPROVAL_REQUIRED\naround ERR_AMBER_APPROVAL_REQUIRED\n");
    assert!(
        out.stderr.contains("approve  Net fetch  {\"host\":\"127.0.0.1\"}  (first use of Net host 127.0.0.1)"),
        "{}",
        out.stderr
    );
    assert_eq!(server.seen().len(), 0, "nothing reached the host before the approval");
    let id = |stderr: &str| stderr.split("--approve ").nth(1).unwrap().split_whitespace().next().unwrap().to_string();

    let out = sb.amber(&["resume", "c", "--approve", &id(&out.stderr), "--principal", "ops"]);
    expect(&out, 75);
    assert_eq!(out.stdout, "fetched 200 200 ok\nhttp 200\n");
    assert!(out.stderr.contains("approve  FsDelete unlink  {\"path\":\"/tmp/x.txt\"}"), "{}", out.stderr);
    let out = sb.amber(&["resume", "c", "--approve", &id(&out.stderr), "--principal", "ops"]);
    expect(&out, 75);
    assert_eq!(out.stdout, "deleted false false\n");
    assert!(out.stderr.contains("(first use of Net host localhost)"), "{}", out.stderr);
    let deny = format!("{}=not that one", id(&out.stderr));
    let out = sb.amber(&["resume", "c", "--deny", &deny, "--principal", "bob"]);
    expect(&out, 75);
    assert_eq!(
        out.stdout,
        "denied ERR_AMBER_NOT_APPROVED the first request to localhost was not approved by bob: not that one\n"
    );
    assert!(
        out.stderr.contains("approve  CryptoKeygen subtle.generateKey  {\"algorithm\":\"HMAC\"}"),
        "{}",
        out.stderr
    );
    let out = sb.amber(&["resume", "c", "--approve", &id(&out.stderr)]);
    expect(&out, 0);
    assert_eq!(out.stdout, "key HMAC\n");
    assert_eq!(server.seen().len(), 3, "two fetches and one http.get reached the host");
    let decisions: Vec<(String, bool)> = journal(&sb, "c")
        .iter()
        .filter(|r| r["kind"] == "approval-completion")
        .map(|r| (r["function"].as_str().unwrap().to_string(), r["result"]["ok"]["approved"].as_bool().unwrap()))
        .collect();
    let names = ["Net", "FsDelete", "Net", "CryptoKeygen"];
    let expected: Vec<(String, bool)> =
        names.iter().zip([true, true, false, true]).map(|(n, a)| (n.to_string(), a)).collect();
    assert_eq!(decisions, expected);
    let out = sb.amber(&["replay", "c"]);
    expect(&out, 0);
}

/// `--fs-readonly`, `--fs-max-file-bytes` and `--fs-max-total-bytes` join the manifest's `fs`
/// (read-only if either says so, the smaller limit wins), are stored with the session, and
/// hold after a resume and in a replay.
#[test]
fn filesystem_limit_flags_join_the_manifest() {
    let sb = Sandbox::new("grants-fs-flags");
    sb.write("agent/amber.json", r#"{ "host": {}, "fs": { "max_file_bytes": 1000 } }"#);
    let agent = sb.write(
        "agent/main.js",
        r#"const fs = require("fs");
const write = (what, n) => { try { fs.writeFileSync("/tmp/" + what, "x".repeat(n)); console.log(what, "ok"); } catch (e) { console.log(what, e.code); } };
write("small", 5);
write("big", 100);
amber.input("more?").then(() => write("after", 100));"#,
    );
    let out = sb.amber(&["run", &agent, "--session", "f", "--fs-max-file-bytes", "10"]);
    expect(&out, 75);
    assert_eq!(out.stdout, "small ok\nbig EFBIG\n");
    let out = sb.amber(&["resume", "f", "--input", "go"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "after EFBIG\n");
    expect(&sb.amber(&["replay", "f"]), 0);
    // The manifest's limit stands when the flag allows more.
    let out = sb.amber(&["run", &agent, "--session", "g", "--fs-max-file-bytes", "1M"]);
    assert_eq!(out.stdout, "small ok\nbig ok\n");
    let out = sb.amber(&["run", &agent, "--session", "h", "--fs-readonly"]);
    assert_eq!(out.stdout, "small EROFS\nbig EROFS\n");
}

#[test]
fn the_entry_limit_counts_what_the_program_makes_and_is_kept_on_resume_and_replay() {
    let sb = Sandbox::new("grants-fs-entries");
    for i in 0..20 {
        sb.write(&format!("agent/data/f{i}.txt"), "lower");
    }
    let fill = r#"const fs = require("fs");
let made = 0;
try { for (;;) { fs.writeFileSync("/tmp/e" + made, ""); made++; } } catch (e) { console.log(made, e.code); }
amber.input("more?").then(() => {
  try { fs.mkdirSync("/tmp/d"); console.log("mkdir ok"); } catch (e) { console.log("mkdir", e.code); }
  fs.unlinkSync("/tmp/e0");
  fs.mkdirSync("/tmp/d");
  console.log("mkdir after unlink ok");
});"#;
    let plain = sb.write("agent/plain.js", fill);
    let reads = sb.write(
        "agent/reads.js",
        &format!(
            "for (const f of require('fs').readdirSync(__dirname + '/data')) require('fs').readFileSync(__dirname + '/data/' + f);\n{fill}"
        ),
    );
    let out = sb.amber(&["run", &plain, "--session", "p", "--fs-max-entries", "30"]);
    expect(&out, 75);
    let made: u32 = out.stdout.split(' ').next().unwrap().parse().unwrap();
    assert!(made > 0 && made < 30, "{}", out.stdout);
    assert_eq!(out.stdout, format!("{made} ENOSPC\n"));
    // Reading twenty lower files (and their directory) makes no entry.
    let out = sb.amber(&["run", &reads, "--session", "r", "--fs-max-entries", "30"]);
    expect(&out, 75);
    assert_eq!(out.stdout, format!("{made} ENOSPC\n"));
    // The limit is stored with the session: resume and replay run under it.
    let out = sb.amber(&["resume", "p", "--input", "go"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "mkdir ENOSPC\nmkdir after unlink ok\n");
    expect(&sb.amber(&["replay", "p"]), 0);
}
