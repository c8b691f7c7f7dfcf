//! Where sessions live, and writing a run's progress to its session.

use std::path::PathBuf;

use amber::durable::store::{LoadedSession, SessionLease, SessionStatus, SessionStore, Source};
use amber::net::NetPolicy;
use amber::{Outcome, ProcessInputs, Runtime, RuntimeBuilder};
use serde_json::json;

use crate::error::CliResult;

/// The store directory: `--store DIR`, else `$AMBER_STORE`, else `.amber` in the cwd.
pub struct StoreLocation {
    dir: PathBuf,
}

impl StoreLocation {
    pub fn new(flag: Option<PathBuf>) -> StoreLocation {
        let dir = flag
            .or_else(|| std::env::var_os("AMBER_STORE").filter(|v| !v.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(".amber"));
        StoreLocation { dir }
    }

    /// The store directory.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Opens (creating) the store.
    /// With an image key, the store tags and checks journal heads under it.
    pub fn open(&self) -> CliResult<SessionStore> {
        Ok(SessionStore::open(&self.dir)?.with_key(crate::image_key::key()))
    }

    /// Opens the store only if it exists (read-only commands must not create it).
    pub fn open_existing(&self) -> CliResult<Option<SessionStore>> {
        if !self.dir.join(amber::durable::store::STORE_FILE).exists() {
            return Ok(None);
        }
        self.open().map(Some)
    }
}

/// A session this process holds.
pub struct Held<'s> {
    pub store: &'s SessionStore,
    pub lease: SessionLease<'s>,
}

impl Held<'_> {
    pub fn name(&self) -> &str {
        self.lease.session()
    }

    /// Appends the runtime's new journal records (before any live effect, and at the end).
    pub fn persist_records(&self, runtime: &mut Runtime) -> CliResult<()> {
        // Blobs first: a record never names bytes the store lacks, whatever crashes when.
        let blobs = runtime.take_blobs();
        if !blobs.is_empty() {
            let refs: Vec<_> = blobs.iter().map(|(h, b)| (*h, &b[..])).collect();
            self.store.put_blobs(&refs)?;
        }
        let records = runtime.take_records();
        if !records.is_empty() {
            crate::fault::point();
            self.store.append_journal_records(&self.lease, &records)?;
            crate::fault::point();
        }
        // Diagnostic (outside the chain): lost in a crash here, a trace lacks the locations.
        self.store.put_locations(&self.lease, &runtime.take_record_locations())?;
        Ok(())
    }

    /// Writes the final state of a run slice: records, an image of where it stopped (so
    /// `inspect` shows the final state), the status.
    pub fn finish(&self, runtime: &mut Runtime, result: &amber::Result<Outcome>) -> CliResult<()> {
        self.persist_records(runtime)?;
        let status = match result {
            Ok(Outcome::Suspended(_)) => SessionStatus::Suspended,
            Ok(Outcome::Completed(_) | Outcome::Exited(0)) => SessionStatus::Completed,
            Ok(Outcome::Exited(_)) => SessionStatus::Failed,
            Ok(Outcome::Threw(_)) | Err(amber::Error::Limit(_)) => SessionStatus::Failed,
            // A divergence or a bad request changes nothing the session has committed.
            Err(_) => return Ok(()),
        };
        if result.is_ok() {
            let image = runtime.snapshot()?;
            self.store.save_image(&self.lease, &image)?;
            crate::fault::point();
        }
        self.store.set_status(&self.lease, status)?;
        crate::fault::point();
        Ok(())
    }
}

/// The reserved source path holding a session's run options (resource and filesystem limits, time zone
/// and locale, the program's arguments and environment) as JSON, so that resume, replay and recovery run
/// under the options the session started with — and exports carry them.
pub const OPTIONS_SOURCE: &str = "amber:options.json";

/// What a session's options source ([`OPTIONS_SOURCE`]) records.
pub struct RunOptions<'a> {
    pub max_instructions: Option<u64>,
    pub max_heap: Option<u64>,
    pub max_native_depth: u32,
    pub time_zone: Option<&'a str>,
    pub locale: Option<&'a str>,
    pub process: &'a ProcessInputs,
    pub net: &'a NetPolicy,
    pub secrets: &'a [String],
    pub fs: amber::FsLimits,
}

impl RunOptions<'_> {
    /// The options source for a run with these limits and process inputs.
    pub fn source(&self) -> Source {
        let text = json!({
            "fs": {
                "readonly": self.fs.readonly,
                "max_file_bytes": self.fs.max_file_bytes,
                "max_total_bytes": self.fs.max_total_bytes,
                "max_entries": self.fs.max_entries,
            },
            "max_instructions": self.max_instructions,
            "max_heap_bytes": self.max_heap,
            "max_native_depth": self.max_native_depth,
            "time_zone": self.time_zone,
            "locale": self.locale,
            "process": self.process,
            "allow_net": self.net.entries(),
            "secrets": self.secrets,
        })
        .to_string();
        Source::new(OPTIONS_SOURCE, &text)
    }
}

/// The reserved source path holding the program manifest (`amber.json`, docs/manifest.md) a
/// session runs under: resume, replay and recovery mediate calls by the same grants.
pub const MANIFEST_SOURCE: &str = "amber:manifest.json";

/// The session's stored manifest, compiled (None for a session without one).
pub fn session_grants(loaded: &LoadedSession) -> CliResult<Option<amber::grants::SharedGrants>> {
    let Some(source) = loaded.sources.iter().find(|s| s.path == MANIFEST_SOURCE) else { return Ok(None) };
    let grants = amber::grants::Grants::from_text(&source.text).map_err(|e| {
        crate::error::Failure::integrity(format!("session {}: its stored program manifest: {e}", loaded.meta.name))
    })?;
    Ok(Some(std::sync::Arc::new(grants)))
}

/// The values of the secret environment variables `names`, from this process's environment
/// (a missing one is a usage error that names it).
pub fn secret_values(names: &[String]) -> CliResult<Vec<(String, String)>> {
    names
        .iter()
        .map(|name| match std::env::var(name) {
            Ok(value) => Ok((name.clone(), value)),
            Err(_) => Err(crate::error::Failure::usage(format!(
                "the secret {name} is not in the environment (set {name} to run, resume or replay this session)"
            ))),
        })
        .collect()
}

/// `builder` with the session's policy, limits, network policy and secrets (their values from
/// this process's environment) as stored in the session (none if it stores no options).
pub fn with_session_options(builder: RuntimeBuilder, loaded: &LoadedSession) -> CliResult<RuntimeBuilder> {
    let builder = builder.policy(loaded.meta.policy);
    let options = loaded
        .sources
        .iter()
        .find(|s| s.path == OPTIONS_SOURCE)
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s.text).ok())
        .unwrap_or_default();
    let process = serde_json::from_value::<ProcessInputs>(options["process"].clone()).unwrap_or_default();
    let allowed: Vec<&str> =
        options["allow_net"].as_array().map(|a| a.iter().filter_map(|v| v.as_str()).collect()).unwrap_or_default();
    // Entries were checked when the session was made; one that no longer parses denies.
    let net = NetPolicy::parse(allowed).unwrap_or_default();
    let names: Vec<String> = options["secrets"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let builder = secret_values(&names)?.iter().fold(builder, |b, (name, value)| b.secret(name, value));
    let fs = amber::FsLimits {
        readonly: options["fs"]["readonly"].as_bool().unwrap_or(false),
        max_file_bytes: options["fs"]["max_file_bytes"].as_u64(),
        max_total_bytes: options["fs"]["max_total_bytes"].as_u64(),
        max_entries: options["fs"]["max_entries"].as_u64(),
    };
    Ok(builder
        .grants(session_grants(loaded)?)
        .fs_limits(fs)
        .net_policy(net)
        .session_label(&loaded.meta.name)
        .max_instructions(options["max_instructions"].as_u64())
        .max_heap_bytes(options["max_heap_bytes"].as_u64())
        // Sessions made before the option was stored ran under the default.
        .max_native_depth(
            options["max_native_depth"]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(amber::engine::vm::DEFAULT_MAX_NATIVE_DEPTH),
        )
        .time_zone(options["time_zone"].as_str().map(str::to_string))
        .locale(options["locale"].as_str().map(str::to_string))
        .process_inputs(process))
}

/// The TypeScript transform cache of a store: one file per cache key under
/// `<store>/typescript/`, so a second run, a replay or a resume of the same text never
/// transforms it again. Written on first use only; a failed write is only a missed cache.
pub struct TransformDir(pub std::path::PathBuf);

impl amber::node::loader::typescript::TransformStore for TransformDir {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(key)).ok()
    }
    fn put(&self, key: &str, bytes: &[u8]) {
        if std::fs::create_dir_all(&self.0).is_ok() {
            let tmp = self.0.join(format!("{key}.tmp{}", std::process::id()));
            if std::fs::write(&tmp, bytes).is_ok() {
                let _ = std::fs::rename(&tmp, self.0.join(key));
            }
        }
    }
}
