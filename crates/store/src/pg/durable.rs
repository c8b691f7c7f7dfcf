//! The durable session store's tables in PostgreSQL: sessions, sources, images, journal,
//! blobs and output, with the same checks as the SQLite store (amber_durable::store::checks,
//! `Source::verify`, `StoredImage::check_position`, `Journal::from_records`). Every function
//! runs inside the caller's transaction; lease checks are the caller's (slice.rs).

use amber_durable::digest::Digest;
use amber_durable::export::{encode_export, ExportedSession};
use amber_durable::journal::{check_head_tag, head_tag, CallRecord, Journal, JournalHead};
use amber_durable::policy::Policy;
use amber_durable::store::checks::{check_image_head, plan_append, storable_image_head, stored_record_hash_of};
use amber_durable::store::{
    LoadedSession, NewSession, OutputChunk, OutputStream, SessionMeta, SessionStatus, Source, StoredImage, KEEP_IMAGES,
};
use amber_durable::DurableError;
use postgres::GenericClient;

use crate::types::{StoreError, StoreResult};
use crate::{now_ms, to_i64, to_u64};

fn corrupt(what: &'static str, detail: String) -> StoreError {
    StoreError::Durable(DurableError::Corrupt { what, offset: None, detail })
}

/// Creates the durable session `name` (its row and sources).
pub(super) fn create(
    c: &mut impl GenericClient,
    name: &str,
    new: &NewSession,
    key: Option<&[u8]>,
) -> StoreResult<SessionMeta> {
    new.policy.ensure_durable_safe()?;
    for source in &new.sources {
        source.verify()?;
    }
    let now = now_ms();
    let meta = SessionMeta {
        name: name.to_string(),
        created_ms: now,
        updated_ms: now,
        status: SessionStatus::Running,
        entry: new.entry.clone(),
        module: new.module,
        policy: new.policy,
    };
    let policy = serde_json::to_string(&meta.policy).map_err(|e| StoreError::Invalid(format!("policy: {e}")))?;
    let inserted = c.execute(
        "INSERT INTO sessions (name, created, updated, status, entry, module, policy) \
         VALUES ($1, $2, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING",
        &[&meta.name, &to_i64(now), &meta.status.name(), &meta.entry, &meta.module, &policy],
    )?;
    if inserted == 0 {
        return Err(DurableError::AlreadyExists { session: name.to_string() }.into());
    }
    for source in &new.sources {
        c.execute(
            "INSERT INTO sources (session, path, text, sha256) VALUES ($1, $2, $3, $4)",
            &[&meta.name, &source.path, &source.text, &source.sha256.0.as_slice()],
        )?;
    }
    tag_head(c, name, key)?;
    Ok(meta)
}

/// Replaces the session's sources (an upgrade's new code), each hash-checked first.
pub(super) fn replace_sources(c: &mut impl GenericClient, name: &str, sources: &[Source]) -> StoreResult<()> {
    for source in sources {
        source.verify()?;
    }
    c.execute("DELETE FROM sources WHERE session = $1", &[&name])?;
    for source in sources {
        c.execute(
            "INSERT INTO sources (session, path, text, sha256) VALUES ($1, $2, $3, $4)",
            &[&name, &source.path, &source.text, &source.sha256.0.as_slice()],
        )?;
    }
    Ok(())
}

/// The durable session's row, if it exists.
fn meta(c: &mut impl GenericClient, name: &str) -> StoreResult<Option<SessionMeta>> {
    let Some(row) = c.query_opt(
        "SELECT name, created, updated, status, entry, module, policy FROM sessions WHERE name = $1",
        &[&name],
    )?
    else {
        return Ok(None);
    };
    let status: String = row.get(3);
    let status = SessionStatus::from_name(&status)
        .ok_or_else(|| corrupt("session row", format!("session {name:?} has unknown status {status:?}")))?;
    let policy: String = row.get(6);
    let policy: Policy =
        serde_json::from_str(&policy).map_err(|e| corrupt("session row", format!("session {name:?} policy: {e}")))?;
    Ok(Some(SessionMeta {
        name: row.get(0),
        created_ms: to_u64(row.get(1)),
        updated_ms: to_u64(row.get(2)),
        status,
        entry: row.get(4),
        module: row.get(5),
        policy,
    }))
}

/// Loads a session to run on: [`load_to_show`], and the journal's head tag checked under
/// `key` (the image key; amber_durable's `head_tag` has the rules). None if it has no durable
/// session yet. Call inside a REPEATABLE READ transaction for one snapshot.
pub(super) fn load(c: &mut impl GenericClient, name: &str, key: Option<&[u8]>) -> StoreResult<Option<LoadedSession>> {
    let Some(loaded) = load_to_show(c, name)? else { return Ok(None) };
    check_head_tag(key, stored_tag(c, name)?.as_ref(), &loaded.journal.head())?;
    Ok(Some(loaded))
}

/// The session's tag row, if any (a tag of the wrong length reads as zeros: it matches nothing).
fn stored_tag(c: &mut impl GenericClient, name: &str) -> StoreResult<Option<Digest>> {
    let row = c.query_opt("SELECT tag FROM heads WHERE session = $1", &[&name])?;
    Ok(row.map(|row| {
        let bytes: Vec<u8> = row.get(0);
        let mut tag = [0u8; 32];
        if bytes.len() == 32 {
            tag.copy_from_slice(&bytes);
        }
        Digest(tag)
    }))
}

/// Rewrites the session's head tag for its journal as now stored (inside the writer's
/// transaction); without a key, a tagged session is refused (its tag would go stale).
fn tag_head(c: &mut impl GenericClient, name: &str, key: Option<&[u8]>) -> StoreResult<()> {
    let Some(key) = key else {
        return match stored_tag(c, name)? {
            None => Ok(()),
            Some(_) => Err(DurableError::Authentication {
                what: "journal head",
                detail: "the journal's head is authenticated by an image key; this process has none",
            }
            .into()),
        };
    };
    let last = c.query_opt("SELECT seq, record FROM journal WHERE session = $1 ORDER BY seq DESC LIMIT 1", &[&name])?;
    let head = match last {
        None => JournalHead::default(),
        Some(row) => {
            let seq = to_u64(row.get(0));
            JournalHead { len: seq + 1, hash: Digest(stored_record_hash_of(row.get::<_, &[u8]>(1), seq)?) }
        }
    };
    let tag = head_tag(key, &head)?;
    c.execute(
        "INSERT INTO heads (session, tag) VALUES ($1, $2) ON CONFLICT (session) DO UPDATE SET tag = EXCLUDED.tag",
        &[&name, &tag.0.as_slice()],
    )?;
    Ok(())
}

/// Loads a session to show or copy it (the server's journal and export routes): row,
/// sources (hash-checked), newest image and verified journal, without the head-tag check.
pub(super) fn load_to_show(c: &mut impl GenericClient, name: &str) -> StoreResult<Option<LoadedSession>> {
    let Some(meta) = meta(c, name)? else { return Ok(None) };
    let mut sources = Vec::new();
    for row in c.query("SELECT path, text, sha256 FROM sources WHERE session = $1 ORDER BY path", &[&name])? {
        let hash: Vec<u8> = row.get(2);
        let mut sha256 = [0u8; 32];
        if hash.len() == 32 {
            sha256.copy_from_slice(&hash);
        }
        let source = Source { path: row.get(0), text: row.get(1), sha256: Digest(sha256) };
        source.verify()?;
        sources.push(source);
    }
    let image = c
        .query_opt("SELECT seq, bytes FROM images WHERE session = $1 ORDER BY seq DESC LIMIT 1", &[&name])?
        .map(|row| StoredImage { seq: to_u64(row.get(0)), bytes: row.get(1) });
    let mut records = Vec::new();
    for row in c.query("SELECT seq, record FROM journal WHERE session = $1 ORDER BY seq", &[&name])? {
        let seq = to_u64(row.get(0));
        let bytes: Vec<u8> = row.get(1);
        let record = CallRecord::decode(&bytes)?;
        if record.seq != seq {
            return Err(DurableError::BrokenChain {
                seq,
                detail: format!("row seq {seq} holds a record with seq {}", record.seq),
            }
            .into());
        }
        records.push(record);
    }
    let journal = Journal::from_records(records)?;
    if let Some(image) = &image {
        image.check_position(&journal)?;
    }
    Ok(Some(LoadedSession { meta, sources, image, journal }))
}

/// What one commit appends: records, output, the image of the state after both, and the key
/// the journal head is tagged under.
pub(super) struct Progress<'a> {
    pub records: &'a [CallRecord],
    pub output: &'a [OutputChunk],
    pub image: Option<&'a [u8]>,
    pub key: Option<&'a [u8]>,
}

/// The lease a slice's writes are committed under (recorded with each journal record).
pub(super) struct Lease<'a> {
    pub epoch: i64,
    pub owner: &'a str,
}

/// Appends journal records, output and (if given) the image of the state after both; the
/// caller's transaction holds the session's lease row locked.
pub(super) fn append_progress(
    c: &mut impl GenericClient,
    lease: &Lease<'_>,
    name: &str,
    progress: Progress<'_>,
) -> StoreResult<()> {
    let Progress { records, output, image, key } = progress;
    let last = c.query_opt("SELECT seq, record FROM journal WHERE session = $1 ORDER BY seq DESC LIMIT 1", &[&name])?;
    let last: Option<(u64, Vec<u8>)> = last.map(|row| (to_u64(row.get(0)), row.get(1)));
    let mut failure = None;
    let insert = {
        let mut stored_at = |seq: u64| -> amber_durable::Result<Option<Vec<u8>>> {
            match c.query_opt("SELECT record FROM journal WHERE session = $1 AND seq = $2", &[&name, &to_i64(seq)]) {
                Ok(row) => Ok(row.map(|row| row.get(0))),
                Err(e) => {
                    failure = Some(StoreError::from(e));
                    Ok(None)
                }
            }
        };
        let last = last.as_ref().map(|(seq, bytes)| (*seq, bytes.as_slice()));
        plan_append(name, last, records, &mut stored_at)
    };
    if let Some(failure) = failure {
        return Err(failure);
    }
    for (seq, bytes) in insert? {
        c.execute(
            "INSERT INTO journal (session, seq, record, lease_epoch, lease_owner) VALUES ($1, $2, $3, $4, $5)",
            &[&name, &to_i64(seq), &bytes, &lease.epoch, &lease.owner],
        )?;
    }
    if !records.is_empty() {
        tag_head(c, name, key)?;
    }
    if !output.is_empty() {
        let next: i64 =
            c.query_one("SELECT COALESCE(MAX(chunk) + 1, 0) FROM output WHERE session = $1", &[&name])?.get(0);
        for (i, chunk) in output.iter().enumerate() {
            let stream: i16 = if chunk.stream == OutputStream::Stdout { 0 } else { 1 };
            c.execute(
                "INSERT INTO output (session, chunk, stream, text) VALUES ($1, $2, $3, $4)",
                &[&name, &(next + to_i64(i as u64)), &stream, &chunk.text],
            )?;
        }
    }
    if let Some(bytes) = image {
        let head = storable_image_head(name, bytes)?;
        let stored_hash = match head.len.checked_sub(1) {
            None => None,
            Some(last) => c
                .query_opt("SELECT record FROM journal WHERE session = $1 AND seq = $2", &[&name, &to_i64(last)])?
                .and_then(|row| stored_record_hash_of(row.get::<_, &[u8]>(0), last).ok()),
        };
        check_image_head(name, &head, stored_hash)?;
        c.execute(
            "INSERT INTO images (session, seq, bytes, created) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (session, seq) DO UPDATE SET bytes = EXCLUDED.bytes, created = EXCLUDED.created",
            &[&name, &to_i64(head.len), &bytes, &to_i64(now_ms())],
        )?;
        c.execute(
            "DELETE FROM images WHERE session = $1 AND seq NOT IN \
             (SELECT seq FROM images WHERE session = $1 ORDER BY seq DESC LIMIT $2)",
            &[&name, &i64::from(KEEP_IMAGES)],
        )?;
    }
    c.execute("UPDATE sessions SET updated = $2 WHERE name = $1", &[&name, &to_i64(now_ms())])?;
    Ok(())
}

/// Sets the durable session's status.
pub(super) fn set_status(c: &mut impl GenericClient, name: &str, status: SessionStatus) -> StoreResult<()> {
    c.execute(
        "UPDATE sessions SET status = $2, updated = $3 WHERE name = $1",
        &[&name, &status.name(), &to_i64(now_ms())],
    )?;
    Ok(())
}

/// Stores content-addressed blobs, each checked against its hash; a stored one is not written
/// again, but its `last_put` is refreshed (blob collection keeps what was put at or after its
/// cutoff, amber_durable `store::blob_gc`; the bytes, TOASTed, are not copied).
pub(super) fn put_blobs(c: &mut impl GenericClient, blobs: &[(Digest, &[u8])]) -> StoreResult<()> {
    let now = to_i64(now_ms());
    for (hash, bytes) in blobs {
        if Digest::of(bytes) != *hash {
            return Err(StoreError::Invalid(format!("blob {hash}: its bytes do not have this hash")));
        }
        c.execute(
            "INSERT INTO blobs (sha256, bytes, last_put) VALUES ($1, $2, $3) ON CONFLICT (sha256) \
             DO UPDATE SET last_put = EXCLUDED.last_put",
            &[&&hash.0[..], bytes, &now],
        )?;
    }
    Ok(())
}

/// A blob's bytes, if stored (a row whose bytes do not hash to its key is corrupt).
pub(super) fn blob(c: &mut impl GenericClient, hash: &Digest) -> StoreResult<Option<Vec<u8>>> {
    let bytes: Option<Vec<u8>> =
        c.query_opt("SELECT bytes FROM blobs WHERE sha256 = $1", &[&&hash.0[..]])?.map(|r| r.get(0));
    match bytes {
        Some(bytes) if Digest::of(&bytes) != *hash => Err(corrupt("blob", format!("blob {hash}: hash mismatch"))),
        other => Ok(other),
    }
}

/// Committed output from chunk `from` on, at most `limit` chunks.
pub(super) fn output(c: &mut impl GenericClient, name: &str, from: u64, limit: u64) -> StoreResult<Vec<OutputChunk>> {
    let rows = c.query(
        "SELECT stream, text FROM output WHERE session = $1 AND chunk >= $2 ORDER BY chunk LIMIT $3",
        &[&name, &to_i64(from), &to_i64(limit)],
    )?;
    rows.into_iter()
        .map(|row| {
            let stream: i16 = row.get(0);
            let stream = OutputStream::from_code(i64::from(stream))
                .ok_or_else(|| corrupt("output row", format!("session {name:?}: unknown stream {stream}")))?;
            Ok(OutputChunk { stream, text: row.get(1) })
        })
        .collect()
}

/// The session as an export file (the format `amber export` writes; `amber import` reads it).
pub(super) fn export(c: &mut impl GenericClient, name: &str) -> StoreResult<Vec<u8>> {
    let loaded =
        load_to_show(c, name)?.ok_or_else(|| StoreError::NotFound { what: "session", id: name.to_string() })?;
    let head_tag = stored_tag(c, name)?;
    let mut blobs = Vec::new();
    for (hash, by) in
        amber_durable::export::exported_blobs(loaded.journal.records(), loaded.image.as_ref().map(|i| &i.bytes[..]))
    {
        match blob(c, &hash)? {
            Some(bytes) => blobs.push((hash, bytes)),
            None => {
                return Err(corrupt(
                    "session store",
                    format!("session {name:?}: its {by} names blob {hash}, which the store lacks"),
                ))
            }
        }
    }
    Ok(encode_export(&ExportedSession {
        meta: loaded.meta,
        sources: loaded.sources,
        image: loaded.image,
        journal: loaded.journal,
        blobs,
        head_tag,
    })?)
}
