//! An image's manifest against its own payload, at restore.
//!
//! The manifest is what `amber inspect` shows without decoding the heap; the payload is what
//! runs. Anyone who can edit the store can re-seal an image (without an image key), so a
//! restore derives from the decoded payload every manifest field it can and refuses an image
//! whose manifest says otherwise: the pending operations (id, intent seq, kind, name, args,
//! due time), the logical time, the heap statistics, the code blobs it names, and capability seqs no later than the
//! journal position. What the payload cannot tell — code hashes, the journal position itself —
//! is checked against the stored sources and the journal by the session store
//! (`StoredImage::check_position` when it loads a session, `check_code_hashes` before
//! `amber resume` restores) and by restore's journal prefix check; the VFS seed hash against
//! the seed the restoring embedder gives ([`check_vfs_seed`]).

use amber_durable::image::{HeapStats, Manifest};
use amber_engine::Vm;

use crate::error::{Error, Result};
use crate::runtime::pending_ops;

/// Fails unless `manifest` says what the decoded `vm` holds.
pub(crate) fn check_against_payload(manifest: &Manifest, vm: &Vm) -> Result<()> {
    let pending = pending_ops(vm);
    if pending != manifest.pending {
        let ids = |ops: &[amber_durable::image::PendingOp]| ops.iter().map(|op| op.id).collect::<Vec<_>>();
        return Err(forged(format!(
            "the manifest lists pending operations {:?} ({}) but the heap holds {:?} ({})",
            ids(&manifest.pending),
            describe(&manifest.pending),
            ids(&pending),
            describe(&pending)
        )));
    }
    let clock = if vm.clock_ms.is_finite() && vm.clock_ms > 0.0 { vm.clock_ms as u64 } else { 0 };
    if clock != manifest.logical_time_ms {
        return Err(forged(format!(
            "the manifest gives logical time {} but the heap's clock is {clock}",
            manifest.logical_time_ms
        )));
    }
    let heap = HeapStats { objects: vm.heap.objects.live() as u64, bytes: vm.heap.bytes_estimate };
    if heap != manifest.heap {
        return Err(forged(format!(
            "the manifest gives heap statistics {} objects, {} bytes but the heap holds {} objects, {} bytes",
            manifest.heap.objects, manifest.heap.bytes, heap.objects, heap.bytes
        )));
    }
    let code_blobs: Vec<amber_durable::digest::Digest> =
        vm.code_blob_hashes().into_iter().map(amber_durable::digest::Digest).collect();
    if code_blobs != manifest.code_blobs {
        return Err(forged(format!(
            "the manifest lists {} code blobs but the heap names {}",
            manifest.code_blobs.len(),
            code_blobs.len()
        )));
    }
    if let Some((capability, seq)) = manifest.capabilities.iter().find(|(_, seq)| *seq > manifest.journal_head.len) {
        return Err(forged(format!(
            "the manifest stamps {capability} at journal seq {seq}, past the image's journal length {}",
            manifest.journal_head.len
        )));
    }
    Ok(())
}

/// A run that started from a VFS seed (an earlier version's stored copy of its folder) has the
/// seed's hash on every image; the restoring embedder that gives the session's stored seed
/// gets it checked: a manifest naming another seed, or none, is forged. (The payload holds
/// the VFS as the run left it, not the seed, so this is the only place the hash can be
/// checked; an embedder that gives no seed has the hash shown only.)
pub(crate) fn check_vfs_seed(manifest: &Manifest, seed: Option<&crate::seed::VfsSeed>) -> Result<()> {
    let Some(seed) = seed else { return Ok(()) };
    if manifest.vfs_seed_hash != Some(seed.hash()) {
        return Err(forged(match manifest.vfs_seed_hash {
            Some(_) => "the manifest's VFS seed hash is not the stored seed's".to_string(),
            None => "the manifest names no VFS seed, but the session has one".to_string(),
        }));
    }
    Ok(())
}

fn describe(ops: &[amber_durable::image::PendingOp]) -> String {
    ops.iter().map(|op| format!("{} {:?} at seq {}", op.kind.name(), op.name, op.seq)).collect::<Vec<_>>().join(", ")
}

fn forged(detail: String) -> Error {
    Error::Image(format!("the image's manifest does not match its payload: {detail}"))
}
