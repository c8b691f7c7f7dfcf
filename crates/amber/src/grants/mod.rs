//! Capability grants (DESIGN §9, docs/manifest.md): the program manifest decides, before any
//! intent is journaled, whether an `amber.call` may go out at all (`ERR_AMBER_DENIED`),
//! whether its args fit the function's JSON Schema (`ERR_AMBER_INVALID_ARGS`), and whether a
//! human must approve it first (an `approval` operation). Every decision is a pure function
//! of the manifest and the args, so a replay, running under the same manifest, decides the
//! same way and journals nothing for a refused call.
//!
//! The manifest is an input like the source: its hash rides the image's code hashes
//! ([`MANIFEST_CODE_PATH`]), and a restore under another manifest is refused.

mod condition;
mod manifest;

use std::sync::Arc;

use amber_durable::digest::Digest;
use serde_json::Value;

pub use condition::Condition;
pub use manifest::{ApprovalRule, FsGrant, HostGrant, ProgramManifest, RetryPolicy};

/// The code-hash entry under which an image records its run's manifest.
/// (The CLI stores the text itself as a source of that name, so the store's code-hash check
/// covers it.)
pub const MANIFEST_CODE_PATH: &str = "amber:manifest.json";

/// Error codes the mediation rejects with (`err.code` in the program).
pub const DENIED: &str = "ERR_AMBER_DENIED";
pub const INVALID_ARGS: &str = "ERR_AMBER_INVALID_ARGS";
pub const INVALID_RESULT: &str = "ERR_AMBER_INVALID_RESULT";
pub const NOT_APPROVED: &str = "ERR_AMBER_NOT_APPROVED";

/// A manifest with its schemas compiled.
pub struct Grants {
    manifest: ProgramManifest,
    hash: Digest,
    validators: Vec<(String, Option<jsonschema::Validator>, Option<jsonschema::Validator>)>,
}

impl std::fmt::Debug for Grants {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grants").field("manifest", &self.manifest).field("hash", &self.hash).finish()
    }
}

/// What the manifest says about one `amber.call`.
#[derive(Clone, Debug, PartialEq)]
pub enum Admission {
    /// Issue it.
    Call,
    /// Issue an approval operation first; `rule` says why.
    Approve { rule: String },
    /// Refused: not granted.
    Denied,
    /// Refused: the args fail the schema at `pointer`.
    InvalidArgs { pointer: String, reason: String },
}

/// A human's decision on an approval operation, as journaled (its completion's result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub approved: bool,
    /// Who decided (free text from the CLI or API).
    pub principal: String,
    /// Why (a denial's reason).
    pub reason: Option<String>,
    /// When, by the deciding host's wall clock (ms since the Unix epoch).
    pub decided_at_ms: u64,
}

impl Decision {
    /// `{"approved", "principal", "reason", "decided_at_ms"}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "approved": self.approved,
            "principal": self.principal,
            "reason": self.reason,
            "decided_at_ms": self.decided_at_ms,
        })
    }

    /// The decision a JSON value holds, if it is one.
    pub fn from_json(value: &Value) -> Option<Decision> {
        let reason = match &value["reason"] {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            _ => return None,
        };
        Some(Decision {
            approved: value["approved"].as_bool()?,
            principal: value["principal"].as_str()?.to_string(),
            reason,
            decided_at_ms: value["decided_at_ms"].as_u64()?,
        })
    }
}

/// A schema failure: where, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaFailure {
    /// JSON pointer into the checked value (`""` for the whole).
    pub pointer: String,
    /// The validator's reason.
    pub reason: String,
}

impl Grants {
    /// Parses and compiles manifest text (a schema that is not valid draft 2020-12, or that
    /// refers outside itself, is an error naming its key).
    pub fn from_text(text: &str) -> Result<Grants, String> {
        let manifest = ProgramManifest::parse(text)?;
        // The hash is of the text, as for every source a code hash covers (the session stores
        // this text: `check_code_hashes` compares the two before a restore).
        let hash = Digest::of(text.as_bytes());
        let compile = |schema: &Option<Value>, at: String| -> Result<Option<jsonschema::Validator>, String> {
            match schema {
                None => Ok(None),
                Some(schema) => jsonschema::draft202012::options()
                    .build(schema)
                    .map(Some)
                    .map_err(|e| format!("{at}: not a usable JSON Schema (draft 2020-12): {e}")),
            }
        };
        let mut validators = Vec::new();
        for (name, grant) in &manifest.host {
            let args = compile(&grant.args, format!("host.{name}.args"))?;
            let result = compile(&grant.result, format!("host.{name}.result"))?;
            validators.push((name.clone(), args, result));
        }
        Ok(Grants { manifest, hash, validators })
    }

    /// The parsed manifest.
    pub fn manifest(&self) -> &ProgramManifest {
        &self.manifest
    }

    /// sha256 of the manifest's text (its code hash).
    pub fn hash(&self) -> Digest {
        self.hash
    }

    /// The grant of host function `name`.
    pub fn grant(&self, name: &str) -> Option<&HostGrant> {
        self.manifest.host.get(name)
    }

    /// Decides an `amber.call(name, args)`.
    pub fn admit(&self, name: &str, args: &Value) -> Admission {
        let Some(grant) = self.grant(name) else { return Admission::Denied };
        if let Some(failure) = self.validator(name, false).and_then(|v| first_failure(v, args)) {
            return Admission::InvalidArgs { pointer: failure.pointer, reason: failure.reason };
        }
        match &grant.approve {
            None => Admission::Call,
            Some(ApprovalRule::Always) => Admission::Approve { rule: "always".into() },
            Some(ApprovalRule::When(conditions)) => {
                let holds = conditions.iter().all(|(pointer, c)| c.holds(args.pointer(pointer)));
                if holds {
                    let rule = conditions
                        .iter()
                        .map(|(pointer, c)| format!("{pointer} {}", c.describe()))
                        .collect::<Vec<_>>()
                        .join(", ");
                    Admission::Approve { rule }
                } else {
                    Admission::Call
                }
            }
        }
    }

    /// Checks a call's result against its `result` schema, if it has one.
    pub fn check_result(&self, name: &str, result: &Value) -> Option<SchemaFailure> {
        self.validator(name, true).and_then(|v| first_failure(v, result))
    }

    fn validator(&self, name: &str, result: bool) -> Option<&jsonschema::Validator> {
        let (_, args, res) = self.validators.iter().find(|(n, ..)| n == name)?;
        if result {
            res.as_ref()
        } else {
            args.as_ref()
        }
    }
}

/// The failure a report names: the smallest (instance pointer, reason) of every failure, so
/// the choice never depends on the validator's internal iteration order.
fn first_failure(validator: &jsonschema::Validator, value: &Value) -> Option<SchemaFailure> {
    validator
        .iter_errors(value)
        .map(|e| SchemaFailure { pointer: e.instance_path().to_string(), reason: e.to_string() })
        .min_by(|a, b| (&a.pointer, &a.reason).cmp(&(&b.pointer, &b.reason)))
}

/// Shared compiled grants (the runtime and its recorder hold the same).
pub type SharedGrants = Arc<Grants>;

#[cfg(test)]
mod tests;
