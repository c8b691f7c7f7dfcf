//! Bearer tokens (`--token-file`): a JSON document
//! `{"tokens": [{"token": "…", "role": "admin" | "tenant" | "worker", "tenant": "acme"}]}`.
//!
//! - `admin`: every route.
//! - `tenant`: programs, and the sessions of its own tenant (a session it creates is in its
//!   tenant whatever the body says; another tenant's session is 404 to it).
//! - `worker`: the tool-worker routes (`/v1/ops/claim`, `/v1/ops/{id}/complete|fail`).
//!
//! Tokens are compared in constant time: both sides are hashed with sha256 and the digests
//! compared with a fold that does not stop at the first difference, against every token.

use amber::durable::digest::Digest;
use serde::Deserialize;

/// What a token may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Everything.
    Admin,
    /// Programs and this tenant's sessions.
    Tenant(String),
    /// Claiming and completing operations.
    Worker,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenFile {
    tokens: Vec<TokenEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenEntry {
    token: String,
    role: String,
    #[serde(default)]
    tenant: Option<String>,
}

/// The configured tokens, as digests.
#[derive(Clone)]
pub struct Tokens {
    entries: Vec<(Digest, Role)>,
}

impl Tokens {
    /// Parses a token file's text.
    pub fn parse(text: &str) -> Result<Tokens, String> {
        let file: TokenFile = serde_json::from_str(text).map_err(|e| format!("token file: {e}"))?;
        let mut entries = Vec::new();
        for entry in file.tokens {
            if entry.token.len() < 16 {
                return Err("token file: every token must be at least 16 characters".into());
            }
            let role = match (entry.role.as_str(), entry.tenant) {
                ("admin", None) => Role::Admin,
                ("worker", None) => Role::Worker,
                ("tenant", Some(tenant)) if !tenant.is_empty() => Role::Tenant(tenant),
                ("tenant", _) => return Err("token file: a tenant token needs a \"tenant\"".into()),
                (other, _) => {
                    return Err(format!(
                    "token file: unknown role {other:?} (admin, tenant or worker; only tenant tokens name a tenant)"
                ))
                }
            };
            entries.push((Digest::of(entry.token.as_bytes()), role));
        }
        if entries.is_empty() {
            return Err("token file: no tokens".into());
        }
        Ok(Tokens { entries })
    }

    /// The role of `presented`, if it is a configured token.
    pub fn role_of(&self, presented: &str) -> Option<Role> {
        let digest = Digest::of(presented.as_bytes());
        let mut found = None;
        for (token, role) in &self.entries {
            let diff = token.0.iter().zip(digest.0.iter()).fold(0u8, |acc, (a, b)| acc | (a ^ b));
            if diff == 0 && found.is_none() {
                found = Some(role.clone());
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_come_from_the_file_and_bad_files_are_refused() {
        let tokens = Tokens::parse(
            r#"{"tokens":[{"token":"admin-token-0123456","role":"admin"},
                {"token":"tenant-token-012345","role":"tenant","tenant":"acme"},
                {"token":"worker-token-012345","role":"worker"}]}"#,
        )
        .unwrap();
        assert_eq!(tokens.role_of("admin-token-0123456"), Some(Role::Admin));
        assert_eq!(tokens.role_of("tenant-token-012345"), Some(Role::Tenant("acme".into())));
        assert_eq!(tokens.role_of("worker-token-012345"), Some(Role::Worker));
        assert_eq!(tokens.role_of("worker-token-01234"), None);
        for bad in [
            "{}",
            r#"{"tokens":[]}"#,
            r#"{"tokens":[{"token":"short","role":"admin"}]}"#,
            r#"{"tokens":[{"token":"long-enough-token-1","role":"tenant"}]}"#,
            r#"{"tokens":[{"token":"long-enough-token-1","role":"root"}]}"#,
        ] {
            assert!(Tokens::parse(bad).is_err(), "{bad}");
        }
    }
}
