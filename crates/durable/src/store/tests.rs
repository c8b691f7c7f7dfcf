//! Tests for the session store: lifecycle, chain checks on append, leases (in-process,
//! cross-process, stale), export/import, and corrupt rows.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::json;

use super::*;
use crate::image::{encode_image, Manifest};
use crate::journal::{CallResult, OpKind, RecordDraft};
use crate::policy::{Mode, PolicySurface};
use crate::ErrorClass;

/// A unique directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> Self {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("amber-durable-test-{}-{label}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        TempDir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn new_session() -> NewSession {
    NewSession {
        entry: "main.js".into(),
        module: false,
        policy: Policy::durable(),
        sources: vec![Source::new("main.js", "const r = await amber.call('f', {a: 1});")],
    }
}

/// A journal of run start, an intent and its completion.
fn journal() -> Journal {
    let mut journal = Journal::new();
    journal.append(RecordDraft::run_start(1_000, [3; 32])).unwrap();
    journal.append(RecordDraft::intent(OpKind::Call, "f", json!({"a": 1}), 1_000)).unwrap();
    journal.append(RecordDraft::completion(OpKind::Call, 1, "f", CallResult::Ok(json!("ok")), 20, 1_020)).unwrap();
    journal
}

fn image_at(journal: &Journal, tag: &[u8]) -> Vec<u8> {
    let mut manifest = Manifest::new("engine-test", Policy::durable());
    manifest.journal_head = journal.head();
    encode_image(&manifest, tag, None).unwrap()
}

fn raw_connection(dir: &Path) -> Connection {
    Connection::open(dir.join(STORE_FILE)).unwrap()
}

#[test]
fn lifecycle_survives_reopen() {
    let dir = TempDir::new("lifecycle");
    let journal = journal();
    {
        let store = SessionStore::open(dir.path()).unwrap();
        assert!(dir.path().join(STORE_FILE).exists());
        let meta = store.create_session(Some("job"), &new_session()).unwrap();
        assert_eq!(meta.status, SessionStatus::Running);
        let lease = store.acquire("job").unwrap();
        store.append_journal_records(&lease, &journal.records()[..2]).unwrap();
        assert_eq!(store.save_image(&lease, &image_at(&journal_prefix(&journal, 2), b"first")).unwrap(), 2);
        store.append_journal_records(&lease, &journal.records()[2..]).unwrap();
        assert_eq!(store.save_image(&lease, &image_at(&journal, b"second")).unwrap(), 3);
        store.set_status(&lease, SessionStatus::Suspended).unwrap();
        lease.release().unwrap();
    }
    let store = SessionStore::open(dir.path()).unwrap();
    let loaded = store.load("job").unwrap();
    assert_eq!(loaded.meta.status, SessionStatus::Suspended);
    assert_eq!(loaded.meta.entry, "main.js");
    assert_eq!(loaded.sources, new_session().sources);
    assert_eq!(loaded.journal, journal);
    let image = loaded.image.unwrap();
    assert_eq!(image.seq, 3);
    assert_eq!(crate::image::decode_image(&image.bytes, None).unwrap().1, b"second");
    assert_eq!(store.list_sessions().unwrap().len(), 1);
}

fn journal_prefix(journal: &Journal, len: usize) -> Journal {
    Journal::from_records(journal.records()[..len].to_vec()).unwrap()
}

#[test]
fn only_the_newest_images_are_kept() {
    let dir = TempDir::new("images");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    let lease = store.acquire("s").unwrap();
    let journal = journal();
    store.append_journal_records(&lease, journal.records()).unwrap();
    for len in 0..=3 {
        store.save_image(&lease, &image_at(&journal_prefix(&journal, len), b"x")).unwrap();
    }
    let count: i64 =
        store.conn.query_row("SELECT COUNT(*) FROM images WHERE session = 's'", [], |row| row.get(0)).unwrap();
    assert_eq!(count, i64::from(KEEP_IMAGES));
    assert_eq!(store.load("s").unwrap().image.unwrap().seq, 3);
}

#[test]
fn names_are_generated_unique_and_validated() {
    let dir = TempDir::new("names");
    let store = SessionStore::open(dir.path()).unwrap();
    let mut names = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let meta = store.create_session(None, &new_session()).unwrap();
        validate_name(&meta.name).unwrap();
        assert!(names.insert(meta.name));
    }
    let taken = names.iter().next().unwrap().clone();
    let err = store.create_session(Some(&taken), &new_session()).unwrap_err();
    assert!(matches!(err, DurableError::AlreadyExists { .. }));
    assert!(matches!(store.create_session(Some("bad name"), &new_session()), Err(DurableError::InvalidName { .. })));
    let mut host = new_session();
    host.policy = host.policy.with(PolicySurface::Random, Mode::Host);
    assert!(matches!(store.create_session(Some("h"), &host), Err(DurableError::PolicyRejected { .. })));
    let err = store.session("nope").unwrap_err();
    assert_eq!(err.class(), ErrorClass::NotFound);
}

#[test]
fn appends_must_extend_the_chain() {
    let dir = TempDir::new("append");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    let lease = store.acquire("s").unwrap();
    let journal = journal();
    let records = journal.records();
    let err = store.append_journal_records(&lease, &records[1..]).unwrap_err();
    assert!(matches!(err, DurableError::InvalidRecord { seq: 1, .. }), "{err}");
    store.append_journal_records(&lease, &records[..2]).unwrap();
    // Re-sending stored records is a no-op; a different record at a stored seq is not.
    store.append_journal_records(&lease, records).unwrap();
    let mut other = Journal::new();
    other.append(RecordDraft::run_start(2_000, [4; 32])).unwrap();
    let err = store.append_journal_records(&lease, other.records()).unwrap_err();
    assert!(matches!(err, DurableError::InvalidRecord { seq: 0, .. }), "{err}");
    let mut forged = records[2].clone();
    forged.prev_hash = [0; 32];
    forged.seq = 3;
    assert!(store.append_journal_records(&lease, &[forged]).is_err());
    assert_eq!(store.load("s").unwrap().journal, journal);
}

#[test]
fn images_must_match_the_stored_journal_and_seal() {
    let dir = TempDir::new("image-check");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    let lease = store.acquire("s").unwrap();
    let journal = journal();
    let err = store.save_image(&lease, &image_at(&journal, b"early")).unwrap_err();
    assert!(matches!(err, DurableError::InvalidValue { .. }), "{err}");
    store.append_journal_records(&lease, journal.records()).unwrap();
    let mut image = image_at(&journal, b"ok");
    let last = image.len() - 1;
    image[last] ^= 1;
    assert!(store.save_image(&lease, &image).is_err());
    assert!(store.save_image(&lease, b"not an image").is_err());
}

#[test]
fn second_lease_in_process_is_busy_until_release() {
    let dir = TempDir::new("busy");
    let store = SessionStore::open(dir.path()).unwrap();
    let other = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    let lease = store.acquire("s").unwrap();
    for attempt in [store.acquire("s"), other.acquire("s")] {
        let err = attempt.unwrap_err();
        assert!(matches!(err, DurableError::Busy { owner_pid: Some(pid), .. } if pid == std::process::id()), "{err}");
        assert_eq!(err.class(), ErrorClass::Busy);
    }
    assert_eq!(other.lock_owner("s").unwrap(), Some(std::process::id()));
    assert!(matches!(other.delete("s"), Err(DurableError::Busy { .. })));
    drop(lease);
    assert_eq!(other.lock_owner("s").unwrap(), None);
    let lease = other.acquire("s").unwrap();
    assert_eq!(lease.session(), "s");
    assert!(matches!(store.acquire("missing"), Err(DurableError::NotFound { .. })));
}

#[test]
fn stale_locks_are_taken_over_and_lost_leases_detected() {
    let dir = TempDir::new("stale");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    raw_connection(dir.path())
        .execute(
            "INSERT INTO locks (session, pid, start_ticks, token, acquired) VALUES ('s', 99999999, NULL, 't', 0)",
            [],
        )
        .unwrap();
    let lease = store.acquire("s").unwrap();
    raw_connection(dir.path()).execute("DELETE FROM locks", []).unwrap();
    let err = store.set_status(&lease, SessionStatus::Failed).unwrap_err();
    assert!(matches!(err, DurableError::LeaseLost { .. }), "{err}");
}

#[test]
fn delete_removes_everything() {
    let dir = TempDir::new("delete");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    {
        let lease = store.acquire("s").unwrap();
        store.append_journal_records(&lease, journal().records()).unwrap();
    }
    store.delete("s").unwrap();
    assert!(matches!(store.load("s"), Err(DurableError::NotFound { .. })));
    assert!(matches!(store.delete("s"), Err(DurableError::NotFound { .. })));
    let rows: i64 = store.conn.query_row("SELECT COUNT(*) FROM journal", [], |row| row.get(0)).unwrap();
    assert_eq!(rows, 0);
}

#[test]
fn export_import_round_trip() {
    let from = TempDir::new("export-from");
    let to = TempDir::new("export-to");
    let store = SessionStore::open(from.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    {
        let lease = store.acquire("s").unwrap();
        store.append_journal_records(&lease, journal().records()).unwrap();
        store.save_image(&lease, &image_at(&journal(), b"heap")).unwrap();
        store.put_sources(&lease, &[Source::new("lib.js", "export {}")]).unwrap();
        assert!(store.put_sources(&lease, &[Source::new("lib.js", "changed")]).is_err());
    }
    let bytes = store.export("s").unwrap();
    let target = SessionStore::open(to.path()).unwrap();
    let meta = target.import(&bytes, None).unwrap();
    assert_eq!(meta.name, "s");
    let (a, b) = (store.load("s").unwrap(), target.load("s").unwrap());
    assert_eq!((a.sources, a.image, a.journal), (b.sources, b.image, b.journal));
    assert!(matches!(target.import(&bytes, None), Err(DurableError::AlreadyExists { .. })));
    assert_eq!(target.import(&bytes, Some("copy")).unwrap().name, "copy");
    let mut corrupt = bytes.clone();
    corrupt[bytes.len() / 2] ^= 1;
    assert_eq!(target.import(&corrupt, Some("bad")).unwrap_err().class(), ErrorClass::Integrity);
    assert!(matches!(target.session("bad"), Err(DurableError::NotFound { .. })));
}

#[test]
fn corrupt_rows_are_integrity_errors() {
    let dir = TempDir::new("corrupt");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("s"), &new_session()).unwrap();
    {
        let lease = store.acquire("s").unwrap();
        store.append_journal_records(&lease, journal().records()).unwrap();
    }
    let raw = raw_connection(dir.path());
    let record: Vec<u8> = raw.query_row("SELECT record FROM journal WHERE seq = 1", [], |row| row.get(0)).unwrap();
    let mut flipped = record.clone();
    flipped[3] ^= 0x40;
    raw.execute("UPDATE journal SET record = ?1 WHERE seq = 1", params![flipped]).unwrap();
    let err = store.load("s").unwrap_err();
    assert_eq!(err.class(), ErrorClass::Integrity, "{err}");
    raw.execute("UPDATE journal SET record = ?1 WHERE seq = 1", params![record]).unwrap();
    raw.execute("UPDATE sources SET text = 'tampered'", []).unwrap();
    assert_eq!(store.load("s").unwrap_err().class(), ErrorClass::Integrity);
    raw.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'", []).unwrap();
    assert!(matches!(SessionStore::open(dir.path()), Err(DurableError::UnsupportedVersion { found: 99, .. })));
}

/// Set by [`second_process_is_busy_then_takes_over_after_crash`] for its child.
const CHILD_ENV: &str = "AMBER_DURABLE_TEST_LEASE_DIR";

/// Child half of the cross-process test: holds the lease until stdin closes.
#[test]
fn child_holds_lease() {
    let Some(dir) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let store = SessionStore::open(Path::new(&dir)).unwrap();
    let lease = store.acquire("shared").unwrap();
    println!("LEASED");
    std::io::stdout().flush().unwrap();
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    drop(lease);
}

#[test]
fn second_process_is_busy_then_takes_over_after_crash() {
    let dir = TempDir::new("xproc");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("shared"), &new_session()).unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "store::tests::child_holds_lease", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("LEASED") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "child exited early");
    }
    let err = store.acquire("shared").unwrap_err();
    assert!(matches!(err, DurableError::Busy { owner_pid: Some(pid), .. } if pid == child.id()), "{err}");
    assert!(err.to_string().contains("busy"));
    // Simulate a crash: the child dies without releasing; its lock row is now stale.
    child.kill().unwrap();
    child.wait().unwrap();
    let lease = store.acquire("shared").unwrap();
    assert_eq!(lease.session(), "shared");
}

#[test]
fn a_fork_shares_its_parents_history_and_sources_until_an_upgrade() {
    let dir = TempDir::new("fork");
    let store = SessionStore::open(dir.path()).unwrap();
    store.create_session(Some("p"), &new_session()).unwrap();
    let journal = journal();
    let lease = store.acquire("p").unwrap();
    store.append_journal_records(&lease, journal.records()).unwrap();
    store.save_image(&lease, &image_at(&journal_prefix(&journal, 2), b"parent")).unwrap();
    drop(lease);

    let mut forked = journal_prefix(&journal, 2);
    let at = forked.get(1).unwrap().clone();
    let fork = forked.append(RecordDraft::fork("p", 1, at.hash, at.timestamp)).unwrap().clone();
    // The fork record must name the parent it is created from, and extend its journal.
    assert!(store.create_fork("q", "f", &fork).is_err());
    let wrong = RecordDraft::fork("p", 1, [9; 32], 0);
    let mut bad = journal_prefix(&journal, 2);
    assert!(bad.append(wrong).is_err(), "a fork record naming another hash is refused when written");
    store.create_fork("p", "f", &fork).unwrap();
    assert!(matches!(store.create_fork("p", "f", &fork), Err(DurableError::AlreadyExists { .. })));

    let loaded = store.load("f").unwrap();
    assert_eq!(loaded.journal, forked);
    assert_eq!(loaded.sources, store.load("p").unwrap().sources);
    assert_eq!(loaded.image, None, "a fork has no image of its own yet");
    assert_eq!(loaded.meta.status, SessionStatus::Running);
    assert_eq!(store.fork_parent("f").unwrap(), Some(("p".to_string(), 1)));
    assert_eq!(store.fork_parent("p").unwrap(), None);
    // Its nearest image at or before the fork is the parent's.
    assert_eq!(store.image_at_or_before("f", 2).unwrap().map(|i| i.seq), Some(2));
    assert_eq!(store.image_at_or_before("f", 1).unwrap(), None);
    let rows: i64 = raw_connection(dir.path())
        .query_row("SELECT COUNT(*) FROM sources WHERE session = 'f'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 0, "sources are shared, not copied");
    assert_eq!(store.image_at_or_before("f", 9).unwrap().map(|i| i.seq), Some(2));

    // The parent's upgrade leaves the fork on the code it ran (a copy of its own).
    let lease = store.acquire("p").unwrap();
    let mut parent_upgraded = journal.clone();
    let record = parent_upgraded.append(RecordDraft::upgrade(json!({}), json!({}), 5)).unwrap().clone();
    let old_sources = store.load("p").unwrap().sources;
    store
        .upgrade(&lease, &[Source::new("main.js", "// parent's new code")], &record, &image_at(&parent_upgraded, b"p2"))
        .unwrap();
    drop(lease);
    assert_eq!(store.load("f").unwrap().sources, old_sources);
    assert_eq!(store.load("f").unwrap().journal, forked, "the fork's history is the parent's records 0..=1");

    // The parent cannot be deleted while the fork shares its history.
    let err = store.delete("p").unwrap_err();
    assert!(err.to_string().contains("forked from it"), "{err}");

    // An upgrade gives the fork its own sources, one record and an image, in one go.
    let lease = store.acquire("f").unwrap();
    let mut upgraded = forked.clone();
    let record = upgraded.append(RecordDraft::upgrade(json!({}), json!({}), 5)).unwrap().clone();
    let new_sources = vec![Source::new("main.js", "// new code")];
    store.upgrade(&lease, &new_sources, &record, &image_at(&upgraded, b"upgraded")).unwrap();
    drop(lease);
    let loaded = store.load("f").unwrap();
    assert_eq!(loaded.journal, upgraded);
    assert_eq!(loaded.sources, new_sources);
    assert_eq!(loaded.image.map(|i| i.seq), Some(4));

    store.delete("f").unwrap();
    store.delete("p").unwrap();
}
