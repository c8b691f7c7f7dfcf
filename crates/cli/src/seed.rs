//! The VFS seed of `amber run`: the host directory copied into the virtual filesystem when a
//! run starts (the directory holding FILE, or `--fs DIR`), stored with the session as the
//! reserved source [`SEED_SOURCE`] so replay and recovery start from the same files in any
//! process. Collection rules and the hash: `amber::seed`.

use std::path::{Path, PathBuf};

use amber::durable::store::{LoadedSession, Source};
use amber::seed::VfsSeed;
use amber::RuntimeBuilder;

use crate::error::{CliResult, Failure};

/// The reserved source path holding a session's VFS seed ([`VfsSeed::encode`]).
pub const SEED_SOURCE: &str = "amber:vfs-seed.json";

/// Copies `root` for a run of `entry`; the session store under it is left out.
pub fn collect(root: &Path, store_dir: &Path) -> CliResult<VfsSeed> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| root.to_path_buf());
    let skip: Vec<PathBuf> = vec![store_dir.to_path_buf()];
    VfsSeed::from_host_dir(root, &cwd, &skip, amber::seed::DEFAULT_MAX_BYTES)
        .map_err(|e| Failure::usage(format!("cannot seed the virtual filesystem: {e}")))
}

/// The seed as a session source.
pub fn source(seed: &VfsSeed) -> Source {
    Source::new(SEED_SOURCE, &seed.encode())
}

/// `builder` with the seed stored in the session (none if it stores no seed).
pub fn with_session_seed(builder: RuntimeBuilder, loaded: &LoadedSession) -> CliResult<RuntimeBuilder> {
    match loaded.sources.iter().find(|s| s.path == SEED_SOURCE) {
        None => Ok(builder),
        Some(s) => {
            let seed = VfsSeed::decode(&s.text)
                .map_err(|e| Failure::integrity(format!("session {}: {e}", loaded.meta.name)))?;
            Ok(builder.vfs_seed(seed))
        }
    }
}
