//! Tests for the journal: chaining, validation, namespaces, encoding, hostile input.

use serde_json::json;

use super::*;
use crate::digest::sha256;

fn sample() -> Journal {
    let mut journal = Journal::new();
    journal.append(RecordDraft::run_start(1_700_000_000_000, [7; 32])).unwrap();
    journal.append(RecordDraft::intent(OpKind::Call, "fetch", json!({"url": "https://x", "n": 1.5}), 10)).unwrap();
    journal.append(RecordDraft::step("parse", CallResult::Ok(json!([1, 2])), 10)).unwrap();
    journal.append(RecordDraft::completion(OpKind::Call, 1, "fetch", CallResult::Ok(json!("body")), 250, 260)).unwrap();
    journal.append(RecordDraft::intent(OpKind::Input, "name?", json!(null), 260)).unwrap();
    journal.append(RecordDraft::clock("Date.now", json!(1_700_000_000_260u64), 260)).unwrap();
    journal.append(RecordDraft::random("crypto.getRandomValues", json!("00ff"), 260)).unwrap();
    journal.append(RecordDraft::completion(OpKind::Input, 4, "name?", CallResult::Err("no".into()), 5, 265)).unwrap();
    journal
}

#[test]
fn append_chains_and_verifies() {
    let journal = sample();
    assert_eq!(journal.len(), 8);
    journal.verify().unwrap();
    assert_eq!(journal.records()[0].prev_hash, GENESIS_HASH);
    for pair in journal.records().windows(2) {
        assert_eq!(pair[1].prev_hash, pair[0].hash);
    }
    assert_eq!(journal.run_start(), Some((1_700_000_000_000, [7; 32])));
    assert_eq!(journal.completion(1).map(|r| r.seq), Some(3));
    assert_eq!(journal.completion(4).map(|r| r.seq), Some(7));
    assert_eq!(journal.open_intents().count(), 0);
    assert!(journal.has_prefix(&journal.head()));
    assert!(journal.has_prefix(&JournalHead::default()));
}

#[test]
fn hash_is_sha256_of_prev_hash_and_body() {
    let journal = sample();
    let record = &journal.records()[2];
    let bytes = record.encode().unwrap();
    let body = &bytes[..bytes.len() - 32];
    let mut input = record.prev_hash.to_vec();
    input.extend_from_slice(body);
    assert_eq!(sha256(&input), record.hash);
    assert_eq!(&bytes[bytes.len() - 32..], &record.hash);
}

#[test]
fn invalid_appends_are_refused_and_leave_the_journal_unchanged() {
    let mut journal = sample();
    let before = journal.clone();
    let cases = vec![
        RecordDraft::completion(OpKind::Call, 1, "fetch", CallResult::Ok(json!(1)), 0, 0),
        RecordDraft::completion(OpKind::Call, 2, "parse", CallResult::Ok(json!(1)), 0, 0),
        RecordDraft::completion(OpKind::Sleep, 1, "fetch", CallResult::Ok(json!(1)), 0, 0),
        RecordDraft::completion(OpKind::Call, 99, "fetch", CallResult::Ok(json!(1)), 0, 0),
        RecordDraft::run_start(0, [0; 32]),
        RecordDraft::step("s", CallResult::Ok(json!(1)), 0).with_parent(8),
    ];
    for draft in cases {
        let err = journal.append(draft).unwrap_err();
        assert!(matches!(err, DurableError::InvalidRecord { seq: 8, .. }), "{err}");
    }
    let mut deep = json!(0);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    assert!(journal.append(RecordDraft::intent(OpKind::Call, "f", deep, 0)).is_err());
    assert_eq!(journal, before);
}

#[test]
fn host_function_named_step_is_not_a_step() {
    let mut journal = Journal::new();
    journal.append(RecordDraft::intent(OpKind::Call, "step", json!(null), 0)).unwrap();
    let err = journal.expect_record(0, RecordKind::Step, "step", &json!(null)).unwrap_err();
    assert!(matches!(err, DurableError::Divergence { seq: 0, .. }), "{err}");
    assert!(journal.expect_record(0, RecordKind::Intent(OpKind::Call), "step", &json!(null)).unwrap().is_some());
    assert!(journal.expect_record(1, RecordKind::Step, "step", &json!(null)).unwrap().is_none());
}

#[test]
fn divergence_names_seq_expected_and_actual() {
    let journal = sample();
    let err =
        journal.expect_record(1, RecordKind::Intent(OpKind::Call), "fetch", &json!({"url": "https://y"})).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("seq 1") && text.contains("https://x") && text.contains("https://y"), "{text}");
    assert_eq!(err.class(), crate::ErrorClass::Integrity);
}

#[test]
fn encode_decode_round_trip() {
    let journal = sample();
    let bytes = journal.encode().unwrap();
    assert_eq!(&bytes[..8], JOURNAL_MAGIC);
    let back = Journal::decode(&bytes).unwrap();
    assert_eq!(back, journal);
    assert_eq!(back.encode().unwrap(), bytes);
    assert_eq!(Journal::decode(&Journal::new().encode().unwrap()).unwrap(), Journal::new());
}

#[test]
fn every_truncation_is_refused() {
    let bytes = sample().encode().unwrap();
    for len in 0..bytes.len() {
        assert!(Journal::decode(&bytes[..len]).is_err(), "truncated to {len}");
    }
}

#[test]
fn every_single_byte_flip_is_refused() {
    let bytes = sample().encode().unwrap();
    for index in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut corrupt = bytes.clone();
            corrupt[index] ^= flip;
            assert!(Journal::decode(&corrupt).is_err(), "flip {flip:#x} at {index}");
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let valid = sample().encode().unwrap();
    for round in 0..2000 {
        let mut bytes = if round % 2 == 0 { valid.clone() } else { vec![0; (next() % 300) as usize] };
        for _ in 0..(next() % 8 + 1) {
            if bytes.is_empty() {
                break;
            }
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] = next() as u8;
        }
        if round % 4 == 1 {
            bytes.splice(0..0, valid[..16].iter().copied());
        }
        let _ = Journal::decode(&bytes);
        let _ = CallRecord::decode(&bytes);
    }
}

#[test]
fn tampered_in_memory_record_is_reported_by_seq() {
    let journal = sample();
    let mut records = journal.records().to_vec();
    records[5].timestamp += 1;
    let err = Journal::from_records(records).unwrap_err();
    assert!(matches!(err, DurableError::BrokenChain { seq: 5, .. }), "{err}");
    let mut records = journal.records().to_vec();
    records.remove(3);
    let err = Journal::from_records(records).unwrap_err();
    assert!(matches!(err, DurableError::BrokenChain { seq: 4, .. }), "{err}");
}

#[test]
fn huge_length_prefix_is_refused_without_allocating() {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(JOURNAL_MAGIC);
    bytes.extend_from_slice(&JOURNAL_FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&u64::MAX.to_le_bytes());
    bytes.extend_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Journal::decode(&bytes), Err(DurableError::LimitExceeded { .. })));
}

/// Pins the byte layout documented in docs/journal-format.md.
#[test]
fn record_bytes_match_the_documented_layout() {
    let mut journal = Journal::new();
    journal.append(RecordDraft::run_start(0, [0; 32])).unwrap();
    let record = journal.append(RecordDraft::intent(OpKind::Call, "f", json!({"a": 1}), 300)).unwrap().clone();
    let args = br#"{"a":1}"#;
    let mut body = vec![1u8, 0, 1, 0, 1, b'f', args.len() as u8];
    body.extend_from_slice(args);
    body.extend_from_slice(&sha256(args));
    body.extend_from_slice(&[0, 0, 0xfb, 44, 1]);
    body.extend_from_slice(&journal.records()[0].hash);
    let mut input = journal.records()[0].hash.to_vec();
    input.extend_from_slice(&body);
    let mut expected = body;
    expected.extend_from_slice(&sha256(&input));
    assert_eq!(record.encode().unwrap(), expected);

    let file = journal.encode().unwrap();
    assert_eq!(&file[..8], b"AMBERJNL");
    assert_eq!(file[8..12], 1u32.to_le_bytes(), "no fork or upgrade record: version 1");
    assert_eq!(file[12..20], 2u64.to_le_bytes());
    let first_len = u32::from_le_bytes(file[20..24].try_into().unwrap()) as usize;
    let second = 24 + first_len;
    assert_eq!(file[second..second + 4], (expected.len() as u32).to_le_bytes());
    assert_eq!(&file[second + 4..], expected.as_slice());
}

/// A fork's journal: the parent's records up to the fork, then the fork record naming the last
/// of them, then the fork's own; an upgrade record anywhere after.
fn forked(parent: &Journal, at: u64) -> Journal {
    let record = parent.get(at).unwrap();
    let mut journal = Journal::from_records(parent.records()[..=at as usize].to_vec()).unwrap();
    journal.append(RecordDraft::fork("p", at, record.hash, record.timestamp)).unwrap();
    journal
}

#[test]
fn a_fork_record_names_the_record_before_it_and_survives_encoding() {
    let parent = sample();
    let mut journal = forked(&parent, 2);
    let fork = journal.get(3).unwrap().clone();
    assert_eq!(fork.kind, RecordKind::Fork);
    assert_eq!(fork.fork_info(), Some(("p", 2, parent.get(2).unwrap().hash)));
    journal.append(RecordDraft::completion(OpKind::Call, 1, "fetch", CallResult::Ok(json!("other")), 1, 11)).unwrap();
    let upgrade = RecordDraft::upgrade(json!({"a.js": "00"}), json!({"a.js": "11"}), 12);
    journal.append(upgrade).unwrap();
    let file = journal.encode().unwrap();
    assert_eq!(file[8..12], 2u32.to_le_bytes(), "fork and upgrade records need version 2");
    let decoded = Journal::decode(&file).unwrap();
    assert_eq!(decoded, journal);
    assert_eq!(decoded.records()[5].kind.to_string(), "upgrade");
    assert!(decoded.records()[3].kind.is_marker() && !decoded.records()[4].kind.is_marker());
}

#[test]
fn a_parent_prefix_edited_after_the_fork_is_caught_at_the_fork_record() {
    let parent = sample();
    let journal = forked(&parent, 2);
    // The parent's first intent with other args, re-chained with fresh hashes: each record
    // verifies on its own and links to the one before, but the fork record names the old hash.
    let mut edited = Journal::new();
    for (i, record) in journal.records()[..3].iter().enumerate() {
        let args = if i == 1 { json!({"url": "https://evil"}) } else { record.args.clone() };
        edited
            .append(RecordDraft {
                parent_seq: record.parent_seq,
                kind: record.kind,
                function: record.function.clone(),
                args,
                result: record.result.clone(),
                duration_ms: record.duration_ms,
                timestamp: record.timestamp,
            })
            .unwrap();
    }
    let mut records = edited.records().to_vec();
    records.push(journal.get(3).unwrap().clone());
    let err = Journal::from_records(records).unwrap_err();
    let DurableError::BrokenChain { seq: 3, detail } = &err else { panic!("{err}") };
    assert!(detail.contains("the parent's journal changed after the fork"), "{detail}");
    // A fork record that claims to follow another seq, or has no hash, is refused when written.
    let mut journal = Journal::from_records(parent.records()[..3].to_vec()).unwrap();
    let hash = journal.head_hash();
    let err = journal.append(RecordDraft::fork("p", 1, hash, 0)).unwrap_err();
    assert!(err.to_string().contains("follows record 2"), "{err}");
    let err =
        journal.append(RecordDraft { args: json!({"parent": "p"}), ..RecordDraft::fork("p", 2, hash, 0) }).unwrap_err();
    assert!(err.to_string().contains("{parent, seq, hash}"), "{err}");
    let err = journal.append(RecordDraft::upgrade(json!(1), json!({}), 0)).unwrap_err();
    assert!(err.to_string().contains("{from, to}"), "{err}");
}

#[test]
fn a_version_1_journal_file_still_reads() {
    let journal = sample();
    let mut bytes = journal.encode().unwrap();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(Journal::decode(&bytes).unwrap(), journal);
    bytes[8..12].copy_from_slice(&5u32.to_le_bytes());
    assert!(matches!(Journal::decode(&bytes), Err(DurableError::UnsupportedVersion { found: 5, .. })));
}

#[test]
fn an_fs_rollback_needs_version_4_and_is_checked() {
    let mut journal = sample();
    journal.append(RecordDraft::fs_rollback(3, 40)).unwrap();
    let encoded = journal.encode().unwrap();
    assert_eq!(u32::from_le_bytes(encoded[8..12].try_into().unwrap()), 4);
    let decoded = Journal::decode(&encoded).unwrap();
    assert_eq!(decoded, journal);
    assert!(!decoded.records().last().unwrap().kind.is_marker(), "replay applies a rollback");
    // A rollback with a parent, or without its count, is refused.
    let err = journal.append(RecordDraft::fs_rollback(1, 41).with_parent(0)).unwrap_err();
    assert!(err.to_string().contains("fs-rollback record has no parent"), "{err}");
    let mut draft = RecordDraft::fs_rollback(1, 41);
    draft.args = json!({ "changes": "all" });
    assert!(journal.append(draft).is_err());
}

#[test]
fn attempts_and_approvals_need_version_3_and_are_checked() {
    let mut journal = sample();
    let encoded = journal.encode().unwrap();
    assert_eq!(u32::from_le_bytes(encoded[8..12].try_into().unwrap()), 1);
    let intent = journal.append(RecordDraft::intent(OpKind::Call, "tool", json!({}), 5)).unwrap().seq;
    let attempt = Attempt {
        number: 1,
        code: Some("timeout".into()),
        error: "Error: slow".into(),
        duration_ms: 9,
        backoff_ms: 100,
    };
    journal.append(RecordDraft::attempt(intent, "tool", &attempt, 14)).unwrap();
    let encoded = journal.encode().unwrap();
    assert_eq!(u32::from_le_bytes(encoded[8..12].try_into().unwrap()), 3);
    assert_eq!(Journal::decode(&encoded).unwrap(), journal);
    // An attempt of another function, or after the completion, is refused.
    let err = journal.append(RecordDraft::attempt(intent, "other", &attempt, 14)).unwrap_err();
    assert!(err.to_string().contains("not an intent of call \"other\""), "{err}");
    let done = RecordDraft::completion(OpKind::Call, intent, "tool", CallResult::Ok(json!(1)), 20, 25);
    journal.append(done).unwrap();
    let err = journal.append(RecordDraft::attempt(intent, "tool", &attempt, 30)).unwrap_err();
    assert!(err.to_string().contains("already completed"), "{err}");
    let approval =
        journal.append(RecordDraft::intent(OpKind::Approval, "pay", json!({"call": "pay"}), 31)).unwrap().seq;
    assert!(approval > intent);
}

#[test]
fn an_attempt_with_a_huge_error_is_cut_to_fit_the_journal() {
    let mut journal = sample();
    let intent = journal.append(RecordDraft::intent(OpKind::Call, "tool", json!({}), 5)).unwrap().seq;
    let error = "é".repeat(MAX_RECORD_BYTES); // twice the record limit, in two-byte characters
    let attempt = Attempt { number: 1, code: Some("c".repeat(10_000)), error, duration_ms: 1, backoff_ms: 0 };
    let record = journal.append(RecordDraft::attempt(intent, "tool", &attempt, 6)).unwrap();
    let Some(CallResult::Err(kept)) = &record.result else { panic!("an attempt records its error") };
    assert!(kept.len() < record::MAX_ATTEMPT_ERROR_BYTES + 64, "{}", kept.len());
    assert!(kept.ends_with(&format!("… ({} bytes cut)", attempt.error.len() - record::MAX_ATTEMPT_ERROR_BYTES)));
    assert!(record.args["code"].as_str().unwrap().ends_with("bytes cut)"));
    assert_eq!(Journal::decode(&journal.encode().unwrap()).unwrap(), journal);
}
