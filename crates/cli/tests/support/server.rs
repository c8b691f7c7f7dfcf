//! `amber serve` as a real process on a loopback port, and a small JSON client for its API.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::EXE;

/// A free loopback port (bound and released; the server binds it right after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running `amber serve`.
pub struct Server {
    pub port: u16,
    pub store: PathBuf,
    pub extra: Vec<String>,
    child: Option<Child>,
    pub log: PathBuf,
}

impl Server {
    /// Starts `amber serve --listen 127.0.0.1:PORT --store STORE EXTRA…` and waits until it
    /// listens.
    pub fn start(store: &Path, port: u16, extra: &[&str]) -> Server {
        let mut server = Server {
            port,
            store: store.to_path_buf(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
            child: None,
            log: store.with_extension("serve.log"),
        };
        server.spawn();
        server
    }

    fn spawn(&mut self) {
        let listen = format!("127.0.0.1:{}", self.port);
        let mut cmd = Command::new(EXE);
        cmd.args(["serve", "--listen", &listen, "--store"]).arg(&self.store).args(&self.extra);
        cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let stderr = child.stderr.take().unwrap();
        let log = self.log.clone();
        let (ready, wait) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
            let mut ready = Some(ready);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(file, "{line}");
                if line.contains("serving on") {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(());
                    }
                }
            }
        });
        wait.recv_timeout(Duration::from_secs(60)).expect("amber serve did not start listening");
        self.child = Some(child);
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// SIGKILL, then start again on the same port and store.
    pub fn kill_and_restart(&mut self) {
        self.kill();
        self.spawn();
    }

    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM and wait for the exit status.
    pub fn terminate(&mut self) -> Option<i32> {
        let child = self.child.as_mut()?;
        let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
        let status = child.wait().ok()?;
        self.child = None;
        status.code()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A response: status and JSON body (Null if the body is not JSON).
pub struct Reply {
    pub status: u16,
    pub json: Value,
    pub text: String,
}

/// A JSON client for the API. Connection errors are retried for a while (the server may be
/// restarting).
pub struct Api {
    pub base: String,
    pub token: Option<String>,
    agent: ureq::Agent,
}

impl Api {
    pub fn new(base: &str) -> Api {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        Api { base: base.to_string(), token: None, agent }
    }

    pub fn with_token(mut self, token: &str) -> Api {
        self.token = Some(token.to_string());
        self
    }

    fn send(&self, method: &str, path: &str, body: Option<&[u8]>, content_type: &str) -> Reply {
        let url = format!("{}{path}", self.base);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let result = match body {
                Some(bytes) => {
                    let mut req = self.agent.post(&url).header("Content-Type", content_type);
                    if let Some(t) = &self.token {
                        req = req.header("Authorization", &format!("Bearer {t}"));
                    }
                    req.send(bytes)
                }
                None => {
                    let mut req = if method == "GET" { self.agent.get(&url) } else { panic!("{method}") };
                    if let Some(t) = &self.token {
                        req = req.header("Authorization", &format!("Bearer {t}"));
                    }
                    req.call()
                }
            };
            match result {
                Ok(mut response) => {
                    let status = response.status().as_u16();
                    let text = response.body_mut().read_to_string().unwrap_or_default();
                    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
                    return Reply { status, json, text };
                }
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("{method} {url}: {e}"),
            }
        }
    }

    pub fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None, "")
    }

    /// GET of a binary body (an export): status and bytes.
    pub fn get_bytes(&self, path: &str) -> (u16, Vec<u8>) {
        let mut req = self.agent.get(&format!("{}{path}", self.base));
        if let Some(t) = &self.token {
            req = req.header("Authorization", &format!("Bearer {t}"));
        }
        let mut response = req.call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().with_config().limit(1 << 30).read_to_vec().unwrap())
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.send("POST", path, Some(body.to_string().as_bytes()), "application/json")
    }

    pub fn post_raw(&self, path: &str, body: &[u8], content_type: &str) -> Reply {
        self.send("POST", path, Some(body), content_type)
    }
}

/// A tar bundle of `files` (path, text), as `amber deploy` sends one.
pub fn tar_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, text) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, path, text.as_bytes()).unwrap();
    }
    builder.into_inner().unwrap()
}

/// Polls session `id` until its document satisfies `done` (30 s at most).
pub fn wait_until(api: &Api, id: &str, done: &dyn Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let doc = api.get(&format!("/v1/sessions/{id}")).json;
        if done(&doc) {
            return doc;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("session {id} never got there: {}", api.get(&format!("/v1/sessions/{id}")).text);
}

/// A fresh database on the test PostgreSQL server (`AMBER_TEST_POSTGRES`, started by
/// `.ci/postgres`); None (skipped, saying so) without one outside CI.
pub fn fresh_database(label: &str) -> Option<String> {
    let base = match std::env::var("AMBER_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var_os("CI").is_some() => {
            panic!("AMBER_TEST_POSTGRES is not set: CI must start PostgreSQL (.ci/postgres start)")
        }
        _ => {
            eprintln!("skipped: set AMBER_TEST_POSTGRES to a PostgreSQL URL (eval \"$(.ci/postgres start)\")");
            return None;
        }
    };
    let name = format!("amber_serve_{}_{label}", std::process::id());
    for sql in [format!("DROP DATABASE IF EXISTS {name}"), format!("CREATE DATABASE {name}")] {
        let out = Command::new("psql").args([base.as_str(), "-qc", sql.as_str()]).output().expect("psql runs");
        assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let (prefix, _) = base.rsplit_once('/').unwrap();
    Some(format!("{prefix}/{name}"))
}
