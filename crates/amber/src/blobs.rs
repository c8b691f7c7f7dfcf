//! Content-addressed bytes the journal names by sha256 (HTTP bodies; lower-layer files have
//! their own cache in [`crate::lower::HostFolder`]): new ones wait here for the embedder to
//! store them ([`crate::Runtime::take_blobs`]) before the records that name them; old ones
//! come back from the embedder's [`BlobSource`] (the session store).

use std::sync::Arc;

use amber_durable::digest::Digest;

use crate::lower::BlobSource;

/// Bytes at or under this size ride the journal record itself (base64); larger ones are
/// blobs, so records stay small and identical bodies are stored once.
pub(crate) const INLINE_MAX: usize = 4 * 1024;

#[derive(Default)]
pub(crate) struct Blobs {
    /// Put since the embedder last took them, in put order.
    fresh: Vec<(Digest, Arc<[u8]>)>,
    /// Where earlier blobs are (None: only this process's fresh ones are known).
    source: Option<BlobSource>,
}

impl Blobs {
    pub fn with_source(source: Option<BlobSource>) -> Blobs {
        Blobs { fresh: Vec::new(), source }
    }

    /// Keeps `bytes`; returns their hash.
    pub fn put(&mut self, bytes: &[u8]) -> Digest {
        let digest = Digest::of(bytes);
        if !self.fresh.iter().any(|(d, _)| *d == digest) {
            self.fresh.push((digest, Arc::from(bytes)));
        }
        digest
    }

    /// The bytes with hash `digest`, if this process put them or the source has them (a
    /// source's bytes are checked against the hash).
    pub fn get(&mut self, digest: &Digest) -> Option<Arc<[u8]>> {
        if let Some((_, bytes)) = self.fresh.iter().find(|(d, _)| d == digest) {
            return Some(bytes.clone());
        }
        let bytes = (self.source.as_mut()?)(&digest.0)?;
        (Digest::of(&bytes) == *digest).then(|| Arc::from(bytes))
    }

    /// The blobs put since the last call.
    pub fn take_fresh(&mut self) -> Vec<(Digest, Arc<[u8]>)> {
        std::mem::take(&mut self.fresh)
    }
}
