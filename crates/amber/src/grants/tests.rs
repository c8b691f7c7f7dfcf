use serde_json::json;

use super::*;

/// The manifest of issue 23's example.
const EXAMPLE: &str = r#"{
  "host": {
    "search": { "args": { "type": "object", "required": ["q"],
                          "properties": { "q": { "type": "string", "minLength": 1 } } },
                "timeout_ms": 10000, "retry": { "max_attempts": 3, "backoff_ms": 200 } },
    "pay":    { "args": { "type": "object", "required": ["amount"] },
                "approve": { "when": { "/amount": { "gt": 100 } } } }
  },
  "approve_capabilities": ["FsDelete"],
  "net": { "allow": ["api.openai.com"] },
  "fs": { "readonly": false, "max_file_bytes": 10485760, "max_total_bytes": 104857600 },
  "random": "seeded", "crypto": "captured"
}"#;

#[test]
fn the_example_manifest_parses_and_decides() {
    let grants = Grants::from_text(EXAMPLE).unwrap();
    let m = grants.manifest();
    assert_eq!(m.host["search"].timeout_ms, Some(10_000));
    let retry = m.host["search"].retry.clone().unwrap();
    assert_eq!(
        (retry.max_attempts, retry.backoff_after(1), retry.backoff_after(2), retry.backoff_after(3)),
        (3, 200, 400, 800)
    );
    assert_eq!(m.net_allow, vec!["api.openai.com"]);
    assert_eq!(m.fs.max_file_bytes, Some(10_485_760));

    assert_eq!(grants.admit("search", &json!({ "q": "amber" })), Admission::Call);
    assert_eq!(grants.admit("delete_everything", &json!({})), Admission::Denied);
    assert_eq!(
        grants.admit("search", &json!({ "q": "" })),
        Admission::InvalidArgs { pointer: "/q".into(), reason: "\"\" is shorter than 1 character".into() }
    );
    match grants.admit("search", &json!({})) {
        Admission::InvalidArgs { pointer, reason } => {
            assert_eq!((pointer.as_str(), reason.contains("\"q\"")), ("", true))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(grants.admit("pay", &json!({ "amount": 50 })), Admission::Call);
    assert_eq!(grants.admit("pay", &json!({ "amount": 150 })), Admission::Approve { rule: "/amount gt 100".into() });
}

#[test]
fn the_hash_is_the_texts() {
    let text = r#"{"host":{"a":{},"b":{"timeout_ms":5}}}"#;
    assert_eq!(Grants::from_text(text).unwrap().hash(), Digest::of(text.as_bytes()));
}

#[test]
fn mistakes_are_named_by_key() {
    let err = |text: &str| Grants::from_text(text).unwrap_err();
    assert!(err(r#"{"hosts": {}}"#).starts_with("hosts: not a manifest key"), "{}", err(r#"{"hosts": {}}"#));
    assert!(err(r#"{"host": {"pay": {"aprove": true}}}"#).starts_with("host.pay.aprove: not a manifest key"));
    assert!(err(r#"{"host": {"pay": {"approve": {"when": {"amount": {"gt": 1}}}}}}"#).contains("not a JSON pointer"));
    assert!(
        err(r#"{"host": {"pay": {"args": {"type": "money"}}}}"#).starts_with("host.pay.args: not a usable JSON Schema")
    );
    assert!(err(r#"{"host": {"pay": {"args": {"$ref": "https://example.com/s.json"}}}}"#).starts_with("host.pay.args"));
    assert!(err(r#"{"host": {"pay": {"retry": {"max_attempts": 0}}}}"#).contains("max_attempts"));
    assert!(err(r#"{"approve_capabilities": ["Timer"]}"#).contains("not supported by this runtime yet"));
    assert!(err(r#"{"approve_capabilities": ["fsdelete"]}"#).contains("is not a capability"));
    assert!(Grants::from_text(r#"{"approve_capabilities": []}"#).is_ok());
    let both = Grants::from_text(r#"{"approve_capabilities": ["Net", "FsDelete", "Net"]}"#).unwrap();
    assert_eq!(
        both.manifest().approve_capabilities,
        [amber_durable::capability::Capability::Net, amber_durable::capability::Capability::FsDelete]
    );
    assert!(err(r#"{"random": "host"}"#).starts_with("random:"));
    assert!(err(r#"{"net": {"allow": ["http://x"]}}"#).starts_with("net.allow"));
    assert!(err("[1]").contains("expected an object"));
    assert!(err("{").starts_with("not JSON"));
}

#[test]
fn results_are_checked_against_their_schema() {
    let grants = Grants::from_text(r#"{"host": {"n": {"result": {"type": "integer"}}}}"#).unwrap();
    assert_eq!(grants.check_result("n", &json!(3)), None);
    assert_eq!(grants.check_result("n", &json!("3")).map(|f| f.pointer), Some(String::new()));
    assert_eq!(grants.check_result("other", &json!("3")), None);
}

#[test]
fn retry_waits_grow_to_their_cap() {
    let grants =
        Grants::from_text(r#"{"host": {"f": {"retry": {"max_attempts": 9, "backoff_ms": 100, "max_backoff_ms": 250, "retry_on": ["timeout"]}}}}"#)
            .unwrap();
    let retry = grants.grant("f").unwrap().retry.clone().unwrap();
    assert_eq!((1..=4).map(|n| retry.backoff_after(n)).collect::<Vec<_>>(), vec![100, 200, 250, 250]);
    assert!(retry.retries(Some("timeout")) && !retry.retries(Some("exit:1")) && !retry.retries(None));
}
