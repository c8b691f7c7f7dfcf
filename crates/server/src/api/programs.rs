//! `POST /v1/programs` (a tar or tar.gz bundle of a program folder) and `GET /v1/programs/{id}`.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde_json::{json, Value};

use super::{authorize, blocking, read_body, ApiError, ApiResult, AppState, Need};
use crate::bundle;

pub async fn deploy(State(shared): AppState, headers: HeaderMap, body: Body) -> ApiResult<(StatusCode, Json<Value>)> {
    authorize(&shared, &headers, Need::Client)?;
    let bytes = read_body(body, shared.max_bundle).await?;
    let max = shared.max_bundle;
    let store = shared.store.clone();
    let store_dir = shared.store_dir.clone();
    let manifest = blocking(move || {
        let files = bundle::unpack(&bytes, max).map_err(ApiError::bad_request)?;
        let manifest = store.put_program(&files)?;
        bundle::materialize(store.as_ref(), &store_dir, &manifest).map_err(ApiError::internal)?;
        Ok(manifest)
    })
    .await?;
    tracing::info!(program = %manifest.id, files = manifest.files.len(), "program deployed");
    let body = json!({ "id": manifest.id, "files": manifest.files.len(), "created_ms": manifest.created_ms });
    Ok((StatusCode::CREATED, Json(body)))
}

pub async fn show(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    authorize(&shared, &headers, Need::Client)?;
    let store = shared.store.clone();
    let manifest =
        blocking(move || store.program(&id)?.ok_or_else(|| ApiError::not_found(format!("no program {id:?}")))).await?;
    Ok(Json(serde_json::to_value(manifest).unwrap_or(Value::Null)))
}
