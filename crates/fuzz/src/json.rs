//! `json`: bytes into `JSON.parse`, and what it returns through `JSON.stringify` and back, under
//! fuel. Invariants: no panic; on valid UTF-8, `JSON.parse` accepts exactly what serde_json
//! accepts (outside serde_json's documented limits: nesting past 128, lone surrogate escapes,
//! numbers out of f64 range); accepted text stringifies to JSON that parses back to the same
//! value (numbers compared as doubles), and stringify is idempotent.

use crate::exec;
use serde_json::Value;

const DRIVER: &str = r#"
var ok = false, out = null, again = null;
try {
  const v = JSON.parse(S);
  ok = true;
  out = JSON.stringify(v);
  again = out === undefined ? null : JSON.stringify(JSON.parse(out));
  JSON.stringify(v, null, 2);
  JSON.stringify(v, (k, x) => x);
} catch (e) {
  if (!(e instanceof SyntaxError) && !ok) throw e;
}
"#;

/// `json` on raw fuzz bytes.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut vm = exec::new_vm();
    let global = vm.global_object();
    let s = vm.str(&text);
    vm.set_property(global, "S", s);
    if exec::run_script(&mut vm, DRIVER).is_err() {
        return; // a limit, or a throw from deep nesting: no verdict
    }
    let ok = global_string(&mut vm, "ok") == Some("true".into());
    let out = global_string(&mut vm, "out");
    let again = global_string(&mut vm, "again");
    if ok {
        assert_eq!(out, again, "JSON.stringify is not idempotent on {text:?}");
    }
    let Ok(input) = std::str::from_utf8(data) else { return };
    let reference = serde_json::from_str::<Value>(input);
    match &reference {
        Ok(expected) => {
            assert!(ok, "JSON.parse rejected what serde_json accepts: {input:?}");
            if let Some(out) = out.as_deref() {
                if let Ok(got) = serde_json::from_str::<Value>(out) {
                    assert!(same(expected, &got), "round trip changed the value: {input:?} -> {out}");
                }
            }
        }
        Err(e) => {
            let msg = e.to_string();
            // serde_json refuses unpaired surrogate escapes, which JSON.parse accepts (JS
            // strings are UTF-16): it reports some as "surrogate", a high one followed by other
            // text as "unexpected end of hex escape".
            let beyond_reference = msg.contains("recursion limit")
                || msg.contains("surrogate")
                || msg.contains("number out of range")
                || (msg.contains("hex escape") && has_high_surrogate_escape(input));
            if !beyond_reference {
                assert!(!ok, "JSON.parse accepted what serde_json rejects ({msg}): {input:?}");
            }
        }
    }
}

/// True if `text` has a `\uD800`–`\uDBFF` escape (a high surrogate, paired or not).
fn has_high_surrogate_escape(text: &str) -> bool {
    text.as_bytes().windows(6).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && std::str::from_utf8(&w[2..6])
                .ok()
                .and_then(|h| u16::from_str_radix(h, 16).ok())
                .is_some_and(|u| (0xD800..0xDC00).contains(&u))
    })
}

fn global_string(vm: &mut amber_engine::Vm, name: &str) -> Option<String> {
    let global = vm.global_object();
    let key = vm.key(name);
    let v = global.as_object().and_then(|g| amber_engine::runtime::property::get(vm, g, key, global).ok())?;
    if v.is_null() || v.is_undefined() {
        return None;
    }
    Some(vm.to_display_string(v))
}

/// Equal as JSON values, numbers compared as doubles (JS has no other kind).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || ((x - y) / x).abs() < 1e-15
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
