//! The image container: header, manifest, the engine's opaque heap payload, seal, HMAC.
//!
//! ```text
//! "AMBERIMG" | version u32 | flags u8 | engine-version len u16 | engine version
//!   | manifest len u64 | manifest (bincode) | payload len u64 | payload (raw DEFLATE)
//!   | seal = sha256(everything before it) | [hmac = HMAC-SHA256(key, everything before it)]
//! ```
//! The payload is compressed (flag bit 1): heap payloads are mostly bytecode, strings and
//! small integers and shrink about 3x. Compression is deterministic, so equal states still
//! give equal images; inflation is capped at [`MAX_PAYLOAD_BYTES`].
//! Integers are little-endian. [`decode_image`] checks magic, version, lengths, seal and HMAC
//! before it decodes the manifest, and allocates no more than the input plus
//! [`MAX_MANIFEST_BYTES`]. Exact bytes: docs/snapshot-format.md.

use std::collections::BTreeMap;

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

use crate::canonical_json::{check_depth, json_text};
use crate::capability::CapabilityLedger;
use crate::digest::{sha256, Digest};
use crate::error::{DurableError, Result};
use crate::journal::{JournalHead, OpKind};
use crate::policy::Policy;
use crate::wire::{self, Reader};

/// Magic bytes of an image.
pub const IMAGE_MAGIC: &[u8; 8] = b"AMBERIMG";
/// Container format version. 3: the manifest lists the code blobs the payload names.
pub const IMAGE_FORMAT_VERSION: u32 = 3;
/// Largest encoded manifest accepted.
pub const MAX_MANIFEST_BYTES: usize = 16 << 20;
/// Longest engine version string accepted.
pub const MAX_ENGINE_VERSION_LEN: usize = 256;
/// Largest heap payload accepted once inflated (the engine's own decode limit).
pub const MAX_PAYLOAD_BYTES: usize = 1 << 30;
/// Flags bit 0: an HMAC-SHA256 tag follows the seal.
const FLAG_HMAC: u8 = 1;
/// Flags bit 1: the payload is raw DEFLATE (RFC 1951).
const FLAG_DEFLATE: u8 = 2;
/// DEFLATE level: 6 is zlib's default balance; images are written once per suspension.
const DEFLATE_LEVEL: u8 = 6;

/// A host operation the program is waiting on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingOp {
    /// Operation id (what `amber resume --resolve ID=…` names).
    pub id: u64,
    /// Journal seq of the operation's intent record (the idempotency key with the session).
    pub seq: u64,
    /// call, input or sleep.
    pub kind: OpKind,
    /// Host function name (the prompt for input; "sleep" for sleep).
    pub name: String,
    /// Arguments as JSON.
    #[serde(with = "json_text")]
    pub args: Value,
    /// For sleep: logical time (ms since the epoch) when it is due.
    pub due_time_ms: Option<u64>,
}

/// Heap statistics reported by the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapStats {
    /// Live heap objects.
    pub objects: u64,
    /// Heap bytes.
    pub bytes: u64,
}

/// Everything about an image that can be read without the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Version of the engine that made the image (restore refuses any other).
    pub engine_version: String,
    /// Policy the run used.
    pub policy: Policy,
    /// Surfaces the run touched.
    pub capabilities: CapabilityLedger,
    /// sha256 of each source text, by path.
    pub code_hashes: BTreeMap<String, Digest>,
    /// sha256 of the VFS seed, when the run has one.
    pub vfs_seed_hash: Option<Digest>,
    /// Host operations waiting for a result, by id.
    pub pending: Vec<PendingOp>,
    /// Journal length and head hash when the image was made.
    pub journal_head: JournalHead,
    /// Heap statistics.
    pub heap: HeapStats,
    /// Logical clock (ms since the epoch) when the image was made.
    pub logical_time_ms: u64,
    /// The code blobs the payload names (the compiled code of lower-layer sources, stored
    /// once per store beside the lower-layer file bytes), sorted: a restore needs them, so an
    /// export carries them.
    pub code_blobs: Vec<Digest>,
}

impl Manifest {
    /// A manifest with nothing recorded yet.
    pub fn new(engine_version: &str, policy: Policy) -> Self {
        Manifest {
            engine_version: engine_version.to_string(),
            policy,
            capabilities: CapabilityLedger::new(),
            code_hashes: BTreeMap::new(),
            vfs_seed_hash: None,
            pending: Vec::new(),
            journal_head: JournalHead::default(),
            heap: HeapStats::default(),
            logical_time_ms: 0,
            code_blobs: Vec::new(),
        }
    }

    /// Records the sha256 of source `text` at `path`.
    pub fn add_source(&mut self, path: &str, text: &str) {
        self.code_hashes.insert(path.to_string(), Digest::of(text.as_bytes()));
    }

    /// Fails unless the image was made by engine `running`.
    pub fn check_engine_version(&self, running: &str) -> Result<()> {
        if self.engine_version != running {
            return Err(DurableError::EngineVersionMismatch {
                image: self.engine_version.clone(),
                running: running.to_string(),
            });
        }
        Ok(())
    }
}

/// What [`read_manifest_unverified`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageSummary {
    /// Engine version from the header.
    pub engine_version: String,
    /// True if the image carries an HMAC tag.
    pub authenticated: bool,
    /// True if the sha256 seal matches (the HMAC is not checked).
    pub seal_ok: bool,
    /// Heap payload length in bytes.
    pub payload_len: u64,
    /// The manifest.
    pub manifest: Manifest,
}

/// Offsets found by parsing the header; every range is within the input.
struct Layout<'a> {
    engine_version: String,
    has_hmac: bool,
    manifest: &'a [u8],
    manifest_offset: u64,
    payload: &'a [u8],
    payload_offset: u64,
    seal_offset: usize,
}

/// Seals (and with `key`, authenticates) `manifest` and the engine's `payload` into an image.
pub fn encode_image(manifest: &Manifest, payload: &[u8], key: Option<&[u8]>) -> Result<Vec<u8>> {
    for op in &manifest.pending {
        check_depth(&op.args, &format!("pending operation {} args", op.id))?;
    }
    let version = manifest.engine_version.as_bytes();
    if version.len() > MAX_ENGINE_VERSION_LEN {
        return Err(DurableError::LimitExceeded {
            what: "image engine version",
            size: version.len() as u64,
            limit: MAX_ENGINE_VERSION_LEN as u64,
        });
    }
    let manifest_bytes = wire::encode(manifest, "image manifest", MAX_MANIFEST_BYTES)?;
    let payload = &miniz_oxide::deflate::compress_to_vec(payload, DEFLATE_LEVEL)[..];
    let mut out = Vec::with_capacity(64 + version.len() + manifest_bytes.len() + payload.len());
    out.extend_from_slice(IMAGE_MAGIC);
    out.extend_from_slice(&IMAGE_FORMAT_VERSION.to_le_bytes());
    out.push(FLAG_DEFLATE | if key.is_some() { FLAG_HMAC } else { 0 });
    // version.len() <= MAX_ENGINE_VERSION_LEN, which fits a u16.
    out.extend_from_slice(&(version.len() as u16).to_le_bytes());
    out.extend_from_slice(version);
    out.extend_from_slice(&(manifest_bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(&manifest_bytes);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let seal = sha256(&out);
    out.extend_from_slice(&seal);
    if let Some(key) = key {
        let tag = new_mac(key)?.chain_update(&out).finalize().into_bytes();
        out.extend_from_slice(&tag);
    }
    Ok(out)
}

/// Verifies and opens an image: magic, version, lengths, seal and HMAC are checked before the
/// manifest is decoded. An image with an HMAC tag needs `key`; one without refuses a key.
pub fn decode_image(bytes: &[u8], key: Option<&[u8]>) -> Result<(Manifest, Vec<u8>)> {
    let layout = parse_layout(bytes)?;
    check_seal(bytes, &layout)?;
    let authenticated_len = layout.seal_offset + 32;
    match (layout.has_hmac, key) {
        (true, Some(key)) => {
            let tag = &bytes[authenticated_len..];
            new_mac(key)?.chain_update(&bytes[..authenticated_len]).verify_slice(tag).map_err(|_| {
                DurableError::Authentication {
                    what: "image",
                    detail: "HMAC does not match (wrong key, or the image was tampered with)",
                }
            })?;
        }
        (true, None) => {
            return Err(DurableError::Authentication {
                what: "image",
                detail: "image is HMAC-authenticated; a key is required to open it",
            })
        }
        (false, Some(_)) => {
            return Err(DurableError::Authentication {
                what: "image",
                detail: "a key was given but the image carries no HMAC (refusing an unauthenticated image)",
            })
        }
        (false, None) => {}
    }
    let manifest = decode_manifest(&layout)?;
    let payload =
        miniz_oxide::inflate::decompress_to_vec_with_limit(layout.payload, MAX_PAYLOAD_BYTES).map_err(|e| {
            DurableError::corrupt_at("image payload", layout.payload_offset, format!("cannot inflate: {e}"))
        })?;
    Ok((manifest, payload))
}

/// Reads the manifest without checking the HMAC (for `amber inspect`); reports whether the
/// seal matches. Still bounds-checked: never panics, never over-allocates.
pub fn read_manifest_unverified(bytes: &[u8]) -> Result<ImageSummary> {
    let layout = parse_layout(bytes)?;
    let seal_ok = check_seal(bytes, &layout).is_ok();
    let manifest = decode_manifest(&layout)?;
    Ok(ImageSummary {
        engine_version: layout.engine_version,
        authenticated: layout.has_hmac,
        seal_ok,
        payload_len: layout.payload.len() as u64,
        manifest,
    })
}

/// True if `bytes` starts with the image magic.
pub fn looks_like_image(bytes: &[u8]) -> bool {
    bytes.starts_with(IMAGE_MAGIC)
}

/// Parses the framing; every length is checked against the input before it is used.
fn parse_layout(bytes: &[u8]) -> Result<Layout<'_>> {
    let mut reader = Reader::new(bytes);
    reader.magic(IMAGE_MAGIC, "image")?;
    let version = reader.u32_le("image version")?;
    if version != IMAGE_FORMAT_VERSION {
        return Err(DurableError::UnsupportedVersion {
            what: "image",
            found: version,
            supported: IMAGE_FORMAT_VERSION,
        });
    }
    let flags_offset = reader.offset();
    let flags = reader.u8("image flags")?;
    if flags & !(FLAG_HMAC | FLAG_DEFLATE) != 0 || flags & FLAG_DEFLATE == 0 {
        return Err(DurableError::corrupt_at("image flags", flags_offset, format!("unknown flag bits {flags:#04x}")));
    }
    let version_len = reader.u16_le("image engine version length")?;
    if usize::from(version_len) > MAX_ENGINE_VERSION_LEN {
        return Err(DurableError::LimitExceeded {
            what: "image engine version",
            size: u64::from(version_len),
            limit: MAX_ENGINE_VERSION_LEN as u64,
        });
    }
    let version_offset = reader.offset();
    let engine_version = std::str::from_utf8(reader.take(u64::from(version_len), "image engine version")?)
        .map_err(|e| DurableError::corrupt_at("image engine version", version_offset, e.to_string()))?
        .to_string();
    let manifest_len = reader.u64_le("image manifest length")?;
    if manifest_len > MAX_MANIFEST_BYTES as u64 {
        return Err(DurableError::LimitExceeded {
            what: "image manifest",
            size: manifest_len,
            limit: MAX_MANIFEST_BYTES as u64,
        });
    }
    let manifest_offset = reader.offset();
    let manifest = reader.take(manifest_len, "image manifest")?;
    let payload_len = reader.u64_le("image payload length")?;
    let payload_offset = reader.offset();
    let payload = reader.take(payload_len, "image payload")?;
    let seal_offset = bytes.len() - reader.remaining();
    reader.array::<32>("image seal")?;
    let has_hmac = flags & FLAG_HMAC != 0;
    if has_hmac {
        reader.array::<32>("image HMAC")?;
    }
    reader.finish("image")?;
    Ok(Layout { engine_version, has_hmac, manifest, manifest_offset, payload, payload_offset, seal_offset })
}

/// Checks the sha256 seal.
fn check_seal(bytes: &[u8], layout: &Layout<'_>) -> Result<()> {
    let seal = &bytes[layout.seal_offset..layout.seal_offset + 32];
    if sha256(&bytes[..layout.seal_offset]) != seal {
        return Err(DurableError::BadSeal { what: "image", offset: layout.seal_offset as u64 });
    }
    Ok(())
}

/// Decodes the manifest and checks it agrees with the header.
fn decode_manifest(layout: &Layout<'_>) -> Result<Manifest> {
    let manifest: Manifest =
        wire::decode::<_, MAX_MANIFEST_BYTES>(layout.manifest, "image manifest", layout.manifest_offset)?;
    if manifest.engine_version != layout.engine_version {
        return Err(DurableError::corrupt_at(
            "image manifest",
            layout.manifest_offset,
            format!(
                "engine version {:?} differs from the header's {:?}",
                manifest.engine_version, layout.engine_version
            ),
        ));
    }
    Ok(manifest)
}

/// An HMAC-SHA256 keyed with `key` (which must not be empty).
pub(crate) fn new_mac(key: &[u8]) -> Result<Hmac<Sha256>> {
    if key.is_empty() {
        return Err(DurableError::InvalidValue { what: "image HMAC key".into(), detail: "the key is empty".into() });
    }
    Hmac::<Sha256>::new_from_slice(key)
        .map_err(|e| DurableError::InvalidValue { what: "image HMAC key".into(), detail: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::Capability;
    use serde_json::json;

    fn manifest() -> Manifest {
        let mut manifest = Manifest::new("amber-engine 0.1.0", Policy::durable());
        manifest.capabilities.touch(Capability::HostCall, 1);
        manifest.add_source("main.js", "amber.call('f', {})");
        manifest.pending.push(PendingOp {
            id: 1,
            seq: 1,
            kind: OpKind::Call,
            name: "f".into(),
            args: json!({"b": [1, 2.5], "a": "é"}),
            due_time_ms: None,
        });
        manifest.pending.push(PendingOp {
            id: 2,
            seq: 2,
            kind: OpKind::Sleep,
            name: "sleep".into(),
            args: json!({"ms": 1000}),
            due_time_ms: Some(1_700_000_001_000),
        });
        manifest.journal_head = JournalHead { len: 3, hash: Digest([9; 32]) };
        manifest.heap = HeapStats { objects: 120, bytes: 4096 };
        manifest.logical_time_ms = 1_700_000_000_000;
        manifest
    }

    const PAYLOAD: &[u8] = b"opaque heap payload \x00\x01\x02";

    #[test]
    fn round_trip_with_and_without_key() {
        let manifest = manifest();
        let plain = encode_image(&manifest, PAYLOAD, None).unwrap();
        assert!(looks_like_image(&plain));
        assert_eq!(decode_image(&plain, None).unwrap(), (manifest.clone(), PAYLOAD.to_vec()));
        let keyed = encode_image(&manifest, PAYLOAD, Some(b"secret")).unwrap();
        assert_eq!(keyed.len(), plain.len() + 32);
        assert_eq!(decode_image(&keyed, Some(b"secret")).unwrap().1, PAYLOAD);
        assert_eq!(encode_image(&manifest, PAYLOAD, None).unwrap(), plain, "deterministic");
    }

    #[test]
    fn keys_are_checked() {
        let keyed = encode_image(&manifest(), PAYLOAD, Some(b"secret")).unwrap();
        let plain = encode_image(&manifest(), PAYLOAD, None).unwrap();
        for (bytes, key) in [(&keyed, Some(&b"wrong"[..])), (&keyed, None), (&plain, Some(&b"secret"[..]))] {
            let err = decode_image(bytes, key).unwrap_err();
            assert!(matches!(err, DurableError::Authentication { .. }), "{err}");
            assert_eq!(err.class(), crate::ErrorClass::Integrity);
        }
        assert!(encode_image(&manifest(), PAYLOAD, Some(b"")).is_err());
    }

    #[test]
    fn every_single_byte_corruption_is_refused() {
        for key in [None, Some(&b"secret"[..])] {
            let bytes = encode_image(&manifest(), PAYLOAD, key).unwrap();
            for index in 0..bytes.len() {
                for flip in [0x01u8, 0xff] {
                    let mut corrupt = bytes.clone();
                    corrupt[index] ^= flip;
                    assert!(decode_image(&corrupt, key).is_err(), "flip {flip:#x} at {index}");
                }
            }
        }
    }

    #[test]
    fn every_truncation_and_extension_is_refused() {
        let bytes = encode_image(&manifest(), PAYLOAD, Some(b"k")).unwrap();
        for len in 0..bytes.len() {
            assert!(decode_image(&bytes[..len], Some(b"k")).is_err(), "truncated to {len}");
            let _ = read_manifest_unverified(&bytes[..len]);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_image(&longer, Some(b"k")).is_err());
    }

    #[test]
    fn version_and_magic_errors_are_specific() {
        let mut bytes = encode_image(&manifest(), PAYLOAD, None).unwrap();
        bytes[8] = 2;
        assert!(matches!(decode_image(&bytes, None), Err(DurableError::UnsupportedVersion { found: 2, .. })));
        bytes[0] = b'X';
        assert!(matches!(decode_image(&bytes, None), Err(DurableError::BadMagic { .. })));
        let err = manifest().check_engine_version("amber-engine 9").unwrap_err();
        assert!(matches!(err, DurableError::EngineVersionMismatch { .. }));
    }

    #[test]
    fn unverified_read_reports_seal() {
        let mut bytes = encode_image(&manifest(), PAYLOAD, Some(b"k")).unwrap();
        let summary = read_manifest_unverified(&bytes).unwrap();
        assert!(summary.seal_ok && summary.authenticated);
        let stored = miniz_oxide::deflate::compress_to_vec(PAYLOAD, DEFLATE_LEVEL);
        assert_eq!(summary.payload_len, stored.len() as u64);
        assert_eq!(summary.manifest, manifest());
        let payload_at = bytes.len() - 64 - stored.len();
        bytes[payload_at] ^= 1;
        let summary = read_manifest_unverified(&bytes).unwrap();
        assert!(!summary.seal_ok);
    }

    #[test]
    fn hostile_lengths_and_garbage_never_panic() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(IMAGE_MAGIC);
        bytes.extend_from_slice(&IMAGE_FORMAT_VERSION.to_le_bytes());
        bytes.push(FLAG_DEFLATE);
        bytes.extend_from_slice(&0u16.to_le_bytes());
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(decode_image(&bytes, None), Err(DurableError::LimitExceeded { .. })));
        let valid = encode_image(&manifest(), PAYLOAD, None).unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3000 {
            let mut corrupt = valid.clone();
            for _ in 0..4 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = (state % corrupt.len() as u64) as usize;
                corrupt[at] = (state >> 32) as u8;
            }
            let _ = decode_image(&corrupt, None);
            let _ = read_manifest_unverified(&corrupt);
        }
    }

    /// Pins the header layout documented in docs/snapshot-format.md.
    #[test]
    fn header_bytes_match_the_documented_layout() {
        let bytes = encode_image(&manifest(), PAYLOAD, Some(b"k")).unwrap();
        assert_eq!(&bytes[..8], b"AMBERIMG");
        assert_eq!(bytes[8..12], 3u32.to_le_bytes());
        assert_eq!(bytes[12], 3, "flags: HMAC | DEFLATE");
        let version = b"amber-engine 0.1.0";
        assert_eq!(bytes[13..15], (version.len() as u16).to_le_bytes());
        assert_eq!(&bytes[15..15 + version.len()], version);
        let at = 15 + version.len();
        let manifest_len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        let manifest_bytes = &bytes[at + 8..at + 8 + manifest_len];
        // Field 1 of the manifest is the engine version string.
        assert_eq!(manifest_bytes[0] as usize, version.len());
        let at = at + 8 + manifest_len;
        let stored = miniz_oxide::deflate::compress_to_vec(PAYLOAD, DEFLATE_LEVEL);
        assert_eq!(bytes[at..at + 8], (stored.len() as u64).to_le_bytes());
        let seal_at = at + 8 + stored.len();
        assert_eq!(&bytes[at + 8..seal_at], stored);
        assert_eq!(miniz_oxide::inflate::decompress_to_vec(&bytes[at + 8..seal_at]).unwrap(), PAYLOAD);
        assert_eq!(bytes[seal_at..seal_at + 32], sha256(&bytes[..seal_at]));
        let tag =
            Hmac::<Sha256>::new_from_slice(b"k").unwrap().chain_update(&bytes[..seal_at + 32]).finalize().into_bytes();
        assert_eq!(&bytes[seal_at + 32..], tag.as_slice());
    }

    #[test]
    fn manifest_json_is_readable() {
        let json = serde_json::to_value(manifest()).unwrap();
        assert_eq!(json["pending"][0]["args"], json!({"a": "é", "b": [1, 2.5]}));
        assert_eq!(json["journal_head"]["hash"], json!(Digest([9; 32]).to_string()));
        assert_eq!(json["policy"]["random"], json!("seeded"));
    }
}
