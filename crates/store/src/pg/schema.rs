//! The PostgreSQL schema, as versioned migrations applied at start.
//!
//! Every table lives in the `amber` schema of the database the URL names, so Amber shares a
//! database with others without name clashes. `amber.schema_migrations` lists the versions
//! applied; a server applies the ones it lacks, in order, each in its own transaction under
//! a transaction-level advisory lock (servers starting together apply each migration once),
//! and refuses to run on a database whose newest version is past [`SCHEMA_VERSION`] (a newer
//! binary migrated it; this one would misread its rows).

use postgres::Client;

use crate::types::{StoreError, StoreResult};

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// The advisory lock key migrations run under (any constant unique to Amber).
const MIGRATION_LOCK: i64 = 0x616d_6265_725f_6d67; // "amber_mg"

/// (version, SQL). Never edit an applied migration: add the next one.
const MIGRATIONS: &[(i32, &str)] = &[(1, V1), (2, V2), (3, V3), (4, V4), (5, V5)];

/// Version 1: the durable session store (sessions, sources, images, journal, blobs, output)
/// and the server's tables (programs, server sessions with their leases, operations). The
/// columns mirror the SQLite store's (docs/server.md, "Store"); times are ms since the
/// Unix epoch, JSON is stored as text (canonical where the journal hashes it).
const V1: &str = "
CREATE TABLE sessions (
    name TEXT PRIMARY KEY,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'suspended', 'completed', 'failed')),
    entry TEXT NOT NULL,
    module BOOLEAN NOT NULL,
    policy TEXT NOT NULL
);
CREATE TABLE sources (
    session TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL, sha256 BYTEA NOT NULL,
    PRIMARY KEY (session, path)
);
CREATE TABLE images (
    session TEXT NOT NULL, seq BIGINT NOT NULL, bytes BYTEA NOT NULL, created BIGINT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE journal (
    session TEXT NOT NULL, seq BIGINT NOT NULL, record BYTEA NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE blobs (sha256 BYTEA PRIMARY KEY, bytes BYTEA NOT NULL);
CREATE TABLE output (
    session TEXT NOT NULL, chunk BIGINT NOT NULL, stream SMALLINT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (session, chunk)
);
CREATE TABLE server_programs (id TEXT PRIMARY KEY, manifest TEXT NOT NULL, created BIGINT NOT NULL);
CREATE TABLE server_sessions (
    id TEXT PRIMARY KEY,
    ord BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    tenant TEXT NOT NULL,
    program TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    cancel_requested BOOLEAN NOT NULL DEFAULT false,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    lease_owner TEXT,
    lease_epoch BIGINT NOT NULL DEFAULT 0,
    lease_expires BIGINT
);
CREATE INDEX server_sessions_status ON server_sessions (status, ord);
CREATE TABLE server_ops (
    session TEXT NOT NULL,
    op BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    args TEXT NOT NULL,
    due BIGINT,
    state TEXT NOT NULL,
    result TEXT,
    attempts BIGINT NOT NULL DEFAULT 0,
    claim_id TEXT,
    claim_expires BIGINT,
    failed_claim TEXT,
    not_before BIGINT NOT NULL DEFAULT 0,
    timeout_ms BIGINT NOT NULL,
    max_attempts BIGINT NOT NULL,
    backoff_ms BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    PRIMARY KEY (session, op)
);
CREATE INDEX server_ops_state ON server_ops (state, kind, name);
CREATE INDEX server_ops_claim ON server_ops (claim_id);
";

/// Version 2: each journal record names the lease it was committed under (`lease_epoch`,
/// `lease_owner`), so an audit can show that no two servers ever committed for one session
/// under one epoch and that epochs only grow along a journal. Rows from version 1 keep NULLs.
const V2: &str = "
ALTER TABLE journal ADD COLUMN lease_epoch BIGINT, ADD COLUMN lease_owner TEXT;
";

/// Version 3: journal head tags under the image key (amber_durable `journal::head_tag`), one
/// per session, rewritten with every append; sessions written without a key have none.
const V3: &str = "
CREATE TABLE heads (session TEXT PRIMARY KEY, tag BYTEA NOT NULL);
";

/// Version 4: the leases a tenant holds, counted by every claim under a tenant limit
/// (`PgStore::with_tenant_limit`) without reading the tenant's finished sessions.
const V4: &str = "
CREATE INDEX server_sessions_tenant_leases ON server_sessions (tenant) WHERE lease_owner IS NOT NULL;
";

/// Version 5: when each blob was last put (`last_put`, ms since the epoch), so blob collection
/// keeps the blobs a slice stored before committing the records that name them
/// (amber_durable `store::blob_gc`). Blobs stored before it read 0: old.
const V5: &str = "
ALTER TABLE blobs ADD COLUMN last_put BIGINT NOT NULL DEFAULT 0;
";

/// Brings the database to [`SCHEMA_VERSION`]; returns the version found before.
pub fn migrate(client: &mut Client) -> StoreResult<i32> {
    migrate_to(client, SCHEMA_VERSION)
}

/// Applies the migrations up to `target` (tests stop at an older version to migrate from it).
pub(super) fn migrate_to(client: &mut Client, target: i32) -> StoreResult<i32> {
    // Under the migration lock: `CREATE SCHEMA IF NOT EXISTS` run by two servers starting
    // together on an empty database fails one of them with a unique violation otherwise.
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute(
        "CREATE SCHEMA IF NOT EXISTS amber; SET search_path TO amber; \
         CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied BIGINT NOT NULL)",
    )?;
    tx.commit()?;
    let mut found = None;
    for &(version, sql) in MIGRATIONS {
        let mut tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let current: i32 = tx.query_one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", &[])?.get(0);
        found.get_or_insert(current);
        if current > SCHEMA_VERSION {
            return Err(StoreError::Invalid(format!(
                "the database's schema is version {current}, newer than this binary's {SCHEMA_VERSION}: \
                 run a newer amber"
            )));
        }
        if current >= version || version > target {
            continue;
        }
        tx.batch_execute(sql)?;
        let now = crate::to_i64(crate::now_ms());
        tx.execute("INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)", &[&version, &now])?;
        tx.commit()?;
    }
    Ok(found.unwrap_or(0))
}
