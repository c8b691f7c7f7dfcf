//! amber-store: what `amber serve` keeps, behind one interface ([`Store`]) with two backends —
//! SQLite ([`SqliteStore`], the embedded default) and PostgreSQL ([`PgStore`], one database shared
//! by many servers).
//!
//! The server's state is layered on the durable session store (journal, images, blobs,
//! leases: `amber_durable::store`), which stays the single truth of what a session did. On top
//! of it this crate keeps:
//!
//! - **programs**: deployed bundles, content-addressed (the id is the sha256 of the file list);
//!   file bytes are blobs, shared by every program that has them.
//! - **server sessions**: which program a session runs, its tenant, its run options, its
//!   status (queued → running → suspended | completed | failed | cancelled) and outcome.
//! - **operations**: the inbox between the world and a session. After each slice the server
//!   records the session's pending operations; results arrive by API or from tool workers
//!   (claims with leases), are stored, and are delivered into the VM by the next slice. An
//!   operation's result is journaled exactly once because delivery happens only while the VM
//!   still lists the operation as pending; the operations table is reconciled with the VM's
//!   pending list after every slice, so a crash between the two stores loses nothing.
//! - **output**: program output, committed in one transaction with the journal records and
//!   the image of the state after it (`SessionStore::append_progress`).
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod blob_gc;
mod pg;
mod rules;
mod sqlite;
#[cfg(test)]
mod suite;
mod types;

pub use blob_gc::sqlite_program_blobs;
pub use pg::{PgStore, DEFAULT_LEASE_MS as PG_DEFAULT_LEASE_MS};
pub use sqlite::SqliteStore;
pub use types::*;

use amber_durable::digest::Digest;
use amber_durable::image::PendingOp;
use amber_durable::journal::CallRecord;
use amber_durable::store::{BlobSweep, LoadedSession, NewSession, OutputChunk, SessionStatus, Source};

/// Wall-clock ms since the Unix epoch (row timestamps and leases only; never reaches a VM).
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A database integer for a u64 (saturating; seqs and ms times never get near 2^63).
pub(crate) fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A u64 from a database integer (negative values read as 0).
pub(crate) fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// The server's store. Every method is one transaction (or a short series of them, as each
/// says); all are blocking and safe to call from any thread.
pub trait Store: Send + Sync {
    /// Stores a program bundle (its files' bytes as blobs, its manifest as a row) and returns
    /// its id; storing the same files again returns the same id and writes nothing new.
    fn put_program(&self, files: &[(String, Vec<u8>)]) -> StoreResult<ProgramManifest>;
    /// A stored program's manifest.
    fn program(&self, id: &str) -> StoreResult<Option<ProgramManifest>>;
    /// A blob's bytes (program files, captured file reads, network bodies).
    fn blob(&self, hash: &Digest) -> StoreResult<Option<Vec<u8>>>;
    /// Removes the blobs that no session's journal or images and no program name and that
    /// were put before `put_before_ms` (ms since the epoch; now minus
    /// `amber_durable::store::BLOB_GRACE_MS` leaves the blobs of slices still committing
    /// alone). Safe while servers run (docs/server.md, "Blob collection").
    fn collect_blobs(&self, put_before_ms: u64) -> StoreResult<BlobSweep>;

    /// Creates a queued session. With a client-chosen id, a second create with the same spec
    /// returns the existing session (`created` false); with another spec it is a conflict.
    fn create_session(&self, id: Option<&str>, spec: &SessionSpec) -> StoreResult<(SessionRow, bool)>;
    /// A session's row.
    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>>;
    /// Sessions matching `filter`, in creation order after its cursor.
    fn list_sessions(&self, filter: &SessionFilter) -> StoreResult<Vec<SessionRow>>;
    /// Sessions a (re)starting server must schedule: queued, running (their server crashed),
    /// cancelling, and suspended ones with an undelivered result; with their tenants.
    fn runnable_sessions(&self) -> StoreResult<Vec<(String, String)>>;
    /// Due times of the sleeps suspended sessions wait on: (session, due ms).
    fn pending_sleeps(&self) -> StoreResult<Vec<(String, u64)>>;
    /// Asks a session to stop: a queued or suspended one is cancelled now (true), a running
    /// one when its slice ends (false). A finished one is a conflict.
    fn request_cancel(&self, id: &str) -> StoreResult<bool>;

    /// Marks a session failed with `outcome` (it cannot run: its program or secrets are
    /// missing, its image does not restore) and cancels its operations. Needs no lease: the
    /// caller is the server that just failed to run it.
    fn fail_session(&self, id: &str, outcome: &serde_json::Value) -> StoreResult<()>;

    /// Takes the session's lease for one slice (`Busy` if someone holds it) and loads it.
    fn open_slice(&self, id: &str) -> StoreResult<Box<dyn Slice + '_>>;

    /// The durable session of `id` (sources, newest image, journal), read in one snapshot
    /// without a lease; None before its first slice made it.
    fn durable_session(&self, id: &str) -> StoreResult<Option<LoadedSession>>;
    /// Moves a waiting session to new code (docs/server.md, "Upgrading a session"), in one
    /// transaction: the session must be suspended or queued and no slice may hold it (`Busy`);
    /// its sources become `upgrade.sources`, the upgrade record is appended — it must extend
    /// the stored journal, so a session that moved on since it was read is a conflict — with
    /// the image of the upgraded state, and the server row runs `upgrade.program` from then on.
    fn upgrade_session(&self, id: &str, upgrade: &SessionUpgrade<'_>) -> StoreResult<()>;

    /// The operations of a session, in id order (every state).
    fn session_ops(&self, id: &str) -> StoreResult<Vec<OpRow>>;
    /// Stores a result for a pending or claimed operation (from the API, not a claim):
    /// `Accepted`, `Duplicate` (the same result again), or a conflict.
    fn resolve_op(&self, session: &str, op: u64, result: &OpResult, now_ms: u64) -> StoreResult<ResolveOutcome>;
    /// Claims up to `limit` call operations named in `names` for a worker, each for its
    /// timeout; expired claims are claimable again.
    fn claim_ops(&self, names: &[String], limit: usize, now_ms: u64) -> StoreResult<Vec<Claim>>;
    /// Completes a claim with a result (a failure is retried while attempts remain, after
    /// backoff; the last failure is the operation's result).
    fn complete_claim(&self, claim: &str, result: &OpResult, now_ms: u64) -> StoreResult<ClaimOutcome>;
    /// The earliest time a failed call becomes claimable again, if any is waiting.
    fn next_retry_ms(&self) -> StoreResult<Option<u64>>;

    /// Committed output from chunk `from` on, at most `limit` chunks.
    fn output(&self, id: &str, from: u64, limit: u64) -> StoreResult<Vec<OutputChunk>>;
    /// The session's journal records.
    fn journal(&self, id: &str) -> StoreResult<Vec<CallRecord>>;
    /// The session as an export file (the CLI's `amber export` format).
    fn export(&self, id: &str) -> StoreResult<Vec<u8>>;
    /// Counts for `/metrics`: sessions by status, operations by state.
    fn counts(&self) -> StoreResult<Counts>;

    /// Sessions holding a live lease, per tenant, over every process sharing the store: a
    /// server's scheduler serves the tenant running the fewest first, so fair share holds
    /// across servers. A store no other process shares answers empty (the scheduler's own
    /// counts are then the whole picture).
    fn leases_by_tenant(&self) -> StoreResult<std::collections::BTreeMap<String, u64>> {
        Ok(std::collections::BTreeMap::new())
    }

    /// True if other processes share this store (a database many servers use): work can
    /// become runnable without this process knowing, so a server looks for it, waiting in
    /// [`Store::wait_for_work`] between looks.
    fn shared(&self) -> bool {
        false
    }

    /// Blocks until another process may have made work runnable (a notification), or until
    /// `timeout` passes — so a lost notification costs at most one timeout. A backend without
    /// notifications just sleeps.
    fn wait_for_work(&self, timeout: std::time::Duration) -> StoreResult<()> {
        std::thread::sleep(timeout);
        Ok(())
    }
}

/// One slice of a session under its lease. Dropping it releases the lease.
pub trait Slice {
    /// The server row.
    fn row(&self) -> &SessionRow;
    /// The durable session (sources, newest image, journal), if the session has run before.
    fn loaded(&self) -> Option<&LoadedSession>;
    /// Creates the durable session for a first run. A backend may write it with the slice's
    /// first commit instead (in the same transaction as its first records): a slice that
    /// commits nothing then leaves no durable session, and the next slice starts over.
    fn create_durable(&mut self, new: &NewSession) -> StoreResult<()>;
    /// Results stored for operations and not yet delivered, in op order.
    fn undelivered(&self) -> StoreResult<Vec<(u64, OpResult)>>;
    /// Commits progress: blobs first, then, in one transaction, journal records, the output
    /// written since the last commit and the image of the state after both (so output is
    /// neither lost nor printed twice by a recovery). Without an image (a run that ended in a
    /// limit or an integrity error), records and output only.
    fn commit_progress(&mut self, progress: Progress<'_>) -> StoreResult<()>;
    /// Ends the slice with its last progress: `last` (as [`Slice::commit_progress`] commits
    /// it), the durable status, the server status with its outcome, and the operations table
    /// made equal to the VM's pending list (new ones recorded with their retry policy,
    /// answered ones marked delivered). A backend that can commits all of it in one
    /// transaction: a finished session's last records and its final status then become
    /// durable together, so it needs no image (nothing resumes a finished session) and a
    /// crash before that commit re-runs the slice from the previous image. The lease is
    /// released when the slice is dropped.
    fn finish(&mut self, last: Progress<'_>, end: SliceEnd<'_>) -> StoreResult<()>;
}

/// What a slice commits at once, for [`Slice::commit_progress`] and [`Slice::finish`].
#[derive(Clone, Copy, Default)]
pub struct Progress<'a> {
    /// Blobs the records or the image name that the store may lack (stored first, in their
    /// own transaction: an orphan blob is harmless, a record naming a missing blob is not).
    pub blobs: &'a [(Digest, &'a [u8])],
    /// Journal records since the last commit.
    pub records: &'a [CallRecord],
    /// Output captured since the last commit.
    pub output: &'a [OutputChunk],
    /// The image of the state after the records, if the session can resume from here.
    pub image: Option<&'a [u8]>,
}

impl Progress<'_> {
    /// True if nothing but blobs (or nothing at all) is to be committed.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty() && self.output.is_empty() && self.image.is_none()
    }
}

/// A session's move to new code, for [`Store::upgrade_session`].
pub struct SessionUpgrade<'a> {
    /// The program the session runs from now on.
    pub program: &'a str,
    /// The session's sources after the upgrade (every one: the set replaces the stored one).
    pub sources: &'a [Source],
    /// The upgrade record (`RecordDraft::upgrade`), at the journal's next seq.
    pub record: &'a CallRecord,
    /// The image of the state the new code replayed to, after the record.
    pub image: &'a [u8],
    /// Blobs the image names that the store may lack (the code blobs of modules the new code
    /// compiled), stored before it.
    pub blobs: &'a [(Digest, &'a [u8])],
}

/// How a slice ended, for [`Slice::finish`].
pub struct SliceEnd<'a> {
    /// The durable session's status.
    pub durable: SessionStatus,
    /// The server session's status.
    pub status: ServerStatus,
    /// The result value or error report, for a finished session.
    pub outcome: Option<serde_json::Value>,
    /// The VM's pending operations.
    pub pending: &'a [PendingOp],
    /// The retry policy each new call operation gets, by name.
    pub policy: &'a dyn Fn(&str) -> OpPolicy,
    /// The idempotency key of each new operation.
    pub key: &'a dyn Fn(&PendingOp) -> String,
}
