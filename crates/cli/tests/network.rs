//! The network as captured host operations (issue 19), over real processes and a real HTTP
//! server on the loopback interface that counts what reaches it: a committed request is never
//! sent again (resume, replay), a SIGKILL at any durability point re-sends at most the one
//! request in flight and with the same `Idempotency-Key`, a streamed body is journaled chunk
//! by chunk and replayed in the same chunks, a hung server is given up on by a timer on the
//! logical clock, a large body goes to the store as blobs, and a host not allowed is refused
//! before anything is journaled.

#![allow(clippy::unwrap_used)]

mod support;

use std::time::Duration;

use serde_json::json;
use support::http_server::{Reply, TestServer};
use support::{expect, Sandbox};

/// `get(url)` and `post(url, json)` as programs write them with node:http.
const HELPERS: &str = r#"
const http = require('http');
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let s = ''; res.setEncoding('utf8');
      res.on('data', (c) => s += c);
      res.on('end', () => resolve({ status: res.statusCode, body: s }));
    }).on('error', reject);
  });
}
function post(url, value) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(value);
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let s = ''; res.setEncoding('utf8');
      res.on('data', (c) => s += c);
      res.on('end', () => resolve({ status: res.statusCode, body: s }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
"#;

fn echo_server() -> TestServer {
    TestServer::start(|seen, _| match seen.path.as_str() {
        p if p.starts_with("/echo") => Reply::json(
            200,
            &json!({ "method": seen.method, "path": seen.path, "body": String::from_utf8_lossy(&seen.body) }),
        ),
        "/missing" => Reply::text(404, "no such thing"),
        _ => Reply::text(500, "unexpected"),
    })
}

fn allow(server: &TestServer) -> String {
    format!("127.0.0.1:{}", server.port)
}

/// A model call, a human in between, a second call: each request reaches the server once,
/// across the suspension and a resume in another process, and `amber replay` sends nothing.
#[test]
fn requests_are_sent_once_across_suspend_resume_and_replay() {
    let server = echo_server();
    let sb = Sandbox::new("net-once");
    let program = format!(
        "{HELPERS}
(async () => {{
  const a = await get('{}');
  console.log(a.status, a.body);
  const answer = await amber.input('approve?');
  const b = await post('{}', {{ answer }});
  console.log(b.status, b.body);
  const c = await get('{}');
  console.log(c.status, c.body);
}})();",
        server.url("/echo/one?x=1"),
        server.url("/echo/two"),
        server.url("/missing"),
    );
    sb.write("agent.js", &program);
    let allowed = allow(&server);
    let out = sb.amber(&["run", "agent.js", "--session", "s", "--allow-net", &allowed]);
    expect(&out, 75);
    assert_eq!(out.stdout, "200 {\"body\":\"\",\"method\":\"GET\",\"path\":\"/echo/one?x=1\"}\n");
    assert_eq!(server.count("/echo/one"), 1);

    let out = sb.amber(&["resume", "s", "--input", "yes"]);
    expect(&out, 0);
    assert_eq!(
        out.stdout,
        "200 {\"body\":\"{\\\"answer\\\":\\\"yes\\\"}\",\"method\":\"POST\",\"path\":\"/echo/two\"}\n404 no such thing\n"
    );
    let seen = server.seen();
    assert_eq!(seen.len(), 3, "{seen:#?}");

    // Every request carried a key of its own, of the form session:run:seq.
    let keys: Vec<&str> = seen.iter().map(|s| s.header("idempotency-key").unwrap()).collect();
    for key in &keys {
        assert!(key.starts_with("s:") && key.split(':').count() == 3, "{key}");
    }
    assert!(keys[0] != keys[1] && keys[1] != keys[2]);

    let out = sb.amber(&["replay", "s", "--print"]);
    expect(&out, 0);
    assert!(out.stdout.contains("404 no such thing"), "{}", out.stdout);
    assert_eq!(server.seen().len(), 3, "replay sent a request");
}

/// Deny by default: the request rejects with ERR_AMBER_NET_DENIED naming the host, nothing is
/// journaled, the server sees nothing; another port of an allowed host is denied too.
#[test]
fn a_host_not_allowed_is_refused_before_anything_is_journaled() {
    let server = echo_server();
    let sb = Sandbox::new("net-deny");
    let program = format!(
        "{HELPERS}
get('{}').then(() => console.log('sent'), (e) => console.log(e.code, e.host));",
        server.url("/echo")
    );
    sb.write("agent.js", &program);
    let out = sb.amber(&["run", "agent.js", "--session", "d"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "ERR_AMBER_NET_DENIED 127.0.0.1\n");
    let out = sb.amber(&["run", "agent.js", "--session", "e", "--allow-net", "127.0.0.1:1"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "ERR_AMBER_NET_DENIED 127.0.0.1\n");
    assert_eq!(server.seen().len(), 0);
    let out = sb.amber(&["inspect", "d"]);
    assert!(!out.stdout.contains("http-intent"), "{}", out.stdout);

    // A malformed entry is a usage error.
    let out = sb.amber(&["run", "agent.js", "--allow-net", "http://x.com"]);
    expect(&out, 2);
    assert!(out.stderr.contains("--allow-net"), "{}", out.stderr);
}

/// A body streamed in timed chunks (server-sent events) is read as it arrives, each chunk a
/// journal record; replay yields the same chunks in the same order.
#[test]
fn a_streamed_body_is_journaled_chunk_by_chunk_and_replayed_the_same() {
    let server = TestServer::start(|_, _| {
        let chunks = (0..5)
            .map(|i| (Duration::from_millis(60), format!("data: {{\"token\":\"t{i}\"}}\n\n").into_bytes()))
            .collect();
        Reply::Chunked(200, vec![("content-type".into(), "text/event-stream".into())], chunks)
    });
    let sb = Sandbox::new("net-sse");
    let program = format!(
        "const http = require('http');
http.get('{}', (res) => {{
  res.setEncoding('utf8');
  let n = 0;
  res.on('data', (c) => {{ n++; process.stdout.write('[' + c.trim() + ']'); }});
  res.on('end', () => console.log(' chunks>=' + (n >= 2)));
}});",
        server.url("/events")
    );
    sb.write("sse.js", &program);
    let out = sb.amber(&["run", "sse.js", "--session", "sse", "--allow-net", &allow(&server)]);
    expect(&out, 0);
    let tokens: String = (0..5).map(|i| format!("data: {{\"token\":\"t{i}\"}}")).collect::<Vec<_>>().join("");
    assert_eq!(out.stdout.replace("][", "").replace("\n\n", ""), format!("[{tokens}] chunks>=true\n"));
    let reads = sb.amber(&["inspect", "sse"]).stdout.matches("fetch.read ->").count();
    assert!(reads >= 3, "the body came in {reads} reads");
    let replayed = sb.amber(&["replay", "sse", "--print"]);
    expect(&replayed, 0);
    assert_eq!(replayed.stdout, out.stdout);
    assert_eq!(server.count("/events"), 1);
}

/// A server that never answers: `req.setTimeout` fires on the logical clock (which follows the
/// wall clock while the program waits on the network), the program gives up, and the replay
/// gives up at the same point without a socket.
#[test]
fn a_hung_server_is_given_up_on_by_a_timer_and_replay_agrees() {
    let server = TestServer::start(|_, _| Reply::Hang);
    let sb = Sandbox::new("net-hang");
    let program = format!(
        "const http = require('http');
const started = Date.now();
const req = http.get('{}', () => console.log('answered'));
req.setTimeout(300, () => {{ console.log('timed out after >= 300 ms:', Date.now() - started >= 300); req.destroy(new Error('gave up')); }});
req.on('error', (e) => console.log('error', e.message));",
        server.url("/hang")
    );
    sb.write("hang.js", &program);
    let out = sb.amber(&["run", "hang.js", "--session", "h", "--allow-net", &allow(&server)]);
    expect(&out, 0);
    assert_eq!(out.stdout, "timed out after >= 300 ms: true\nerror gave up\n");
    let replayed = sb.amber(&["replay", "h", "--print"]);
    expect(&replayed, 0);
    assert_eq!(replayed.stdout, out.stdout);
    assert_eq!(server.count("/hang"), 1);
}

/// A 20 MB body: read whole, stored as blobs (the journal stays small), replayed from the store.
#[test]
fn a_large_body_goes_to_the_store_as_blobs() {
    let body: Vec<u8> = (0..20_000_000u32).map(|i| (i % 251) as u8).collect();
    let expected_sum: u64 = body.iter().map(|&b| u64::from(b)).sum();
    let server = TestServer::start(move |_, _| Reply::Full(200, vec![], body.clone()));
    let sb = Sandbox::new("net-large");
    let program = format!(
        "const http = require('http');
http.get('{}', (res) => {{
  let n = 0, sum = 0;
  res.on('data', (c) => {{ n += c.length; for (const b of c) sum += b; }});
  res.on('end', () => console.log(n, sum));
}});",
        server.url("/big")
    );
    sb.write("big.js", &program);
    let out = sb.amber(&["run", "big.js", "--session", "big", "--allow-net", &allow(&server)]);
    expect(&out, 0);
    assert_eq!(out.stdout, format!("20000000 {expected_sum}\n"));
    let db = sb.db();
    let blobs: i64 = db.query_row("SELECT COUNT(*) FROM blobs", [], |r| r.get(0)).unwrap();
    let journal_bytes: i64 = db.query_row("SELECT SUM(LENGTH(record)) FROM journal", [], |r| r.get(0)).unwrap();
    assert!(blobs >= 20, "{blobs} blobs");
    assert!(journal_bytes < 200_000, "the journal holds {journal_bytes} bytes");
    let replayed = sb.amber(&["replay", "big", "--print"]);
    expect(&replayed, 0);
    assert_eq!(replayed.stdout, out.stdout);
    assert_eq!(server.count("/big"), 1);
}

/// SIGKILL at every durability point of a run that makes two requests: after each kill the
/// session resumes in a fresh process and prints what an uninterrupted run prints; a request
/// is sent again only when its response had not been committed, and then with the same
/// `Idempotency-Key`.
#[test]
fn a_kill_at_any_point_resends_at_most_the_request_in_flight_with_its_key() {
    let server = echo_server();
    let program = format!(
        "{HELPERS}
(async () => {{
  const a = await get('{}');
  const b = await post('{}', {{ after: a.status }});
  console.log(a.status, b.body);
}})();",
        server.url("/echo/a"),
        server.url("/echo/b"),
    );
    let clean = "200 {\"body\":\"{\\\"after\\\":200}\",\"method\":\"POST\",\"path\":\"/echo/b\"}\n";
    let allowed = allow(&server);
    let mut point = 1;
    let mut resent = 0;
    loop {
        let sb = Sandbox::new("net-kill");
        sb.write("agent.js", &program);
        let before = server.seen().len();
        let kill_at = point.to_string();
        let out = sb.amber_env(
            &["run", "agent.js", "--session", "k", "--allow-net", &allowed],
            &[("AMBER_FAULT_KILL_AT", &kill_at)],
        );
        if out.code == 0 {
            assert_eq!(out.stdout, clean);
            eprintln!(
                "killed the run at each of its {} durability points; {resent} requests were sent again",
                point - 1
            );
            assert!(resent >= 2, "no kill fell between a request's intent and its completion");
            break;
        }
        assert_eq!(out.code, -1, "exit {}:\n{}\n{}", out.code, out.stdout, out.stderr);
        let mut printed = out.stdout.clone();
        if sb.amber(&["sessions"]).stdout.contains('k') {
            let resumed = sb.amber(&["resume", "k"]);
            let finished = resumed.code == 0 || (resumed.code == 2 && resumed.stderr.contains("has completed"));
            assert!(finished, "resume after a kill at {point}: exit {}\n{}", resumed.code, resumed.stderr);
            printed.push_str(&resumed.stdout);
        } else {
            // Killed before the session existed: nothing was sent.
            assert_eq!(server.seen().len(), before);
            point += 1;
            continue;
        }
        // Output is at least once: a kill after a line was printed and before the run's end
        // was committed prints it again on resume.
        assert!(printed.contains(clean), "killed at point {point}: {printed}");
        let seen = &server.seen()[before..];
        for path in ["/echo/a", "/echo/b"] {
            let sent: Vec<_> = seen.iter().filter(|s| s.path == path).collect();
            assert!(!sent.is_empty() && sent.len() <= 2, "{path} sent {} times (kill at {point})", sent.len());
            resent += sent.len() - 1;
            assert!(
                sent.iter().all(|s| s.header("idempotency-key") == sent[0].header("idempotency-key")),
                "a re-sent {path} changed its key"
            );
        }
        point += 1;
        assert!(point < 40, "the run never finished");
    }
}

/// A forward proxy on the loopback interface speaking HTTP CONNECT (as ureq uses for every
/// target): it records each request head and tunnels the connection to `target_port`,
/// whatever host the request named, so a target need not resolve here.
fn connect_proxy(target_port: u16) -> (u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{BufRead, BufReader, Write};
    use std::net::{TcpListener, TcpStream};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let heads = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = heads.clone();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(client.try_clone().unwrap());
                let mut head = String::new();
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    head.push_str(&line);
                }
                seen.lock().unwrap().push(head);
                let Ok(upstream) = TcpStream::connect(("127.0.0.1", target_port)) else { return };
                let mut client = client;
                client.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n").unwrap();
                let (mut up_read, mut up_write) = (upstream.try_clone().unwrap(), upstream);
                let mut client_write = client.try_clone().unwrap();
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut reader, &mut up_write);
                });
                let _ = std::io::copy(&mut up_read, &mut client_write);
            });
        }
    });
    (port, heads)
}

/// `--proxy`: requests go through the proxy (the target host need not resolve here), with
/// the proxy's credentials; the policy still judges the target; the credentials rest in no
/// store file; a resume without `--proxy` goes direct (the flag is the process's, not the
/// session's), and replay needs none. `--net-idle-timeout` gives up on a hung server.
#[test]
fn a_proxy_and_timeouts_are_the_process_settings() {
    let target = echo_server();
    let (proxy_port, heads) = connect_proxy(target.port);
    let sb = Sandbox::new("net-proxy");
    sb.write(
        "agent.js",
        "(async () => {
  const r = await fetch('http://agent.invalid/echo/tools?q=1');
  console.log(r.status, JSON.stringify(await r.json()));
  await amber.input('next?');
  try { await fetch('http://agent.invalid/echo/again'); } catch (e) { console.log('direct:', e.message); }
})();",
    );
    let proxy_url = format!("http://user:pr0xy-pass@127.0.0.1:{proxy_port}");
    let out = sb.amber(&["run", "agent.js", "--session", "p", "--allow-net", "agent.invalid", "--proxy", &proxy_url]);
    expect(&out, 75);
    assert_eq!(out.stdout, "200 {\"body\":\"\",\"method\":\"GET\",\"path\":\"/echo/tools?q=1\"}\n");
    let seen = heads.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:#?}");
    assert!(seen[0].starts_with("CONNECT agent.invalid:80 "), "{}", seen[0]);
    // Basic base64("user:pr0xy-pass").
    assert!(seen[0].to_ascii_lowercase().contains("proxy-authorization: basic dxnlcjpwcjb4es1wyxnz"), "{}", seen[0]);
    assert_eq!(target.count("/echo/tools"), 1);
    // The session's network policy shows in inspect; the proxy (a process setting) does not.
    let inspect = sb.amber(&["inspect", "p"]);
    assert!(inspect.stdout.contains("\nnetwork       agent.invalid\n"), "{}", inspect.stdout);
    assert!(!inspect.stdout.contains("pr0xy"), "{}", inspect.stdout);
    for file in walk(&sb.store()) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!bytes.windows(10).any(|w| w == b"pr0xy-pass"), "{} holds the proxy password", file.display());
    }

    let resumed = sb.amber(&["resume", "p", "--input", "go", "--net-connect-timeout", "2000"]);
    expect(&resumed, 0);
    assert_eq!(resumed.stdout, "direct: fetch failed\n");
    assert_eq!(heads.lock().unwrap().len(), 1, "the resume went through the proxy without --proxy");
    let replayed = sb.amber(&["replay", "p", "--print"]);
    expect(&replayed, 0);
    assert_eq!(replayed.stdout, format!("{}{}", out.stdout, resumed.stdout));

    let hung = TestServer::start(|_, _| Reply::Hang);
    let program =
        format!("fetch('{}').then(() => console.log('answered'), (e) => console.log(e.message));", hung.url("/hang"));
    sb.write("hang.js", &program);
    let started = std::time::Instant::now();
    let out = sb.amber(&["run", "hang.js", "--allow-net", &allow(&hung), "--net-idle-timeout", "300"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "fetch failed\n");
    assert!(started.elapsed() < Duration::from_secs(20), "the idle timeout did not fire");

    for bad in [&["--proxy", "not a url"][..], &["--net-idle-timeout", "0"], &["--net-connect-timeout", "x"]] {
        let mut args = vec!["run", "hang.js"];
        args.extend_from_slice(bad);
        let out = sb.amber(&args);
        expect(&out, 2);
    }
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
