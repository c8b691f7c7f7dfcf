//! Journal heads authenticated by the image key.
//!
//! An image's HMAC covers the journal head it was taken at, but the records appended after
//! the newest image (and a whole journal, should every image be deleted) are protected by the
//! hash chain alone, which anyone who can edit the store can recompute. With a key, the store
//! keeps beside each session's journal one **head tag**:
//!
//! ```text
//! tag = HMAC-SHA256(key, "amber journal head 1" ‖ 0x00 ‖ len u64 LE ‖ head hash (32))
//! ```
//!
//! rewritten in the same transaction as every append, and checked against the journal's actual
//! head before the records are trusted to drive a run. Because the head hash chains every
//! record before it, one tag authenticates the whole journal: a changed, inserted or removed
//! record, or a re-chained journal, no longer matches. What the tag cannot stop is a rollback
//! to an earlier (journal, tag) pair the forger kept, since the store has no trusted monotonic
//! counter; docs/durability.md says so.

use hmac::Mac;

use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::image::new_mac;
use crate::journal::JournalHead;

/// Domain separation: a head tag can never be mistaken for an image's HMAC.
const DOMAIN: &[u8] = b"amber journal head 1\0";

/// The head tag of `head` under `key`.
pub fn head_tag(key: &[u8], head: &JournalHead) -> Result<Digest> {
    let mut mac = new_mac(key)?;
    mac.update(DOMAIN);
    mac.update(&head.len.to_le_bytes());
    mac.update(&head.hash.0);
    Ok(Digest(mac.finalize().into_bytes().into()))
}

/// Checks a session's stored head tag against its journal's `head`: with a key, a tag must be
/// stored and match; without one, no tag may be stored (a journal authenticated by a key is
/// never run by a process that cannot check it).
pub fn check_head_tag(key: Option<&[u8]>, stored: Option<&Digest>, head: &JournalHead) -> Result<()> {
    let detail = match (key, stored) {
        (None, None) => return Ok(()),
        (Some(key), Some(tag)) => {
            let mut mac = new_mac(key)?;
            mac.update(DOMAIN);
            mac.update(&head.len.to_le_bytes());
            mac.update(&head.hash.0);
            // verify_slice compares in constant time.
            if mac.verify_slice(&tag.0).is_ok() {
                return Ok(());
            }
            "the journal's head does not match its tag (records were changed, added or removed without the key, or another key was given)"
        }
        (Some(_), None) => {
            "the journal's head carries no tag: the session was written without an image key (or its tag was removed)"
        }
        (None, Some(_)) => "the journal's head is authenticated by an image key; this process has none",
    };
    Err(DurableError::Authentication { what: "journal head", detail })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(len: u64, byte: u8) -> JournalHead {
        JournalHead { len, hash: Digest([byte; 32]) }
    }

    #[test]
    fn a_tag_matches_only_its_head_and_key() {
        let tag = head_tag(b"key", &head(3, 7)).unwrap();
        assert!(check_head_tag(Some(b"key"), Some(&tag), &head(3, 7)).is_ok());
        assert!(check_head_tag(Some(b"key"), Some(&tag), &head(2, 7)).is_err(), "a truncated journal");
        assert!(check_head_tag(Some(b"key"), Some(&tag), &head(3, 8)).is_err(), "a re-chained journal");
        assert!(check_head_tag(Some(b"other"), Some(&tag), &head(3, 7)).is_err(), "another key");
        assert!(check_head_tag(Some(b"key"), None, &head(3, 7)).is_err(), "a removed tag");
        assert!(check_head_tag(None, Some(&tag), &head(3, 7)).is_err(), "no key for a tagged journal");
        assert!(check_head_tag(None, None, &head(3, 7)).is_ok());
        assert!(head_tag(b"", &head(0, 0)).is_err(), "an empty key");
    }
}
