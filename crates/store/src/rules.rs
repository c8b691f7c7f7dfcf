//! The store's decisions, declared once for every backend: a backend reads the row, asks
//! here what the request means, and writes what the answer says. So SQLite and PostgreSQL
//! cannot drift on what counts as a duplicate, a conflict or a retry.

use amber_durable::digest::{to_hex, Digest};

use crate::types::*;

/// A bundle path must be relative, `/`-separated, without empty, `.` or `..` parts.
fn check_bundle_path(path: &str) -> StoreResult<()> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path.contains('\0')
        || path.split('/').any(|part| part.is_empty() || part == "." || part == "..");
    if bad {
        return Err(StoreError::Invalid(format!("bundle path {path:?} is not a plain relative path")));
    }
    Ok(())
}

/// A program's file list (sorted by path, each path checked, no duplicates) and its id: the
/// sha256 of `path NUL sha256-hex LF` per file.
pub(crate) fn program_listing(files: &[(String, Vec<u8>)]) -> StoreResult<(String, Vec<ProgramFile>)> {
    let mut listed: Vec<ProgramFile> = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        check_bundle_path(path)?;
        listed.push(ProgramFile { path: path.clone(), sha256: to_hex(&Digest::of(bytes).0), size: bytes.len() as u64 });
    }
    listed.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(pair) = listed.windows(2).find(|w| w[0].path == w[1].path) {
        return Err(StoreError::Invalid(format!("bundle path {:?} appears twice", pair[0].path)));
    }
    let mut id_input = String::new();
    for file in &listed {
        id_input.push_str(&format!("{}\0{}\n", file.path, file.sha256));
    }
    Ok((to_hex(&Digest::of(id_input.as_bytes()).0), listed))
}

/// A fresh session id: `s-` and 16 hex digits from the clock and a process-wide counter,
/// hashed (unique within a store; not a secret).
pub(crate) fn generated_id(order: u64) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let seed = format!("{order}:{nanos}:{}:{}", COUNTER.fetch_add(1, Ordering::Relaxed), std::process::id());
    format!("s-{}", &to_hex(&Digest::of(seed.as_bytes()).0)[..16])
}

/// A row's JSON that does not parse: the store is corrupt.
pub(crate) fn json_err(what: &str, e: serde_json::Error) -> StoreError {
    StoreError::Durable(amber_durable::DurableError::Corrupt {
        what: "server store row",
        offset: None,
        detail: format!("{what}: {e}"),
    })
}

/// A stored result as text (JSON of [`OpResult`]).
pub(crate) fn result_text(result: &OpResult) -> String {
    serde_json::to_string(result).unwrap_or_else(|_| "{\"error\":\"unencodable result\"}".into())
}

/// A stored result's text back (None if absent or unreadable).
pub(crate) fn parse_result(text: Option<String>) -> Option<OpResult> {
    text.and_then(|t| serde_json::from_str(&t).ok())
}

/// The parts of an operation's row a result from the API is judged by.
pub(crate) struct ResolveRow {
    pub kind: String,
    pub state: String,
    pub stored: Option<OpResult>,
}

/// What a result from the API does to an operation: `Accepted` means store it (completed),
/// `Duplicate` means nothing to write.
pub(crate) fn decide_resolve(
    session: &str,
    op: u64,
    row: &ResolveRow,
    result: &OpResult,
) -> StoreResult<ResolveOutcome> {
    let decision = |r: &OpResult| match r {
        OpResult::Result(v) => v["approved"].is_boolean() && v["principal"].is_string() && v["decided_at_ms"].is_u64(),
        OpResult::Error(_) => false,
    };
    match row.kind.as_str() {
        "call" | "input" => {}
        // An approval takes only a decision (the approve and deny routes make them).
        "approval" if decision(result) => {}
        "approval" => {
            return Err(StoreError::Invalid(format!(
                "operation {op} of session {session:?} is an approval: decide it with approve or deny"
            )))
        }
        _ => {
            return Err(StoreError::Invalid(format!(
                "operation {op} of session {session:?} is a {}; only calls and inputs take results",
                row.kind
            )))
        }
    }
    // A repeated decision stands as the first one if it decides the same way (its time differs).
    if let (Some(stored), true) = (&row.stored, row.kind == "approval") {
        let same = |r: &OpResult| match r {
            OpResult::Result(v) => v["approved"].clone(),
            OpResult::Error(_) => serde_json::Value::Null,
        };
        if same(stored) == same(result) {
            return Ok(ResolveOutcome::Duplicate);
        }
    }
    if let Some(stored) = &row.stored {
        if stored == result {
            return Ok(ResolveOutcome::Duplicate);
        }
        return Err(StoreError::Conflict(format!("operation {op} of session {session:?} already has another result")));
    }
    if !matches!(row.state.as_str(), "pending" | "claimed") {
        return Err(StoreError::Conflict(format!("operation {op} of session {session:?} is {}", row.state)));
    }
    Ok(ResolveOutcome::Accepted)
}

/// A claim's id: `SESSION:OP:ATTEMPT`, unique per attempt, so a worker whose claim expired
/// and was handed to another can no longer complete it (the current claim id differs).
pub(crate) fn claim_id(session: &str, op: u64, attempt: u32) -> String {
    format!("{session}:{op}:{attempt}")
}

/// `SESSION:OP:ATTEMPT` → (session, op).
pub(crate) fn parse_claim(claim: &str) -> StoreResult<(String, u64)> {
    let mut parts = claim.rsplitn(3, ':');
    let (_attempt, op, session) = (parts.next(), parts.next(), parts.next());
    match (op.and_then(|o| o.parse::<u64>().ok()), session) {
        (Some(op), Some(session)) if !session.is_empty() => Ok((session.to_string(), op)),
        _ => Err(StoreError::NotFound { what: "claim", id: claim.to_string() }),
    }
}

/// The parts of an operation's row a claim's completion is judged by.
pub(crate) struct ClaimRow {
    pub state: String,
    pub current: Option<String>,
    pub expires_ms: Option<u64>,
    pub stored: Option<OpResult>,
    pub failed_claim: Option<String>,
    pub attempts: u64,
    pub max_attempts: u64,
    pub backoff_ms: u64,
}

/// What completing a claim does.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ClaimDecision {
    /// Already done this way: nothing to write.
    Duplicate,
    /// A failure with attempts left: pending again, claimable from this time.
    Retry(u64),
    /// The result is the operation's: completed (the claim id stays, so a retried
    /// completion is recognised as a duplicate).
    Complete,
}

pub(crate) fn decide_claim(claim: &str, row: &ClaimRow, result: &OpResult, now: u64) -> StoreResult<ClaimDecision> {
    // A retried request: the same claim already completed (or failed) this way.
    if row.state != "claimed" && row.current.as_deref() == Some(claim) {
        if let Some(stored) = &row.stored {
            if stored == result {
                return Ok(ClaimDecision::Duplicate);
            }
            return Err(StoreError::Conflict(format!("claim {claim} already completed with another result")));
        }
    }
    if row.failed_claim.as_deref() == Some(claim) && matches!(result, OpResult::Error(_)) {
        return Ok(ClaimDecision::Duplicate);
    }
    if row.state != "claimed" || row.current.as_deref() != Some(claim) {
        return Err(StoreError::Conflict(format!(
            "claim {claim} is no longer current (the operation is {}; an expired claim goes to another worker)",
            row.state
        )));
    }
    if row.expires_ms.unwrap_or(0) < now {
        return Err(StoreError::Conflict(format!("claim {claim} expired; the operation will be handed out again")));
    }
    Ok(match result {
        OpResult::Error(_) if row.attempts < row.max_attempts => {
            let exponent = u32::try_from(row.attempts.saturating_sub(1)).unwrap_or(u32::MAX).min(20);
            ClaimDecision::Retry(now.saturating_add(row.backoff_ms.saturating_mul(1 << exponent)))
        }
        _ => ClaimDecision::Complete,
    })
}

/// The results stored and not yet delivered into the VM, in op order (`ops` in op order).
pub(crate) fn undelivered(ops: Vec<OpRow>) -> Vec<(u64, OpResult)> {
    ops.into_iter().filter(|op| op.state == OpState::Completed).filter_map(|op| Some((op.id, op.result?))).collect()
}

/// The status a finishing slice records: a cancel asked while it ran wins over a status that
/// is not final.
pub(crate) fn finishing_status(
    cancel_requested: bool,
    status: ServerStatus,
    outcome: Option<serde_json::Value>,
) -> (ServerStatus, Option<serde_json::Value>) {
    if cancel_requested && !status.is_final() {
        (ServerStatus::Cancelled, Some(serde_json::json!({ "cancelled": true })))
    } else {
        (status, outcome)
    }
}

/// Whether the session in `row` may move to new code: only while it waits (suspended, or
/// queued with a result to deliver) and no cancellation is asked for.
pub(crate) fn upgradable(row: &SessionRow) -> StoreResult<()> {
    if !matches!(row.status, ServerStatus::Suspended | ServerStatus::Queued) || row.cancel_requested {
        let status = if row.cancel_requested { "cancelling" } else { row.status.name() };
        return Err(StoreError::Conflict(format!(
            "session {:?} is {status}; only a waiting session can move to new code",
            row.id
        )));
    }
    Ok(())
}

/// The conflict of an upgrade whose record no longer sits at the journal's head.
pub(crate) fn moved_on(id: &str, replayed: u64, head: u64) -> StoreError {
    StoreError::Conflict(format!(
        "session {id:?} moved on while the upgrade replayed (its journal has {head} records, the upgrade replayed \
         {replayed}); upgrade again"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_parse_back() {
        assert_eq!(parse_claim(&claim_id("s:x", 4, 2)).unwrap(), ("s:x".to_string(), 4));
        assert!(parse_claim("nonsense").is_err());
    }

    #[test]
    fn failures_back_off_exponentially_until_attempts_run_out() {
        let mut row = ClaimRow {
            state: "claimed".into(),
            current: Some("c".into()),
            expires_ms: Some(100),
            stored: None,
            failed_claim: None,
            attempts: 1,
            max_attempts: 3,
            backoff_ms: 10,
        };
        let err = OpResult::Error("no".into());
        assert_eq!(decide_claim("c", &row, &err, 50).unwrap(), ClaimDecision::Retry(60));
        row.attempts = 2;
        assert_eq!(decide_claim("c", &row, &err, 50).unwrap(), ClaimDecision::Retry(70));
        row.attempts = 3;
        assert_eq!(decide_claim("c", &row, &err, 50).unwrap(), ClaimDecision::Complete);
        assert!(decide_claim("c", &row, &err, 101).is_err(), "expired");
        assert!(decide_claim("other", &row, &err, 50).is_err(), "not current");
    }

    #[test]
    fn only_a_waiting_session_may_move_to_new_code() {
        let spec: SessionSpec = serde_json::from_value(serde_json::json!({ "program": "p", "entry": "a.js" })).unwrap();
        let mut row = SessionRow {
            id: "s".into(),
            order: 1,
            spec,
            status: ServerStatus::Suspended,
            outcome: None,
            cancel_requested: false,
            created_ms: 0,
            updated_ms: 0,
        };
        assert!(upgradable(&row).is_ok());
        row.status = ServerStatus::Queued;
        assert!(upgradable(&row).is_ok(), "a result waits to be delivered");
        for status in [ServerStatus::Running, ServerStatus::Completed, ServerStatus::Failed, ServerStatus::Cancelled] {
            row.status = status;
            assert!(matches!(upgradable(&row), Err(StoreError::Conflict(_))), "{}", status.name());
        }
        row.status = ServerStatus::Suspended;
        row.cancel_requested = true;
        let Err(StoreError::Conflict(message)) = upgradable(&row) else { panic!("cancelling moves on") };
        assert!(message.contains("cancelling"), "{message}");
    }
}
