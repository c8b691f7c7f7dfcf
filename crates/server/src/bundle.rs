//! Program bundles: a tar archive (optionally gzipped) of a program folder, as `amber deploy`
//! sends it. Only regular files and directories are taken (no links, devices or absolute
//! paths); the files become blobs and the program's manifest (amber-store). A deployed program
//! is also materialized once under `<store>/programs/<id>/`, the lower layer its sessions
//! mount read-only at [`MOUNT`] (first reads are captured in each session's journal, as for
//! `amber run`).

use std::io::Read;
use std::path::{Path, PathBuf};

use amber::durable::digest::{from_hex32, Digest};
use amber_store::{OpPolicy, ProgramManifest, Store};

/// Where a session sees its program.
pub const MOUNT: &str = "/app";
/// Files a bundle may hold.
const MAX_FILES: usize = 100_000;

/// The files of a tar (or tar.gz) bundle, at most `max_bytes` unpacked.
pub fn unpack(body: &[u8], max_bytes: usize) -> Result<Vec<(String, Vec<u8>)>, String> {
    let reader: Box<dyn Read + '_> =
        if body.starts_with(&[0x1f, 0x8b]) { Box::new(flate2::read::GzDecoder::new(body)) } else { Box::new(body) };
    let mut archive = tar::Archive::new(reader);
    let mut files = Vec::new();
    let mut total = 0usize;
    let entries = archive.entries().map_err(|e| format!("not a tar archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("bad tar entry: {e}"))?;
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        let path = entry.path().map_err(|e| format!("bad tar path: {e}"))?;
        let path = path.to_str().ok_or("a bundle path is not UTF-8")?.trim_start_matches("./").to_string();
        if !kind.is_file() {
            return Err(format!("{path:?}: only regular files and directories may be deployed"));
        }
        let size = usize::try_from(entry.size()).unwrap_or(usize::MAX);
        total = total.saturating_add(size);
        if total > max_bytes {
            return Err(format!("the bundle unpacks to more than {max_bytes} bytes"));
        }
        if files.len() >= MAX_FILES {
            return Err(format!("the bundle holds more than {MAX_FILES} files"));
        }
        let mut bytes = Vec::with_capacity(size.min(max_bytes));
        entry.read_to_end(&mut bytes).map_err(|e| format!("{path:?}: {e}"))?;
        files.push((path, bytes));
    }
    if files.is_empty() {
        return Err("the bundle holds no files".into());
    }
    Ok(files)
}

/// The program's folder on this machine, materialized from its blobs if missing.
pub fn materialize(store: &dyn Store, store_dir: &Path, program: &ProgramManifest) -> Result<PathBuf, String> {
    let dir = store_dir.join("programs").join(&program.id);
    if dir.join(".amber-complete").exists() {
        return Ok(dir);
    }
    // One temporary folder per call: two workers of this process materializing the same
    // program at once must not share one (the second's clean-up emptied the first's, which
    // then renamed a folder without its files into place).
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = store_dir.join("programs").join(format!(".{}.tmp-{}-{n}", program.id, std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for file in &program.files {
        let hash = from_hex32(&file.sha256).ok_or_else(|| format!("program {}: bad hash", program.id))?;
        let bytes = store
            .blob(&Digest(hash))
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("program {}: the store lacks the bytes of {:?}", program.id, file.path))?;
        let target = tmp.join(&file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    std::fs::write(tmp.join(".amber-complete"), program.id.as_bytes()).map_err(|e| e.to_string())?;
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => Ok(dir),
        // Another thread materialized it first.
        Err(_) if dir.join(".amber-complete").exists() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(dir)
        }
        Err(e) => Err(format!("{}: {e}", dir.display())),
    }
}

/// The program's manifest (`amber.json` at the top of its folder), compiled; None for a
/// program deployed before manifests were required.
pub fn grants_of(dir: &std::path::Path) -> Result<Option<(String, amber::grants::SharedGrants)>, String> {
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST_FILE)) else { return Ok(None) };
    let grants = amber::grants::Grants::from_text(&text).map_err(|e| format!("{MANIFEST_FILE}: {e}"))?;
    Ok(Some((text, std::sync::Arc::new(grants))))
}

/// The manifest file every deployed program carries.
pub const MANIFEST_FILE: &str = "amber.json";

/// The operation-table policy of host function `name`: the manifest's `timeout_ms`,
/// `retry.max_attempts` and `retry.backoff_ms`, else the defaults.
pub fn op_policy(grants: Option<&amber::grants::Grants>, name: &str) -> OpPolicy {
    let defaults = OpPolicy::default();
    let Some(grant) = grants.and_then(|g| g.grant(name)) else { return defaults };
    OpPolicy {
        timeout_ms: grant.timeout_ms.unwrap_or(defaults.timeout_ms).max(1),
        max_attempts: grant.retry.as_ref().map_or(defaults.max_attempts, |r| r.max_attempts).max(1),
        backoff_ms: grant.retry.as_ref().map_or(defaults.backoff_ms, |r| r.backoff_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (path, bytes) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(bytes.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, path, *bytes).unwrap();
        }
        builder.into_inner().unwrap()
    }

    #[test]
    fn bundles_unpack_with_limits() {
        let files = unpack(&tar_of(&[("a.js", b"1"), ("lib/b.js", b"22")]), 100).unwrap();
        assert_eq!(files, vec![("a.js".to_string(), b"1".to_vec()), ("lib/b.js".to_string(), b"22".to_vec())]);
        assert!(unpack(&tar_of(&[("a.js", &[0; 200])]), 100).unwrap_err().contains("more than 100 bytes"));
        assert!(unpack(b"not a tar at all, just some bytes", 100).is_err());
        assert!(unpack(&[], 100).is_err());
    }

    #[test]
    fn policies_come_from_the_manifest() {
        let grants = amber::grants::Grants::from_text(
            r#"{ "host": { "search": { "timeout_ms": 5, "retry": { "max_attempts": 7 } } } }"#,
        )
        .unwrap();
        let p = op_policy(Some(&grants), "search");
        assert_eq!((p.timeout_ms, p.max_attempts, p.backoff_ms), (5, 7, 200));
        assert_eq!(op_policy(Some(&grants), "other"), OpPolicy::default());
        assert_eq!(op_policy(None, "search"), OpPolicy::default());
    }
}
