//! The store suite against a real PostgreSQL server, plus what only a shared database has:
//! migrations, leases taken over between servers, connections lost.
//!
//! The server is the one `AMBER_TEST_POSTGRES` names (a URL; `.ci/run` starts a throwaway
//! cluster with `.ci/postgres start`); each test gets a database of its own. Without the
//! variable these tests fail under CI (`CI` set) and are skipped, saying so, elsewhere.

use std::sync::atomic::{AtomicU32, Ordering};

use amber_durable::policy::Policy;
use amber_durable::store::{NewSession, OutputChunk, OutputStream, SessionStatus, Source};

use super::schema::SCHEMA_VERSION;
use super::*;
use crate::{Progress, SliceEnd};

fn base_url() -> Option<String> {
    match std::env::var("AMBER_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("AMBER_TEST_POSTGRES is not set: CI must start PostgreSQL (.ci/postgres start)")
        }
        _ => {
            eprintln!("skipped: set AMBER_TEST_POSTGRES to a PostgreSQL URL (eval \"$(.ci/postgres start)\")");
            None
        }
    }
}

/// A URL of a fresh, empty database on the test server.
fn fresh_database(label: &str) -> Option<String> {
    static N: AtomicU32 = AtomicU32::new(0);
    let base = base_url()?;
    let n = N.fetch_add(1, Ordering::Relaxed);
    let label: String = label.chars().filter(|c| c.is_ascii_alphanumeric()).take(20).collect();
    let name = format!("amber_t_{}_{n}_{label}", std::process::id()).to_lowercase();
    let mut admin = Client::connect(&base, NoTls).expect("connect to AMBER_TEST_POSTGRES");
    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
    admin.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let (prefix, _) = base.rsplit_once('/').expect("a URL with a database name");
    Some(format!("{prefix}/{name}"))
}

/// Ends every other connection to the database at `url` (a server restart or a failover).
fn terminate_other_backends(url: &str) {
    let mut admin = Client::connect(url, NoTls).unwrap();
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() \
             AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap();
}

fn temp_store(label: &str) -> Option<Box<dyn Store>> {
    let url = fresh_database(label)?;
    Some(Box::new(PgStore::open(&url).unwrap()))
}

crate::suite::store_suite!(temp_store);

fn spec() -> SessionSpec {
    serde_json::from_value(serde_json::json!({ "program": "p", "entry": "agent.js" })).unwrap()
}

fn new_session() -> NewSession {
    NewSession {
        entry: "/app/agent.js".into(),
        module: false,
        policy: Policy::durable(),
        sources: vec![Source::new("/app/agent.js", "1")],
    }
}

fn line(text: &str) -> OutputChunk {
    OutputChunk { stream: OutputStream::Stdout, text: text.into() }
}

fn end(status: ServerStatus) -> SliceEnd<'static> {
    SliceEnd {
        durable: SessionStatus::Suspended,
        status,
        outcome: None,
        pending: &[],
        policy: &|_| OpPolicy::default(),
        key: &|op| op.seq.to_string(),
    }
}

/// `n` servers opening the database at once (each applies what it finds missing).
fn open_together(url: &str, n: usize) {
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let url = url.to_string();
            std::thread::spawn(move || PgStore::open(&url).map(|_| ()))
        })
        .collect();
    for thread in threads {
        thread.join().unwrap().unwrap();
    }
}

#[test]
fn servers_starting_together_on_an_empty_database_all_open_it() {
    let Some(url) = fresh_database("together") else { return };
    open_together(&url, 6);
    let mut client = Client::connect(&url, NoTls).unwrap();
    assert_eq!(schema::migrate(&mut client).unwrap(), SCHEMA_VERSION);
}

#[test]
fn migrations_apply_once_and_a_newer_schema_is_refused() {
    let Some(url) = fresh_database("migrations") else { return };
    let mut client = Client::connect(&url, NoTls).unwrap();
    assert_eq!(schema::migrate(&mut client).unwrap(), 0, "from an empty database");
    assert_eq!(schema::migrate(&mut client).unwrap(), SCHEMA_VERSION, "the second run finds it current");
    // Servers starting together: each applies what is missing, once.
    open_together(&url, 4);
    let applied: i64 = client.query_one("SELECT COUNT(*) FROM schema_migrations", &[]).unwrap().get(0);
    assert_eq!(applied, i64::from(SCHEMA_VERSION));
    client
        .execute("INSERT INTO schema_migrations (version, applied) VALUES ($1, 0)", &[&(SCHEMA_VERSION + 1)])
        .unwrap();
    match PgStore::open(&url) {
        Err(StoreError::Invalid(message)) => assert!(message.contains("newer"), "{message}"),
        other => panic!("a newer schema must be refused, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn a_lease_taken_over_refuses_the_old_owners_commits() {
    let Some(url) = fresh_database("takeover") else { return };
    let a = PgStore::open(&url).unwrap().with_lease_ms(100).paused();
    let b = PgStore::open(&url).unwrap().with_lease_ms(100);
    assert_ne!(a.owner(), b.owner());
    a.create_session(Some("s"), &spec()).unwrap();
    let mut old = a.open_slice("s").unwrap();
    old.create_durable(&new_session()).unwrap();
    old.commit_progress(Progress { output: &[line("from a")], ..Progress::default() }).unwrap();
    assert!(matches!(b.open_slice("s"), Err(StoreError::Busy(_))), "held while a's lease lasts");
    // a pauses past its lease; b takes the session over.
    std::thread::sleep(std::time::Duration::from_millis(150));
    let mut new = b.open_slice("s").unwrap();
    assert!(matches!(
        old.commit_progress(Progress { output: &[line("late a")], ..Progress::default() }),
        Err(StoreError::LeaseLost(_))
    ));
    assert!(matches!(
        old.finish(
            Progress { output: &[line("late a, finishing")], ..Progress::default() },
            end(ServerStatus::Completed)
        ),
        Err(StoreError::LeaseLost(_))
    ));
    drop(old); // releases nothing: the epoch is b's now
    new.commit_progress(Progress { output: &[line("from b")], ..Progress::default() }).unwrap();
    new.finish(Progress { output: &[line("b, finishing")], ..Progress::default() }, end(ServerStatus::Suspended))
        .unwrap();
    drop(new);
    let output: Vec<String> = a.output("s", 0, 10).unwrap().into_iter().map(|c| c.text).collect();
    assert_eq!(output, ["from a", "from b", "b, finishing"], "nothing of a's after the take-over");
    assert_eq!(a.session("s").unwrap().unwrap().status, ServerStatus::Suspended);
    // Finished slices release their lease at once: the next slice needs no expiry.
    a.open_slice("s").unwrap();
}

fn tenant_spec(tenant: &str) -> SessionSpec {
    serde_json::from_value(serde_json::json!({ "program": "p", "entry": "agent.js", "tenant": tenant })).unwrap()
}

#[test]
fn a_tenants_limit_holds_across_servers() {
    let Some(url) = fresh_database("tenantlimit") else { return };
    let a = PgStore::open(&url).unwrap().with_tenant_limit(Some(2)).with_lease_ms(1000).paused();
    let b = PgStore::open(&url).unwrap().with_tenant_limit(Some(2));
    for (id, tenant) in [("t1", "t"), ("t2", "t"), ("t3", "t"), ("u1", "u")] {
        a.create_session(Some(id), &tenant_spec(tenant)).unwrap();
    }
    let first = a.open_slice("t1").unwrap();
    let second = b.open_slice("t2").unwrap();
    match a.open_slice("t3") {
        Err(StoreError::AtLimit(message)) => assert!(message.contains("limit"), "{message}"),
        other => panic!("a third session of the tenant must wait, got {:?}", other.map(|_| ())),
    }
    assert!(matches!(b.open_slice("t3"), Err(StoreError::AtLimit(_))), "on every server");
    let other_tenant = b.open_slice("u1").unwrap();
    // Every server sees the fleet's leases per tenant (what its scheduler's fair share orders by).
    let leases = std::collections::BTreeMap::from([("t".to_string(), 2), ("u".to_string(), 1)]);
    assert_eq!(a.leases_by_tenant().unwrap(), leases);
    assert_eq!(b.leases_by_tenant().unwrap(), leases);
    assert_eq!(a.session("t3").unwrap().unwrap().status, ServerStatus::Queued, "a refused claim changes nothing");
    // A slice that ends frees its slot at once.
    drop(second);
    let third = b.open_slice("t3").unwrap();
    drop(third);
    // So does a lease that expired (its server paused or died without ending the slice).
    let _blocker = b.open_slice("t3").unwrap();
    assert!(matches!(b.open_slice("t2"), Err(StoreError::AtLimit(_))));
    std::thread::sleep(std::time::Duration::from_millis(1100));
    drop(b.open_slice("t2").unwrap());
    drop((first, other_tenant));
}

#[test]
fn a_lost_connection_fails_the_call_and_the_store_reconnects() {
    let Some(url) = fresh_database("connloss") else { return };
    let store = PgStore::open(&url).unwrap().with_lease_ms(100);
    store.create_session(Some("s"), &spec()).unwrap();
    let mut slice = store.open_slice("s").unwrap();
    slice.create_durable(&new_session()).unwrap();
    // Every other backend of this database goes (as in a server restart or a failover).
    terminate_other_backends(&url);
    assert!(matches!(
        slice.commit_progress(Progress { output: &[line("x")], ..Progress::default() }),
        Err(StoreError::Database(_))
    ));
    drop(slice);
    assert_eq!(store.session("s").unwrap().unwrap().status, ServerStatus::Running, "a fresh connection");
    assert!(store.output("s", 0, 10).unwrap().is_empty(), "the failed commit wrote nothing");
    // The dead slice's lease expires; the session runs again.
    std::thread::sleep(std::time::Duration::from_millis(150));
    let mut again = store.open_slice("s").unwrap();
    // The durable session rides the first commit, which failed: this slice starts over.
    assert!(again.loaded().is_none(), "the failed first commit left no durable session");
    again.create_durable(&new_session()).unwrap();
    again.commit_progress(Progress { output: &[line("y")], ..Progress::default() }).unwrap();
    assert_eq!(store.runnable_sessions().unwrap(), vec![], "running, lease live");
    drop(again);
    std::thread::sleep(std::time::Duration::from_millis(150));
    assert!(store.open_slice("s").unwrap().loaded().is_some(), "the first commit created it");
}

#[test]
fn a_commit_elsewhere_wakes_a_waiting_server_and_a_lost_listener_is_replaced() {
    use std::time::{Duration, Instant};
    let Some(url) = fresh_database("notify") else { return };
    let a = PgStore::open(&url).unwrap();
    let b = std::sync::Arc::new(PgStore::open(&url).unwrap());
    // Nothing happens: the wait ends at its timeout (and leaves b listening).
    b.wait_for_work(Duration::from_millis(50)).unwrap();
    let wake = |b: &std::sync::Arc<PgStore>| {
        let b = b.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            b.wait_for_work(Duration::from_secs(60)).map(|()| started.elapsed())
        })
    };
    let waiter = wake(&b);
    std::thread::sleep(Duration::from_millis(100));
    a.create_session(Some("one"), &spec()).unwrap();
    let waited = waiter.join().unwrap().unwrap();
    assert!(waited < Duration::from_secs(30), "woken by the commit, not the timeout ({waited:?})");
    // The listener's connection dies (a failover): the next wait reports it or reconnects,
    // and the one after is woken again.
    terminate_other_backends(&url);
    let _ = b.wait_for_work(Duration::from_millis(50));
    b.wait_for_work(Duration::from_millis(50)).unwrap();
    std::thread::sleep(Duration::from_millis(600)); // a's pooled connection is checked when next used
    let waiter = wake(&b);
    std::thread::sleep(Duration::from_millis(100));
    a.create_session(Some("two"), &spec()).unwrap();
    let waited = waiter.join().unwrap().unwrap();
    assert!(waited < Duration::from_secs(30), "woken after the reconnect ({waited:?})");
}

#[test]
fn a_version_1_database_migrates_keeping_its_rows() {
    let Some(url) = fresh_database("fromv1") else { return };
    let mut client = Client::connect(&url, NoTls).unwrap();
    assert_eq!(schema::migrate_to(&mut client, 1).unwrap(), 0);
    client.execute("INSERT INTO journal (session, seq, record) VALUES ('old', 0, '\\x00'::bytea)", &[]).unwrap();
    client
        .execute(
            "INSERT INTO server_sessions (id, tenant, program, spec, status, created, updated) \
             VALUES ('old', 't', 'p', '{}', 'completed', 0, 0)",
            &[],
        )
        .unwrap();
    drop(client);
    PgStore::open(&url).unwrap();
    let mut client = Client::connect(&url, NoTls).unwrap();
    client.batch_execute("SET search_path TO amber").unwrap();
    let version: i32 = client.query_one("SELECT MAX(version) FROM schema_migrations", &[]).unwrap().get(0);
    assert_eq!(version, SCHEMA_VERSION);
    let row = client.query_one("SELECT lease_epoch, lease_owner FROM journal WHERE session = 'old'", &[]).unwrap();
    assert_eq!((row.get::<_, Option<i64>>(0), row.get::<_, Option<String>>(1)), (None, None));
    let sessions: i64 = client.query_one("SELECT COUNT(*) FROM server_sessions", &[]).unwrap().get(0);
    assert_eq!(sessions, 1);
}

#[test]
fn a_long_slice_keeps_its_lease_by_heartbeat() {
    let Some(url) = fresh_database("heartbeat") else { return };
    let a = PgStore::open(&url).unwrap().with_lease_ms(150);
    let b = PgStore::open(&url).unwrap().with_lease_ms(150);
    a.create_session(Some("s"), &spec()).unwrap();
    let mut slice = a.open_slice("s").unwrap();
    // Four lease lengths without a commit (a long computation): the heartbeat keeps it.
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert!(matches!(b.open_slice("s"), Err(StoreError::Busy(_))), "still a's");
    slice.create_durable(&new_session()).unwrap();
    slice.finish(Progress::default(), end(ServerStatus::Suspended)).unwrap();
}
