//! Operations in SQLite: results from the API, claims by tool workers, retries (what each
//! means is decided in [`crate::rules`]).

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde_json::Value;

use super::{i, u, Conn};
use crate::rules::{
    claim_id, decide_claim, decide_resolve, parse_claim, parse_result, result_text, ClaimDecision, ClaimRow, ResolveRow,
};
use crate::types::*;

pub(super) fn session_ops(conn: &Connection, session: &str) -> StoreResult<Vec<OpRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT op, seq, kind, name, args, due, state, result, attempts, idempotency_key FROM server_ops \
         WHERE session = ?1 ORDER BY op",
    )?;
    let rows = stmt.query_map(params![session], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, i64>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, String>(4)?,
            row.get::<_, Option<i64>>(5)?,
            row.get::<_, String>(6)?,
            row.get::<_, Option<String>>(7)?,
            row.get::<_, i64>(8)?,
            row.get::<_, String>(9)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (op, seq, kind, name, args, due, state, result, attempts, key) = row?;
        out.push(OpRow {
            session: session.to_string(),
            id: u(op),
            seq: u(seq),
            kind,
            name,
            args: serde_json::from_str(&args).unwrap_or(Value::Null),
            due_time_ms: due.map(u),
            state: OpState::from_name(&state).unwrap_or(OpState::Cancelled),
            result: parse_result(result),
            attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
            idempotency_key: key,
        });
    }
    Ok(out)
}

pub(super) fn resolve(
    conn: &Conn<'_>,
    session: &str,
    op: u64,
    result: &OpResult,
    now: u64,
) -> StoreResult<ResolveOutcome> {
    let c = conn.connection();
    let tx = Transaction::new_unchecked(c, TransactionBehavior::Immediate)?;
    let row: Option<(String, String, Option<String>)> = tx
        .query_row(
            "SELECT kind, state, result FROM server_ops WHERE session = ?1 AND op = ?2",
            params![session, i(op)],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
    let Some((kind, state, stored)) = row else {
        if super::read_session_row(&tx, session)?.is_none() {
            return Err(StoreError::NotFound { what: "session", id: session.to_string() });
        }
        return Err(StoreError::NotFound { what: "operation", id: format!("{session}/{op}") });
    };
    let row = ResolveRow { kind, state, stored: parse_result(stored) };
    if decide_resolve(session, op, &row, result)? == ResolveOutcome::Duplicate {
        return Ok(ResolveOutcome::Duplicate);
    }
    tx.execute(
        "UPDATE server_ops SET state = 'completed', result = ?3, claim_id = NULL, claim_expires = ?4 \
         WHERE session = ?1 AND op = ?2",
        params![session, i(op), result_text(result), i(now)],
    )?;
    tx.commit()?;
    Ok(ResolveOutcome::Accepted)
}

pub(super) fn claim(conn: &Conn<'_>, names: &[String], limit: usize, now: u64) -> StoreResult<Vec<Claim>> {
    let c = conn.connection();
    let tx = Transaction::new_unchecked(c, TransactionBehavior::Immediate)?;
    let names_json = serde_json::to_string(names).unwrap_or_else(|_| "[]".into());
    let candidates: Vec<(String, i64, String, String, i64, i64, String)> = {
        let mut stmt = tx.prepare_cached(
            // Fair share between tenants: the tenants take turns, each in its own order (the
            // PostgreSQL backend's rule; here the immediate transaction is the only writer).
            "SELECT session, op, name, args, attempts, timeout_ms, idempotency_key FROM ( \
                 SELECT o.session, o.op, o.name, o.args, o.attempts, o.timeout_ms, o.idempotency_key, \
                     o.not_before, s.ord, ROW_NUMBER() OVER ( \
                         PARTITION BY s.tenant ORDER BY o.not_before, s.ord, o.op) AS turn \
                 FROM server_ops o JOIN server_sessions s ON s.id = o.session \
                 WHERE o.kind = 'call' AND s.status = 'suspended' AND s.cancel_requested = 0 \
                 AND ((o.state = 'pending' AND o.not_before <= ?1) OR (o.state = 'claimed' AND o.claim_expires < ?1)) \
                 AND (json_array_length(?2) = 0 OR o.name IN (SELECT value FROM json_each(?2))) \
             ) ORDER BY turn, not_before, ord, op LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![i(now), names_json, i(limit as u64)], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut claims = Vec::with_capacity(candidates.len());
    for (session, op, name, args, attempts, timeout_ms, key) in candidates {
        let attempt = u32::try_from(attempts + 1).unwrap_or(u32::MAX);
        let id = claim_id(&session, u(op), attempt);
        let expires = now.saturating_add(u(timeout_ms));
        tx.execute(
            "UPDATE server_ops SET state = 'claimed', attempts = ?3, claim_id = ?4, claim_expires = ?5 \
             WHERE session = ?1 AND op = ?2",
            params![session, op, i64::from(attempt), id, i(expires)],
        )?;
        claims.push(Claim {
            id,
            session,
            op: u(op),
            name,
            args: serde_json::from_str(&args).unwrap_or(Value::Null),
            idempotency_key: key,
            attempt,
            claim_expires_ms: expires,
        });
    }
    tx.commit()?;
    Ok(claims)
}

pub(super) fn complete_claim(conn: &Conn<'_>, claim: &str, result: &OpResult, now: u64) -> StoreResult<ClaimOutcome> {
    let (session, op) = parse_claim(claim)?;
    let c = conn.connection();
    let tx = Transaction::new_unchecked(c, TransactionBehavior::Immediate)?;
    type Row = (String, Option<String>, Option<i64>, Option<String>, Option<String>, i64, i64, i64);
    let row: Option<Row> = tx
        .query_row(
            "SELECT state, claim_id, claim_expires, result, failed_claim, attempts, max_attempts, backoff_ms \
             FROM server_ops WHERE session = ?1 AND op = ?2",
            params![session, i(op)],
            |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                    row.get(7)?,
                ))
            },
        )
        .optional()?;
    let Some((state, current, expires, stored, failed_claim, attempts, max_attempts, backoff_ms)) = row else {
        return Err(StoreError::NotFound { what: "claim", id: claim.to_string() });
    };
    let row = ClaimRow {
        state,
        current,
        expires_ms: expires.map(u),
        stored: parse_result(stored),
        failed_claim,
        attempts: u(attempts),
        max_attempts: u(max_attempts),
        backoff_ms: u(backoff_ms),
    };
    let outcome = match decide_claim(claim, &row, result, now)? {
        ClaimDecision::Duplicate => return Ok(ClaimOutcome::Duplicate),
        ClaimDecision::Retry(at) => {
            tx.execute(
                "UPDATE server_ops SET state = 'pending', claim_id = NULL, claim_expires = NULL, failed_claim = ?3, \
                 not_before = ?4 WHERE session = ?1 AND op = ?2",
                params![session, i(op), claim, i(at)],
            )?;
            ClaimOutcome::Retrying(at)
        }
        ClaimDecision::Complete => {
            tx.execute(
                "UPDATE server_ops SET state = 'completed', result = ?3, claim_expires = ?4 \
                 WHERE session = ?1 AND op = ?2",
                params![session, i(op), result_text(result), i(now)],
            )?;
            ClaimOutcome::Completed
        }
    };
    tx.commit()?;
    Ok(outcome)
}

/// Inserts the operations the VM lists that the table lacks, marks those it no longer lists
/// delivered (the journal has their results), and, for a finished session, cancels the rest.
pub(super) fn reconcile(tx: &Transaction<'_>, session: &str, end: &crate::SliceEnd<'_>) -> StoreResult<()> {
    let listed: Vec<i64> = end.pending.iter().map(|op| i(op.id)).collect();
    let listed_json = serde_json::to_string(&listed).unwrap_or_else(|_| "[]".into());
    tx.execute(
        "UPDATE server_ops SET state = 'delivered' WHERE session = ?1 AND state IN ('pending', 'claimed', 'completed') \
         AND op NOT IN (SELECT value FROM json_each(?2))",
        params![session, listed_json],
    )?;
    for op in end.pending {
        let policy = (end.policy)(&op.name);
        tx.execute(
            "INSERT OR IGNORE INTO server_ops (session, op, seq, kind, name, args, due, state, timeout_ms, \
             max_attempts, backoff_ms, idempotency_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8, ?9, ?10, ?11)",
            params![
                session,
                i(op.id),
                i(op.seq),
                op.kind.name(),
                op.name,
                op.args.to_string(),
                op.due_time_ms.map(i),
                i(policy.timeout_ms),
                i64::from(policy.max_attempts.max(1)),
                i(policy.backoff_ms),
                (end.key)(op),
            ],
        )?;
    }
    if end.status.is_final() {
        tx.execute(
            "UPDATE server_ops SET state = 'cancelled', claim_id = NULL WHERE session = ?1 \
             AND state IN ('pending', 'claimed', 'completed')",
            params![session],
        )?;
    }
    Ok(())
}
