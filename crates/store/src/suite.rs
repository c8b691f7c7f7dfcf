//! The store's behaviour, written once and run against every backend (sqlite/tests.rs and
//! pg/tests.rs instantiate [`store_suite!`] with their own fresh-store constructor).

use amber_durable::image::PendingOp;
use amber_durable::journal::OpKind;
use amber_durable::policy::Policy;
use amber_durable::store::{NewSession, SessionStatus, Source};
use serde_json::json;

use crate::types::*;
use crate::{Progress, SliceEnd, Store};

/// One `#[test]` per suite case, each on a fresh store from `$make(label)`, an expression
/// of type `Option<Box<dyn Store>>` (None: the backend is not available here, see its tests).
macro_rules! store_suite {
    ($make:expr) => {
        #[test]
        fn programs_are_content_addressed_and_paths_checked() {
            if let Some(store) = $make("programs_0") {
                $crate::suite::programs_are_content_addressed_and_paths_checked(&*store);
            }
        }
        #[test]
        fn creating_with_a_client_id_is_idempotent() {
            if let Some(store) = $make("creating_1") {
                $crate::suite::creating_with_a_client_id_is_idempotent(&*store);
            }
        }
        #[test]
        fn resolving_twice_is_idempotent_and_a_different_value_conflicts() {
            if let Some(store) = $make("resolving_2") {
                $crate::suite::resolving_twice_is_idempotent_and_a_different_value_conflicts(&*store);
            }
        }
        #[test]
        fn an_expired_claim_goes_to_another_worker_and_cannot_complete() {
            if let Some(store) = $make("an_3") {
                $crate::suite::an_expired_claim_goes_to_another_worker_and_cannot_complete(&*store);
            }
        }
        #[test]
        fn failures_retry_with_backoff_until_attempts_run_out() {
            if let Some(store) = $make("failures_4") {
                $crate::suite::failures_retry_with_backoff_until_attempts_run_out(&*store);
            }
        }
        #[test]
        fn finishing_a_slice_reconciles_operations_and_cancel_waits_for_the_slice() {
            if let Some(store) = $make("finishing_5") {
                $crate::suite::finishing_a_slice_reconciles_operations_and_cancel_waits_for_the_slice(&*store);
            }
        }
        #[test]
        fn a_finished_slice_commits_its_last_output_with_its_status() {
            if let Some(store) = $make("finished_6") {
                $crate::suite::a_finished_slice_commits_its_last_output_with_its_status(&*store);
            }
        }
        #[test]
        fn tenants_take_turns_at_tool_worker_claims() {
            if let Some(store) = $make("turns_7") {
                $crate::suite::tenants_take_turns_at_tool_worker_claims(&*store);
            }
        }
        #[test]
        fn blobs_nothing_names_go_once_put_before_the_cutoff() {
            if let Some(store) = $make("blobs_8") {
                $crate::suite::blobs_nothing_names_go_once_put_before_the_cutoff(&*store);
            }
        }
    };
}
pub(crate) use store_suite;

fn spec(program: &str) -> SessionSpec {
    serde_json::from_value(json!({ "program": program, "entry": "agent.js" })).unwrap()
}

fn call(id: u64, name: &str) -> PendingOp {
    PendingOp { id, seq: id, kind: OpKind::Call, name: name.into(), args: json!({ "n": id }), due_time_ms: None }
}

fn new_session() -> NewSession {
    NewSession {
        entry: "/app/agent.js".into(),
        module: false,
        policy: Policy::durable(),
        sources: vec![Source::new("/app/agent.js", "1")],
    }
}

/// A session that ran one slice and now waits on `pending`.
fn suspended(store: &dyn Store, id: &str, pending: &[PendingOp], policy: OpPolicy) {
    suspended_as(store, id, &spec("p"), pending, policy);
}

/// [`suspended`] with its own spec (a tenant).
fn suspended_as(store: &dyn Store, id: &str, spec: &SessionSpec, pending: &[PendingOp], policy: OpPolicy) {
    store.create_session(Some(id), spec).unwrap();
    let mut slice = store.open_slice(id).unwrap();
    slice.create_durable(&new_session()).unwrap();
    slice
        .finish(
            Progress::default(),
            SliceEnd {
                durable: SessionStatus::Suspended,
                status: ServerStatus::Suspended,
                outcome: None,
                pending,
                policy: &|_| policy,
                key: &|op| format!("{id}:{}", op.seq),
            },
        )
        .unwrap();
}

pub fn programs_are_content_addressed_and_paths_checked(store: &dyn Store) {
    let files = vec![("b.js".to_string(), b"2".to_vec()), ("a.js".to_string(), b"1".to_vec())];
    let first = store.put_program(&files).unwrap();
    let reversed: Vec<_> = files.iter().rev().cloned().collect();
    assert_eq!(store.put_program(&reversed).unwrap().id, first.id);
    assert_eq!(first.files[0].path, "a.js");
    assert_ne!(store.put_program(&[("a.js".into(), b"3".to_vec())]).unwrap().id, first.id);
    for bad in ["../x", "/abs", "a//b", "a/./b", ""] {
        assert!(matches!(store.put_program(&[(bad.into(), vec![])]), Err(StoreError::Invalid(_))), "{bad:?}");
    }
    let dup = vec![("a.js".to_string(), b"1".to_vec()), ("a.js".to_string(), b"2".to_vec())];
    assert!(matches!(store.put_program(&dup), Err(StoreError::Invalid(_))));
}

pub fn creating_with_a_client_id_is_idempotent(store: &dyn Store) {
    let (row, created) = store.create_session(Some("job-1"), &spec("p")).unwrap();
    assert!(created);
    assert_eq!(row.status, ServerStatus::Queued);
    let (again, created) = store.create_session(Some("job-1"), &spec("p")).unwrap();
    assert!(!created);
    assert_eq!(again.order, row.order);
    assert!(matches!(store.create_session(Some("job-1"), &spec("q")), Err(StoreError::Conflict(_))));
    let (generated, _) = store.create_session(None, &spec("p")).unwrap();
    assert!(generated.id.starts_with("s-"));
    let listed = store.list_sessions(&SessionFilter { limit: 10, ..Default::default() }).unwrap();
    assert_eq!(listed.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["job-1", generated.id.as_str()]);
    let after =
        store.list_sessions(&SessionFilter { after: Some(row.order), limit: 10, ..Default::default() }).unwrap();
    assert_eq!(after.len(), 1);
}

pub fn resolving_twice_is_idempotent_and_a_different_value_conflicts(store: &dyn Store) {
    suspended(store, "r", &[call(1, "search")], OpPolicy::default());
    let ok = OpResult::Result(json!({ "a": 1 }));
    assert_eq!(store.resolve_op("r", 1, &ok, 0).unwrap(), ResolveOutcome::Accepted);
    assert_eq!(store.resolve_op("r", 1, &ok, 0).unwrap(), ResolveOutcome::Duplicate);
    assert!(matches!(store.resolve_op("r", 1, &OpResult::Result(json!(2)), 0), Err(StoreError::Conflict(_))));
    assert!(matches!(store.resolve_op("r", 9, &ok, 0), Err(StoreError::NotFound { what: "operation", .. })));
    assert!(matches!(store.resolve_op("nope", 1, &ok, 0), Err(StoreError::NotFound { what: "session", .. })));
    assert_eq!(store.runnable_sessions().unwrap(), vec![("r".to_string(), "default".to_string())]);
    let slice = store.open_slice("r").unwrap();
    assert_eq!(slice.undelivered().unwrap(), vec![(1, ok)]);
}

pub fn an_expired_claim_goes_to_another_worker_and_cannot_complete(store: &dyn Store) {
    let policy = OpPolicy { timeout_ms: 100, max_attempts: 3, backoff_ms: 50 };
    suspended(store, "c", &[call(1, "search"), call(2, "other")], policy);
    let names = vec!["search".to_string()];
    let first = store.claim_ops(&names, 10, 1_000).unwrap();
    assert_eq!(first.len(), 1);
    assert_eq!((first[0].op, first[0].attempt, first[0].claim_expires_ms), (1, 1, 1_100));
    assert_eq!(first[0].idempotency_key, "c:1");
    assert!(store.claim_ops(&names, 10, 1_050).unwrap().is_empty(), "claimed until it expires");
    let second = store.claim_ops(&names, 10, 1_200).unwrap();
    assert_eq!(second[0].attempt, 2);
    let value = OpResult::Result(json!("ok"));
    assert!(matches!(store.complete_claim(&first[0].id, &value, 1_210), Err(StoreError::Conflict(_))));
    assert_eq!(store.complete_claim(&second[0].id, &value, 1_210).unwrap(), ClaimOutcome::Completed);
    assert_eq!(store.complete_claim(&second[0].id, &value, 1_220).unwrap(), ClaimOutcome::Duplicate);
    assert!(matches!(store.complete_claim("c:9:1", &value, 0), Err(StoreError::NotFound { .. })));
    assert!(matches!(store.complete_claim("garbage", &value, 0), Err(StoreError::NotFound { .. })));
    let any = store.claim_ops(&[], 10, 1_300).unwrap();
    assert_eq!(any.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["other"]);
}

pub fn tenants_take_turns_at_tool_worker_claims(store: &dyn Store) {
    let policy = OpPolicy { timeout_ms: 10_000, max_attempts: 1, backoff_ms: 0 };
    let tenant = |name: &str| -> SessionSpec {
        serde_json::from_value(json!({ "program": "p", "entry": "agent.js", "tenant": name })).unwrap()
    };
    // The big tenant's calls were all issued first; the small one's come after them.
    for n in 0..3 {
        suspended_as(store, &format!("big-{n}"), &tenant("big"), &[call(1, "f"), call(2, "f")], policy);
    }
    suspended_as(store, "small-0", &tenant("small"), &[call(1, "f")], policy);
    suspended_as(store, "small-1", &tenant("small"), &[call(1, "f")], policy);
    let claimed = |claims: Vec<Claim>| -> Vec<String> {
        let mut names: Vec<String> = claims.iter().map(|c| format!("{}:{}", c.session, c.op)).collect();
        names.sort();
        names
    };
    // Two claims: one of each tenant, each tenant's oldest, not the big tenant's first two.
    assert_eq!(claimed(store.claim_ops(&[], 2, 1_000).unwrap()), ["big-0:1", "small-0:1"]);
    assert_eq!(claimed(store.claim_ops(&[], 2, 1_000).unwrap()), ["big-0:2", "small-1:1"]);
    // The small tenant has nothing left: the big one's calls follow in their order.
    assert_eq!(claimed(store.claim_ops(&[], 3, 1_000).unwrap()), ["big-1:1", "big-1:2", "big-2:1"]);
}

pub fn failures_retry_with_backoff_until_attempts_run_out(store: &dyn Store) {
    let policy = OpPolicy { timeout_ms: 1_000, max_attempts: 2, backoff_ms: 100 };
    suspended(store, "f", &[call(1, "flaky")], policy);
    let fail = OpResult::Error("boom".into());
    let claim = store.claim_ops(&[], 1, 0).unwrap().remove(0);
    assert_eq!(store.complete_claim(&claim.id, &fail, 10).unwrap(), ClaimOutcome::Retrying(110));
    assert_eq!(store.complete_claim(&claim.id, &fail, 11).unwrap(), ClaimOutcome::Duplicate);
    assert_eq!(store.next_retry_ms().unwrap(), Some(110));
    assert!(store.claim_ops(&[], 1, 100).unwrap().is_empty(), "not before its backoff");
    let retry = store.claim_ops(&[], 1, 110).unwrap().remove(0);
    assert_eq!(retry.attempt, 2);
    assert_eq!(store.complete_claim(&retry.id, &fail, 120).unwrap(), ClaimOutcome::Completed);
    let ops = store.session_ops("f").unwrap();
    assert_eq!((ops[0].state, ops[0].result.clone()), (OpState::Completed, Some(fail)));
}

pub fn finishing_a_slice_reconciles_operations_and_cancel_waits_for_the_slice(store: &dyn Store) {
    suspended(store, "x", &[call(1, "a"), call(2, "b")], OpPolicy::default());
    store.resolve_op("x", 1, &OpResult::Result(json!(1)), 0).unwrap();
    {
        let mut slice = store.open_slice("x").unwrap();
        assert!(!store.request_cancel("x").unwrap(), "a running slice is cancelled when it ends");
        slice
            .finish(
                Progress::default(),
                SliceEnd {
                    durable: SessionStatus::Suspended,
                    status: ServerStatus::Suspended,
                    outcome: None,
                    pending: &[call(2, "b"), call(3, "c")],
                    policy: &|_| OpPolicy::default(),
                    key: &|op| op.seq.to_string(),
                },
            )
            .unwrap();
        assert_eq!(slice.row().status, ServerStatus::Cancelled);
    }
    let states: Vec<_> = store.session_ops("x").unwrap().iter().map(|op| (op.id, op.state)).collect();
    assert_eq!(states, [(1, OpState::Delivered), (2, OpState::Cancelled), (3, OpState::Cancelled)]);
    assert!(matches!(store.open_slice("x"), Err(StoreError::Conflict(_))));
    let counts = store.counts().unwrap();
    assert_eq!(counts.sessions.get(&ServerStatus::Cancelled), Some(&1));
}

pub fn a_finished_slice_commits_its_last_output_with_its_status(store: &dyn Store) {
    use amber_durable::store::{OutputChunk, OutputStream};
    store.create_session(Some("f"), &spec("p")).unwrap();
    let mut slice = store.open_slice("f").unwrap();
    slice.create_durable(&new_session()).unwrap();
    let early = [OutputChunk { stream: OutputStream::Stdout, text: "early\n".into() }];
    slice.commit_progress(Progress { output: &early, ..Progress::default() }).unwrap();
    let last = [OutputChunk { stream: OutputStream::Stderr, text: "last\n".into() }];
    slice
        .finish(
            Progress { output: &last, ..Progress::default() },
            SliceEnd {
                durable: SessionStatus::Completed,
                status: ServerStatus::Completed,
                outcome: Some(json!({ "value": 7 })),
                pending: &[],
                policy: &|_| OpPolicy::default(),
                key: &|op| format!("f:{}", op.seq),
            },
        )
        .unwrap();
    assert_eq!(slice.row().status, ServerStatus::Completed);
    drop(slice);
    let output: Vec<_> = store.output("f", 0, 10).unwrap().into_iter().map(|c| (c.stream, c.text)).collect();
    assert_eq!(output, [(OutputStream::Stdout, "early\n".to_string()), (OutputStream::Stderr, "last\n".to_string())]);
    let row = store.session("f").unwrap().unwrap();
    assert_eq!(row.status, ServerStatus::Completed);
    assert_eq!(row.outcome, Some(json!({ "value": 7 })));
    assert!(matches!(store.open_slice("f"), Err(StoreError::Conflict(_))), "a finished session runs no more");
}

pub fn blobs_nothing_names_go_once_put_before_the_cutoff(store: &dyn Store) {
    use amber_durable::digest::Digest;
    use amber_durable::image::{encode_image, Manifest};
    use amber_durable::journal::{CallResult, Journal, OpKind, RecordDraft};
    let blob = |text: &str| (Digest::of(text.as_bytes()), text.as_bytes().to_vec());
    let [file, code, body, old_orphan, fresh] =
        ["captured file", "compiled code", "a network body", "an old orphan", "put by a slice in flight"].map(blob);
    let program = store.put_program(&[("agent.js".into(), b"the program's file".to_vec())]).unwrap();
    let program_file = Digest::of(b"the program's file");
    // A slice that captured a file, read a body stored as a blob and imaged code blobs.
    store.create_session(Some("g"), &spec(&program.id)).unwrap();
    let mut slice = store.open_slice("g").unwrap();
    slice.create_durable(&new_session()).unwrap();
    let mut journal = Journal::new();
    journal.append(RecordDraft::run_start(1_000, [3; 32])).unwrap();
    let found = json!({"type": "file", "sha256": file.0.to_string(), "size": 13, "mode": 420, "mtime_ms": 0});
    journal.append(RecordDraft::capture("fs.lstat", json!({"path": "data.txt"}), found, 1_000)).unwrap();
    journal.append(RecordDraft::intent(OpKind::Call, "net.read", json!({}), 1_000)).unwrap();
    let read = CallResult::Ok(json!({"blob": body.0.to_string(), "size": 14}));
    journal.append(RecordDraft::completion(OpKind::Call, 2, "net.read", read, 1, 1_001)).unwrap();
    let mut manifest = Manifest::new("engine-test", amber_durable::policy::Policy::durable());
    manifest.journal_head = journal.head();
    manifest.code_blobs = vec![code.0];
    let image = encode_image(&manifest, b"heap", None).unwrap();
    let blobs = [&file, &code, &body, &old_orphan].map(|(h, b)| (*h, &b[..]));
    slice
        .commit_progress(Progress {
            blobs: &blobs,
            records: journal.records(),
            image: Some(&image),
            ..Progress::default()
        })
        .unwrap();
    drop(slice);
    std::thread::sleep(std::time::Duration::from_millis(5));
    let cutoff = crate::now_ms();
    std::thread::sleep(std::time::Duration::from_millis(5));
    // Another slice stores a blob before the records that will name it.
    store.create_session(Some("h"), &spec(&program.id)).unwrap();
    let mut in_flight = store.open_slice("h").unwrap();
    in_flight.create_durable(&new_session()).unwrap();
    in_flight.commit_progress(Progress { blobs: &[(fresh.0, &fresh.1[..])], ..Progress::default() }).unwrap();

    let done = store.collect_blobs(cutoff).unwrap();

    assert_eq!((done.removed, done.young, done.live), (1, 1, 4), "{done:?}");
    assert_eq!(done.bytes, old_orphan.1.len() as u64);
    assert_eq!(store.blob(&old_orphan.0).unwrap(), None);
    for kept in [&program_file, &file.0, &code.0, &body.0, &fresh.0] {
        assert!(store.blob(kept).unwrap().is_some(), "{kept} was removed");
    }
    // The slice in flight commits its record; from then on the blob is named, at any cutoff.
    let mut records = Journal::new();
    records.append(RecordDraft::run_start(1_000, [4; 32])).unwrap();
    let found = json!({"type": "file", "sha256": fresh.0.to_string(), "size": 24, "mode": 420, "mtime_ms": 0});
    records.append(RecordDraft::capture("fs.lstat", json!({"path": "new.txt"}), found, 1_000)).unwrap();
    in_flight.commit_progress(Progress { records: records.records(), ..Progress::default() }).unwrap();
    drop(in_flight);
    let done = store.collect_blobs(crate::now_ms() + 1).unwrap();
    assert_eq!((done.removed, done.young, done.live), (0, 0, 5), "{done:?}");
    // What the session names still travels with it.
    let export = amber_durable::export::decode_export(&store.export("g").unwrap()).unwrap();
    let carried: Vec<_> = export.blobs.iter().map(|(h, _)| *h).collect();
    for named in [file.0, body.0, code.0] {
        assert!(carried.contains(&named), "the export lacks {named}");
    }
}
