//! Blob collection for the server's stores (docs/server.md, "Blob collection"). The durable
//! layer marks what sessions name (`amber_durable::store::blob_gc`); above it, a deployed
//! program's files are blobs too, named by its manifest (programs are never removed, so their
//! files stay). An unreadable manifest stops the collection rather than guess.

use std::collections::BTreeSet;

use amber_durable::digest::{from_hex32, Digest};
use amber_durable::DurableError;
use rusqlite::Connection;

use crate::types::ProgramManifest;

/// The files one stored program manifest (JSON) names.
pub(crate) fn manifest_blobs(id: &str, text: &str) -> Result<Vec<Digest>, DurableError> {
    let unreadable = |detail: String| DurableError::Corrupt {
        what: "program manifest",
        offset: None,
        detail: format!("program {id:?}: {detail}; the blobs it names are unknown, nothing was collected"),
    };
    let manifest: ProgramManifest = serde_json::from_str(text).map_err(|e| unreadable(e.to_string()))?;
    manifest
        .files
        .iter()
        .map(|file| {
            from_hex32(&file.sha256).map(Digest).ok_or_else(|| unreadable(format!("{:?} has no sha256", file.path)))
        })
        .collect()
}

/// The blobs the server's programs name in a SQLite store (none where no server ever ran:
/// the table is absent). What `amber delete` and `amber gc` keep besides the sessions' own.
pub fn sqlite_program_blobs(conn: &Connection) -> Result<BTreeSet<Digest>, DurableError> {
    let err = |e| DurableError::store("reading the programs' blobs", e);
    let exists: bool = conn
        .query_row(
            "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'server_programs'",
            [],
            |r| r.get(0),
        )
        .map_err(err)?;
    let mut out = BTreeSet::new();
    if !exists {
        return Ok(out);
    }
    let mut stmt = conn.prepare("SELECT id, manifest FROM server_programs").map_err(err)?;
    let rows = stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))).map_err(err)?;
    for row in rows {
        let (id, text) = row.map_err(err)?;
        out.extend(manifest_blobs(&id, &text)?);
    }
    Ok(out)
}
