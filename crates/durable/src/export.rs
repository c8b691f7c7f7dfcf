//! The export container: one file holding a session's row, sources, newest image and journal
//! (what `amber export` writes and `amber import` / `amber inspect FILE` read).
//!
//! ```text
//! "AMBEREXP" | version u32
//!   | meta len u64 | meta: bincode 2 standard() of SessionMeta
//!   | source count u32 | per source: path len u32, path, text len u64, text, sha256 (32)
//!   | image flag u8 (0 or 1) | [image seq u64 | image len u64 | image container bytes]
//!   | journal len u64 | journal file (AMBERJNL…)
//!   | blob count u32 | per blob: sha256 (32), len u64, bytes        (version 2 on)
//!   | head tag flag u8 (0 or 1) | [journal head tag (32)]             (version 3 on)
//!   | seal = sha256(everything before it)
//! ```
//! The blobs are the lower-layer file bytes and network bodies the journal names
//! ([`crate::journal::named_blobs`]) and the code blobs the image's manifest lists
//! ([`exported_blobs`]), so an imported session resumes and replays without the host folder. The head tag is the store's HMAC of the journal head under the image key
//! ([`crate::journal::head_tag`]), carried as it was stored and checked by the importing store
//! when it has the key. Version 1 files (no blob section) and version 2 (no tag) are still read.
//! Integers are little-endian. Sources and blobs are framed by hand (not bincode) so a hostile
//! length can never allocate more than the file holds. [`decode_export`] checks the seal
//! first, then every part: source hashes, the journal chain, the image seal, and that the
//! image's journal head is a prefix of the journal.

use crate::digest::{sha256, Digest};
use crate::error::{DurableError, Result};
use crate::image::read_manifest_unverified;
use crate::journal::Journal;
use crate::store::{SessionMeta, Source, StoredImage};
use crate::wire::{self, Reader};

/// Magic bytes of an export file.
pub const EXPORT_MAGIC: &[u8; 8] = b"AMBEREXP";
/// Export format version.
pub const EXPORT_FORMAT_VERSION: u32 = 3;
/// Largest encoded session row accepted.
pub const MAX_EXPORT_META_BYTES: usize = 1 << 20;

/// The contents of an export file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedSession {
    /// The session row.
    pub meta: SessionMeta,
    /// Program sources.
    pub sources: Vec<Source>,
    /// The newest image, if the session has one.
    pub image: Option<StoredImage>,
    /// The whole journal.
    pub journal: Journal,
    /// The blobs the journal and the image name, by hash ([`exported_blobs`]).
    pub blobs: Vec<(Digest, Vec<u8>)>,
    /// The journal head tag the session carried under its image key, if any.
    pub head_tag: Option<Digest>,
}

/// The blobs an export of a session carries, each with what names it: the lower-layer files
/// and network bodies its journal names, then the code blobs its newest image names (an image whose manifest
/// cannot be read names none here; the import's own checks refuse it).
pub fn exported_blobs(records: &[crate::journal::CallRecord], image: Option<&[u8]>) -> Vec<(Digest, &'static str)> {
    let mut out: Vec<(Digest, &'static str)> =
        crate::journal::named_blobs(records).into_iter().map(|h| (h, "journal")).collect();
    let code = image.and_then(|bytes| read_manifest_unverified(bytes).ok()).map(|s| s.manifest.code_blobs);
    for hash in code.unwrap_or_default() {
        if !out.iter().any(|(h, _)| *h == hash) {
            out.push((hash, "image"));
        }
    }
    out
}

/// True if `bytes` starts with the export magic.
pub fn looks_like_export(bytes: &[u8]) -> bool {
    bytes.starts_with(EXPORT_MAGIC)
}

/// Encodes and seals an export file.
pub fn encode_export(session: &ExportedSession) -> Result<Vec<u8>> {
    let meta = wire::encode(&session.meta, "export session row", MAX_EXPORT_META_BYTES)?;
    let mut out = Vec::new();
    out.extend_from_slice(EXPORT_MAGIC);
    out.extend_from_slice(&EXPORT_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    out.extend_from_slice(&meta);
    let count = u32::try_from(session.sources.len()).map_err(|_| DurableError::LimitExceeded {
        what: "export sources",
        size: session.sources.len() as u64,
        limit: u64::from(u32::MAX),
    })?;
    out.extend_from_slice(&count.to_le_bytes());
    for source in &session.sources {
        let path = source.path.as_bytes();
        let path_len = u32::try_from(path.len()).map_err(|_| DurableError::LimitExceeded {
            what: "export source path",
            size: path.len() as u64,
            limit: u64::from(u32::MAX),
        })?;
        out.extend_from_slice(&path_len.to_le_bytes());
        out.extend_from_slice(path);
        out.extend_from_slice(&(source.text.len() as u64).to_le_bytes());
        out.extend_from_slice(source.text.as_bytes());
        out.extend_from_slice(&source.sha256.0);
    }
    match &session.image {
        None => out.push(0),
        Some(image) => {
            out.push(1);
            out.extend_from_slice(&image.seq.to_le_bytes());
            out.extend_from_slice(&(image.bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(&image.bytes);
        }
    }
    let journal = session.journal.encode()?;
    out.extend_from_slice(&(journal.len() as u64).to_le_bytes());
    out.extend_from_slice(&journal);
    let count = u32::try_from(session.blobs.len()).map_err(|_| DurableError::LimitExceeded {
        what: "export blobs",
        size: session.blobs.len() as u64,
        limit: u64::from(u32::MAX),
    })?;
    out.extend_from_slice(&count.to_le_bytes());
    for (hash, bytes) in &session.blobs {
        out.extend_from_slice(&hash.0);
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    match &session.head_tag {
        None => out.push(0),
        Some(tag) => {
            out.push(1);
            out.extend_from_slice(&tag.0);
        }
    }
    let seal = sha256(&out);
    out.extend_from_slice(&seal);
    Ok(out)
}

/// The parts of an export file, located but not yet decoded.
struct Sections<'a> {
    meta: &'a [u8],
    meta_offset: u64,
    sources: Vec<RawSource<'a>>,
    image: Option<(u64, &'a [u8])>,
    journal: &'a [u8],
    blobs: Vec<([u8; 32], &'a [u8])>,
    head_tag: Option<[u8; 32]>,
}

struct RawSource<'a> {
    path: &'a [u8],
    text: &'a [u8],
    sha256: [u8; 32],
    offset: u64,
}

/// Verifies and decodes an export file; never panics, allocates at most what it reads.
pub fn decode_export(bytes: &[u8]) -> Result<ExportedSession> {
    let sections = locate(bytes)?;
    let meta: SessionMeta =
        wire::decode::<_, MAX_EXPORT_META_BYTES>(sections.meta, "export session row", sections.meta_offset)?;
    let mut sources = Vec::with_capacity(sections.sources.len());
    for raw in &sections.sources {
        let text = |bytes: &[u8], what| {
            std::str::from_utf8(bytes)
                .map(str::to_string)
                .map_err(|e| DurableError::corrupt_at(what, raw.offset, e.to_string()))
        };
        let source = Source {
            path: text(raw.path, "export source path")?,
            text: text(raw.text, "export source text")?,
            sha256: Digest(raw.sha256),
        };
        source.verify()?;
        sources.push(source);
    }
    let journal = Journal::decode(sections.journal)?;
    let image = match sections.image {
        None => None,
        Some((seq, image)) => {
            let summary = read_manifest_unverified(image)?;
            if !summary.seal_ok {
                return Err(DurableError::Corrupt {
                    what: "export image",
                    offset: None,
                    detail: "the image's seal does not match".into(),
                });
            }
            let head = summary.manifest.journal_head;
            if head.len != seq || !journal.has_prefix(&head) {
                return Err(DurableError::Corrupt {
                    what: "export image",
                    offset: None,
                    detail: format!(
                        "image at seq {seq} records journal head len {} that the journal does not contain",
                        head.len
                    ),
                });
            }
            Some(StoredImage { seq, bytes: image.to_vec() })
        }
    };
    let mut blobs = Vec::with_capacity(sections.blobs.len());
    for (hash, bytes) in &sections.blobs {
        if sha256(bytes) != *hash {
            return Err(DurableError::Corrupt {
                what: "export blob",
                offset: None,
                detail: format!("blob {} does not have its hash", Digest(*hash)),
            });
        }
        blobs.push((Digest(*hash), bytes.to_vec()));
    }
    Ok(ExportedSession { meta, sources, image, journal, blobs, head_tag: sections.head_tag.map(Digest) })
}

/// Walks the framing and checks the seal before anything is decoded.
fn locate(bytes: &[u8]) -> Result<Sections<'_>> {
    let mut reader = Reader::new(bytes);
    reader.magic(EXPORT_MAGIC, "export")?;
    let version = reader.u32_le("export version")?;
    if !(1..=EXPORT_FORMAT_VERSION).contains(&version) {
        return Err(DurableError::UnsupportedVersion {
            what: "export",
            found: version,
            supported: EXPORT_FORMAT_VERSION,
        });
    }
    let meta_len = reader.u64_le("export session row length")?;
    let meta_offset = reader.offset();
    let meta = reader.take(meta_len, "export session row")?;
    let count = reader.u32_le("export source count")?;
    // Each source frame is at least 4 + 8 + 32 bytes.
    let mut sources = Vec::with_capacity((count as usize).min(reader.remaining() / 44));
    for _ in 0..count {
        let offset = reader.offset();
        let path_len = reader.u32_le("export source path length")?;
        let path = reader.take(u64::from(path_len), "export source path")?;
        let text_len = reader.u64_le("export source text length")?;
        let text = reader.take(text_len, "export source text")?;
        let sha256 = reader.array::<32>("export source sha256")?;
        sources.push(RawSource { path, text, sha256, offset });
    }
    let flag_offset = reader.offset();
    let image = match reader.u8("export image flag")? {
        0 => None,
        1 => {
            let seq = reader.u64_le("export image seq")?;
            let len = reader.u64_le("export image length")?;
            Some((seq, reader.take(len, "export image")?))
        }
        other => {
            return Err(DurableError::corrupt_at(
                "export image flag",
                flag_offset,
                format!("expected 0 or 1, found {other}"),
            ))
        }
    };
    let journal_len = reader.u64_le("export journal length")?;
    let journal = reader.take(journal_len, "export journal")?;
    let mut blobs = Vec::new();
    if version >= 2 {
        let count = reader.u32_le("export blob count")?;
        blobs.reserve((count as usize).min(reader.remaining() / 40));
        for _ in 0..count {
            let hash = reader.array::<32>("export blob sha256")?;
            let len = reader.u64_le("export blob length")?;
            blobs.push((hash, reader.take(len, "export blob")?));
        }
    }
    let mut head_tag = None;
    if version >= 3 {
        let flag_offset = reader.offset();
        head_tag = match reader.u8("export head tag flag")? {
            0 => None,
            1 => Some(reader.array::<32>("export head tag")?),
            other => {
                return Err(DurableError::corrupt_at(
                    "export head tag flag",
                    flag_offset,
                    format!("expected 0 or 1, found {other}"),
                ))
            }
        };
    }
    let seal_offset = bytes.len() - reader.remaining();
    let seal = reader.array::<32>("export seal")?;
    reader.finish("export")?;
    if sha256(&bytes[..seal_offset]) != seal {
        return Err(DurableError::BadSeal { what: "export", offset: seal_offset as u64 });
    }
    Ok(Sections { meta, meta_offset, sources, image, journal, blobs, head_tag })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{encode_image, Manifest};
    use crate::journal::{CallResult, OpKind, RecordDraft};
    use crate::policy::Policy;
    use crate::store::SessionStatus;
    use serde_json::json;

    fn session() -> ExportedSession {
        let mut journal = Journal::new();
        journal.append(RecordDraft::run_start(1000, [1; 32])).unwrap();
        journal.append(RecordDraft::intent(OpKind::Call, "f", json!([1]), 1000)).unwrap();
        let mut manifest = Manifest::new("engine-1", Policy::durable());
        manifest.journal_head = journal.head();
        let image = encode_image(&manifest, b"heap", None).unwrap();
        journal.append(RecordDraft::completion(OpKind::Call, 1, "f", CallResult::Ok(json!(2)), 5, 1005)).unwrap();
        ExportedSession {
            meta: SessionMeta {
                name: "quiet-otter-0001".into(),
                created_ms: 1,
                updated_ms: 2,
                status: SessionStatus::Suspended,
                entry: "main.js".into(),
                module: true,
                policy: Policy::durable(),
            },
            sources: vec![Source::new("main.js", "await amber.call('f', [1])"), Source::new("lib.js", "")],
            image: Some(StoredImage { seq: 2, bytes: image }),
            journal,
            blobs: vec![(Digest::of(b"lower file"), b"lower file".to_vec())],
            head_tag: Some(Digest([9; 32])),
        }
    }

    #[test]
    fn round_trip() {
        let session = session();
        let bytes = encode_export(&session).unwrap();
        assert!(looks_like_export(&bytes));
        assert_eq!(decode_export(&bytes).unwrap(), session);
        let without_image = ExportedSession { image: None, head_tag: None, ..session };
        let bytes = encode_export(&without_image).unwrap();
        assert_eq!(decode_export(&bytes).unwrap(), without_image);
    }

    #[test]
    fn every_single_byte_corruption_and_truncation_is_refused() {
        let bytes = encode_export(&session()).unwrap();
        for index in 0..bytes.len() {
            let mut corrupt = bytes.clone();
            corrupt[index] ^= 0x01;
            assert!(decode_export(&corrupt).is_err(), "flip at {index}");
        }
        for len in 0..bytes.len() {
            assert!(decode_export(&bytes[..len]).is_err(), "truncated to {len}");
        }
    }

    #[test]
    fn resealed_tampering_is_still_caught() {
        // An attacker can recompute the outer seal; the inner checks must still hold.
        let mut session = session();
        session.sources[0].text.push('!');
        let bytes = encode_export(&session).unwrap();
        assert!(matches!(decode_export(&bytes), Err(DurableError::Corrupt { what: "source", .. })));
        let mut session = self::session();
        if let Some(image) = &mut session.image {
            image.seq = 3;
        }
        assert!(decode_export(&encode_export(&session).unwrap()).is_err());
    }

    #[test]
    fn hostile_counts_do_not_allocate() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(EXPORT_MAGIC);
        bytes.extend_from_slice(&EXPORT_FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(decode_export(&bytes), Err(DurableError::Truncated { .. })));
    }
}
