//! Files the CLI writes on the host (`export -o`, `trace -o`, `fs commit`): written so that a
//! reader, or a crash at any moment, sees the old file or the new one, never a mix.

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file beside it, synced, then renamed over it;
/// with `mode`, the new file gets those permission bits. Every file the CLI writes on the host
/// goes through here.
pub fn write_atomically(path: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    let name = path.file_name().ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = dir.join(format!(".{}.amber-tmp-{}", name.to_string_lossy(), std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        let half = bytes.len() / 2;
        file.write_all(&bytes[..half])?;
        crate::fault::point();
        file.write_all(&bytes[half..])?;
        if let Some(mode) = mode {
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        file.sync_all()?;
        crate::fault::point();
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    crate::fault::point();
    // The rename is durable once the directory is (best effort: not every platform syncs one).
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
