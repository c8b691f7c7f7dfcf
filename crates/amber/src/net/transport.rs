//! Transports: what actually moves a request's bytes. The runtime hands each exchange to a
//! [`HttpTransport`] and reads its [`NetEvent`]s from a channel, so a slow server never
//! blocks the event loop's other work and several requests are in flight at once.
//!
//! The default is [`UreqTransport`]: HTTP/1.1 over rustls with the webpki roots, redirects,
//! connect/read timeouts, one worker thread per exchange, no proxy unless configured. Content
//! decoding (gzip, deflate, br) is done here, for the requests that ask for it (`fetch`
//! does; `node:http` hands the program the bytes as they came, as Node does). Embedders (and tests) can supply a [`HttpHandler`] instead.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::Arc;
use std::time::Duration;

/// How a request treats a redirect (fetch's `redirect` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redirect {
    /// Follow up to 20 redirects (fetch's limit).
    Follow,
    /// Return the 3xx response as it is.
    Manual,
    /// A redirect is a network error.
    Error,
}

impl Redirect {
    pub(crate) fn parse(text: &str) -> Redirect {
        match text {
            "manual" => Redirect::Manual,
            "error" => Redirect::Error,
            _ => Redirect::Follow,
        }
    }
}

/// A request as it goes on the wire.
#[derive(Clone, Debug)]
pub struct HttpRequest {
    /// The journal seq of the request's intent record: names the exchange.
    pub seq: u64,
    pub method: String,
    pub url: String,
    /// In the program's order (names as the program spelled them).
    pub headers: Vec<(String, String)>,
    pub body: Option<Arc<[u8]>>,
    pub redirect: Redirect,
    /// Decode the body by its `Content-Encoding` (the header stays as received).
    pub decode: bool,
}

/// A response's status line and headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpHead {
    pub status: u16,
    pub status_text: String,
    /// Lower-case names, in the order received.
    pub headers: Vec<(String, String)>,
    /// The URL of the final response (after redirects).
    pub url: String,
    pub redirected: bool,
}

/// A whole response, for [`HttpHandler`]s.
#[derive(Clone, Debug)]
pub struct HttpResponse {
    pub head: HttpHead,
    pub body: Vec<u8>,
}

/// Why an exchange failed: `code` as Node/undici name it (`ECONNREFUSED`, `ENOTFOUND`,
/// `ETIMEDOUT`, `UND_ERR_…`), `message` for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFailure {
    pub code: String,
    pub message: String,
}

impl NetFailure {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> NetFailure {
        NetFailure { code: code.into(), message: message.into() }
    }
}

/// What an exchange reports, in order: a head (or a failure), body bytes, then the end (or a
/// failure).
#[derive(Debug)]
pub enum NetEvent {
    Head(HttpHead),
    Data(Vec<u8>),
    End,
    Failed(NetFailure),
}

/// The sending half an exchange reports through; `cancelled` turns true when the program
/// gave up on it (the transport stops reading).
pub struct NetSender {
    seq: u64,
    tx: SyncSender<(u64, NetEvent)>,
    cancelled: Arc<AtomicBool>,
}

impl NetSender {
    pub(crate) fn new(seq: u64, tx: SyncSender<(u64, NetEvent)>, cancelled: Arc<AtomicBool>) -> NetSender {
        NetSender { seq, tx, cancelled }
    }

    /// Reports `event`; false once the runtime no longer wants this exchange.
    pub fn send(&self, event: NetEvent) -> bool {
        !self.cancelled() && self.tx.send((self.seq, event)).is_ok()
    }

    /// Whether the program gave up on the exchange.
    pub fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// Moves requests: `start` returns at once (or after a synchronous handler ran) and the
/// exchange reports through `events`.
pub trait HttpTransport: Send {
    fn start(&mut self, request: HttpRequest, events: NetSender);
}

/// A synchronous request handler (tests, custom transports): the whole response at once.
pub type HttpHandler = Box<dyn FnMut(&HttpRequest) -> Result<HttpResponse, NetFailure> + Send>;

/// [`HttpHandler`] as a transport.
pub(crate) struct HandlerTransport(pub HttpHandler);

impl HttpTransport for HandlerTransport {
    fn start(&mut self, request: HttpRequest, events: NetSender) {
        match (self.0)(&request) {
            Err(failure) => {
                events.send(NetEvent::Failed(failure));
            }
            Ok(response) => {
                // Each send stops the chain once the runtime no longer wants the exchange.
                let _ = events.send(NetEvent::Head(response.head))
                    && (response.body.is_empty() || events.send(NetEvent::Data(response.body)))
                    && events.send(NetEvent::End);
            }
        }
    }
}

/// Bytes a worker reads from the socket at a time.
const READ_CHUNK: usize = 64 * 1024;

/// How the real client reaches the network: settings of the process that moves the bytes,
/// not of the session (a resume on another machine may need another proxy, and credentials
/// in a proxy URL must not rest in the store), so nothing here is journaled or imaged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportConfig {
    /// Every request goes through this proxy (`http://`, `https://`, `socks4://`,
    /// `socks5://`, optionally with `user:password@`); None: direct. The environment's
    /// `HTTPS_PROXY` is never read implicitly.
    pub proxy: Option<String>,
    /// Giving up on a connection (DNS, TCP and TLS) after this long.
    pub connect_timeout: Duration,
    /// Giving up on a response whose head, or whose next body byte, has not come this long.
    pub idle_timeout: Duration,
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            proxy: None,
            connect_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(300),
        }
    }
}

/// The real client: ureq (HTTP/1.1, rustls + webpki roots, gzip and brotli).
pub struct UreqTransport {
    agent: ureq::Agent,
}

impl UreqTransport {
    /// The default [`TransportConfig`]: direct, connect timeout 30 s, idle 300 s.
    pub fn new() -> UreqTransport {
        UreqTransport::build(&TransportConfig::default(), None)
    }

    /// A client with `config`; Err names what is wrong with the proxy URL.
    pub fn with_config(config: &TransportConfig) -> Result<UreqTransport, String> {
        let proxy = match &config.proxy {
            Some(url) => Some(ureq::Proxy::new(url).map_err(|e| format!("proxy {}: {e}", redact_userinfo(url)))?),
            None => None,
        };
        Ok(UreqTransport::build(config, proxy))
    }

    fn build(config: &TransportConfig, proxy: Option<ureq::Proxy>) -> UreqTransport {
        let agent_config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(proxy)
            .save_redirect_history(true)
            .max_redirects_will_error(true)
            .timeout_connect(Some(config.connect_timeout))
            .timeout_recv_response(Some(config.idle_timeout))
            .timeout_recv_body(Some(config.idle_timeout))
            .user_agent("amber")
            .build();
        UreqTransport { agent: ureq::Agent::new_with_config(agent_config) }
    }
}

/// `url` with any `user:password@` replaced by `***@`, for error messages.
fn redact_userinfo(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}***{}", &url[..scheme + 3], &url[at..]),
        _ => url.to_string(),
    }
}

impl Default for UreqTransport {
    fn default() -> Self {
        UreqTransport::new()
    }
}

impl HttpTransport for UreqTransport {
    fn start(&mut self, request: HttpRequest, events: NetSender) {
        let agent = self.agent.clone();
        // Kept to report a failed spawn: the exchange fails rather than hanging the program.
        let report = NetSender { seq: events.seq, tx: events.tx.clone(), cancelled: events.cancelled.clone() };
        let spawned = std::thread::Builder::new()
            .name(format!("amber-http-{}", request.seq))
            .spawn(move || exchange(&agent, request, &events));
        if let Err(e) = spawned {
            report
                .send(NetEvent::Failed(NetFailure::new("ERR_AMBER_NET_THREAD", format!("cannot start a thread: {e}"))));
        }
    }
}

fn exchange(agent: &ureq::Agent, request: HttpRequest, events: &NetSender) {
    let response = match send(agent, &request) {
        Ok(r) => r,
        Err(failure) => {
            events.send(NetEvent::Failed(failure));
            return;
        }
    };
    let status = response.status();
    if request.redirect == Redirect::Error && status.is_redirection() {
        events.send(NetEvent::Failed(NetFailure::new("UND_ERR_REDIRECT", "unexpected redirect")));
        return;
    }
    use ureq::ResponseExt as _;
    let url = response.get_uri().to_string();
    let redirected = response.get_redirect_history().is_some_and(|h| h.len() > 1);
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
        .collect();
    let head = HttpHead {
        status: status.as_u16(),
        status_text: status.canonical_reason().unwrap_or("").to_string(),
        headers,
        url,
        redirected,
    };
    if !events.send(NetEvent::Head(head)) {
        return;
    }
    let encoding = if request.decode {
        response.headers().get("content-encoding").and_then(|v| v.to_str().ok()).map(|v| v.trim().to_ascii_lowercase())
    } else {
        None
    };
    let raw = response.into_body().into_with_config().limit(u64::MAX).reader();
    let mut reader: Box<dyn Read> = match encoding.as_deref() {
        Some("gzip" | "x-gzip") => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Some("deflate") => Box::new(flate2::read::ZlibDecoder::new(raw)),
        Some("br") => Box::new(brotli::Decompressor::new(raw, READ_CHUNK)),
        _ => Box::new(raw),
    };
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        if events.cancelled() {
            return;
        }
        match reader.read(&mut buf) {
            Ok(0) => {
                events.send(NetEvent::End);
                return;
            }
            Ok(n) => {
                if !events.send(NetEvent::Data(buf[..n].to_vec())) {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                events.send(NetEvent::Failed(io_failure(&e, "reading the response body")));
                return;
            }
        }
    }
}

fn send(agent: &ureq::Agent, request: &HttpRequest) -> Result<ureq::http::Response<ureq::Body>, NetFailure> {
    let mut builder = ureq::http::Request::builder().method(request.method.as_str()).uri(request.url.as_str());
    for (name, value) in &request.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let redirects = match request.redirect {
        Redirect::Follow => 20,
        Redirect::Manual | Redirect::Error => 0,
    };
    let bad = |e: ureq::http::Error| NetFailure::new("ERR_INVALID_ARG_VALUE", format!("invalid request: {e}"));
    let result = match &request.body {
        Some(body) => {
            let req = builder.body(body.to_vec()).map_err(bad)?;
            let req = agent.configure_request(req).max_redirects(redirects).build();
            agent.run(req)
        }
        None => {
            let req = builder.body(()).map_err(bad)?;
            let req = agent.configure_request(req).max_redirects(redirects).allow_non_standard_methods(true).build();
            agent.run(req)
        }
    };
    result.map_err(|e| failure(&e))
}

fn failure(e: &ureq::Error) -> NetFailure {
    use ureq::Error as E;
    let (code, message) = match e {
        E::Io(io) => return io_failure(io, "connecting"),
        E::Timeout(what) => ("UND_ERR_CONNECT_TIMEOUT", format!("timed out ({what})")),
        E::HostNotFound => ("ENOTFOUND", "the host name was not found".to_string()),
        E::ConnectionFailed => ("ECONNREFUSED", "the connection failed".to_string()),
        E::TooManyRedirects => ("UND_ERR_REDIRECT", "redirect count exceeded".to_string()),
        E::RedirectFailed => ("UND_ERR_REDIRECT", "the redirect failed".to_string()),
        E::BadUri(uri) => ("ERR_INVALID_URL", format!("invalid URL {uri}")),
        E::Tls(what) => ("ERR_TLS", what.to_string()),
        E::Rustls(tls) => ("ERR_TLS", tls.to_string()),
        E::LargeResponseHeader(..) => ("UND_ERR_HEADERS_OVERFLOW", e.to_string()),
        E::BodyStalled => ("UND_ERR_BODY_TIMEOUT", e.to_string()),
        other => ("UND_ERR_SOCKET", other.to_string()),
    };
    NetFailure::new(code, message)
}

fn io_failure(e: &std::io::Error, doing: &str) -> NetFailure {
    use std::io::ErrorKind as K;
    let code = match e.kind() {
        K::ConnectionRefused => "ECONNREFUSED",
        K::ConnectionReset => "ECONNRESET",
        K::ConnectionAborted => "ECONNABORTED",
        K::TimedOut | K::WouldBlock => "ETIMEDOUT",
        K::UnexpectedEof => "UND_ERR_SOCKET",
        K::NotFound => "ENOTFOUND",
        K::InvalidData => "Z_DATA_ERROR",
        _ => "UND_ERR_SOCKET",
    };
    NetFailure::new(code, format!("{doing}: {e}"))
}
