//! Operations in PostgreSQL: results from the API, claims by tool workers (`FOR UPDATE SKIP
//! LOCKED`, so servers claiming at once never hand out one operation twice and never wait on
//! each other's rows), retries. What each request means is decided in [`crate::rules`].

use postgres::GenericClient;
use serde_json::Value;

use crate::rules::{
    claim_id, decide_claim, decide_resolve, parse_claim, parse_result, result_text, ClaimDecision, ClaimRow, ResolveRow,
};
use crate::types::*;
use crate::{to_i64, to_u64, SliceEnd};

pub(super) fn session_ops(c: &mut impl GenericClient, session: &str) -> StoreResult<Vec<OpRow>> {
    let rows = c.query(
        "SELECT op, seq, kind, name, args, due, state, result, attempts, idempotency_key FROM server_ops \
         WHERE session = $1 ORDER BY op",
        &[&session],
    )?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let args: String = row.get(4);
            let state: String = row.get(6);
            OpRow {
                session: session.to_string(),
                id: to_u64(row.get(0)),
                seq: to_u64(row.get(1)),
                kind: row.get(2),
                name: row.get(3),
                args: serde_json::from_str(&args).unwrap_or(Value::Null),
                due_time_ms: row.get::<_, Option<i64>>(5).map(to_u64),
                state: OpState::from_name(&state).unwrap_or(OpState::Cancelled),
                result: parse_result(row.get(7)),
                attempts: u32::try_from(row.get::<_, i64>(8)).unwrap_or(u32::MAX),
                idempotency_key: row.get(9),
            }
        })
        .collect())
}

pub(super) fn resolve(
    c: &mut impl GenericClient,
    session: &str,
    op: u64,
    result: &OpResult,
    now: u64,
) -> StoreResult<ResolveOutcome> {
    let mut tx = c.transaction()?;
    let row = tx.query_opt(
        "SELECT kind, state, result FROM server_ops WHERE session = $1 AND op = $2 FOR UPDATE",
        &[&session, &to_i64(op)],
    )?;
    let Some(row) = row else {
        if tx.query_opt("SELECT 1 FROM server_sessions WHERE id = $1", &[&session])?.is_none() {
            return Err(StoreError::NotFound { what: "session", id: session.to_string() });
        }
        return Err(StoreError::NotFound { what: "operation", id: format!("{session}/{op}") });
    };
    let judged = ResolveRow { kind: row.get(0), state: row.get(1), stored: parse_result(row.get(2)) };
    if decide_resolve(session, op, &judged, result)? == ResolveOutcome::Duplicate {
        return Ok(ResolveOutcome::Duplicate);
    }
    tx.execute(
        "UPDATE server_ops SET state = 'completed', result = $3, claim_id = NULL, claim_expires = $4 \
         WHERE session = $1 AND op = $2",
        &[&session, &to_i64(op), &result_text(result), &to_i64(now)],
    )?;
    super::notify_work(&mut tx, session)?;
    tx.commit()?;
    Ok(ResolveOutcome::Accepted)
}

pub(super) fn claim(c: &mut impl GenericClient, names: &[String], limit: usize, now: u64) -> StoreResult<Vec<Claim>> {
    let mut tx = c.transaction()?;
    // Fair share between tenants: each tenant's claimable calls in their own order, the
    // tenants taking turns (every tenant's first call, then every second one, …). The inner
    // query ranks (a window function cannot sit under FOR UPDATE); the outer one locks and
    // checks claimability again on the row it locked, since another worker's claim may have
    // committed in between (READ COMMITTED re-evaluates the outer WHERE on the new version).
    let rows = tx.query(
        "SELECT o.session, o.op, o.name, o.args, o.attempts, o.timeout_ms, o.idempotency_key \
         FROM server_ops o WHERE (o.session, o.op) IN ( \
             SELECT session, op FROM ( \
                 SELECT o.session, o.op, o.not_before, s.ord, ROW_NUMBER() OVER ( \
                     PARTITION BY s.tenant ORDER BY o.not_before, s.ord, o.op) AS turn \
                 FROM server_ops o JOIN server_sessions s ON s.id = o.session \
                 WHERE o.kind = 'call' AND s.status = 'suspended' AND NOT s.cancel_requested \
                 AND ((o.state = 'pending' AND o.not_before <= $1) OR (o.state = 'claimed' AND o.claim_expires < $1)) \
                 AND (cardinality($2::text[]) = 0 OR o.name = ANY($2::text[])) \
             ) ranked ORDER BY turn, not_before, ord, op LIMIT $3) \
         AND ((o.state = 'pending' AND o.not_before <= $1) OR (o.state = 'claimed' AND o.claim_expires < $1)) \
         ORDER BY o.not_before, o.session, o.op FOR UPDATE OF o SKIP LOCKED",
        &[&to_i64(now), &names, &to_i64(limit as u64)],
    )?;
    let mut claims = Vec::with_capacity(rows.len());
    for row in rows {
        let session: String = row.get(0);
        let op = to_u64(row.get(1));
        let attempt = u32::try_from(row.get::<_, i64>(4) + 1).unwrap_or(u32::MAX);
        let id = claim_id(&session, op, attempt);
        let expires = now.saturating_add(to_u64(row.get(5)));
        tx.execute(
            "UPDATE server_ops SET state = 'claimed', attempts = $3, claim_id = $4, claim_expires = $5 \
             WHERE session = $1 AND op = $2",
            &[&session, &to_i64(op), &i64::from(attempt), &id, &to_i64(expires)],
        )?;
        let args: String = row.get(3);
        claims.push(Claim {
            id,
            session,
            op,
            name: row.get(2),
            args: serde_json::from_str(&args).unwrap_or(Value::Null),
            idempotency_key: row.get(6),
            attempt,
            claim_expires_ms: expires,
        });
    }
    tx.commit()?;
    Ok(claims)
}

pub(super) fn complete_claim(
    c: &mut impl GenericClient,
    claim: &str,
    result: &OpResult,
    now: u64,
) -> StoreResult<ClaimOutcome> {
    let (session, op) = parse_claim(claim)?;
    let mut tx = c.transaction()?;
    let row = tx.query_opt(
        "SELECT state, claim_id, claim_expires, result, failed_claim, attempts, max_attempts, backoff_ms \
         FROM server_ops WHERE session = $1 AND op = $2 FOR UPDATE",
        &[&session, &to_i64(op)],
    )?;
    let Some(row) = row else {
        return Err(StoreError::NotFound { what: "claim", id: claim.to_string() });
    };
    let judged = ClaimRow {
        state: row.get(0),
        current: row.get(1),
        expires_ms: row.get::<_, Option<i64>>(2).map(to_u64),
        stored: parse_result(row.get(3)),
        failed_claim: row.get(4),
        attempts: to_u64(row.get(5)),
        max_attempts: to_u64(row.get(6)),
        backoff_ms: to_u64(row.get(7)),
    };
    let outcome = match decide_claim(claim, &judged, result, now)? {
        ClaimDecision::Duplicate => return Ok(ClaimOutcome::Duplicate),
        ClaimDecision::Retry(at) => {
            tx.execute(
                "UPDATE server_ops SET state = 'pending', claim_id = NULL, claim_expires = NULL, failed_claim = $3, \
                 not_before = $4 WHERE session = $1 AND op = $2",
                &[&session, &to_i64(op), &claim, &to_i64(at)],
            )?;
            ClaimOutcome::Retrying(at)
        }
        ClaimDecision::Complete => {
            tx.execute(
                "UPDATE server_ops SET state = 'completed', result = $3, claim_expires = $4 \
                 WHERE session = $1 AND op = $2",
                &[&session, &to_i64(op), &result_text(result), &to_i64(now)],
            )?;
            super::notify_work(&mut tx, &session)?;
            ClaimOutcome::Completed
        }
    };
    tx.commit()?;
    Ok(outcome)
}

/// Inserts the operations the VM lists that the table lacks, marks those it no longer lists
/// delivered (the journal has their results), and, for a finished session, cancels the rest.
pub(super) fn reconcile(c: &mut impl GenericClient, session: &str, end: &SliceEnd<'_>) -> StoreResult<()> {
    let listed: Vec<i64> = end.pending.iter().map(|op| to_i64(op.id)).collect();
    c.execute(
        "UPDATE server_ops SET state = 'delivered' WHERE session = $1 AND state IN ('pending', 'claimed', 'completed') \
         AND NOT (op = ANY($2::bigint[]))",
        &[&session, &listed],
    )?;
    for op in end.pending {
        let policy = (end.policy)(&op.name);
        c.execute(
            "INSERT INTO server_ops (session, op, seq, kind, name, args, due, state, timeout_ms, max_attempts, \
             backoff_ms, idempotency_key) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11) \
             ON CONFLICT (session, op) DO NOTHING",
            &[
                &session,
                &to_i64(op.id),
                &to_i64(op.seq),
                &op.kind.name(),
                &op.name,
                &op.args.to_string(),
                &op.due_time_ms.map(to_i64),
                &to_i64(policy.timeout_ms),
                &i64::from(policy.max_attempts.max(1)),
                &to_i64(policy.backoff_ms),
                &(end.key)(op),
            ],
        )?;
    }
    if end.status.is_final() {
        c.execute(
            "UPDATE server_ops SET state = 'cancelled', claim_id = NULL WHERE session = $1 \
             AND state IN ('pending', 'claimed', 'completed')",
            &[&session],
        )?;
    }
    Ok(())
}
