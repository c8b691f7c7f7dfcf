//! `POST /v1/programs` (a tar or tar.gz bundle of a program folder, or a multipart form whose
//! file parts are the program's files, each named by its path) and `GET /v1/programs/{id}`.

use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde_json::{json, Value};

use super::{authorize, blocking, read_body, ApiError, ApiResult, AppState, Need};
use crate::bundle;

/// The files of a multipart upload: each part is a file, its path the part's filename (or, if
/// it has none, its field name); at most `max` bytes in all.
async fn multipart_files(request: Request, max: usize) -> ApiResult<Vec<(String, Vec<u8>)>> {
    let mut form = Multipart::from_request(request, &())
        .await
        .map_err(|e| ApiError::bad_request(format!("not a multipart form: {e}")))?;
    let mut files = Vec::new();
    let mut total = 0usize;
    loop {
        let field = form.next_field().await.map_err(|e| ApiError::bad_request(format!("multipart: {e}")))?;
        let Some(mut field) = field else { break };
        let path = field
            .file_name()
            .or(field.name())
            .map(str::to_string)
            .ok_or_else(|| ApiError::bad_request("a multipart part names no file"))?;
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(|e| ApiError::bad_request(format!("multipart: {e}")))? {
            total += chunk.len();
            if total > max {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    format!("the bundle exceeds {max} bytes"),
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        files.push((path.trim_start_matches("./").to_string(), bytes));
    }
    if files.is_empty() {
        return Err(ApiError::bad_request("the form holds no files"));
    }
    Ok(files)
}

pub async fn deploy(State(shared): AppState, request: Request) -> ApiResult<(StatusCode, Json<Value>)> {
    authorize(&shared, request.headers(), Need::Client)?;
    let max = shared.max_bundle;
    let multipart = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    // Either the files of a form, or the bytes of a tar to unpack off the async threads.
    let (files, tar) = if multipart {
        (Some(multipart_files(request, max).await?), Vec::new())
    } else {
        (None, read_body(request.into_body(), max).await?)
    };
    let store = shared.store.clone();
    let store_dir = shared.store_dir.clone();
    let manifest = blocking(move || {
        let files = match files {
            Some(files) => files,
            None => bundle::unpack(&tar, max).map_err(ApiError::bad_request)?,
        };
        check_manifest(&files)?;
        let manifest = store.put_program(&files)?;
        bundle::materialize(store.as_ref(), &store_dir, &manifest).map_err(ApiError::internal)?;
        Ok(manifest)
    })
    .await?;
    tracing::info!(program = %manifest.id, files = manifest.files.len(), "program deployed");
    let body = json!({ "id": manifest.id, "files": manifest.files.len(), "created_ms": manifest.created_ms });
    Ok((StatusCode::CREATED, Json(body)))
}

/// A program runs on the server only under a manifest (docs/manifest.md): `amber.json` at
/// the top of the bundle, which must parse.
fn check_manifest(files: &[(String, Vec<u8>)]) -> ApiResult<()> {
    let unprocessable =
        |code: &'static str, message: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message);
    let Some((_, bytes)) = files.iter().find(|(path, _)| path == bundle::MANIFEST_FILE) else {
        return Err(unprocessable(
            "manifest_required",
            format!(
                "the bundle has no {}: a served program needs a manifest granting the host functions it calls \
                 (docs/manifest.md)",
                bundle::MANIFEST_FILE
            ),
        ));
    };
    let text = std::str::from_utf8(bytes)
        .map_err(|_| unprocessable("invalid_manifest", format!("{} is not UTF-8", bundle::MANIFEST_FILE)))?;
    amber::grants::Grants::from_text(text)
        .map_err(|e| unprocessable("invalid_manifest", format!("{}: {e}", bundle::MANIFEST_FILE)))?;
    Ok(())
}

pub async fn show(State(shared): AppState, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    authorize(&shared, &headers, Need::Client)?;
    let store = shared.store.clone();
    let manifest =
        blocking(move || store.program(&id)?.ok_or_else(|| ApiError::not_found(format!("no program {id:?}")))).await?;
    Ok(Json(serde_json::to_value(manifest).unwrap_or(Value::Null)))
}
