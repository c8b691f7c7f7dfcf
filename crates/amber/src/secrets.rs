//! Secrets: values the program may use (`process.env.NAME`) that never rest in clear.
//!
//! The embedder passes each secret by name and value ([`crate::RuntimeBuilder::secret`]); a
//! session stores the names only, and whoever resumes it passes the values again. Where the
//! value would be written down it is replaced:
//!
//! - in journal records, a request header or body that contains a value is split into parts,
//!   the value becoming `{"$secret": NAME}` (see [`redact_text`]); the transport joins the
//!   parts back ([`reveal_parts`]) as the request leaves;
//! - in images, every heap string and host-state entry that contains a value holds the marker
//!   [`marker`] instead while the image is encoded, and gets the value back on restore.
//!
//! Not covered: property names (atoms) and VFS file contents that contain a value, and
//! `amber.call` arguments (the program chose to hand the value to a host tool).

use amber_engine::heap::HeapString;
use amber_engine::string::JsStr;
use amber_engine::Vm;
use serde_json::{json, Value as Json};

/// The secrets of a run: (name, value), longest value first (so a value that contains
/// another is replaced whole).
#[derive(Clone, Debug, Default)]
pub(crate) struct Secrets(Vec<(String, String)>);

impl Secrets {
    pub fn new(mut pairs: Vec<(String, String)>) -> Secrets {
        pairs.retain(|(_, v)| !v.is_empty());
        pairs.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        Secrets(pairs)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What stands for secret `name` in an image.
pub(crate) fn marker(name: &str) -> String {
    format!("\u{1}amber-secret:{name}\u{1}")
}

/// `text` with each secret value cut out: None if it holds none, else its parts (strings,
/// and `{"$secret": NAME}` where a value was).
pub(crate) fn redact_text(secrets: &Secrets, text: &str) -> Option<Json> {
    if secrets.is_empty() || !secrets.0.iter().any(|(_, v)| text.contains(v.as_str())) {
        return None;
    }
    let mut parts: Vec<Json> = vec![Json::String(text.to_string())];
    for (name, value) in &secrets.0 {
        let mut next = Vec::new();
        for part in parts {
            let Some(s) = part.as_str() else {
                next.push(part);
                continue;
            };
            let mut rest = s;
            while let Some(at) = rest.find(value.as_str()) {
                if at > 0 {
                    next.push(Json::String(rest[..at].to_string()));
                }
                next.push(json!({ "$secret": name }));
                rest = &rest[at + value.len()..];
            }
            if !rest.is_empty() {
                next.push(Json::String(rest.to_string()));
            }
        }
        parts = next;
    }
    Some(Json::Array(parts))
}

/// Joins parts made by [`redact_text`] (a plain string passes through); Err names a secret
/// this run was not given.
pub(crate) fn reveal_parts(secrets: &Secrets, value: &Json) -> Result<String, String> {
    match value {
        Json::String(s) => Ok(s.clone()),
        Json::Array(parts) => {
            let mut out = String::new();
            for part in parts {
                match part {
                    Json::String(s) => out.push_str(s),
                    other => {
                        let name = other["$secret"].as_str().unwrap_or("");
                        out.push_str(secrets.value(name).ok_or_else(|| format!("secret {name} was not given"))?);
                    }
                }
            }
            Ok(out)
        }
        _ => Err("a malformed header value".into()),
    }
}

/// Replaces each secret value with its marker in every heap string and host-state entry of
/// `vm` (before an image is encoded).
pub(crate) fn hide_in_vm(secrets: &Secrets, vm: &mut Vm) {
    let swaps: Vec<(String, String)> = secrets.0.iter().map(|(n, v)| (v.clone(), marker(n))).collect();
    rewrite_vm(vm, &swaps);
}

/// Puts the values back where [`hide_in_vm`] left markers.
pub(crate) fn reveal_in_vm(secrets: &Secrets, vm: &mut Vm) {
    let swaps: Vec<(String, String)> = secrets.0.iter().map(|(n, v)| (marker(n), v.clone())).collect();
    rewrite_vm(vm, &swaps);
}

/// The name in a marker still in `vm`'s heap: a secret the restoring runtime was not given
/// (checked on restore only: every string is looked at).
pub(crate) fn missing_in_vm(vm: &Vm) -> Option<String> {
    let left = "\u{1}amber-secret:";
    vm.heap.strings.iter().find_map(|(_, s)| match s {
        HeapString::Flat(js) => {
            let text = js.to_rust_string();
            let at = text.find(left)?;
            Some(text[at + left.len()..].split('\u{1}').next().unwrap_or("").to_string())
        }
        HeapString::Rope { .. } => None,
    })
}

fn rewrite_vm(vm: &mut Vm, swaps: &[(String, String)]) {
    if swaps.is_empty() {
        return;
    }
    let ids: Vec<u32> = vm
        .heap
        .strings
        .iter()
        .filter(|(_, s)| matches!(s, HeapString::Flat(js) if contains_any(js, swaps)))
        .map(|(id, _)| id)
        .collect();
    for id in ids {
        if let Some(HeapString::Flat(js)) = vm.heap.strings.get_mut(id) {
            let mut text = js.to_rust_string();
            for (from, to) in swaps {
                text = text.replace(from.as_str(), to);
            }
            *js = JsStr::from(text.as_str());
        }
    }
    for bytes in vm.host_state.values_mut() {
        for (from, to) in swaps {
            if let Some(replaced) = replace_bytes(bytes, from.as_bytes(), to.as_bytes()) {
                *bytes = replaced;
            }
        }
    }
}

fn contains_any(js: &JsStr, swaps: &[(String, String)]) -> bool {
    let text = js.to_rust_string();
    swaps.iter().any(|(from, _)| text.contains(from.as_str()))
}

fn replace_bytes(haystack: &[u8], from: &[u8], to: &[u8]) -> Option<Vec<u8>> {
    if from.is_empty() || haystack.len() < from.len() || !haystack.windows(from.len()).any(|w| w == from) {
        return None;
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_cut_out_and_joined_back() {
        let s = Secrets::new(vec![("KEY".into(), "sk-123".into()), ("LONG".into(), "sk-1234567".into())]);
        assert_eq!(redact_text(&s, "no secret"), None);
        let parts = redact_text(&s, "Bearer sk-123 and sk-1234567!").unwrap();
        assert_eq!(parts, json!(["Bearer ", {"$secret": "KEY"}, " and ", {"$secret": "LONG"}, "!"]));
        assert_eq!(reveal_parts(&s, &parts).unwrap(), "Bearer sk-123 and sk-1234567!");
        assert!(reveal_parts(&Secrets::default(), &parts).is_err());
        assert_eq!(replace_bytes(b"a=sk-123;", b"sk-123", b"X").unwrap(), b"a=X;");
    }
}
