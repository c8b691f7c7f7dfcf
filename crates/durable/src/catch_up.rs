//! Pending operations as the journal has them, for an image the journal has run past.
//!
//! A slice commits its journal records before it saves its image, so a crash in between
//! leaves the newest image behind the journal: its manifest still lists operations whose
//! completions are committed, and misses operations issued after it. Restore catches up by
//! replaying those records; what only reads the store (`amber inspect`, a `--resolve` of an
//! id the journal already answered) catches up here, from the records alone, without running
//! the program.
//!
//! This rests on one fact about issue order: every host operation journals its intent as it
//! is issued, and operations are numbered 1, 2, … in issue order (amber's bridge), so an
//! operation's id is its intent's ordinal among the journal's intents.

use crate::image::PendingOp;
use crate::journal::{CallRecord, Journal, OpKind, RecordKind};

/// The id of the operation whose intent record is at `intent_seq` (None if that record is
/// not an intent).
pub fn op_id_of_intent(journal: &Journal, intent_seq: u64) -> Option<u64> {
    let intent = journal.get(intent_seq)?;
    if !matches!(intent.kind, RecordKind::Intent(_)) {
        return None;
    }
    let earlier = journal.records()[..=intent_seq as usize]
        .iter()
        .filter(|record| matches!(record.kind, RecordKind::Intent(_)))
        .count();
    Some(earlier as u64)
}

/// The intent record of operation `id`, if the journal has issued it.
pub fn intent_of_op(journal: &Journal, id: u64) -> Option<&CallRecord> {
    let index = usize::try_from(id.checked_sub(1)?).ok()?;
    journal.records().iter().filter(|record| matches!(record.kind, RecordKind::Intent(_))).nth(index)
}

/// The completion the journal holds for operation `id`, if it has one.
pub fn completion_of_op(journal: &Journal, id: u64) -> Option<&CallRecord> {
    intent_of_op(journal, id).and_then(|intent| journal.completion(intent.seq))
}

/// The operations pending at the end of `journal`, given those an image taken at journal
/// length `image_len` listed: the image's, less those completed by a later record, plus
/// those issued by a later record and not completed. The image's entries are kept as they
/// are (they carry exact due times); later ones are rebuilt from their intent records.
pub fn pending_at_journal_end(image_pending: &[PendingOp], image_len: u64, journal: &Journal) -> Vec<PendingOp> {
    let mut pending: Vec<PendingOp> =
        image_pending.iter().filter(|op| journal.completion(op.seq).is_none()).cloned().collect();
    let later = journal.records().iter().skip(usize::try_from(image_len).unwrap_or(usize::MAX));
    for intent in later {
        let RecordKind::Intent(kind) = intent.kind else { continue };
        if journal.completion(intent.seq).is_some() || pending.iter().any(|op| op.seq == intent.seq) {
            continue;
        }
        let Some(id) = op_id_of_intent(journal, intent.seq) else { continue };
        let due_time_ms = match kind {
            OpKind::Sleep => {
                let ms = intent.args["ms"].as_f64().unwrap_or(0.0).max(0.0);
                Some((intent.timestamp as f64 + ms).ceil() as u64)
            }
            OpKind::Call | OpKind::Input | OpKind::Http | OpKind::Approval => None,
        };
        pending.push(PendingOp {
            id,
            seq: intent.seq,
            kind,
            name: intent.function.clone(),
            args: intent.args.clone(),
            due_time_ms,
        });
    }
    pending.sort_by_key(|op| op.id);
    pending
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::journal::{CallResult, RecordDraft};

    fn op(id: u64, seq: u64, name: &str) -> PendingOp {
        PendingOp { id, seq, kind: OpKind::Call, name: name.into(), args: json!({}), due_time_ms: None }
    }

    #[test]
    fn a_journal_past_the_image_completes_and_adds_operations() {
        let mut journal = Journal::new();
        journal.append(RecordDraft::run_start(1_000, [1; 32])).unwrap();
        journal.append(RecordDraft::intent(OpKind::Call, "first", json!({}), 1_000)).unwrap();
        journal.append(RecordDraft::intent(OpKind::Call, "other", json!({}), 1_000)).unwrap();
        // The image was taken here (length 3), waiting on 1 and 2.
        let image_pending = vec![op(1, 1, "first"), op(2, 2, "other")];
        journal.append(RecordDraft::completion(OpKind::Call, 1, "first", CallResult::Ok(json!(5)), 7, 1_007)).unwrap();
        journal.append(RecordDraft::intent(OpKind::Sleep, "sleep", json!({"ms": 2.5}), 1_007)).unwrap();
        journal.append(RecordDraft::intent(OpKind::Call, "done", json!({}), 1_007)).unwrap();
        journal.append(RecordDraft::completion(OpKind::Call, 5, "done", CallResult::Ok(json!(1)), 0, 1_007)).unwrap();

        let pending = pending_at_journal_end(&image_pending, 3, &journal);
        let summary: Vec<(u64, u64, &str, Option<u64>)> =
            pending.iter().map(|op| (op.id, op.seq, op.name.as_str(), op.due_time_ms)).collect();
        assert_eq!(summary, vec![(2, 2, "other", None), (3, 4, "sleep", Some(1_010))]);
        assert_eq!(op_id_of_intent(&journal, 5), Some(4));
        assert_eq!(op_id_of_intent(&journal, 3), None);
        assert_eq!(completion_of_op(&journal, 1).map(|r| r.seq), Some(3));
        assert_eq!(completion_of_op(&journal, 2), None);
        assert_eq!(intent_of_op(&journal, 0), None);
        assert_eq!(intent_of_op(&journal, 9), None);
        // Not past the image: the image's list stands.
        assert_eq!(pending_at_journal_end(&image_pending, 3, &Journal::new()), image_pending);
    }
}
