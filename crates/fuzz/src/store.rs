//! `session_store`: forged session stores. The seed session (decode.rs's seed program, its
//! image and journal) is written to a fresh SQLite store through the store API; the fuzz
//! input then edits it as someone with write access to `sessions.db` could — an image row's
//! seq, the image bytes mutated and re-sealed, manifest fields edited and re-sealed, journal
//! rows mutated, deleted, renumbered or re-chained (every hash recomputed), a source edited
//! with its hash recomputed, the journal head tag deleted or replaced — and the session is
//! loaded, restored with its journal and run briefly, as `amber resume` would. The input's top
//! bit picks a store under an image key (images authenticated, journal heads tagged), whose
//! attacker does not know the key.
//!
//! Invariants: never a panic, hang or unbounded allocation; an image whose row seq is not the
//! journal position sealed inside it never loads (issue 15 item 8); one whose manifest's
//! code hash for a stored source is wrong never passes the check `amber resume` makes; and
//! under a key, no edited image restores and no edited journal loads (issue 15 item 10).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use amber::durable::digest::{sha256, Digest};
use amber::durable::image::{decode_image, encode_image, read_manifest_unverified};
use amber::durable::journal::{CallRecord, RecordDraft};
use amber::durable::store::{NewSession, SessionStore, Source};
use amber::{Journal, Policy};

use crate::decode::{mutate, reseal, restore_and_run, restore_with_key, seed_image_and_journal, SEED_SOURCE};

const SESSION: &str = "s";

/// The image key of a keyed store (the attacker's edits are made without it).
const KEY: &[u8] = b"amber-fuzz-image-key";

/// A fresh store directory for one input, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("amber-fuzz-store-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The seed session, stored (under [`KEY`] if `keyed`: its image authenticated, its journal
/// head tagged); None if the store cannot be made (not a finding: the disk).
fn seeded_store(dir: &std::path::Path, keyed: bool) -> Option<SessionStore> {
    let (image, journal) = seed_image_and_journal();
    let journal = Journal::decode(journal).ok()?;
    let store = SessionStore::open(dir).ok()?.with_key(keyed.then(|| KEY.to_vec()));
    let keyed_image;
    let image = if keyed {
        let (manifest, payload) = decode_image(image, None).ok()?;
        keyed_image = encode_image(&manifest, &payload, Some(KEY)).ok()?;
        &keyed_image[..]
    } else {
        image
    };
    let new = NewSession {
        entry: "seed.js".into(),
        module: false,
        policy: Policy::durable(),
        sources: vec![Source::new("seed.js", SEED_SOURCE)],
    };
    store.create_session(Some(SESSION), &new).ok()?;
    let lease = store.acquire(SESSION).ok()?;
    store.append_journal_records(&lease, journal.records()).ok()?;
    store.save_image(&lease, image).ok()?;
    drop(lease);
    Some(store)
}

/// `session_store` on raw fuzz bytes: byte 0 picks the edit, the rest parameterizes it.
pub fn run(data: &[u8]) {
    let scratch = Scratch::new();
    let _ = forge_and_load(data, &scratch);
}

/// None when the input names nothing to do (or the disk failed): not a finding.
fn forge_and_load(data: &[u8], scratch: &Scratch) -> Option<()> {
    let (&mode, rest) = data.split_first()?;
    let keyed = mode & 0x80 != 0;
    let store = seeded_store(&scratch.0, keyed)?;
    let db = store.dir().join(amber::durable::store::STORE_FILE);
    let rows_before = table_rows(&db)?;
    let (image, _) = seed_image_and_journal();
    let number = |i: usize| rest.get(i).map_or(0, |&b| u64::from(b));
    let edit: Option<(&str, Vec<rusqlite::types::Value>)> = match (mode & 0x7f) % 10 {
        0 => Some(("UPDATE images SET seq = ?1", vec![(number(0) as i64 - 8).into()])),
        1 => {
            // The heap payload mutated, re-sealed.
            let (manifest, mut payload) = decode_image(image, None).ok()?;
            mutate(&mut payload, rest);
            encode_image(&manifest, &payload, None).ok().map(|b| ("UPDATE images SET bytes = ?1", vec![b.into()]))
        }
        2 => {
            // Framing, manifest and payload mutated, re-sealed.
            let mut body = image[..image.len() - 32].to_vec();
            mutate(&mut body, rest);
            Some(("UPDATE images SET bytes = ?1", vec![reseal(body).into()]))
        }
        3 => {
            // One manifest field edited, re-sealed.
            let (mut manifest, payload) = decode_image(image, None).ok()?;
            let v = number(1);
            match number(0) % 8 {
                0 => manifest.journal_head.len = manifest.journal_head.len.wrapping_add(v).wrapping_sub(4),
                1 => manifest.logical_time_ms = manifest.logical_time_ms.wrapping_add(v << (number(2) % 40)),
                2 => manifest.heap.objects = manifest.heap.objects.wrapping_add(v).wrapping_sub(4),
                3 => manifest.pending.iter_mut().for_each(|op| op.seq = op.seq.wrapping_add(v)),
                4 => manifest.pending.iter_mut().for_each(|op| op.name = format!("forged{v}")),
                5 => manifest.pending.truncate(usize::from(rest.get(1).copied().unwrap_or(0) % 3)),
                6 => {
                    manifest.code_hashes.insert("seed.js".into(), Digest(sha256(&rest[..rest.len().min(8)])));
                }
                _ => {
                    let cap = amber::durable::capability::Capability::ALL;
                    let cap = cap[usize::from(rest.get(1).copied().unwrap_or(0)) % cap.len()];
                    manifest.capabilities.touch(cap, v.wrapping_mul(3));
                }
            }
            encode_image(&manifest, &payload, None).ok().map(|b| ("UPDATE images SET bytes = ?1", vec![b.into()]))
        }
        4 => {
            // One journal row's bytes mutated (its hash is not recomputed: the chain breaks).
            let seq = number(0) % 8;
            let conn = rusqlite::Connection::open(&db).ok()?;
            let mut record: Vec<u8> =
                conn.query_row("SELECT record FROM journal WHERE seq = ?1", [seq as i64], |r| r.get(0)).ok()?;
            mutate(&mut record, rest.get(1..).unwrap_or(&[]));
            drop(conn);
            Some(("UPDATE journal SET record = ?2 WHERE seq = ?1", vec![(seq as i64).into(), record.into()]))
        }
        5 => Some(("DELETE FROM journal WHERE seq >= ?1", vec![((number(0) % 10) as i64).into()])),
        6 => {
            // Every record re-chained after one record's args or result were edited: a
            // consistent-looking journal, as someone who recomputes the hashes could write.
            rechain_journal(&db, number(0) % 8, rest.get(1..).unwrap_or(&[]))?;
            None
        }
        7 => Some(("DELETE FROM heads", Vec::new())),
        8 => Some(("INSERT OR REPLACE INTO heads (session, tag) VALUES ('s', ?1)", vec![rest.to_vec().into()])),
        _ => {
            // The entry source edited, its hash recomputed (a consistent-looking edit).
            let mut text = SEED_SOURCE.as_bytes().to_vec();
            mutate(&mut text, rest);
            let text = String::from_utf8_lossy(&text).into_owned();
            let hash = sha256(text.as_bytes()).to_vec();
            Some(("UPDATE sources SET text = ?1, sha256 = ?2", vec![text.into(), hash.into()]))
        }
    };
    if let Some((sql, params)) = edit {
        if let Ok(conn) = rusqlite::Connection::open(&db) {
            let _ = conn.execute(sql, rusqlite::params_from_iter(params));
        }
    }
    let edited = table_rows(&db)? != rows_before;
    let loaded = match store.load(SESSION) {
        Ok(loaded) => loaded,
        Err(_) => {
            assert!(edited || !keyed, "the keyed writer's own session did not load under its key");
            return Some(());
        }
    };
    if keyed {
        // Under a key the stored state loads only as the keyed writer left it: an edited
        // journal or head tag is refused at load, an edited image at restore (below).
        let journal_edited =
            loaded.journal.encode().ok()? != Journal::decode(seed_image_and_journal().1).ok()?.encode().ok()?;
        assert!(!journal_edited, "an edited journal loaded under the image key");
        if let Some(stored) = &loaded.image {
            let restored = restore_with_key(&stored.bytes, Some(&loaded.journal), KEY);
            let (honest, _) = seed_image_and_journal();
            let (manifest, payload) = decode_image(honest, None).ok()?;
            let original = encode_image(&manifest, &payload, Some(KEY)).ok()?;
            assert!(!restored || stored.bytes == original, "an edited image restored under the image key");
            assert!(restored || edited, "the keyed writer's own session did not restore under its key");
        }
        return Some(());
    }
    if let Some(stored) = &loaded.image {
        if let Ok(summary) = read_manifest_unverified(&stored.bytes) {
            assert!(
                !summary.seal_ok || summary.manifest.journal_head.len == stored.seq,
                "a session loaded whose image row seq {} is not the sealed position {}",
                stored.seq,
                summary.manifest.journal_head.len
            );
            let forged_hash = summary.seal_ok
                && summary.manifest.code_hashes.iter().any(|(path, hash)| {
                    loaded.sources.iter().any(|s| s.path == *path && Digest::of(s.text.as_bytes()) != *hash)
                });
            // `amber resume` checks the code hashes before it restores.
            let checked = stored.check_code_hashes(&loaded.sources);
            assert_eq!(checked.is_err(), forged_hash, "a forged code hash passed, or an honest one failed");
            if forged_hash {
                return Some(());
            }
        }
        restore_and_run(&stored.bytes, Some(&loaded.journal));
    }
    Some(())
}

/// Every row of the tables an edit may touch, as text (to tell whether an edit changed any).
fn table_rows(db: &std::path::Path) -> Option<Vec<String>> {
    let conn = rusqlite::Connection::open(db).ok()?;
    let mut out = Vec::new();
    for sql in [
        "SELECT seq, hex(bytes) FROM images ORDER BY seq",
        "SELECT seq, hex(record) FROM journal ORDER BY seq",
        "SELECT session, hex(tag) FROM heads ORDER BY session",
        "SELECT path, hex(sha256) FROM sources ORDER BY path",
    ] {
        let mut stmt = conn.prepare(sql).ok()?;
        let rows = stmt
            .query_map([], |r| {
                Ok(format!("{:?}|{:?}", r.get::<_, rusqlite::types::Value>(0)?, r.get::<_, rusqlite::types::Value>(1)?))
            })
            .ok()?;
        out.extend(rows.flatten());
    }
    Some(out)
}

/// Re-chains the journal after record `target`'s args (or result) were mutated by `bytes`:
/// every hash recomputed, the rows rewritten. None if there is nothing to edit.
fn rechain_journal(db: &std::path::Path, target: u64, bytes: &[u8]) -> Option<()> {
    let conn = rusqlite::Connection::open(db).ok()?;
    let rows: Vec<Vec<u8>> = {
        let mut stmt = conn.prepare("SELECT record FROM journal ORDER BY seq").ok()?;
        let rows = stmt.query_map([], |r| r.get(0)).ok()?;
        rows.flatten().collect()
    };
    let mut journal = Journal::new();
    for row in rows {
        let r = CallRecord::decode(&row).ok()?;
        let mut draft = RecordDraft {
            parent_seq: r.parent_seq,
            kind: r.kind,
            function: r.function,
            args: r.args,
            result: r.result,
            duration_ms: r.duration_ms,
            timestamp: r.timestamp,
        };
        if r.seq == target {
            let mut text = serde_json::to_vec(&draft.args).ok()?;
            mutate(&mut text, bytes);
            draft.args = serde_json::from_slice(&text).unwrap_or(serde_json::Value::Null);
        }
        // A record the journal refuses (a broken parent link, say) ends the edit.
        journal.append(draft).ok()?;
    }
    for record in journal.records() {
        conn.execute(
            "UPDATE journal SET record = ?2 WHERE seq = ?1",
            rusqlite::params![record.seq as i64, record.encode().ok()?],
        )
        .ok()?;
    }
    Some(())
}
