//! RFC 8785 JSON Canonicalization Scheme (JCS) for `serde_json::Value`, and the args hash.
//!
//! - Object members are sorted by their keys' UTF-16 code units (not UTF-8 bytes).
//! - Numbers are IEEE 754 doubles printed as ECMAScript `Number::toString` does (shortest
//!   round-trip digits; `-0` prints `0`; integers below 1e21 print without an exponent;
//!   otherwise `1e+21`, `1.5e-7` style). Integers beyond 2^53 are rounded to a double first,
//!   exactly as a JS engine would when it parses them.
//! - Strings escape only `"`, `\` and U+0000..U+001F (`\b \t \n \f \r` short forms, other
//!   controls as lower-case `\u00xx`); everything else is written as UTF-8.
//! - No whitespace.
//!
//! The writer is iterative, so a deeply nested value cannot overflow the Rust stack.
//! Spec: <https://www.rfc-editor.org/rfc/rfc8785>.

use serde_json::Value;

use crate::digest::sha256;
use crate::error::{DurableError, Result};

/// Deepest array/object nesting accepted in journaled or imaged JSON (serde_json's parser
/// stops at 128, so anything deeper could be written but never read back).
pub const MAX_JSON_DEPTH: usize = 100;

/// The canonical (RFC 8785) text of `value`.
pub fn to_canonical_string(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// The canonical (RFC 8785) UTF-8 bytes of `value`.
pub fn to_canonical_bytes(value: &Value) -> Vec<u8> {
    to_canonical_string(value).into_bytes()
}

/// sha256 of the canonical bytes of `value`: the args hash of a host operation (DESIGN §7).
pub fn args_hash(value: &Value) -> [u8; 32] {
    sha256(to_canonical_string(value).as_bytes())
}

/// One pending piece of output in the iterative writer.
enum Task<'a> {
    Value(&'a Value),
    Key(&'a str),
    Text(&'static str),
}

/// Appends the canonical text of `value` to `out`.
pub fn write_canonical(value: &Value, out: &mut String) {
    let mut stack = vec![Task::Value(value)];
    while let Some(task) = stack.pop() {
        match task {
            Task::Text(text) => out.push_str(text),
            Task::Key(key) => {
                write_string(key, out);
                out.push(':');
            }
            Task::Value(Value::Null) => out.push_str("null"),
            Task::Value(Value::Bool(true)) => out.push_str("true"),
            Task::Value(Value::Bool(false)) => out.push_str("false"),
            Task::Value(Value::Number(number)) => write_number(number, out),
            Task::Value(Value::String(text)) => write_string(text, out),
            Task::Value(Value::Array(items)) => {
                out.push('[');
                stack.push(Task::Text("]"));
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push(Task::Value(item));
                    if index > 0 {
                        stack.push(Task::Text(","));
                    }
                }
            }
            Task::Value(Value::Object(map)) => {
                out.push('{');
                stack.push(Task::Text("}"));
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                for (index, (key, item)) in entries.into_iter().enumerate().rev() {
                    stack.push(Task::Value(item));
                    stack.push(Task::Key(key));
                    if index > 0 {
                        stack.push(Task::Text(","));
                    }
                }
            }
        }
    }
}

/// Writes a JSON number as the ECMAScript Number::toString of its f64 value.
fn write_number(number: &serde_json::Number, out: &mut String) {
    let value = match number.as_f64() {
        Some(value) => value,
        // Only reachable with serde_json's arbitrary_precision: go through the decimal text.
        None => number.to_string().parse::<f64>().unwrap_or(f64::NAN),
    };
    out.push_str(&format_number(value));
}

/// ECMAScript Number::toString(10) of `value` (NaN and ±Infinity print as JS does; JSON
/// values never hold them).
pub fn format_number(value: f64) -> String {
    ryu_js::Buffer::new().format(value).to_string()
}

/// Writes `text` as a JSON string literal with JCS escaping.
fn write_string(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{0c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            control if u32::from(control) < 0x20 => {
                let code = u32::from(control) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[code >> 4]));
                out.push(char::from(HEX[code & 0x0f]));
            }
            other => out.push(other),
        }
    }
    out.push('"');
}

/// Deepest array/object nesting in `value` (a scalar has depth 0).
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((value, level)) = stack.pop() {
        match value {
            Value::Array(items) => {
                deepest = deepest.max(level + 1);
                stack.extend(items.iter().map(|child| (child, level + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(level + 1);
                stack.extend(map.values().map(|child| (child, level + 1)));
            }
            _ => {}
        }
    }
    deepest
}

/// Fails with `InvalidValue` naming `what` if `value` nests deeper than [`MAX_JSON_DEPTH`].
pub fn check_depth(value: &Value, what: &str) -> Result<()> {
    let found = depth(value);
    if found > MAX_JSON_DEPTH {
        return Err(DurableError::InvalidValue {
            what: what.to_string(),
            detail: format!("JSON nests {found} levels deep; the limit is {MAX_JSON_DEPTH}"),
        });
    }
    Ok(())
}

/// Parses JSON text (serde_json's parser: recursion-limited, exact float round trip).
pub fn parse(text: &str) -> std::result::Result<Value, serde_json::Error> {
    serde_json::from_str(text)
}

/// Serde adapter for a `Value` field: plain JSON in human-readable formats, canonical JSON
/// text (a string) in bincode, which cannot decode self-describing data.
pub(crate) mod json_text {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    /// Serializes `value` (see the module doc).
    pub(crate) fn serialize<S: Serializer>(value: &Value, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            value.serialize(serializer)
        } else {
            serializer.serialize_str(&super::to_canonical_string(value))
        }
    }

    /// Deserializes a value written by [`serialize`].
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        if deserializer.is_human_readable() {
            Value::deserialize(deserializer)
        } else {
            let text = String::deserialize(deserializer)?;
            super::parse(&text).map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(bits: u64) -> String {
        to_canonical_string(&json!(f64::from_bits(bits)))
    }

    /// RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
    #[test]
    fn rfc8785_appendix_b_numbers() {
        let cases: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, expected) in cases {
            assert_eq!(number(bits), expected, "bits {bits:#018x}");
        }
    }

    /// RFC 8785 §3.2.2: the worked example.
    #[test]
    fn rfc8785_main_example() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        let value = parse(input).unwrap();
        assert_eq!(
            to_canonical_string(&value),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    /// RFC 8785 §3.2.3: keys sort by UTF-16 code units, so U+1F600 sorts before U+FB33.
    #[test]
    fn rfc8785_sorting_example() {
        let input = r#"{
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        let value = parse(input).unwrap();
        let text = to_canonical_string(&value);
        let expected = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
            \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
            \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}";
        assert_eq!(text, expected);
    }

    #[test]
    fn integers_and_escapes() {
        assert_eq!(to_canonical_string(&json!(u64::MAX)), "18446744073709552000");
        assert_eq!(to_canonical_string(&json!(-42)), "-42");
        assert_eq!(to_canonical_string(&json!(1e21)), "1e+21");
        assert_eq!(to_canonical_string(&json!(1e20)), "100000000000000000000");
        assert_eq!(to_canonical_string(&json!(-0.0)), "0");
        assert_eq!(
            to_canonical_string(&json!("\u{1}\u{8}\u{1f}\u{7f}\u{2028}")),
            "\"\\u0001\\b\\u001f\u{7f}\u{2028}\""
        );
        assert_eq!(to_canonical_string(&json!({"b": [], "a": {}})), r#"{"a":{},"b":[]}"#);
        assert_eq!(format_number(f64::NAN), "NaN");
    }

    #[test]
    fn args_hash_ignores_formatting() {
        let a = parse(r#"{ "x": 1.0, "y": [true] }"#).unwrap();
        let b = parse(r#"{"y":[true],"x":1}"#).unwrap();
        assert_eq!(args_hash(&a), args_hash(&b));
        assert_eq!(args_hash(&a), sha256(br#"{"x":1,"y":[true]}"#));
        assert_ne!(args_hash(&a), args_hash(&json!(null)));
    }

    #[test]
    fn canonical_text_round_trips() {
        let value = json!({"a": [0.1, 1e-7, 123456789012345680000.0, "\u{0}"], "b": null});
        let text = to_canonical_string(&value);
        assert_eq!(to_canonical_string(&parse(&text).unwrap()), text);
    }

    #[test]
    fn deep_values_do_not_overflow_and_are_limited() {
        let mut value = json!(1);
        for _ in 0..2000 {
            value = json!([value]);
        }
        let text = to_canonical_string(&value);
        assert_eq!(text.len(), 2 * 2000 + 1);
        assert_eq!(depth(&value), 2000);
        assert!(check_depth(&value, "deep").is_err());
        let mut ok = json!({});
        for _ in 1..MAX_JSON_DEPTH {
            ok = json!({ "k": ok });
        }
        assert_eq!(depth(&ok), MAX_JSON_DEPTH);
        check_depth(&ok, "ok").unwrap();
        assert_eq!(parse(&to_canonical_string(&ok)).unwrap(), ok);
    }
}
