//! Blob collection in PostgreSQL (docs/server.md, "Blob collection"), with servers running.
//!
//! The mark reads every journal record, image manifest and program manifest in one
//! `REPEATABLE READ` snapshot and lists the blobs nothing names that were put before the
//! cutoff. The sweep then deletes those, re-checking `last_put` on the row as it is when the
//! delete reaches it (`READ COMMITTED`): a slice that put the blob again since — it stores blobs
//! before the records naming them, and a put refreshes the stamp — keeps it, and a put
//! racing the delete waits for it and inserts the blob anew. A name can appear after the
//! snapshot only with a put (a fresh capture, body or compile) or by copying a name the
//! snapshot saw (a resumed image naming its code blobs again), so nothing named is removed.

use std::collections::BTreeSet;

use amber_durable::digest::Digest;
use amber_durable::store::{image_blobs, journal_row_blobs, BlobSweep};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, IsolationLevel};

use crate::types::StoreResult;
use crate::{to_i64, to_u64};

/// Blobs deleted per statement.
const BATCH: usize = 500;

pub(super) fn collect_blobs(client: &mut Client, put_before_ms: u64) -> StoreResult<BlobSweep> {
    let cutoff = to_i64(put_before_ms);
    let mut done = BlobSweep::default();
    let mut doomed: Vec<Vec<u8>> = Vec::new();
    {
        let mut tx =
            client.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start()?;
        let mut live = BTreeSet::new();
        let none: [&(dyn postgres::types::ToSql + Sync); 0] = [];
        let mut rows = tx.query_raw("SELECT session, seq, record FROM journal", none)?;
        while let Some(row) = rows.next()? {
            journal_row_blobs(row.get(0), to_u64(row.get(1)), row.get(2), &mut live)?;
        }
        drop(rows);
        let mut rows = tx.query_raw("SELECT session, seq, bytes FROM images", none)?;
        while let Some(row) = rows.next()? {
            live.extend(image_blobs(row.get(0), to_u64(row.get(1)), row.get(2))?);
        }
        drop(rows);
        for row in tx.query("SELECT id, manifest FROM server_programs", &[])? {
            live.extend(crate::blob_gc::manifest_blobs(row.get(0), row.get(1))?);
        }
        let mut rows = tx.query_raw("SELECT sha256, last_put FROM blobs", none)?;
        while let Some(row) = rows.next()? {
            let hash: Vec<u8> = row.get(0);
            let named = <[u8; 32]>::try_from(hash.as_slice()).is_ok_and(|h| live.contains(&Digest(h)));
            if named {
                done.live += 1;
            } else if row.get::<_, i64>(1) >= cutoff {
                done.young += 1;
            } else {
                doomed.push(hash);
            }
        }
        drop(rows);
        tx.commit()?;
    }
    for batch in doomed.chunks(BATCH) {
        let mut tx = client.transaction()?;
        let deleted = tx.query(
            "DELETE FROM blobs WHERE sha256 = ANY($1) AND last_put < $2 RETURNING octet_length(bytes)",
            &[&batch, &cutoff],
        )?;
        tx.commit()?;
        done.removed += deleted.len() as u64;
        done.bytes += deleted.iter().map(|row| to_u64(i64::from(row.get::<_, i32>(0)))).sum::<u64>();
        // Put again since the mark (a writer is about to name it), or already removed by
        // another collection.
        done.young += (batch.len() - deleted.len()) as u64;
    }
    Ok(done)
}
