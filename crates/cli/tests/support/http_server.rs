//! A small HTTP/1.1 server on the loopback interface for the network tests: each test gives
//! it a route function, and it records every request it saw (method, path, headers, body),
//! so a test can count what reached the server. One connection a request (`Connection:
//! close`), a thread per connection; replies can be whole, streamed in timed chunks
//! (server-sent events), or never come (a hung server).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What the route answers.
pub enum Reply {
    /// Status, headers, body (Content-Length is added).
    Full(u16, Vec<(String, String)>, Vec<u8>),
    /// Status, headers, then chunks (chunked encoding), each after its delay.
    Chunked(u16, Vec<(String, String)>, Vec<(Duration, Vec<u8>)>),
    /// Never answer (the connection stays open until the process ends).
    Hang,
}

impl Reply {
    pub fn text(status: u16, body: &str) -> Reply {
        Reply::Full(status, vec![("content-type".into(), "text/plain".into())], body.as_bytes().to_vec())
    }

    pub fn json(status: u16, body: &serde_json::Value) -> Reply {
        Reply::Full(status, vec![("content-type".into(), "application/json".into())], body.to_string().into_bytes())
    }
}

type Route = dyn Fn(&Seen, usize) -> Reply + Send + Sync;

/// The running server; it stops with the test process.
pub struct TestServer {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl TestServer {
    /// Starts a server answering with `route(request, how many requests came before it)`.
    pub fn start(route: impl Fn(&Seen, usize) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let route: Arc<Route> = Arc::new(route);
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, route) = (log.clone(), route.clone());
                std::thread::spawn(move || serve(stream, &log, &*route));
            }
        });
        TestServer { port, seen }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Every request so far, in arrival order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Forgets the requests seen so far.
    pub fn clear(&self) {
        self.seen.lock().unwrap().clear();
    }

    /// How many requests for `path` (without the query) arrived.
    pub fn count(&self, path: &str) -> usize {
        self.seen().iter().filter(|s| s.path.split('?').next() == Some(path)).count()
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Seen>>, route: &Route) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let seen = Seen { method, path, headers, body };
    let before = {
        let mut log = log.lock().unwrap();
        log.push(seen.clone());
        log.len() - 1
    };
    let mut out = stream;
    match route(&seen, before) {
        Reply::Hang => std::thread::sleep(Duration::from_secs(3600)),
        Reply::Full(status, headers, body) => {
            let mut head = format!("HTTP/1.1 {status} {}\r\nconnection: close\r\n", reason(status));
            for (n, v) in headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
            let _ = out.write_all(head.as_bytes()).and_then(|()| out.write_all(&body));
        }
        Reply::Chunked(status, headers, chunks) => {
            let mut head =
                format!("HTTP/1.1 {status} {}\r\nconnection: close\r\ntransfer-encoding: chunked\r\n", reason(status));
            for (n, v) in headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str("\r\n");
            if out.write_all(head.as_bytes()).and_then(|()| out.flush()).is_err() {
                return;
            }
            for (delay, chunk) in chunks {
                std::thread::sleep(delay);
                let framed = [format!("{:x}\r\n", chunk.len()).into_bytes(), chunk, b"\r\n".to_vec()].concat();
                if out.write_all(&framed).and_then(|()| out.flush()).is_err() {
                    return;
                }
            }
            let _ = out.write_all(b"0\r\n\r\n");
        }
    }
    let _ = out.flush();
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        302 => "Found",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Status",
    }
}
