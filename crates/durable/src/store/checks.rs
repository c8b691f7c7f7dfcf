//! What every session-store backend checks before it writes, declared once: the SQLite store
//! here and amber-store's PostgreSQL backend run the same rules over their own rows.
//!
//! - [`plan_append`]: records appended to a stored journal must extend its chain (next seq,
//!   matching `prev_hash`, a hash that matches the content); a record already stored with
//!   identical bytes is skipped (a retried commit), a different one is a conflict.
//! - [`storable_image_head`] / [`check_image_head`]: an image is stored only with a good
//!   seal and at a journal position the stored journal holds.
//! - [`stored_record_hash_of`]: the trailing hash of an encoded record.

use crate::error::{DurableError, Result};
use crate::image::read_manifest_unverified;
use crate::journal::{CallRecord, JournalHead, GENESIS_HASH};

/// The trailing 32-byte hash of an encoded record.
pub fn stored_record_hash_of(bytes: &[u8], seq: u64) -> Result<[u8; 32]> {
    let Some(start) = bytes.len().checked_sub(32) else {
        return Err(DurableError::BrokenChain { seq, detail: "stored record is shorter than its hash".into() });
    };
    let mut hash = [0u8; 32];
    hash.copy_from_slice(&bytes[start..]);
    Ok(hash)
}

/// Which records of an append to insert, as (seq, encoded bytes), in order.
///
/// `last` is the stored journal's last record (seq and bytes), `stored_at` reads the stored
/// bytes at a seq below the head (only called for records the store already has).
pub fn plan_append(
    session: &str,
    last: Option<(u64, &[u8])>,
    records: &[CallRecord],
    stored_at: &mut dyn FnMut(u64) -> Result<Option<Vec<u8>>>,
) -> Result<Vec<(u64, Vec<u8>)>> {
    let (mut next_seq, mut prev_hash) = match last {
        None => (0, GENESIS_HASH),
        Some((seq, bytes)) => (seq + 1, stored_record_hash_of(bytes, seq)?),
    };
    let mut insert = Vec::new();
    for record in records {
        let invalid = |detail: String| DurableError::InvalidRecord {
            seq: record.seq,
            detail: format!("session {session:?}: {detail}"),
        };
        let bytes = record.encode()?;
        if record.seq < next_seq {
            if stored_at(record.seq)?.as_deref() != Some(bytes.as_slice()) {
                return Err(invalid("conflicts with the record already stored at this seq".into()));
            }
            continue;
        }
        if record.seq != next_seq {
            return Err(invalid(format!("expected seq {next_seq}")));
        }
        if record.prev_hash != prev_hash {
            return Err(invalid("prev_hash does not match the stored journal head".into()));
        }
        if record.compute_hash()? != record.hash {
            return Err(invalid("record hash does not match its content".into()));
        }
        insert.push((record.seq, bytes));
        next_seq += 1;
        prev_hash = record.hash;
    }
    Ok(insert)
}

/// The journal position an image records, if it may be stored (a good seal).
pub fn storable_image_head(session: &str, bytes: &[u8]) -> Result<JournalHead> {
    let summary = read_manifest_unverified(bytes)?;
    if !summary.seal_ok {
        return Err(DurableError::Corrupt {
            what: "image",
            offset: None,
            detail: format!("refusing to store an image with a bad seal for session {session:?}"),
        });
    }
    Ok(summary.manifest.journal_head)
}

/// The image's journal head must be in the stored journal: `stored_hash` is the hash of the
/// stored record at `head.len - 1` (None if there is none); a head of length 0 is the genesis.
pub fn check_image_head(session: &str, head: &JournalHead, stored_hash: Option<[u8; 32]>) -> Result<()> {
    let expected = if head.len == 0 { Some(GENESIS_HASH) } else { stored_hash };
    if expected != Some(head.hash.0) {
        return Err(DurableError::InvalidValue {
            what: format!("image of session {session:?}"),
            detail: format!(
                "its journal head (len {}) is not in the stored journal; append the records first",
                head.len
            ),
        });
    }
    Ok(())
}
