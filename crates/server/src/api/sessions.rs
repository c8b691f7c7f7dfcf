//! Session routes: create, list, show, output, events, journal, export, results, input, cancel.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;

use amber_store::{OpRow, OpState, ResolveOutcome, ServerStatus, SessionFilter, SessionRow, SessionSpec, Store};
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::{authorize, blocking, read_json, ApiError, ApiResult, AppState, Need};
use crate::auth::Role;
use crate::Shared;

/// Sessions listed per page at most.
const MAX_PAGE: usize = 1_000;

/// The session document: `id`, `status`, `pending` (as `amber inspect --json` lists
/// operations, with their state), the outcome of a finished session, and what it runs.
fn document(row: &SessionRow, ops: &[OpRow]) -> Value {
    let pending: Vec<Value> = ops
        .iter()
        .filter(|op| matches!(op.state, OpState::Pending | OpState::Claimed | OpState::Completed))
        .map(|op| {
            json!({
                "id": op.id, "seq": op.seq, "kind": op.kind, "name": op.name, "args": op.args,
                "due_time_ms": op.due_time_ms, "state": op.state, "attempts": op.attempts,
            })
        })
        .collect();
    let mut doc = json!({
        "id": row.id,
        "status": row.status,
        "pending": pending,
        "program": row.spec.program,
        "entry": row.spec.entry,
        "tenant": row.spec.tenant,
        "created_ms": row.created_ms,
        "updated_ms": row.updated_ms,
        "cursor": row.order.to_string(),
    });
    if let (Some(outcome), Some(map)) = (&row.outcome, doc.as_object_mut()) {
        if let Some(value) = outcome.get("value") {
            map.insert("result".into(), value.clone());
        }
        for key in ["error", "exit_code"] {
            if let Some(value) = outcome.get(key) {
                map.insert(key.into(), value.clone());
            }
        }
    }
    doc
}

/// The session `id` as `role` may see it (another tenant's session is "not found").
pub(crate) fn visible(store: &dyn Store, role: &Role, id: &str) -> ApiResult<SessionRow> {
    let row = store.session(id)?.ok_or_else(|| ApiError::not_found(format!("no session {id:?}")))?;
    if let Role::Tenant(tenant) = role {
        if row.spec.tenant != *tenant {
            return Err(ApiError::not_found(format!("no session {id:?}")));
        }
    }
    Ok(row)
}

fn checked_spec(store: &dyn Store, mut body: Value, role: &Role) -> ApiResult<(Option<String>, SessionSpec)> {
    let map = body.as_object_mut().ok_or_else(|| ApiError::bad_request("the body must be a JSON object"))?;
    let id = match map.remove("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id),
        Some(_) => return Err(ApiError::bad_request("\"id\" must be a string")),
    };
    let mut spec: SessionSpec =
        serde_json::from_value(body).map_err(|e| ApiError::bad_request(format!("session: {e}")))?;
    if let Role::Tenant(tenant) = role {
        spec.tenant = tenant.clone();
    }
    if spec.tenant.is_empty() || spec.tenant.len() > 128 {
        return Err(ApiError::bad_request("\"tenant\" must be 1 to 128 characters"));
    }
    let program = store
        .program(&spec.program)?
        .ok_or_else(|| ApiError::not_found(format!("no program {:?} (deploy it first)", spec.program)))?;
    if !program.files.iter().any(|f| f.path == spec.entry) {
        return Err(ApiError::bad_request(format!("program {} has no file {:?}", spec.program, spec.entry)));
    }
    crate::worker::session_policy(&spec).map_err(ApiError::bad_request)?;
    amber::net::NetPolicy::parse(spec.allow_net.iter().map(String::as_str))
        .map_err(|e| ApiError::bad_request(format!("allow_net: {e}")))?;
    if let Some(tz) = spec.time_zone.as_deref().filter(|tz| !amber::engine::builtins::temporal::is_time_zone(tz)) {
        return Err(ApiError::bad_request(format!("time_zone {tz:?} is not a time zone")));
    }
    if let Some(tag) = spec.locale.as_deref().filter(|tag| !amber::engine::builtins::intl::is_locale(tag)) {
        return Err(ApiError::bad_request(format!("locale {tag:?} is not a locale")));
    }
    if let Some(name) = spec.secrets.iter().find(|name| std::env::var(name.as_str()).is_err()) {
        return Err(ApiError::bad_request(format!("the secret {name} is not in the server's environment")));
    }
    if let Some(name) = spec.secrets.iter().find(|name| spec.env.contains_key(name.as_str())) {
        return Err(ApiError::bad_request(format!("{name} is given both in env and as a secret")));
    }
    Ok((id, spec))
}

pub async fn create(State(shared): AppState, headers: HeaderMap, body: Body) -> ApiResult<(StatusCode, Json<Value>)> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let body = read_json(body, shared.max_body).await?;
    if shared.scheduler.full() {
        return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, "queue_full", "the run queue is full; retry later"));
    }
    let store = shared.store.clone();
    let (row, created) = blocking(move || {
        let (id, spec) = checked_spec(store.as_ref(), body, &role)?;
        Ok(store.create_session(id.as_deref(), &spec)?)
    })
    .await?;
    if created {
        shared.scheduler.wake(&row.id, &row.spec.tenant);
        shared.events.publish(&row.id, "status", json!({ "status": "queued" }));
    }
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(document(&row, &[]))))
}

pub async fn list(
    State(shared): AppState,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let mut filter = SessionFilter { limit: 100, ..Default::default() };
    for (key, value) in &query {
        match key.as_str() {
            "status" => {
                filter.status = Some(
                    ServerStatus::from_name(value)
                        .ok_or_else(|| ApiError::bad_request(format!("unknown status {value:?}")))?,
                )
            }
            "tenant" => filter.tenant = Some(value.clone()),
            "program" => filter.program = Some(value.clone()),
            "cursor" => {
                filter.after = Some(value.parse().map_err(|_| ApiError::bad_request(format!("bad cursor {value:?}")))?)
            }
            "limit" => {
                filter.limit = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_PAGE).contains(n))
                    .ok_or_else(|| ApiError::bad_request(format!("limit must be 1 to {MAX_PAGE}")))?
            }
            other => return Err(ApiError::bad_request(format!("unknown query parameter {other:?}"))),
        }
    }
    if let Role::Tenant(tenant) = &role {
        filter.tenant = Some(tenant.clone());
    }
    let store = shared.store.clone();
    let limit = filter.limit;
    let rows = blocking(move || Ok(store.list_sessions(&filter)?)).await?;
    let next = (rows.len() == limit).then(|| rows.last().map(|r| r.order.to_string())).flatten();
    let sessions: Vec<Value> = rows.iter().map(|row| document(row, &[])).collect();
    Ok(Json(json!({ "sessions": sessions, "next_cursor": next })))
}

async fn load(shared: &Arc<Shared>, role: Role, id: String) -> ApiResult<(SessionRow, Vec<OpRow>)> {
    let store = shared.store.clone();
    blocking(move || {
        let row = visible(store.as_ref(), &role, &id)?;
        let ops = store.session_ops(&id)?;
        Ok((row, ops))
    })
    .await
}

pub async fn show(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let (row, ops) = load(&shared, role, id).await?;
    Ok(Json(document(&row, &ops)))
}

pub async fn output(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<BTreeMap<String, String>>,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let offset: u64 = match query.get("offset") {
        Some(v) => v.parse().map_err(|_| ApiError::bad_request(format!("bad offset {v:?}")))?,
        None => 0,
    };
    let store = shared.store.clone();
    let chunks = blocking(move || {
        visible(store.as_ref(), &role, &id)?;
        Ok(store.output(&id, offset, 100_000)?)
    })
    .await?;
    let (mut stdout, mut stderr) = (String::new(), String::new());
    for chunk in &chunks {
        let target = match chunk.stream {
            amber::durable::store::OutputStream::Stdout => &mut stdout,
            amber::durable::store::OutputStream::Stderr => &mut stderr,
        };
        target.push_str(&chunk.text);
        target.push('\n');
    }
    Ok(Json(json!({ "stdout": stdout, "stderr": stderr, "offset": offset + chunks.len() as u64 })))
}

pub async fn events(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl futures_util::Stream<Item = Result<SseEvent, Infallible>>>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let receiver = shared.events.subscribe();
    let (row, ops) = load(&shared, role, id.clone()).await?;
    let first = SseEvent::default().event("status").data(document(&row, &ops).to_string());
    let stream = futures_util::stream::unfold((Some(first), receiver, id), |(first, mut receiver, id)| async move {
        if let Some(first) = first {
            return Some((Ok(first), (None, receiver, id)));
        }
        loop {
            match receiver.recv().await {
                Ok(event) if event.session == id => {
                    let sse = SseEvent::default().event(event.kind).data(event.data.to_string());
                    return Some((Ok(sse), (None, receiver, id)));
                }
                Ok(_) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    let sse = SseEvent::default().event("lagged").data(json!({ "missed": n }).to_string());
                    return Some((Ok(sse), (None, receiver, id)));
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

pub async fn journal(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let store = shared.store.clone();
    let records = blocking(move || {
        visible(store.as_ref(), &role, &id)?;
        Ok(store.journal(&id)?)
    })
    .await?;
    let records: Vec<Value> = records.iter().map(|r| r.to_json()).collect();
    Ok(Json(json!({ "records": records })))
}

pub async fn export(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Response> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let store = shared.store.clone();
    let bytes = blocking(move || {
        visible(store.as_ref(), &role, &id)?;
        Ok(store.export(&id)?)
    })
    .await?;
    Ok(([(axum::http::header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response())
}

/// Stores a result for operation `op` and wakes the session.
async fn answer(
    shared: Arc<Shared>,
    role: Role,
    id: String,
    op: u64,
    result: amber_store::OpResult,
) -> ApiResult<Json<Value>> {
    let store = shared.store.clone();
    let (row, outcome) = {
        let id = id.clone();
        blocking(move || {
            let row = visible(store.as_ref(), &role, &id)?;
            let outcome = store.resolve_op(&id, op, &result, amber::wall_clock_ms())?;
            Ok((row, outcome))
        })
        .await?
    };
    if outcome == ResolveOutcome::Accepted {
        shared.metrics.result_arrived(&id);
        shared.events.publish(&id, "op.completed", json!({ "id": op }));
        shared.scheduler.wake(&id, &row.spec.tenant);
    }
    Ok(Json(
        json!({ "accepted": outcome == ResolveOutcome::Accepted, "duplicate": outcome == ResolveOutcome::Duplicate }),
    ))
}

fn op_id(text: &str) -> ApiResult<u64> {
    text.parse().map_err(|_| ApiError::bad_request(format!("{text:?} is not an operation id")))
}

pub async fn resolve(
    State(shared): AppState,
    headers: HeaderMap,
    Path((id, op)): Path<(String, String)>,
    body: Body,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let op = op_id(&op)?;
    let body = read_json(body, shared.max_body).await?;
    let result = body.get("result").cloned().ok_or_else(|| ApiError::bad_request("expected {\"result\": <json>}"))?;
    answer(shared, role, id, op, amber_store::OpResult::Result(result)).await
}

pub async fn reject(
    State(shared): AppState,
    headers: HeaderMap,
    Path((id, op)): Path<(String, String)>,
    body: Body,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let op = op_id(&op)?;
    let body = read_json(body, shared.max_body).await?;
    let message = body
        .get("error")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_request("expected {\"error\": \"<message>\"}"))?;
    answer(shared, role, id, op, amber_store::OpResult::Error(message.to_string())).await
}

/// `POST /v1/sessions/{id}/ops/{op}/approve` `{"principal": "…"}`: approve a gated call.
pub async fn approve(
    State(shared): AppState,
    headers: HeaderMap,
    Path((id, op)): Path<(String, String)>,
    body: Body,
) -> ApiResult<Json<Value>> {
    decide(shared, headers, id, op, body, true).await
}

/// `POST /v1/sessions/{id}/ops/{op}/deny` `{"principal": "…", "reason": "…"}`.
pub async fn deny(
    State(shared): AppState,
    headers: HeaderMap,
    Path((id, op)): Path<(String, String)>,
    body: Body,
) -> ApiResult<Json<Value>> {
    decide(shared, headers, id, op, body, false).await
}

async fn decide(
    shared: Arc<Shared>,
    headers: HeaderMap,
    id: String,
    op: String,
    body: Body,
    approved: bool,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let op = op_id(&op)?;
    let body = read_json(body, shared.max_body).await?;
    let principal = body.get("principal").and_then(Value::as_str).filter(|p| !p.is_empty()).ok_or_else(|| {
        ApiError::bad_request("expected {\"principal\": \"<who decides>\"} (and for a denial \"reason\")")
    })?;
    let reason = match body.get("reason") {
        None | Some(Value::Null) => None,
        Some(Value::String(r)) => Some(r.clone()),
        Some(_) => return Err(ApiError::bad_request("\"reason\" must be a string")),
    };
    let decision = amber::grants::Decision {
        approved,
        principal: principal.to_string(),
        reason,
        decided_at_ms: amber::wall_clock_ms(),
    };
    answer(shared, role, id, op, amber_store::OpResult::Result(decision.to_json())).await
}

pub async fn input(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let body = read_json(body, shared.max_body).await?;
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_request("expected {\"text\": \"<answer>\"} (and optionally \"op\")"))?
        .to_string();
    let explicit = match body.get("op") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| ApiError::bad_request("\"op\" must be an operation id"))?),
    };
    let (_, ops) = load(&shared, role.clone(), id.clone()).await?;
    let op = match explicit {
        Some(op) => {
            if !ops.iter().any(|o| o.id == op && o.kind == "input") {
                return Err(ApiError::not_found(format!("session {id:?} has no input operation {op}")));
            }
            op
        }
        None => {
            ops.iter().find(|o| o.kind == "input" && o.state == OpState::Pending).map(|o| o.id).ok_or_else(|| {
                ApiError::new(StatusCode::CONFLICT, "conflict", format!("session {id:?} is not waiting on any input"))
            })?
        }
    };
    answer(shared, role, id, op, amber_store::OpResult::Result(Value::String(text))).await
}

pub async fn cancel(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let store = shared.store.clone();
    let (row, done) = {
        let id = id.clone();
        blocking(move || {
            let row = visible(store.as_ref(), &role, &id)?;
            let done = store.request_cancel(&id)?;
            Ok((row, done))
        })
        .await?
    };
    if done {
        shared.events.publish(&id, "status", json!({ "status": "cancelled" }));
        // No slice ends a session cancelled while it waited: its trace ends here.
        if let Some(exporter) = &shared.exporter {
            exporter.slice_ended(&id);
        }
    } else {
        // Running: its slice sees the request when it ends.
        shared.scheduler.wake(&id, &row.spec.tenant);
    }
    Ok(Json(json!({ "cancelled": done, "status": if done { "cancelled" } else { "cancelling" } })))
}
