use std::sync::atomic::{AtomicU32, Ordering};

use super::*;

/// A store in a directory of its own, removed when the test is done with it.
struct TempStore {
    store: SqliteStore,
    dir: std::path::PathBuf,
}

impl std::ops::Deref for TempStore {
    type Target = dyn Store;
    fn deref(&self) -> &(dyn Store + 'static) {
        &self.store
    }
}

impl Drop for TempStore {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp_store(label: &str) -> Option<TempStore> {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("amber-store-test-{}-{label}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Some(TempStore { store: SqliteStore::open(&dir).unwrap(), dir })
}

crate::suite::store_suite!(temp_store);
