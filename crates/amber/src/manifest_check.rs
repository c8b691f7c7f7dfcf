//! An image's manifest against its own payload, at restore.
//!
//! The manifest is what `amber inspect` shows without decoding the heap; the payload is what
//! runs. Anyone who can edit the store can re-seal an image (without an image key), so a
//! restore derives from the decoded payload every manifest field it can and refuses an image
//! whose manifest says otherwise: the pending operations (id, intent seq, kind, name, args,
//! due time), the logical time, the heap statistics, and capability seqs no later than the
//! journal position. What the payload cannot tell — code hashes, the VFS seed hash, the
//! journal position itself — is checked against the stored sources and the journal by the
//! session store (`StoredImage::check_position` when it loads a session, `check_code_hashes`
//! before `amber resume` restores) and by restore's journal prefix check.

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
    if let Some((capability, seq)) = manifest.capabilities.iter().find(|(_, seq)| *seq > manifest.journal_head.len) {
        return Err(forged(format!(
            "the manifest stamps {capability} at journal seq {seq}, past the image's journal length {}",
            manifest.journal_head.len
        )));
    }
    Ok(())
}

fn describe(ops: &[amber_durable::image::PendingOp]) -> String {
    ops.iter().map(|op| format!("{} {:?} at seq {}", op.kind.name(), op.name, op.seq)).collect::<Vec<_>>().join(", ")
}

fn forged(detail: String) -> Error {
    Error::Image(format!("the image's manifest does not match its payload: {detail}"))
}
