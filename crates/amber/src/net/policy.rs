//! The network policy: deny by default; `--allow-net HOST[:PORT],…` (Deno's form) names what a
//! run may reach. The list is part of the session (stored with it, so resume and replay see
//! the same one) and is checked before anything is journaled: a denied request is a
//! deterministic rejection, not an effect.

use std::fmt;

/// One allowed destination: a host name or IP literal, optionally one port. `*` allows every
/// host; `*.example.com` allows the subdomains of example.com (not example.com itself).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NetAllow {
    host: String,
    port: Option<u16>,
}

impl NetAllow {
    /// Parses `host`, `host:port`, `[v6]`, `[v6]:port`, `*` or `*.domain`.
    pub fn parse(text: &str) -> Result<NetAllow, String> {
        let text = text.trim();
        let bad = |why: &str| format!("--allow-net {text:?}: {why} (expected HOST or HOST:PORT)");
        if text.is_empty() {
            return Err(bad("empty entry"));
        }
        if text.contains("://") || text.contains('/') {
            return Err(bad("give a host, not a URL"));
        }
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let Some((host, after)) = rest.split_once(']') else { return Err(bad("unclosed [")) };
            match after {
                "" => (format!("[{host}]"), None),
                _ => match after.strip_prefix(':') {
                    Some(port) => (format!("[{host}]"), Some(port)),
                    None => return Err(bad("junk after ]")),
                },
            }
        } else {
            match text.rsplit_once(':') {
                Some((host, port)) if !host.contains(':') => (host.to_string(), Some(port)),
                Some(_) => return Err(bad("an IPv6 address goes in brackets")),
                None => (text.to_string(), None),
            }
        };
        let port = match port {
            None => None,
            Some(p) => Some(p.parse::<u16>().map_err(|_| bad("the port is not a number from 0 to 65535"))?),
        };
        let host = host.to_ascii_lowercase();
        let label_ok = |l: &str| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let valid = host == "*"
            || (host.starts_with('[') && host.ends_with(']'))
            || host.strip_prefix("*.").unwrap_or(&host).split('.').all(label_ok);
        if !valid {
            return Err(bad("not a host name"));
        }
        Ok(NetAllow { host, port })
    }

    /// Whether a request to `host` (lower case, IPv6 in brackets) and `port` is allowed.
    pub fn allows(&self, host: &str, port: u16) -> bool {
        if self.port.is_some_and(|p| p != port) {
            return false;
        }
        if self.host == "*" {
            return true;
        }
        match self.host.strip_prefix("*.") {
            Some(domain) => {
                host.len() > domain.len() + 1 && host.ends_with(domain) && {
                    let cut = host.len() - domain.len();
                    host.as_bytes()[cut - 1] == b'.'
                }
            }
            None => self.host == host,
        }
    }
}

impl fmt::Display for NetAllow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// What a run may reach: nothing unless listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetPolicy {
    allow: Vec<NetAllow>,
}

impl NetPolicy {
    /// Denies everything.
    pub fn deny_all() -> NetPolicy {
        NetPolicy::default()
    }

    /// Parses comma-separated entries (several flags may each carry a list).
    pub fn parse<'a>(lists: impl IntoIterator<Item = &'a str>) -> Result<NetPolicy, String> {
        let mut allow = Vec::new();
        for list in lists {
            for entry in list.split(',').filter(|e| !e.trim().is_empty()) {
                allow.push(NetAllow::parse(entry)?);
            }
        }
        allow.sort();
        allow.dedup();
        Ok(NetPolicy { allow })
    }

    /// The entries, sorted (how the session stores them).
    pub fn entries(&self) -> Vec<String> {
        self.allow.iter().map(ToString::to_string).collect()
    }

    /// Whether `host:port` may be reached.
    pub fn allows(&self, host: &str, port: u16) -> bool {
        self.allow.iter().any(|a| a.allows(host, port))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_parse_and_match() {
        let p = NetPolicy::parse(["api.openai.com,127.0.0.1:8080", "*.anthropic.com", "[::1]:9000"]).unwrap();
        assert!(p.allows("api.openai.com", 443));
        assert!(p.allows("api.openai.com", 80));
        assert!(p.allows("127.0.0.1", 8080));
        assert!(!p.allows("127.0.0.1", 8081));
        assert!(p.allows("api.anthropic.com", 443));
        assert!(!p.allows("anthropic.com", 443));
        assert!(!p.allows("evilanthropic.com", 443));
        assert!(p.allows("[::1]", 9000));
        assert!(!p.allows("example.com", 443));
        assert_eq!(p.entries(), ["*.anthropic.com", "127.0.0.1:8080", "[::1]:9000", "api.openai.com"]);
        assert!(NetPolicy::deny_all().entries().is_empty());
        assert!(!NetPolicy::deny_all().allows("localhost", 80));
        assert!(NetPolicy::parse(["*"]).unwrap().allows("anything.example", 1));
    }

    #[test]
    fn bad_entries_are_refused() {
        for bad in ["", "https://x.com", "x.com:99999", "x.com:port", "::1", "[::1", "a b", "x.com/path"] {
            assert!(NetAllow::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
