//! How this process reaches the network: `--proxy URL`, `--net-connect-timeout MS`,
//! `--net-idle-timeout MS` (global flags of every command that runs a program). They are the
//! process's settings, not the session's — a resume on another machine may need another
//! proxy, and a proxy URL's credentials must never rest in the store — so they are given to
//! each `run`, `resume` and `serve` again and appear in no store file. `replay` sends nothing
//! and ignores them.

use std::sync::OnceLock;
use std::time::Duration;

use amber::net::{TransportConfig, UreqTransport};
use amber::RuntimeBuilder;
use clap::Args;

use crate::error::{CliResult, Failure};

/// The network flags, global to every command.
#[derive(Args)]
pub struct TransportArgs {
    /// Send every request through this proxy (http://, https://, socks4:// or socks5://,
    /// optionally with user:password@). Default: direct; HTTPS_PROXY is never read.
    #[arg(long, global = true, value_name = "URL")]
    proxy: Option<String>,
    /// Give up on a connection (DNS, TCP, TLS) after MS milliseconds (default 30000).
    #[arg(long = "net-connect-timeout", global = true, value_name = "MS")]
    connect_timeout_ms: Option<u64>,
    /// Give up on a response whose head or next body byte has not come for MS milliseconds
    /// (default 300000).
    #[arg(long = "net-idle-timeout", global = true, value_name = "MS")]
    idle_timeout_ms: Option<u64>,
}

static CONFIG: OnceLock<TransportConfig> = OnceLock::new();

/// Checks and keeps the flags; call once, before any runtime is built.
pub fn init(args: &TransportArgs) -> CliResult<()> {
    let mut config = TransportConfig::default();
    for (flag, ms, slot) in [
        ("--net-connect-timeout", args.connect_timeout_ms, &mut config.connect_timeout),
        ("--net-idle-timeout", args.idle_timeout_ms, &mut config.idle_timeout),
    ] {
        match ms {
            Some(0) => return Err(Failure::usage(format!("{flag} must be at least 1 ms"))),
            Some(ms) => *slot = Duration::from_millis(ms),
            None => {}
        }
    }
    config.proxy = args.proxy.clone();
    // A bad proxy URL is a usage error now, not a failed request later.
    UreqTransport::with_config(&config).map_err(|e| Failure::usage(format!("--proxy: {e}")))?;
    let _ = CONFIG.set(config);
    Ok(())
}

/// The settings (for `amber serve`, whose sessions run on its worker threads).
pub fn config() -> TransportConfig {
    CONFIG.get().cloned().unwrap_or_default()
}

/// `builder` with a client over the settings, when they are not the defaults.
pub fn apply(builder: RuntimeBuilder) -> RuntimeBuilder {
    let config = config();
    if config == TransportConfig::default() {
        return builder;
    }
    match UreqTransport::with_config(&config) {
        Ok(transport) => builder.http_transport(Box::new(transport)),
        // init checked the same configuration.
        Err(_) => builder,
    }
}
