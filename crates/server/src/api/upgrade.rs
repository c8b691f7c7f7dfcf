//! `POST /v1/sessions/{id}/upgrade` `{"program": "<id>"}`: move a waiting session to another
//! deployed program (docs/server.md, "Upgrading a session"), as `amber upgrade DIR` does for
//! the CLI's sessions: the new program replays the session's journal strictly
//! (`amber::history::upgrade`) — its entry is the new code, and so is every file it reads that
//! differs from what the session ran — and only if it reproduces every record and ends waiting
//! on the same operations does the store move the session, in one transaction
//! (`Store::upgrade_session`): the new sources, the upgrade record, the image of the replayed
//! state, and the session row pointed at the new program. A divergence is a 409 whose
//! `details` say where; the session is left exactly as it was.

use std::collections::BTreeMap;
use std::sync::Arc;

use amber::durable::digest::Digest;
use amber::durable::store::Source;
use amber::grants::MANIFEST_CODE_PATH;
use amber_store::{SessionSpec, SessionUpgrade, Store};
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde_json::{json, Value};

use super::sessions::visible;
use super::{authorize, blocking, read_json, ApiError, ApiResult, AppState, Need};
use crate::auth::Role;
use crate::Shared;

pub async fn upgrade(
    State(shared): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Body,
) -> ApiResult<Json<Value>> {
    let role = authorize(&shared, &headers, Need::Client)?;
    let body = read_json(body, shared.max_body).await?;
    let program = body
        .get("program")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
        .ok_or_else(|| ApiError::bad_request("expected {\"program\": \"<deployed program id>\"}"))?
        .to_string();
    let (moved, tenant) = {
        let shared = shared.clone();
        let id = id.clone();
        blocking(move || replay_onto(&shared, &role, &id, &program)).await?
    };
    shared.events.publish(&id, "upgraded", moved.clone());
    // A result may have arrived while the new code replayed: the next slice delivers it
    // (and restores the new image, under the new program, right away).
    shared.scheduler.wake(&id, &tenant);
    Ok(Json(moved))
}

/// Replays session `id` onto `program_id` and, if it reproduces the journal, moves it there.
/// Returns the response document and the session's tenant.
fn replay_onto(shared: &Arc<Shared>, role: &Role, id: &str, program_id: &str) -> ApiResult<(Value, String)> {
    let store: &dyn Store = shared.store.as_ref();
    let row = visible(store, role, id)?;
    let program =
        store.program(program_id)?.ok_or_else(|| ApiError::not_found(format!("no program {program_id:?}")))?;
    if !program.files.iter().any(|f| f.path == row.spec.entry) {
        return Err(ApiError::bad_request(format!("program {program_id} has no file {:?}", row.spec.entry)));
    }
    let conflict = |message: String| ApiError::new(StatusCode::CONFLICT, "conflict", message);
    let loaded = store
        .durable_session(id)?
        .ok_or_else(|| conflict(format!("session {id:?} has not run yet: there is nothing to upgrade")))?;
    if loaded.meta.status != amber::durable::store::SessionStatus::Suspended || loaded.image.is_none() {
        return Err(conflict(format!(
            "session {id:?} is {}; only a waiting session can move to new code",
            loaded.meta.status.name()
        )));
    }
    let spec = SessionSpec { program: program_id.to_string(), ..row.spec.clone() };
    let setup = crate::worker::setup(shared, id, &spec, &program, &loaded.sources, true)
        .map_err(|e| ApiError::bad_request(format!("program {program_id}: {e}")))?;
    let entry = setup.entry.filename.clone();
    let old_entry = loaded
        .sources
        .iter()
        .find(|s| s.path == entry)
        .ok_or_else(|| ApiError::internal(format!("session {id:?} does not store its entry source {entry:?}")))?;
    let old_manifest = loaded.sources.iter().find(|s| s.path == MANIFEST_CODE_PATH);
    let new_manifest = setup.manifest.as_ref().map(|(text, _)| text.as_str());
    let mut from = BTreeMap::from([(entry.clone(), old_entry.sha256)]);
    if let Some(old) = old_manifest.filter(|old| Some(old.text.as_str()) != new_manifest) {
        from.insert(MANIFEST_CODE_PATH.to_string(), old.sha256);
    }

    let amber::history::Upgraded { mut runtime, files } =
        match amber::history::upgrade(setup.builder, &loaded.journal, &setup.entry, &from) {
            Ok(upgraded) => upgraded,
            Err(amber::Error::Divergence { seq, expected, actual, location }) => {
                let message = format!(
                    "the new program diverges from session {id:?} at seq {seq}: the journal recorded {expected}, but \
                     the program did {actual}{}; the session was not upgraded",
                    location.as_deref().map(|l| format!(" (at {l})")).unwrap_or_default()
                );
                let details = json!({ "seq": seq, "expected": expected, "actual": actual, "location": location });
                return Err(ApiError::new(StatusCode::CONFLICT, "divergence", message).with_details(details));
            }
            Err(e) => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_upgradable",
                    format!("the new program cannot take over session {id:?}: {e}; the session was not upgraded"),
                ))
            }
        };

    // The sources after the move: the new entry and manifest, the changed modules.
    let mut sources: Vec<Source> =
        loaded.sources.iter().filter(|s| s.path != entry && s.path != MANIFEST_CODE_PATH).cloned().collect();
    sources.push(Source::new(&entry, &setup.entry.source));
    if let Some(text) = new_manifest {
        sources.push(Source::new(MANIFEST_CODE_PATH, text));
    }
    for file in &files {
        sources.retain(|s| s.path != file.path);
        sources.push(Source::new(&file.path, &file.text));
    }
    let image = runtime.snapshot().map_err(|e| ApiError::internal(format!("imaging the upgraded session: {e}")))?;
    let records = runtime.take_records();
    let [record] = records.as_slice() else {
        return Err(ApiError::internal(format!("the upgrade appended {} records, not one", records.len())));
    };
    let blobs = runtime.take_blobs();
    let blobs: Vec<(Digest, &[u8])> = blobs.iter().map(|(h, b)| (*h, &b[..])).collect();
    store.upgrade_session(
        id,
        &SessionUpgrade { program: program_id, sources: &sources, record, image: &image, blobs: &blobs },
    )?;
    tracing::info!(session = %id, program = %program_id, seq = record.seq, "session upgraded");
    let modules: Vec<Value> = files
        .iter()
        .map(|f| json!({ "path": f.path, "sha256": Digest::of(f.text.as_bytes()).to_string().replace("sha256:", "") }))
        .collect();
    let document = json!({
        "id": id,
        "program": program_id,
        "previous_program": row.spec.program,
        "seq": record.seq,
        "replayed": loaded.journal.len(),
        "from": record.args.get("from"),
        "to": record.args.get("to"),
        "modules": modules,
    });
    Ok((document, row.spec.tenant))
}
