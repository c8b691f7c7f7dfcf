//! `amber serve` (the server of crates/server, docs/server.md) and `amber deploy DIR --server
//! URL` (uploads a program folder as a tar bundle and prints its program id).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use amber::{CallResult, PendingOp};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::host::{execute_all, HostArgs, HostCommands};
use crate::store::StoreLocation;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on. Without --token-file only a loopback address is allowed.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8470")]
    listen: SocketAddr,
    /// Threads running sessions.
    #[arg(long, value_name = "N", default_value_t = 4)]
    workers: usize,
    /// Bearer tokens (JSON: {"tokens": [{"token", "role": admin|tenant|worker, "tenant"}]}).
    #[arg(long = "token-file", value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Sessions of one tenant running at once.
    #[arg(long = "tenant-concurrency", value_name = "N", default_value_t = 64)]
    tenant_concurrency: usize,
    /// Runnable sessions waiting for a worker before new sessions are refused (429).
    #[arg(long = "max-queued", value_name = "N", default_value_t = 100_000)]
    max_queued: usize,
    /// Largest request body other than a program bundle (suffixes K, M, G).
    #[arg(long = "max-body", value_name = "BYTES", default_value = "1M", value_parser = crate::run::parse_bytes)]
    max_body: u64,
    /// Largest program bundle (suffixes K, M, G).
    #[arg(long = "max-bundle", value_name = "BYTES", default_value = "256M", value_parser = crate::run::parse_bytes)]
    max_bundle: u64,
    /// Instruction budget of a session that sets none.
    #[arg(long, value_name = "N")]
    max_instructions: Option<u64>,
    /// Heap budget of a session that sets none (suffixes K, M, G; 0 = unlimited).
    #[arg(long, value_name = "BYTES", default_value = "4G", value_parser = crate::run::parse_bytes)]
    max_heap: u64,
    /// Instructions a slice may run without waiting on an operation; a session that runs
    /// longer fails with the limit error (so no session holds a worker thread forever).
    #[arg(long = "slice-instructions", value_name = "N", default_value_t = 2_000_000_000)]
    slice_instructions: u64,
    /// A PostgreSQL database (postgres://USER[:PASSWORD]@HOST[:PORT]/DB, or `host=… user=…`)
    /// to keep everything in, shared by every server given the same one; --store is then
    /// only a local cache. Default: $AMBER_DATABASE_URL if set (keeps a password out of the
    /// process list), else the SQLite store in --store.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// With --database: how long a slice's lease lasts without a commit (each commit extends
    /// it); a killed server's sessions move to the other servers this long after its last
    /// commit.
    #[arg(long = "lease-ms", value_name = "MS", default_value_t = amber_server::DEFAULT_LEASE_MS)]
    lease_ms: u64,
    /// Send every session's spans to this OTLP/HTTP collector as its slices commit them
    /// (docs/tracing.md; `/v1/traces` is appended to a base URL).
    #[arg(long, value_name = "URL")]
    otlp: Option<String>,
    #[command(flatten)]
    host: HostArgs,
}

/// The `--host` commands, for the server's slices (and `amber run --database`'s).
pub(crate) struct ServeHosts(pub(crate) HostCommands);

impl amber_server::HostCommands for ServeHosts {
    fn serves(&self, name: &str) -> bool {
        self.0.serves(name)
    }

    fn execute(&self, ops: &[PendingOp], session: &str, run_id: &str) -> Vec<(CallResult, u64)> {
        let served: Vec<(PendingOp, String)> =
            ops.iter().filter_map(|op| self.0.command_for(op).map(|cmd| (op.clone(), cmd.to_string()))).collect();
        // The server retries through its operation table (claims, backoffs), not here.
        execute_all(&served, &self.0, session, run_id).into_iter().map(|s| (s.result, s.duration_ms)).collect()
    }
}

pub fn serve(args: ServeArgs, location: &StoreLocation) -> CliResult<u8> {
    {
        use tracing_subscriber::layer::SubscriberExt as _;
        use tracing_subscriber::util::SubscriberInitExt as _;
        use tracing_subscriber::Layer as _;
        // Logs at info and up on stderr; the server's spans to --otlp's collector, if any.
        let logs = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_target(false)
            .with_filter(tracing_subscriber::filter::LevelFilter::INFO);
        let spans = amber_server::otlp_layer()
            .with_filter(tracing_subscriber::filter::filter_fn(|m| m.is_span() && m.target().starts_with("amber")));
        let _ = tracing_subscriber::registry().with(logs).with(spans).try_init();
    }
    let hosts = HostCommands::parse(&args.host)?;
    let tokens = match &args.token_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("cannot read --token-file {}: {e}", path.display())))?;
            Some(amber_server::Tokens::parse(&text).map_err(Failure::usage)?)
        }
        None => None,
    };
    if args.workers == 0 {
        return Err(Failure::usage("--workers must be at least 1"));
    }
    let mut config = amber_server::ServerConfig::new(location.dir().to_path_buf());
    config.listen = args.listen;
    config.workers = args.workers;
    config.tokens = tokens;
    config.tenant_concurrency = args.tenant_concurrency.max(1);
    config.max_queued = args.max_queued.max(1);
    config.max_body = usize::try_from(args.max_body).unwrap_or(usize::MAX);
    config.max_bundle = usize::try_from(args.max_bundle).unwrap_or(usize::MAX);
    config.max_instructions = args.max_instructions;
    config.max_heap = (args.max_heap != 0).then_some(args.max_heap);
    config.slice_instructions = args.slice_instructions.max(1);
    config.image_key = crate::image_key::key();
    config.transport = crate::transport::config();
    config.lease_ms = args.lease_ms.max(1);
    config.database = args.database.or_else(|| std::env::var("AMBER_DATABASE_URL").ok().filter(|u| !u.is_empty()));
    config.otlp = args.otlp;
    if !hosts.is_empty() {
        config.hosts = Some(Arc::new(ServeHosts(hosts)));
    }
    config.on_listening = Some(Box::new(|addr| errln!("amber: serving on http://{addr}")));
    amber_server::serve(config).map_err(Failure::usage)?;
    Ok(crate::exit::OK)
}

#[derive(Args)]
pub struct DeployArgs {
    /// The program folder (its files become the program's bundle; what the overlay hides by
    /// default is left out: .git, .amber, .ssh, .env*, *.pem, *.key, ...).
    dir: PathBuf,
    /// The server's base URL, e.g. http://127.0.0.1:8470.
    #[arg(long, value_name = "URL")]
    server: String,
    /// Bearer token (default: $AMBER_TOKEN).
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
}

/// The file a program's manifest is at, at its bundle's root (amber_server's bundle rule).
pub(crate) const MANIFEST_FILE: &str = "amber.json";

/// The folder's files as a program's bundle: paths relative to it, sorted (the same folder
/// gives the same bundle and the same program id). Entries the overlay hides by default
/// (`amber::lower::is_hidden_name`: version control, session stores, `.ssh`, `.env*`, keys)
/// and symlinks out of the folder are left out, so a deployed program never carries them into the store.
pub(crate) fn program_files(dir: &Path) -> CliResult<Vec<(String, Vec<u8>)>> {
    let dir = &std::fs::canonicalize(dir).map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
    let mut paths = Vec::new();
    collect(dir, dir, &mut paths)?;
    paths.sort();
    paths
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dir.join(&rel)).map_err(|e| Failure::usage(format!("{}: {e}", rel.display())))?;
            Ok((rel.to_string_lossy().into_owned(), bytes))
        })
        .collect()
}

/// The folder as a tar archive of [`program_files`].
fn bundle(dir: &Path) -> CliResult<Vec<u8>> {
    let mut builder = tar::Builder::new(Vec::new());
    for (rel, bytes) in program_files(dir)? {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_cksum();
        builder.append_data(&mut header, &rel, bytes.as_slice()).map_err(|e| Failure::usage(format!("{rel}: {e}")))?;
    }
    builder.into_inner().map_err(|e| Failure::usage(format!("building the bundle: {e}")))
}

/// True if the symlink at `path` resolves inside `root` (canonical): one pointing out of the
/// folder (`/proc/self/environ`, a key in the home directory) is left out, as the overlay
/// refuses to follow it.
fn inside(root: &Path, path: &Path) -> bool {
    std::fs::canonicalize(path).is_ok_and(|target| target.starts_with(root))
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> CliResult<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
        if amber::lower::is_hidden_name(&entry.file_name().to_string_lossy()) {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        if kind.is_dir() {
            collect(root, &path, out)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file() && inside(root, &path)) {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
    Ok(())
}

pub fn deploy(args: DeployArgs) -> CliResult<u8> {
    if !args.dir.is_dir() {
        return Err(Failure::usage(format!("{}: not a directory", args.dir.display())));
    }
    let body = bundle(&args.dir)?;
    let token = args.token.or_else(|| std::env::var("AMBER_TOKEN").ok().filter(|t| !t.is_empty()));
    let url = format!("{}/v1/programs", args.server.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut request = agent.post(&url).header("Content-Type", "application/x-tar");
    if let Some(token) = &token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut response = request.send(&body[..]).map_err(|e| Failure::usage(format!("{url}: {e}")))?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().map_err(|e| Failure::usage(format!("{url}: {e}")))?;
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    if status != 201 && status != 200 {
        let message = json["error"]["message"].as_str().unwrap_or(&text);
        return Err(Failure::usage(format!("{url}: {status}: {message}")));
    }
    let id = json["id"].as_str().ok_or_else(|| Failure::usage(format!("{url}: the answer names no program id")))?;
    outln!("{id}");
    Ok(crate::exit::OK)
}
