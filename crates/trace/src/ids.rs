//! Trace and span ids, derived from the journal so that exporting a session twice (or from
//! another machine) gives the same ids: a collector then holds one copy, not two.

use amber_durable::digest::sha256;

/// The session's trace id: sha256("amber trace" ‖ len(name) ‖ name ‖ run id), first 16
/// bytes. The run id comes from the journaled run start, so the trace is the run's; a fork,
/// which shares its parent's run start, is its own trace through its own name.
pub(crate) fn trace_id(session: &str, run_id: &[u8; 8]) -> [u8; 16] {
    let mut input = b"amber trace".to_vec();
    input.extend_from_slice(&(session.len() as u64).to_le_bytes());
    input.extend_from_slice(session.as_bytes());
    input.extend_from_slice(run_id);
    let digest = sha256(&input);
    let mut id = [0u8; 16];
    id.copy_from_slice(&digest[..16]);
    nonzero(&mut id);
    id
}

/// The span of the record at `seq` (an operation's intent, a step, an attempt), or the
/// session's root span for `None`: sha256("amber span" ‖ trace id ‖ tag ‖ seq), first 8 bytes.
pub(crate) fn span_id(trace: &[u8; 16], seq: Option<u64>) -> [u8; 8] {
    let mut input = b"amber span".to_vec();
    input.extend_from_slice(trace);
    match seq {
        None => input.push(0),
        Some(seq) => {
            input.push(1);
            input.extend_from_slice(&seq.to_le_bytes());
        }
    }
    let digest = sha256(&input);
    let mut id = [0u8; 8];
    id.copy_from_slice(&digest[..8]);
    nonzero(&mut id);
    id
}

/// OTLP reads an all-zero id as "no id".
fn nonzero(id: &mut [u8]) {
    if id.iter().all(|&b| b == 0) {
        if let Some(last) = id.last_mut() {
            *last = 1;
        }
    }
}
