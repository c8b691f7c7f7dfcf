//! The session store: sessions, their sources, images and journal in one SQLite database
//! (`<dir>/sessions.db`, WAL mode, `synchronous=FULL`), so a crash never loses a committed write.
//!
//! Reads run in one transaction each (a consistent snapshot); writes run under
//! `BEGIN IMMEDIATE` and require a [`SessionLease`], so two processes cannot drive one session
//! at once. The store keeps the latest [`KEEP_IMAGES`] images per session and the whole
//! journal. Export/import use the container in [`crate::export`].

mod blob_gc;
pub mod checks;
mod heads;
mod lease;
mod lineage;
mod names;
mod rows;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde::{Deserialize, Serialize};

use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::export::{decode_export, encode_export, ExportedSession};
use crate::image::read_manifest_unverified;
use crate::journal::{CallRecord, Journal};
use crate::policy::Policy;

use rows::{
    insert_session, insert_source, next_generated_name, read_journal, require_session, session_exists,
    stored_record_hash, touch,
};

pub use blob_gc::{image_blobs, journal_row_blobs, BlobSweep, KeepBlobs, BLOB_GRACE_MS};
pub use lease::{LeaseToken, SessionLease};
pub use names::{generate_name, validate_name, MAX_NAME_LEN};

/// Database file name inside the store directory.
pub const STORE_FILE: &str = "sessions.db";
/// Schema version kept in the `meta` table. 2: the `blobs` table; 3: the `output` table (an
/// older store gains the tables it lacks when opened); 4: the `forks` table; 5: the
/// `locations` table; 6: the `heads` table (journal head tags under an image key); 7: the
/// `blobs.last_put` column (blob collection's grace period, `blob_gc`).
pub const STORE_SCHEMA_VERSION: u32 = 7;
/// Images kept per session (the newest by journal seq).
pub const KEEP_IMAGES: u32 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'suspended', 'completed', 'failed')),
    entry TEXT NOT NULL,
    module INTEGER NOT NULL,
    policy TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
    session TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL, sha256 BLOB NOT NULL,
    PRIMARY KEY (session, path)
);
CREATE TABLE IF NOT EXISTS images (
    session TEXT NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL, created INTEGER NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS journal (
    session TEXT NOT NULL, seq INTEGER NOT NULL, record BLOB NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS blobs (sha256 BLOB PRIMARY KEY, bytes BLOB NOT NULL, last_put INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS output (
    session TEXT NOT NULL, chunk INTEGER NOT NULL, stream INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (session, chunk)
);
CREATE TABLE IF NOT EXISTS forks (
    session TEXT PRIMARY KEY, parent TEXT NOT NULL, seq INTEGER NOT NULL, shares_sources INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS locations (
    session TEXT NOT NULL, seq INTEGER NOT NULL, location TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS heads (session TEXT PRIMARY KEY, tag BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS locks (
    session TEXT PRIMARY KEY, pid INTEGER NOT NULL, start_ticks INTEGER,
    token TEXT NOT NULL, acquired INTEGER NOT NULL
);
";

/// Lifecycle state of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    /// A process is running it (or crashed while running it).
    Running,
    /// Waiting on pending host operations.
    Suspended,
    /// The program finished.
    Completed,
    /// The program threw or hit a limit.
    Failed,
}

impl SessionStatus {
    /// Lower-case name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            SessionStatus::Running => "running",
            SessionStatus::Suspended => "suspended",
            SessionStatus::Completed => "completed",
            SessionStatus::Failed => "failed",
        }
    }

    /// The status with this stored name.
    pub fn from_name(name: &str) -> Option<SessionStatus> {
        [SessionStatus::Running, SessionStatus::Suspended, SessionStatus::Completed, SessionStatus::Failed]
            .into_iter()
            .find(|status| status.name() == name)
    }
}

/// Which stream a chunk of program output went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputStream {
    /// `console.log`, `process.stdout`.
    Stdout,
    /// `console.error`, `process.stderr`.
    Stderr,
}

impl OutputStream {
    /// The stored code (0 stdout, 1 stderr).
    pub fn code(self) -> i64 {
        match self {
            OutputStream::Stdout => 0,
            OutputStream::Stderr => 1,
        }
    }

    /// The stream with this stored code.
    pub fn from_code(code: i64) -> Option<OutputStream> {
        match code {
            0 => Some(OutputStream::Stdout),
            1 => Some(OutputStream::Stderr),
            _ => None,
        }
    }
}

/// One write of program output, as the print hook received it (a line, without its newline).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputChunk {
    /// Where it went.
    pub stream: OutputStream,
    /// The text written.
    pub text: String,
}

/// A session's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    /// Unique name.
    pub name: String,
    /// Creation time, ms since the Unix epoch (wall clock).
    pub created_ms: u64,
    /// Last write, ms since the Unix epoch (wall clock).
    pub updated_ms: u64,
    /// Lifecycle state.
    pub status: SessionStatus,
    /// Entry file path (a key of the sources).
    pub entry: String,
    /// True if the entry is an ES module.
    pub module: bool,
    /// Policy of the run.
    pub policy: Policy,
}

/// One program source kept with a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Path as the program names it.
    pub path: String,
    /// Full text.
    pub text: String,
    /// sha256 of `text`.
    pub sha256: Digest,
}

impl Source {
    /// A source with its hash computed.
    pub fn new(path: &str, text: &str) -> Self {
        Source { path: path.to_string(), text: text.to_string(), sha256: Digest::of(text.as_bytes()) }
    }

    /// Fails with `Corrupt` if `sha256` does not match `text`.
    pub fn verify(&self) -> Result<()> {
        if Digest::of(self.text.as_bytes()) != self.sha256 {
            return Err(DurableError::Corrupt {
                what: "source",
                offset: None,
                detail: format!("sha256 of {:?} does not match its text", self.path),
            });
        }
        Ok(())
    }
}

/// What a new session starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct NewSession {
    /// Entry file path.
    pub entry: String,
    /// True if the entry is an ES module.
    pub module: bool,
    /// Policy (must be durable-safe).
    pub policy: Policy,
    /// Program sources.
    pub sources: Vec<Source>,
}

/// An image as stored: the journal length it was taken at, and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredImage {
    /// Journal length (= `manifest.journal_head.len`) when the image was made.
    pub seq: u64,
    /// The image container bytes.
    pub bytes: Vec<u8>,
}

impl StoredImage {
    /// The row's seq must be the journal position sealed inside the image, and the journal
    /// must hold that position (length and head hash): an edited `images.seq` (which once
    /// made `amber replay` skip its image check) or an image moved from another session is an
    /// integrity failure. [`SessionStore::load`] checks it. An image whose manifest cannot be
    /// read or whose seal is broken is left to restore, which says what is wrong with it.
    pub fn check_position(&self, journal: &Journal) -> Result<()> {
        let Ok(summary) = read_manifest_unverified(&self.bytes) else { return Ok(()) };
        if !summary.seal_ok {
            return Ok(());
        }
        let head = summary.manifest.journal_head;
        if head.len != self.seq {
            return Err(DurableError::Corrupt {
                what: "image row",
                offset: None,
                detail: format!(
                    "the store says the image was taken at journal seq {}, but the image itself records journal length {}",
                    self.seq, head.len
                ),
            });
        }
        if !journal.has_prefix(&head) {
            return Err(DurableError::Corrupt {
                what: "image row",
                offset: None,
                detail: format!(
                    "the image was taken at journal length {} with a head hash this session's journal does not have",
                    head.len
                ),
            });
        }
        Ok(())
    }

    /// Every code hash the manifest gives for one of `sources` must be that source's: checked
    /// before the image is restored to run on (`amber resume`). Replay, which runs the stored
    /// sources from the top, reports an edited source as the divergence it causes instead.
    pub fn check_code_hashes(&self, sources: &[Source]) -> Result<()> {
        let Ok(summary) = read_manifest_unverified(&self.bytes) else { return Ok(()) };
        if !summary.seal_ok {
            return Ok(());
        }
        for (path, hash) in &summary.manifest.code_hashes {
            if let Some(source) = sources.iter().find(|s| s.path == *path) {
                if Digest::of(source.text.as_bytes()) != *hash {
                    return Err(DurableError::Corrupt {
                        what: "image manifest",
                        offset: None,
                        detail: format!("the code hash of {path:?} is not the stored source's"),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Everything needed to resume or replay a session.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSession {
    /// The session row.
    pub meta: SessionMeta,
    /// Sources, by path order.
    pub sources: Vec<Source>,
    /// The newest image, if any.
    pub image: Option<StoredImage>,
    /// The verified journal.
    pub journal: Journal,
}

/// Sessions kept in `<dir>/sessions.db`.
#[derive(Debug)]
pub struct SessionStore {
    dir: PathBuf,
    conn: Connection,
    /// The image key, authenticating journal heads ([`SessionStore::with_key`]).
    key: Option<Vec<u8>>,
}

/// Current wall-clock time in ms since the Unix epoch (0 if the clock is before 1970).
pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// SQLite INTEGER for a u64 (saturating; seqs and ms times never get near 2^63).
pub(crate) fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// u64 from a SQLite INTEGER (negative values read as 0).
pub(crate) fn to_u64(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

impl SessionStore {
    /// Opens (creating if needed) the store in `dir`.
    pub fn open(dir: &Path) -> Result<SessionStore> {
        fs::create_dir_all(dir)
            .map_err(|e| DurableError::io(format!("creating store directory {}", dir.display()), e))?;
        let path = dir.join(STORE_FILE);
        let context = format!("opening session store {}", path.display());
        let err = |e| DurableError::store(context.clone(), e);
        let conn = Connection::open(&path).map_err(err)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(err)?;
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0)).map_err(err)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(err)?;
        let store = SessionStore { dir: dir.to_path_buf(), conn, key: None };
        let tx = store.write_tx(&context)?;
        tx.execute_batch(SCHEMA).map_err(err)?;
        let version: Option<String> = tx
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |row| row.get(0))
            .optional()
            .map_err(err)?;
        match version {
            None => {
                tx.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', ?1)",
                    params![STORE_SCHEMA_VERSION.to_string()],
                )
                .map_err(err)?;
            }
            Some(found) if found == STORE_SCHEMA_VERSION.to_string() => {}
            Some(found) if ["1", "2", "3", "4", "5", "6"].contains(&found.as_str()) => {
                // Versions 1 to 5 lacked only tables (blobs, output, forks, locations, heads)
                // the schema batch just created; 2 to 6 lack `blobs.last_put`.
                blob_gc::migrate(&tx).map_err(err)?;
                tx.execute(
                    "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
                    params![STORE_SCHEMA_VERSION.to_string()],
                )
                .map_err(err)?;
            }
            Some(found) => {
                return Err(DurableError::UnsupportedVersion {
                    what: "session store",
                    found: found.parse().unwrap_or(u32::MAX),
                    supported: STORE_SCHEMA_VERSION,
                })
            }
        }
        tx.commit().map_err(err)?;
        Ok(store)
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// This store's database connection, for a store layered on this one in the same file
    /// (amber-store's server tables); it must not touch the tables above.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// A write transaction (`BEGIN IMMEDIATE`).
    fn write_tx(&self, context: &str) -> Result<Transaction<'_>> {
        Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
            .map_err(|e| DurableError::store(context.to_string(), e))
    }

    /// A read transaction: every query in it sees one snapshot.
    fn read_tx(&self, context: &str) -> Result<Transaction<'_>> {
        Transaction::new_unchecked(&self.conn, TransactionBehavior::Deferred)
            .map_err(|e| DurableError::store(context.to_string(), e))
    }

    /// Creates a session; with `name` None, generates one (see [`generate_name`]).
    pub fn create_session(&self, name: Option<&str>, new: &NewSession) -> Result<SessionMeta> {
        new.policy.ensure_durable_safe()?;
        if let Some(name) = name {
            validate_name(name)?;
        }
        for source in &new.sources {
            source.verify()?;
        }
        let context = "creating session";
        let err = |e| DurableError::store(context, e);
        let tx = self.write_tx(context)?;
        let name = match name {
            Some(name) => {
                if session_exists(&tx, name).map_err(err)? {
                    return Err(DurableError::AlreadyExists { session: name.to_string() });
                }
                name.to_string()
            }
            None => next_generated_name(&tx).map_err(err)?,
        };
        let now = now_ms();
        let meta = SessionMeta {
            name,
            created_ms: now,
            updated_ms: now,
            status: SessionStatus::Running,
            entry: new.entry.clone(),
            module: new.module,
            policy: new.policy,
        };
        insert_session(&tx, &meta, &new.sources)?;
        self.tag_head(&tx, &meta.name)?;
        tx.commit().map_err(err)?;
        Ok(meta)
    }

    /// The session row of `name`.
    pub fn session(&self, name: &str) -> Result<SessionMeta> {
        let tx = self.read_tx("reading session")?;
        require_session(&tx, name)
    }

    /// Loads a session to run on: row, sources (hash-checked), newest image and verified
    /// journal, whose head tag is checked ([`SessionStore::with_key`]).
    pub fn load(&self, name: &str) -> Result<LoadedSession> {
        self.load_checked(name, true)
    }

    /// [`SessionStore::load`] without the head-tag check, for what only shows or copies a
    /// session (`inspect`, `log`, `trace`, `export`): the chain and every other check still run.
    pub fn load_to_show(&self, name: &str) -> Result<LoadedSession> {
        self.load_checked(name, false)
    }

    fn load_checked(&self, name: &str, authenticate: bool) -> Result<LoadedSession> {
        let tx = self.read_tx("loading session")?;
        let meta = require_session(&tx, name)?;
        let err = |e| DurableError::store(format!("loading session {name:?}"), e);
        let sources = lineage::lineage_sources(&tx, name, 0)?;
        for source in &sources {
            source.verify()?;
        }
        let image = tx
            .query_row(
                "SELECT seq, bytes FROM images WHERE session = ?1 ORDER BY seq DESC LIMIT 1",
                params![name],
                |row| Ok(StoredImage { seq: to_u64(row.get(0)?), bytes: row.get(1)? }),
            )
            .optional()
            .map_err(err)?;
        let journal = read_journal(&tx, name)?;
        if let Some(image) = &image {
            image.check_position(&journal)?;
        }
        if authenticate {
            self.check_head(&tx, name, &journal)?;
        }
        Ok(LoadedSession { meta, sources, image, journal })
    }

    /// Every session, oldest first.
    pub fn list_sessions(&self) -> Result<Vec<SessionMeta>> {
        let tx = self.read_tx("listing sessions")?;
        let err = |e| DurableError::store("listing sessions", e);
        let names: Vec<String> = {
            let mut stmt = tx.prepare("SELECT name FROM sessions ORDER BY created, name").map_err(err)?;
            let rows = stmt.query_map([], |row| row.get(0)).map_err(err)?;
            rows.collect::<rusqlite::Result<_>>().map_err(err)?
        };
        names.iter().map(|name| require_session(&tx, name)).collect()
    }

    /// The pid of the live process holding `name`, if any.
    pub fn lock_owner(&self, name: &str) -> Result<Option<u32>> {
        lease::live_owner(&self.conn, name)
            .map_err(|e| DurableError::store(format!("reading lock of session {name:?}"), e))
    }

    /// Takes exclusive hold of `name`; `Busy` if a live process already holds it.
    pub fn acquire(&self, name: &str) -> Result<SessionLease<'_>> {
        lease::acquire(self, name)
    }

    /// Stores an image at the journal length its manifest records (its seq), keeping the
    /// newest [`KEEP_IMAGES`]. The journal up to that point must already be stored.
    pub fn save_image(&self, lease: &SessionLease<'_>, bytes: &[u8]) -> Result<u64> {
        let name = lease.session();
        let context = format!("saving image of session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        let seq = insert_image(&tx, name, bytes)?;
        touch(&tx, name).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(seq)
    }

    /// Appends records in one transaction. Each must extend the stored chain (next seq,
    /// matching prev_hash, valid hash); records already stored with identical bytes are skipped.
    pub fn append_journal_records(&self, lease: &SessionLease<'_>, records: &[CallRecord]) -> Result<()> {
        self.append_progress(lease, records, &[], None)
    }

    /// Appends records, the program output written since the last commit, and (if given) the
    /// image of the state after both, in one transaction. With the image, output is committed
    /// exactly once: a crash after the commit restores from this image, past the output; a
    /// crash before it re-runs, live, the code that printed it. (Without an image, output
    /// printed after the last record would be printed again by a recovery, which replays the
    /// records silently and runs on live from there.) Records are checked as in
    /// [`SessionStore::append_journal_records`], the image as in [`SessionStore::save_image`].
    pub fn append_progress(
        &self,
        lease: &SessionLease<'_>,
        records: &[CallRecord],
        output: &[OutputChunk],
        image: Option<&[u8]>,
    ) -> Result<()> {
        self.append_progress_and(lease, records, output, image, None, |_| Ok::<(), DurableError>(()))
    }

    /// [`SessionStore::append_progress`], and in the same transaction the session's status
    /// (if given) and the caller's own writes to the same database (`also`: a server's row
    /// for the session, its operations). A server ends a finished session's last slice with
    /// this: the last records, the output and the final status become durable together, so
    /// a finished session needs no image.
    pub fn append_progress_and<T, E: From<DurableError>>(
        &self,
        lease: &SessionLease<'_>,
        records: &[CallRecord],
        output: &[OutputChunk],
        image: Option<&[u8]>,
        status: Option<SessionStatus>,
        also: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let name = lease.session();
        let context = format!("appending journal of session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        let last: Option<(i64, Vec<u8>)> = tx
            .query_row(
                "SELECT seq, record FROM journal WHERE session = ?1 ORDER BY seq DESC LIMIT 1",
                params![name],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(err)?;
        let mut stored_at = |seq: u64| -> Result<Option<Vec<u8>>> {
            tx.query_row(
                "SELECT record FROM journal WHERE session = ?1 AND seq = ?2",
                params![name, to_i64(seq)],
                |row| row.get(0),
            )
            .optional()
            .map_err(err)
        };
        let last = last.as_ref().map(|(seq, bytes)| (to_u64(*seq), bytes.as_slice()));
        for (seq, bytes) in checks::plan_append(name, last, records, &mut stored_at)? {
            tx.execute(
                "INSERT INTO journal (session, seq, record) VALUES (?1, ?2, ?3)",
                params![name, to_i64(seq), bytes],
            )
            .map_err(err)?;
        }
        if !output.is_empty() {
            let next: i64 = tx
                .query_row("SELECT COALESCE(MAX(chunk) + 1, 0) FROM output WHERE session = ?1", params![name], |row| {
                    row.get(0)
                })
                .map_err(err)?;
            for (i, chunk) in output.iter().enumerate() {
                tx.execute(
                    "INSERT INTO output (session, chunk, stream, text) VALUES (?1, ?2, ?3, ?4)",
                    params![name, next + to_i64(i as u64), chunk.stream.code(), chunk.text],
                )
                .map_err(err)?;
            }
        }
        if let Some(image) = image {
            insert_image(&tx, name, image)?;
        }
        if !records.is_empty() {
            self.tag_head(&tx, name)?;
        }
        match status {
            Some(status) => tx
                .execute(
                    "UPDATE sessions SET status = ?2, updated = ?3 WHERE name = ?1",
                    params![name, status.name(), to_i64(now_ms())],
                )
                .map(drop),
            None => touch(&tx, name),
        }
        .map_err(err)?;
        let value = also(&tx)?;
        tx.commit().map_err(err)?;
        Ok(value)
    }

    /// Notes where in the program the records at these seqs were made (`file:line:column`).
    /// Diagnostic, outside the hash chain: a trace shows them; nothing checks them, and a
    /// seq already noted keeps its first location.
    pub fn put_locations(&self, lease: &SessionLease<'_>, locations: &[(u64, String)]) -> Result<()> {
        if locations.is_empty() {
            return Ok(());
        }
        let name = lease.session();
        let context = format!("noting record locations of session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        for (seq, location) in locations {
            tx.execute(
                "INSERT OR IGNORE INTO locations (session, seq, location) VALUES (?1, ?2, ?3)",
                params![name, to_i64(*seq), location],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    /// Where the session's records were made, by seq ([`SessionStore::put_locations`]); for
    /// a fork, its parent's locations up to the fork point too (that prefix is the parent's).
    pub fn locations(&self, name: &str) -> Result<BTreeMap<u64, String>> {
        let err = |e| DurableError::store(format!("reading record locations of session {name:?}"), e);
        let mut locations = BTreeMap::new();
        let mut session = name.to_string();
        let mut upto = u64::MAX;
        for _ in 0..=lineage::MAX_FORK_DEPTH {
            let mut stmt = self
                .conn
                .prepare_cached("SELECT seq, location FROM locations WHERE session = ?1 AND seq <= ?2")
                .map_err(err)?;
            let rows = stmt
                .query_map(params![session, to_i64(upto)], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))
                .map_err(err)?;
            for row in rows {
                let (seq, location) = row.map_err(err)?;
                locations.entry(to_u64(seq)).or_insert(location);
            }
            match lineage::fork_link(&self.conn, &session).map_err(err)? {
                Some((parent, seq, _)) => (session, upto) = (parent, seq.min(upto)),
                None => break,
            }
        }
        Ok(locations)
    }

    /// The session's committed output from chunk `from` on (at most `limit` chunks), in order.
    pub fn output(&self, name: &str, from: u64, limit: u64) -> Result<Vec<OutputChunk>> {
        let err = |e| DurableError::store(format!("reading output of session {name:?}"), e);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT stream, text FROM output WHERE session = ?1 AND chunk >= ?2 ORDER BY chunk LIMIT ?3",
            )
            .map_err(err)?;
        let rows = stmt
            .query_map(params![name, to_i64(from), to_i64(limit)], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(err)?;
        let mut chunks = Vec::new();
        for row in rows {
            let (stream, text) = row.map_err(err)?;
            let stream = OutputStream::from_code(stream).ok_or_else(|| DurableError::Corrupt {
                what: "output row",
                offset: None,
                detail: format!("session {name:?}: unknown stream {stream}"),
            })?;
            chunks.push(OutputChunk { stream, text });
        }
        Ok(chunks)
    }

    /// Stores content-addressed blobs (lower-layer file bytes), each once: a blob already
    /// stored is not written again (its `last_put` is refreshed, see `blob_gc`). Each is
    /// checked against its hash. Blobs belong to no session, so this needs no lease; store
    /// them before the records that name them.
    pub fn put_blobs(&self, blobs: &[(Digest, &[u8])]) -> Result<()> {
        if blobs.is_empty() {
            return Ok(());
        }
        let context = "storing blobs".to_string();
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        let now = to_i64(now_ms());
        for (hash, bytes) in blobs {
            if Digest::of(bytes) != *hash {
                return Err(DurableError::InvalidValue {
                    what: format!("blob {hash}"),
                    detail: "its bytes do not have this hash".into(),
                });
            }
            tx.execute(blob_gc::PUT_BLOB_SQL, params![&hash.0[..], bytes, now]).map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    /// The blob with this hash, if stored (and intact: a row whose bytes do not hash to its
    /// key is reported as corrupt).
    pub fn blob(&self, hash: &Digest) -> Result<Option<Vec<u8>>> {
        let context = format!("reading blob {hash}");
        let bytes: Option<Vec<u8>> = self
            .conn
            .query_row("SELECT bytes FROM blobs WHERE sha256 = ?1", params![&hash.0[..]], |row| row.get(0))
            .optional()
            .map_err(|e| DurableError::store(context.clone(), e))?;
        match bytes {
            Some(bytes) if Digest::of(&bytes) != *hash => {
                Err(DurableError::Corrupt { what: "blob", offset: None, detail: format!("{context}: hash mismatch") })
            }
            other => Ok(other),
        }
    }

    /// Sets the session's status.
    pub fn set_status(&self, lease: &SessionLease<'_>, status: SessionStatus) -> Result<()> {
        let name = lease.session();
        let context = format!("updating status of session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        tx.execute(
            "UPDATE sessions SET status = ?2, updated = ?3 WHERE name = ?1",
            params![name, status.name(), to_i64(now_ms())],
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }

    /// Adds sources (e.g. modules loaded later); a path already stored must have the same text.
    pub fn put_sources(&self, lease: &SessionLease<'_>, sources: &[Source]) -> Result<()> {
        let name = lease.session();
        let context = format!("storing sources of session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        for source in sources {
            source.verify()?;
            let stored: Option<Vec<u8>> = tx
                .query_row(
                    "SELECT sha256 FROM sources WHERE session = ?1 AND path = ?2",
                    params![name, source.path],
                    |row| row.get(0),
                )
                .optional()
                .map_err(err)?;
            match stored {
                Some(hash) if hash == source.sha256.0 => {}
                Some(_) => {
                    return Err(DurableError::InvalidValue {
                        what: format!("source {:?} of session {name:?}", source.path),
                        detail: "a different text is already stored at this path".into(),
                    })
                }
                None => insert_source(&tx, name, source).map_err(err)?,
            }
        }
        touch(&tx, name).map_err(err)?;
        tx.commit().map_err(err)
    }

    /// One export file (see [`crate::export`]): session row, sources, newest image, journal.
    pub fn export(&self, name: &str) -> Result<Vec<u8>> {
        let loaded = self.load_to_show(name)?;
        let head_tag = {
            let tx = self.read_tx("reading the journal head tag")?;
            self.head_tag_of(&tx, name)?
        };
        let mut blobs = Vec::new();
        for (hash, by) in
            crate::export::exported_blobs(loaded.journal.records(), loaded.image.as_ref().map(|i| &i.bytes[..]))
        {
            match self.blob(&hash)? {
                Some(bytes) => blobs.push((hash, bytes)),
                None => {
                    return Err(DurableError::Corrupt {
                        what: "session store",
                        offset: None,
                        detail: format!("session {name:?}: its {by} names blob {hash}, which the store lacks"),
                    })
                }
            }
        }
        encode_export(&ExportedSession {
            meta: loaded.meta,
            sources: loaded.sources,
            image: loaded.image,
            journal: loaded.journal,
            blobs,
            head_tag,
        })
    }

    /// Verifies an export file completely, then inserts it (as `rename` if given).
    pub fn import(&self, bytes: &[u8], rename: Option<&str>) -> Result<SessionMeta> {
        let exported = decode_export(bytes)?;
        // With the key, a session whose tag does not authenticate its journal is refused
        // now rather than at its first resume; without it, the tag is stored as it came.
        if self.key.is_some() {
            crate::journal::check_head_tag(self.key.as_deref(), exported.head_tag.as_ref(), &exported.journal.head())?;
        }
        let mut meta = exported.meta;
        if let Some(rename) = rename {
            meta.name = rename.to_string();
        }
        validate_name(&meta.name)?;
        meta.policy.ensure_durable_safe()?;
        let context = format!("importing session {:?}", meta.name);
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        if session_exists(&tx, &meta.name).map_err(err)? {
            return Err(DurableError::AlreadyExists { session: meta.name });
        }
        insert_session(&tx, &meta, &exported.sources)?;
        let now = to_i64(now_ms());
        for (hash, bytes) in &exported.blobs {
            tx.execute(blob_gc::PUT_BLOB_SQL, params![&hash.0[..], bytes, now]).map_err(err)?;
        }
        for record in exported.journal.records() {
            tx.execute(
                "INSERT INTO journal (session, seq, record) VALUES (?1, ?2, ?3)",
                params![meta.name, to_i64(record.seq), record.encode()?],
            )
            .map_err(err)?;
        }
        if let Some(image) = &exported.image {
            tx.execute(
                "INSERT INTO images (session, seq, bytes, created) VALUES (?1, ?2, ?3, ?4)",
                params![meta.name, to_i64(image.seq), image.bytes, to_i64(now_ms())],
            )
            .map_err(err)?;
        }
        self.put_head_tag(&tx, &meta.name, exported.head_tag.as_ref())?;
        tx.commit().map_err(err)?;
        Ok(meta)
    }
}

/// Inserts an image inside `tx` (its journal head must be in the journal `tx` sees), keeping
/// the newest [`KEEP_IMAGES`]; returns its seq.
fn insert_image(tx: &Transaction<'_>, name: &str, bytes: &[u8]) -> Result<u64> {
    let head = checks::storable_image_head(name, bytes)?;
    let context = format!("saving image of session {name:?}");
    let err = |e| DurableError::store(context.clone(), e);
    let stored_hash = match head.len.checked_sub(1) {
        None => None,
        Some(last) => stored_record_hash(tx, name, last).map_err(err)?,
    };
    checks::check_image_head(name, &head, stored_hash)?;
    tx.execute(
        "INSERT OR REPLACE INTO images (session, seq, bytes, created) VALUES (?1, ?2, ?3, ?4)",
        params![name, to_i64(head.len), bytes, to_i64(now_ms())],
    )
    .and_then(|_| {
        tx.execute(
            "DELETE FROM images WHERE session = ?1 AND seq NOT IN \
             (SELECT seq FROM images WHERE session = ?1 ORDER BY seq DESC LIMIT ?2)",
            params![name, KEEP_IMAGES],
        )
    })
    .map_err(err)?;
    Ok(head.len)
}

#[cfg(test)]
mod tests;
