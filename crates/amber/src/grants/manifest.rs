//! The program manifest (`amber.json`, DESIGN §9; every field in docs/manifest.md): parsed
//! strictly into typed grants, so a misspelt key is an error at deploy time rather than a
//! silently ungated call at run time.

use std::collections::BTreeMap;

use amber_durable::capability::Capability;
use amber_durable::policy::Policy;
use serde_json::{Map, Value};

use super::condition::Condition;

/// Retry policy of a granted host function.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all (1: no retry).
    pub max_attempts: u32,
    /// Wait before the second attempt, ms; each further wait multiplies by `multiplier`.
    pub backoff_ms: u64,
    /// Growth of the wait per attempt (default 2: exponential).
    pub multiplier: f64,
    /// Cap on one wait, ms.
    pub max_backoff_ms: u64,
    /// Failure codes worth another attempt (`None`: every failure).
    pub retry_on: Option<Vec<String>>,
}

impl RetryPolicy {
    /// The wait after failed attempt `attempt` (1-based), ms: `backoff_ms · multiplier^(n-1)`,
    /// capped.
    pub fn backoff_after(&self, attempt: u32) -> u64 {
        let factor = self.multiplier.powi(i32::try_from(attempt.saturating_sub(1)).unwrap_or(i32::MAX));
        let wait = self.backoff_ms as f64 * factor;
        if !wait.is_finite() || wait >= self.max_backoff_ms as f64 {
            self.max_backoff_ms
        } else {
            wait as u64
        }
    }

    /// Whether a failure classified as `code` gets another attempt.
    pub fn retries(&self, code: Option<&str>) -> bool {
        match &self.retry_on {
            None => true,
            Some(codes) => code.is_some_and(|c| codes.iter().any(|x| x == c)),
        }
    }
}

/// When a granted call needs a human's approval.
#[derive(Clone, Debug, PartialEq)]
pub enum ApprovalRule {
    /// Every call.
    Always,
    /// Calls whose args meet every condition (JSON pointer → test).
    When(Vec<(String, Condition)>),
}

/// One granted host function.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HostGrant {
    /// JSON Schema (draft 2020-12) its args must satisfy.
    pub args: Option<Value>,
    /// JSON Schema its result must satisfy.
    pub result: Option<Value>,
    /// Host-side limit on one attempt, ms.
    pub timeout_ms: Option<u64>,
    /// Host-side retries.
    pub retry: Option<RetryPolicy>,
    /// Approval gating.
    pub approve: Option<ApprovalRule>,
}

/// The `fs` section.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FsGrant {
    /// Writes fail with EROFS.
    pub readonly: bool,
    /// Largest file, bytes.
    pub max_file_bytes: Option<u64>,
    /// Sum of the upper layer's files, bytes.
    pub max_total_bytes: Option<u64>,
}

/// A parsed `amber.json`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ProgramManifest {
    /// Granted host functions, by name (no entry: `amber.call` of it is denied).
    pub host: BTreeMap<String, HostGrant>,
    /// Hosts the network may reach (`--allow-net` syntax).
    pub net_allow: Vec<String>,
    /// Capabilities whose first use waits for a human's approval (`Net`: per host).
    pub approve_capabilities: Vec<Capability>,
    /// Filesystem limits.
    pub fs: FsGrant,
    /// Surface modes the manifest sets (`random`, `crypto`, `clock`, `timers`), over the
    /// durable defaults.
    pub policy: Policy,
    /// Surfaces the manifest names, so a conflicting `--policy` flag can be refused.
    pub policy_set: Vec<String>,
}

/// The capabilities whose first use can wait for approval (crate::first_use).
pub const APPROVABLE: [Capability; 3] = [Capability::FsDelete, Capability::CryptoKeygen, Capability::Net];

const TOP_KEYS: &[&str] =
    &["$schema", "host", "approve_capabilities", "net", "fs", "random", "crypto", "clock", "timers", "description"];
const HOST_KEYS: &[&str] = &["args", "result", "timeout_ms", "retry", "approve", "description"];
const RETRY_KEYS: &[&str] = &["max_attempts", "backoff_ms", "multiplier", "max_backoff_ms", "retry_on"];

impl ProgramManifest {
    /// Parses manifest text; the error names the offending key (`host.pay.approve.when`).
    pub fn parse(text: &str) -> Result<ProgramManifest, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        ProgramManifest::from_value(&value)
    }

    /// [`ProgramManifest::parse`] for an already parsed document.
    pub fn from_value(value: &Value) -> Result<ProgramManifest, String> {
        let top = object(value, "the manifest")?;
        known_keys(top, TOP_KEYS, "")?;
        let mut manifest = ProgramManifest { policy: Policy::durable(), ..ProgramManifest::default() };
        if let Some(host) = top.get("host") {
            for (name, entry) in object(host, "host")? {
                if name.is_empty() {
                    return Err("host: a host function name must not be empty".into());
                }
                let grant = host_grant(entry, &format!("host.{name}"))?;
                manifest.host.insert(name.clone(), grant);
            }
        }
        if let Some(list) = top.get("approve_capabilities") {
            for item in array(list, "approve_capabilities")? {
                let name = item.as_str().ok_or("approve_capabilities: expected capability names")?;
                let capability = Capability::from_name(name).ok_or_else(|| {
                    format!("approve_capabilities: {name:?} is not a capability (one of CryptoKeygen, FsDelete, Net)")
                })?;
                // Refused rather than ignored where a first use cannot wait yet: a manifest
                // that says "approve key generation" must not run with it ungated.
                if !APPROVABLE.contains(&capability) {
                    return Err(format!(
                        "approve_capabilities: approval of the first use of {name} is not supported by this runtime \
                         yet (supported: CryptoKeygen, FsDelete, Net)"
                    ));
                }
                if !manifest.approve_capabilities.contains(&capability) {
                    manifest.approve_capabilities.push(capability);
                }
            }
        }
        if let Some(net) = top.get("net") {
            let net = object(net, "net")?;
            known_keys(net, &["allow"], "net.")?;
            if let Some(allow) = net.get("allow") {
                for item in array(allow, "net.allow")? {
                    let host = item.as_str().ok_or("net.allow: expected host names")?;
                    crate::net::NetPolicy::parse([host]).map_err(|e| format!("net.allow: {e}"))?;
                    manifest.net_allow.push(host.to_string());
                }
            }
        }
        if let Some(fs) = top.get("fs") {
            let fs = object(fs, "fs")?;
            known_keys(fs, &["readonly", "max_file_bytes", "max_total_bytes"], "fs.")?;
            manifest.fs.readonly = match fs.get("readonly") {
                None => false,
                Some(v) => v.as_bool().ok_or("fs.readonly: expected true or false")?,
            };
            manifest.fs.max_file_bytes = optional_u64(fs, "max_file_bytes", "fs.")?;
            manifest.fs.max_total_bytes = optional_u64(fs, "max_total_bytes", "fs.")?;
        }
        for surface in ["random", "crypto", "clock", "timers"] {
            if let Some(mode) = top.get(surface) {
                let mode = mode.as_str().ok_or_else(|| format!("{surface}: expected a mode name"))?;
                manifest.policy = manifest.policy.with_named(surface, mode).map_err(|e| format!("{surface}: {e}"))?;
                manifest.policy_set.push(surface.to_string());
            }
        }
        manifest.policy.ensure_durable_safe().map_err(|e| format!("{}: {e}", manifest.policy_set.join(", ")))?;
        Ok(manifest)
    }
}

fn host_grant(entry: &Value, at: &str) -> Result<HostGrant, String> {
    // `"name": {}` or `"name": true` grants with no conditions.
    if entry == &Value::Bool(true) {
        return Ok(HostGrant::default());
    }
    let entry = object(entry, at)?;
    known_keys(entry, HOST_KEYS, &format!("{at}."))?;
    let schema = |key: &str| -> Result<Option<Value>, String> {
        match entry.get(key) {
            None => Ok(None),
            Some(s) if s.is_object() || s.is_boolean() => Ok(Some(s.clone())),
            Some(_) => Err(format!("{at}.{key}: expected a JSON Schema (an object or a boolean)")),
        }
    };
    let timeout_ms = optional_u64(entry, "timeout_ms", &format!("{at}."))?;
    if timeout_ms == Some(0) {
        return Err(format!("{at}.timeout_ms: must be at least 1"));
    }
    let retry = match entry.get("retry") {
        None => None,
        Some(r) => Some(retry_policy(r, &format!("{at}.retry"))?),
    };
    let approve = match entry.get("approve") {
        None | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => Some(ApprovalRule::Always),
        Some(Value::String(s)) if s == "always" => Some(ApprovalRule::Always),
        Some(Value::Object(rule)) => {
            known_keys(rule, &["when"], &format!("{at}.approve."))?;
            let when = rule.get("when").ok_or_else(|| format!("{at}.approve: expected {{\"when\": {{…}}}}"))?;
            let mut conditions = Vec::new();
            for (pointer, test) in object(when, &format!("{at}.approve.when"))? {
                if !(pointer.is_empty() || pointer.starts_with('/')) {
                    return Err(format!(
                        "{at}.approve.when: {pointer:?} is not a JSON pointer (\"\" or starting with \"/\")"
                    ));
                }
                let condition = Condition::parse(test).map_err(|e| format!("{at}.approve.when.{pointer}: {e}"))?;
                conditions.push((pointer.clone(), condition));
            }
            if conditions.is_empty() {
                return Err(format!("{at}.approve.when: no condition (use \"approve\": true for every call)"));
            }
            Some(ApprovalRule::When(conditions))
        }
        Some(_) => return Err(format!("{at}.approve: expected true, \"always\" or {{\"when\": {{…}}}}")),
    };
    Ok(HostGrant { args: schema("args")?, result: schema("result")?, timeout_ms, retry, approve })
}

fn retry_policy(value: &Value, at: &str) -> Result<RetryPolicy, String> {
    let r = object(value, at)?;
    known_keys(r, RETRY_KEYS, &format!("{at}."))?;
    let prefix = format!("{at}.");
    let max_attempts = optional_u64(r, "max_attempts", &prefix)?.unwrap_or(3);
    if !(1..=100).contains(&max_attempts) {
        return Err(format!("{at}.max_attempts: expected 1 to 100"));
    }
    let backoff_ms = optional_u64(r, "backoff_ms", &prefix)?.unwrap_or(200);
    let multiplier = match r.get("multiplier") {
        None => 2.0,
        Some(v) => {
            v.as_f64().filter(|m| (1.0..=10.0).contains(m)).ok_or(format!("{at}.multiplier: expected 1 to 10"))?
        }
    };
    let max_backoff_ms = optional_u64(r, "max_backoff_ms", &prefix)?.unwrap_or(60_000).max(backoff_ms);
    let retry_on = match r.get("retry_on") {
        None => None,
        Some(list) => Some(
            array(list, &format!("{at}.retry_on"))?
                .iter()
                .map(|c| c.as_str().map(str::to_string).ok_or(format!("{at}.retry_on: expected failure codes")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok(RetryPolicy { max_attempts: max_attempts as u32, backoff_ms, multiplier, max_backoff_ms, retry_on })
}

fn object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>, String> {
    value.as_object().ok_or_else(|| format!("{at}: expected an object"))
}

fn array<'a>(value: &'a Value, at: &str) -> Result<&'a Vec<Value>, String> {
    value.as_array().ok_or_else(|| format!("{at}: expected an array"))
}

fn optional_u64(map: &Map<String, Value>, key: &str, prefix: &str) -> Result<Option<u64>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| format!("{prefix}{key}: expected a whole number >= 0")),
    }
}

fn known_keys(map: &Map<String, Value>, known: &[&str], prefix: &str) -> Result<(), String> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(format!("{prefix}{key}: not a manifest key (known here: {})", known.join(", "))),
        None => Ok(()),
    }
}
