//! The HTTP API (docs/server.md, docs/openapi.yaml). Every route answers JSON; every error is
//! `{"error": {"code", "message"}}` with a 4xx status for anything the client can fix, never a
//! panic. Store calls run on tokio's blocking pool.

mod ops;
mod programs;
mod sessions;
mod upgrade;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::auth::Role;
use crate::Shared;

/// The routes, as `(method, path)`: what docs/openapi.yaml must list (a test checks).
pub const ROUTES: &[(&str, &str)] = &[
    ("get", "/healthz"),
    ("get", "/metrics"),
    ("post", "/v1/programs"),
    ("get", "/v1/programs/{id}"),
    ("post", "/v1/sessions"),
    ("get", "/v1/sessions"),
    ("get", "/v1/sessions/{id}"),
    ("get", "/v1/sessions/{id}/output"),
    ("get", "/v1/sessions/{id}/events"),
    ("get", "/v1/sessions/{id}/journal"),
    ("get", "/v1/sessions/{id}/export"),
    ("post", "/v1/sessions/{id}/ops/{op}/resolve"),
    ("post", "/v1/sessions/{id}/ops/{op}/reject"),
    ("post", "/v1/sessions/{id}/ops/{op}/approve"),
    ("post", "/v1/sessions/{id}/ops/{op}/deny"),
    ("post", "/v1/sessions/{id}/input"),
    ("post", "/v1/sessions/{id}/cancel"),
    ("post", "/v1/sessions/{id}/upgrade"),
    ("post", "/v1/ops/claim"),
    ("post", "/v1/ops/{id}/complete"),
    ("post", "/v1/ops/{id}/fail"),
];

pub(crate) type AppState = State<Arc<Shared>>;

/// An API error: status, machine-readable code, message, and for some codes a `details`
/// object (an upgrade's divergence: where and what).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    details: Option<Value>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), details: None }
    }
    pub(crate) fn with_details(self, details: Value) -> ApiError {
        ApiError { details: Some(details), ..self }
    }
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": { "code": self.code, "message": self.message } });
        if let Some(details) = self.details {
            body["error"]["details"] = details;
        }
        (self.status, Json(body)).into_response()
    }
}

impl From<amber_store::StoreError> for ApiError {
    fn from(e: amber_store::StoreError) -> Self {
        use amber_store::StoreError as E;
        match &e {
            E::NotFound { .. } => ApiError::not_found(e.to_string()),
            E::Conflict(_) => ApiError::new(StatusCode::CONFLICT, "conflict", e.to_string()),
            E::Invalid(_) => ApiError::bad_request(e.to_string()),
            E::Busy(_) => ApiError::new(StatusCode::CONFLICT, "busy", e.to_string()),
            E::LeaseLost(_) | E::AtLimit(_) => ApiError::new(StatusCode::CONFLICT, "busy", e.to_string()),
            E::Durable(_) | E::Database(_) => {
                tracing::error!(error = %e, "store failure");
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "store_unavailable", e.to_string())
            }
        }
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// Runs a blocking store call off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::internal(format!("store call failed: {e}")))?
}

/// What a route needs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// Programs and sessions: a tenant or admin token.
    Client,
    /// Tool-worker routes: a worker or admin token.
    Worker,
    /// Any valid token (metrics).
    Any,
}

/// The caller's role: from its bearer token, or admin when the server has no tokens.
pub(crate) fn authorize(shared: &Shared, headers: &HeaderMap, need: Need) -> ApiResult<Role> {
    let Some(tokens) = &shared.tokens else { return Ok(Role::Admin) };
    let presented = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", "a bearer token is required"))?;
    let role = tokens
        .role_of(presented.trim())
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", "unknown token"))?;
    let allowed = matches!(
        (need, &role),
        (_, Role::Admin) | (Need::Any, _) | (Need::Client, Role::Tenant(_)) | (Need::Worker, Role::Worker)
    );
    if !allowed {
        return Err(ApiError::new(StatusCode::FORBIDDEN, "forbidden", "this token may not use this route"));
    }
    Ok(role)
}

/// The request body, at most `limit` bytes (413 beyond, without reading the rest).
pub(crate) async fn read_body(body: Body, limit: usize) -> ApiResult<Vec<u8>> {
    use futures_util::StreamExt as _;
    let too_large =
        || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", format!("the body exceeds {limit} bytes"));
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request(format!("reading the body: {e}")))?;
        if bytes.len() + chunk.len() > limit {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The body as a JSON object (400 with the parser's message otherwise).
pub(crate) async fn read_json(body: Body, limit: usize) -> ApiResult<Value> {
    let bytes = read_body(body, limit).await?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    }
    Ok(value)
}

async fn healthz() -> Json<Value> {
    Json(json!({ "ok": true }))
}

async fn metrics(State(shared): AppState, headers: HeaderMap) -> ApiResult<Response> {
    authorize(&shared, &headers, Need::Any)?;
    let store = shared.store.clone();
    let counts = blocking(move || Ok(store.counts()?)).await?;
    let text = shared.metrics.render(&counts, shared.scheduler.queue_depth());
    Ok(([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response())
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such route")
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        // Multipart uploads are bounded by the bundle limit (the form reader counts too).
        .route("/v1/programs", post(programs::deploy).layer(axum::extract::DefaultBodyLimit::max(shared.max_bundle)))
        .route("/v1/programs/{id}", get(programs::show))
        .route("/v1/sessions", post(sessions::create).get(sessions::list))
        .route("/v1/sessions/{id}", get(sessions::show))
        .route("/v1/sessions/{id}/output", get(sessions::output))
        .route("/v1/sessions/{id}/events", get(sessions::events))
        .route("/v1/sessions/{id}/journal", get(sessions::journal))
        .route("/v1/sessions/{id}/export", get(sessions::export))
        .route("/v1/sessions/{id}/ops/{op}/resolve", post(sessions::resolve))
        .route("/v1/sessions/{id}/ops/{op}/reject", post(sessions::reject))
        .route("/v1/sessions/{id}/ops/{op}/approve", post(sessions::approve))
        .route("/v1/sessions/{id}/ops/{op}/deny", post(sessions::deny))
        .route("/v1/sessions/{id}/input", post(sessions::input))
        .route("/v1/sessions/{id}/cancel", post(sessions::cancel))
        .route("/v1/sessions/{id}/upgrade", post(upgrade::upgrade))
        .route("/v1/ops/claim", post(ops::claim))
        .route("/v1/ops/{id}/complete", post(ops::complete))
        .route("/v1/ops/{id}/fail", post(ops::fail))
        .fallback(not_found)
        .with_state(shared)
}

/// Serves the API on `addr` until SIGTERM or SIGINT.
pub(crate) async fn listen(
    shared: Arc<Shared>,
    addr: SocketAddr,
    on_listening: Option<Box<dyn FnOnce(SocketAddr) + Send>>,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    if shared.tokens.is_none() {
        tracing::warn!("no --token-file: listening on loopback only, without authentication");
    }
    tracing::info!(address = %bound, "amber serve listening");
    if let Some(callback) = on_listening {
        callback(bound);
    }
    let stopping = shared.clone();
    axum::serve(listener, router(shared))
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            tracing::info!("shutting down: no new slices; running slices finish and commit");
            stopping.scheduler.shutdown();
            stopping.ops_available.notify_waiters();
        })
        .await
        .map_err(|e| format!("serving: {e}"))
}

async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate => {}
    }
}
