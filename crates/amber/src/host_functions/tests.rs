use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Barrier};

use amber_durable::journal::OpKind;
use serde_json::json;

use super::*;
use crate::grants::Grants;

fn call(id: u64, name: &str) -> PendingOp {
    PendingOp { id, seq: id, kind: OpKind::Call, name: name.to_string(), args: json!({ "id": id }), due_time_ms: None }
}

fn ok(served: &Served) -> &serde_json::Value {
    match &served.result {
        CallResult::Ok(value) => value,
        CallResult::Err(e) => panic!("expected a result, got the error {e}"),
    }
}

fn err(served: &Served) -> &str {
    match &served.result {
        CallResult::Err(e) => e,
        CallResult::Ok(v) => panic!("expected an error, got {v}"),
    }
}

fn grants(text: &str) -> SharedGrants {
    Arc::new(Grants::from_text(text).unwrap())
}

#[test]
fn a_call_past_its_limit_rejects_and_its_late_answer_reaches_no_later_call() {
    let mut hosts = HostFunctions::default();
    hosts.set_default_timeout(Some(Duration::from_millis(50)));
    let (release, hold) = channel::<()>();
    hosts.add(
        "slow",
        Box::new(move |op: &PendingOp| {
            if op.id == 1 {
                let _ = hold.recv();
            }
            Ok(op.args["id"].clone())
        }),
    );
    let served = hosts.serve(&[call(1, "slow")], None);
    assert_eq!(err(&served[0]), "host function \"slow\" timed out after 50 ms");
    // Still hung: the next call queues behind it and times out too.
    let served = hosts.serve(&[call(2, "slow")], None);
    assert!(err(&served[0]).contains("timed out after"));
    // Released: the answers to 1 and 2 arrive late and are dropped; 3 gets its own.
    release.send(()).unwrap();
    let served = hosts.serve(&[call(3, "slow")], None);
    assert_eq!(ok(&served[0]), &json!(3));
}

#[test]
fn the_manifest_timeout_wins_over_the_default() {
    let mut hosts = HostFunctions::default();
    hosts.set_default_timeout(Some(Duration::from_secs(60)));
    hosts.add(
        "slow",
        Box::new(|_: &PendingOp| {
            std::thread::sleep(Duration::from_millis(500));
            Ok(json!(1))
        }),
    );
    let manifest = grants(r#"{ "host": { "slow": { "timeout_ms": 20 } } }"#);
    let started = Instant::now();
    let served = hosts.serve(&[call(1, "slow")], Some(&manifest));
    assert!(err(&served[0]).contains("after 20 ms"));
    assert!(started.elapsed() < Duration::from_millis(400), "gave up at the limit, not at the answer");
}

#[test]
fn calls_to_different_functions_run_at_once_and_come_back_in_operation_order() {
    // Each handler waits for the other: served one after another, this would never end.
    let both = Arc::new(Barrier::new(2));
    let mut hosts = HostFunctions::default();
    for name in ["a", "b"] {
        let both = both.clone();
        hosts.add(
            name,
            Box::new(move |op: &PendingOp| {
                both.wait();
                Ok(json!(op.id))
            }),
        );
    }
    let served = hosts.serve(&[call(7, "b"), call(8, "a")], None);
    assert_eq!((ok(&served[0]), ok(&served[1])), (&json!(7), &json!(8)));
}

#[test]
fn one_functions_calls_run_one_after_another() {
    let running = Arc::new(AtomicU32::new(0));
    let mut hosts = HostFunctions::default();
    let seen = running.clone();
    hosts.add(
        "f",
        Box::new(move |op: &PendingOp| {
            assert_eq!(seen.fetch_add(1, Ordering::SeqCst), 0, "never two at once");
            std::thread::sleep(Duration::from_millis(5));
            seen.fetch_sub(1, Ordering::SeqCst);
            Ok(json!(op.id))
        }),
    );
    let served = hosts.serve(&[call(1, "f"), call(2, "f"), call(3, "f")], None);
    let values: Vec<_> = served.iter().map(ok).collect();
    assert_eq!(values, vec![&json!(1), &json!(2), &json!(3)]);
}

#[test]
fn a_panicking_handler_fails_its_call_and_serves_the_next() {
    let mut hosts = HostFunctions::default();
    hosts.add(
        "p",
        Box::new(|op: &PendingOp| {
            if op.id == 1 {
                panic!("boom");
            }
            Ok(json!("fine"))
        }),
    );
    let served = hosts.serve(&[call(1, "p"), call(2, "p")], None);
    assert_eq!(err(&served[0]), "host function \"p\" panicked: boom");
    assert_eq!(ok(&served[1]), &json!("fine"));
}

#[test]
fn a_timed_out_attempt_is_retried_when_retry_on_names_timeout() {
    let calls = Arc::new(AtomicU32::new(0));
    let counter = calls.clone();
    let mut hosts = HostFunctions::default();
    hosts.add(
        "t",
        Box::new(move |_: &PendingOp| {
            if counter.fetch_add(1, Ordering::SeqCst) == 0 {
                std::thread::sleep(Duration::from_millis(200));
            }
            Ok(json!("second"))
        }),
    );
    let manifest = grants(
        r#"{ "host": { "t": { "timeout_ms": 30, "retry": { "max_attempts": 3, "backoff_ms": 250, "retry_on": ["timeout"] } } } }"#,
    );
    let served = hosts.serve(&[call(1, "t")], Some(&manifest));
    // The first attempt is given up on at 30 ms; the second starts after the backoff, when the
    // handler is free again, and answers. The first one's late answer is dropped.
    assert_eq!(ok(&served[0]), &json!("second"));
    let codes: Vec<_> = served[0].attempts.iter().map(|a| a.code.as_deref()).collect();
    assert_eq!(codes[0], Some("timeout"));
}
