//! Blob collection on a real store file: what a deleted session named goes unless another
//! session names it, orphans go once older than the grace period, and fresh ones stay.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::json;

use super::*;
use crate::image::{encode_image, Manifest};
use crate::journal::{CallResult, Journal, OpKind, RecordDraft};
use crate::policy::Policy;
use crate::store::{now_ms, NewSession, Source, STORE_FILE, STORE_SCHEMA_VERSION};

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("amber-blob-gc-test-{}-{label}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_session() -> NewSession {
    NewSession {
        entry: "main.js".into(),
        module: false,
        policy: Policy::durable(),
        sources: vec![Source::new("main.js", "1")],
    }
}

fn blob(text: &str) -> (Digest, Vec<u8>) {
    (Digest::of(text.as_bytes()), text.as_bytes().to_vec())
}

/// A journal that captures `files` and reads `bodies` as network blobs, and an image after
/// it naming `code` as code blobs.
fn session_rows(files: &[&Digest], bodies: &[&Digest], code: &[&Digest]) -> (Journal, Vec<u8>) {
    let mut journal = Journal::new();
    journal.append(RecordDraft::run_start(1_000, [3; 32])).unwrap();
    for (i, hash) in files.iter().enumerate() {
        let found = json!({"type": "file", "sha256": hash.to_string(), "size": 1, "mode": 420, "mtime_ms": 0});
        journal.append(RecordDraft::capture("fs.lstat", json!({"path": format!("f{i}")}), found, 1_000)).unwrap();
    }
    for hash in bodies {
        let seq = journal.records().len() as u64;
        journal.append(RecordDraft::intent(OpKind::Call, "net.read", json!({}), 1_000)).unwrap();
        let read = CallResult::Ok(json!({"blob": hash.to_string(), "size": 5000}));
        journal.append(RecordDraft::completion(OpKind::Call, seq, "net.read", read, 1, 1_001)).unwrap();
    }
    let mut manifest = Manifest::new("engine-test", Policy::durable());
    manifest.journal_head = journal.head();
    manifest.code_blobs = code.iter().map(|h| **h).collect();
    manifest.code_blobs.sort();
    (journal, encode_image(&manifest, b"heap", None).unwrap())
}

fn store_session(store: &SessionStore, name: &str, rows: &(Journal, Vec<u8>)) {
    store.create_session(Some(name), &new_session()).unwrap();
    let lease = store.acquire(name).unwrap();
    store.append_progress(&lease, rows.0.records(), &[], Some(&rows.1)).unwrap();
}

fn stored(store: &SessionStore, hash: &Digest) -> bool {
    store.blob(hash).unwrap().is_some()
}

/// Makes every stored blob look put at the epoch (older than any grace period).
fn age_all(store: &SessionStore) {
    store.connection().execute("UPDATE blobs SET last_put = 0", []).unwrap();
}

#[test]
fn deleting_a_session_removes_only_the_blobs_no_other_session_names() {
    let dir = TempDir::new("delete");
    let store = SessionStore::open(&dir.0).unwrap();
    let [shared, file, body, code, other_code, fresh] =
        ["shared file", "a's file", "a's body", "a's code", "b's code", "a's fresh file"].map(blob);
    let all = [&shared, &file, &body, &code, &other_code];
    store.put_blobs(&all.iter().map(|(h, b)| (*h, &b[..])).collect::<Vec<_>>()).unwrap();
    store_session(&store, "a", &session_rows(&[&shared.0, &file.0, &fresh.0], &[&body.0], &[&code.0]));
    // b captured the shared file too, and its image names a code blob of its own.
    store_session(&store, "b", &session_rows(&[&shared.0], &[], &[&other_code.0]));
    age_all(&store);
    // Put after the ageing: younger than the grace period, so kept though only a names it.
    store.put_blobs(&[(fresh.0, &fresh.1[..])]).unwrap();

    let done = store.delete("a").unwrap();

    assert_eq!((done.removed, done.young, done.live), (3, 1, 1), "{done:?}");
    assert_eq!(done.bytes, (file.1.len() + body.1.len() + code.1.len()) as u64);
    assert!(!stored(&store, &file.0) && !stored(&store, &body.0) && !stored(&store, &code.0));
    assert!(stored(&store, &shared.0) && stored(&store, &other_code.0) && stored(&store, &fresh.0));
    store.load("b").unwrap();
}

#[test]
fn collecting_removes_old_orphans_and_keeps_named_and_fresh_blobs() {
    let dir = TempDir::new("collect");
    let store = SessionStore::open(&dir.0).unwrap();
    let [named, old_orphan, fresh_orphan, reput] = ["named", "old orphan", "fresh orphan", "re-put orphan"].map(blob);
    store
        .put_blobs(
            &[named.clone(), old_orphan.clone(), reput.clone()].iter().map(|(h, b)| (*h, &b[..])).collect::<Vec<_>>(),
        )
        .unwrap();
    store_session(&store, "s", &session_rows(&[&named.0], &[], &[]));
    age_all(&store);
    // A writer stores a blob (new, or one already stored) before the records naming it.
    store.put_blobs(&[(fresh_orphan.0, &fresh_orphan.1[..]), (reput.0, &reput.1[..])]).unwrap();

    let done = store.collect_blobs(now_ms() - BLOB_GRACE_MS).unwrap();

    assert_eq!((done.removed, done.young, done.live), (1, 2, 1), "{done:?}");
    assert!(!stored(&store, &old_orphan.0));
    assert!(stored(&store, &named.0) && stored(&store, &fresh_orphan.0) && stored(&store, &reput.0));
    // With no grace, the fresh orphans go too; the named blob never does.
    let done = store.collect_blobs(now_ms() + 1).unwrap();
    assert_eq!((done.removed, done.young, done.live), (2, 0, 1), "{done:?}");
    assert!(stored(&store, &named.0));
}

#[test]
fn a_layers_tables_make_it_collect_through_the_layer() {
    let dir = TempDir::new("layer");
    let store = SessionStore::open(&dir.0).unwrap();
    let [program_file, orphan] = ["a program's file", "orphan"].map(blob);
    store.put_blobs(&[(program_file.0, &program_file.1[..]), (orphan.0, &orphan.1[..])]).unwrap();
    store.connection().execute_batch("CREATE TABLE server_programs (id TEXT PRIMARY KEY)").unwrap();
    age_all(&store);
    let err = store.collect_blobs(now_ms()).unwrap_err();
    assert!(err.to_string().contains("server_programs"), "{err}");
    assert!(stored(&store, &orphan.0));
    let keep = |_: &Connection| Ok(BTreeSet::from([program_file.0]));
    let done = store.collect_blobs_keeping(now_ms(), &keep).unwrap();
    assert_eq!((done.removed, done.live), (1, 1), "{done:?}");
    assert!(stored(&store, &program_file.0) && !stored(&store, &orphan.0));
}

#[test]
fn an_unreadable_image_stops_the_collection() {
    let dir = TempDir::new("unreadable");
    let store = SessionStore::open(&dir.0).unwrap();
    let orphan = blob("orphan");
    store.put_blobs(&[(orphan.0, &orphan.1[..])]).unwrap();
    store_session(&store, "s", &session_rows(&[], &[], &[]));
    age_all(&store);
    store.connection().execute("UPDATE images SET bytes = x'00'", []).unwrap();
    let err = store.collect_blobs(now_ms()).unwrap_err();
    assert!(err.to_string().contains("nothing was collected"), "{err}");
    assert!(stored(&store, &orphan.0));
}

#[test]
fn a_version_6_store_gains_last_put_and_its_blobs_count_as_old() {
    let dir = TempDir::new("v6");
    std::fs::create_dir_all(&dir.0).unwrap();
    let orphan = blob("stored by version 6");
    {
        let conn = Connection::open(dir.0.join(STORE_FILE)).unwrap();
        conn.execute_batch(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             INSERT INTO meta VALUES ('schema_version', '6');
             CREATE TABLE blobs (sha256 BLOB PRIMARY KEY, bytes BLOB NOT NULL);",
        )
        .unwrap();
        conn.execute("INSERT INTO blobs (sha256, bytes) VALUES (?1, ?2)", params![&orphan.0 .0[..], orphan.1]).unwrap();
    }
    let store = SessionStore::open(&dir.0).unwrap();
    let version: String =
        store.connection().query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0)).unwrap();
    assert_eq!(version, STORE_SCHEMA_VERSION.to_string());
    let done = store.collect_blobs(now_ms() - BLOB_GRACE_MS).unwrap();
    assert_eq!(done.removed, 1, "{done:?}");
}
