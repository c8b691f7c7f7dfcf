//! Tool-worker routes (the pull model): claim call operations with a lease, complete or fail
//! them. A claim that expires goes to another worker; the old claim can no longer complete.

use std::sync::Arc;
use std::time::Duration;

use amber_store::{ClaimOutcome, OpResult};
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};

use super::{authorize, blocking, read_json, ApiError, ApiResult, AppState, Need};
use crate::Shared;

/// Longest long-poll.
const MAX_WAIT_MS: u64 = 60_000;
/// Most operations one claim returns.
const MAX_CLAIM: usize = 100;

pub async fn claim(State(shared): AppState, headers: HeaderMap, body: Body) -> ApiResult<Json<Value>> {
    authorize(&shared, &headers, Need::Worker)?;
    let body = read_json(body, shared.max_body).await?;
    let names: Vec<String> = match body.get("names") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| ApiError::bad_request("\"names\" must be strings")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ApiError::bad_request("\"names\" must be an array of operation names")),
    };
    let wait_ms = match body.get("wait_ms") {
        None | Some(Value::Null) => 0,
        Some(v) => v.as_u64().ok_or_else(|| ApiError::bad_request("\"wait_ms\" must be a number of ms"))?,
    }
    .min(MAX_WAIT_MS);
    let max = match body.get("max") {
        None | Some(Value::Null) => 1,
        Some(v) => usize::try_from(v.as_u64().unwrap_or(0))
            .ok()
            .filter(|n| (1..=MAX_CLAIM).contains(n))
            .ok_or_else(|| ApiError::bad_request(format!("\"max\" must be 1 to {MAX_CLAIM}")))?,
    };
    let deadline = tokio::time::Instant::now() + Duration::from_millis(wait_ms);
    loop {
        // Registered before the store is asked, so an operation issued in between wakes us
        // (`notify_waiters` wakes only futures already enabled).
        let notified = shared.ops_available.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if shared.scheduler.stopping() {
            return Ok(Json(json!({ "ops": [] })));
        }
        let store = shared.store.clone();
        let wanted = names.clone();
        let claims = blocking(move || Ok(store.claim_ops(&wanted, max, amber::wall_clock_ms())?)).await?;
        if !claims.is_empty() || tokio::time::Instant::now() >= deadline {
            shared.metrics.claims_total.fetch_add(claims.len() as u64, std::sync::atomic::Ordering::Relaxed);
            return Ok(Json(json!({ "ops": claims })));
        }
        // Claims can also become available by expiry, which nothing signals: look again at
        // least once a second.
        let nap = deadline.min(tokio::time::Instant::now() + Duration::from_secs(1));
        let _ = tokio::time::timeout_at(nap, notified).await;
    }
}

async fn finish_claim(shared: Arc<Shared>, id: String, result: OpResult) -> ApiResult<Json<Value>> {
    let store = shared.store.clone();
    let claim = id.clone();
    let outcome = blocking(move || Ok(store.complete_claim(&claim, &result, amber::wall_clock_ms())?)).await?;
    let session = id.rsplitn(3, ':').nth(2).unwrap_or_default().to_string();
    match outcome {
        ClaimOutcome::Completed => {
            let store = shared.store.clone();
            let s = session.clone();
            if let Ok(Some(row)) = blocking(move || Ok(store.session(&s)?)).await {
                shared.metrics.result_arrived(&session);
                shared.events.publish(&session, "op.completed", json!({ "claim": id }));
                shared.scheduler.wake(&session, &row.spec.tenant);
            }
            Ok(Json(json!({ "completed": true })))
        }
        ClaimOutcome::Retrying(at) => {
            shared.scheduler.add_retry_timer(at);
            Ok(Json(json!({ "completed": false, "retry_at_ms": at })))
        }
        ClaimOutcome::Duplicate => Ok(Json(json!({ "completed": true, "duplicate": true }))),
    }
}

pub async fn complete(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> ApiResult<Json<Value>> {
    authorize(&shared, &headers, Need::Worker)?;
    let body = read_json(body, shared.max_body).await?;
    let result = body.get("result").cloned().ok_or_else(|| ApiError::bad_request("expected {\"result\": <json>}"))?;
    finish_claim(shared, id, OpResult::Result(result)).await
}

pub async fn fail(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> ApiResult<Json<Value>> {
    authorize(&shared, &headers, Need::Worker)?;
    let body = read_json(body, shared.max_body).await?;
    let message = body
        .get("error")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_request("expected {\"error\": \"<message>\"}"))?
        .to_string();
    finish_claim(shared, id, OpResult::Error(message)).await
}
