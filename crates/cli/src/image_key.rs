//! The image key: `--image-key-file FILE`, else `$AMBER_IMAGE_KEY` (the key itself, as text).
//! With a key, every image this process writes carries an HMAC-SHA256 tag, and every image it
//! restores must carry a valid one (an untagged image, or one tagged under another key, is an
//! integrity failure, exit 4): an image re-sealed by someone who can edit the store but does
//! not hold the key is refused. Without a key, the sha256 seal protects against accidents
//! only (docs/durability.md). The key is read once per process and never written anywhere —
//! not to the store, the session's options, an export or a log.

use std::path::Path;
use std::sync::OnceLock;

use amber::RuntimeBuilder;

use crate::error::{CliResult, Failure};

/// The environment variable holding the key's text.
pub const VARIABLE: &str = "AMBER_IMAGE_KEY";

static KEY: OnceLock<Option<Vec<u8>>> = OnceLock::new();

/// Reads the key from `file` (its bytes, less one trailing newline) or [`VARIABLE`]; call once,
/// before any image is made or restored.
pub fn init(file: Option<&Path>) -> CliResult<()> {
    let key = match file {
        Some(path) => {
            let mut bytes = std::fs::read(path)
                .map_err(|e| Failure::usage(format!("cannot read --image-key-file {}: {e}", path.display())))?;
            if bytes.ends_with(b"\n") {
                bytes.pop();
                if bytes.ends_with(b"\r") {
                    bytes.pop();
                }
            }
            Some(bytes)
        }
        None => std::env::var_os(VARIABLE).filter(|v| !v.is_empty()).map(|v| v.into_encoded_bytes()),
    };
    if key.as_ref().is_some_and(Vec::is_empty) {
        return Err(Failure::usage("the image key is empty"));
    }
    let _ = KEY.set(key);
    Ok(())
}

/// `builder` with the key, if there is one.
pub fn apply(builder: RuntimeBuilder) -> RuntimeBuilder {
    match KEY.get().and_then(Option::as_ref) {
        Some(key) => builder.image_key(key.clone()),
        None => builder,
    }
}

/// The key, if there is one (for `amber serve`, whose sessions run on its worker threads).
pub fn key() -> Option<Vec<u8>> {
    KEY.get().and_then(Option::clone)
}
