use std::sync::atomic::{AtomicU32, Ordering};

use super::*;

fn temp_store(label: &str) -> Option<Box<dyn Store>> {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("amber-store-test-{}-{label}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Some(Box::new(SqliteStore::open(&dir).unwrap()))
}

crate::suite::store_suite!(temp_store);
