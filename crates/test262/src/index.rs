//! The suite's index: every test id with its parsed metadata, and the proposed features from
//! `features.txt`. Reading all ~53,600 files takes a second or two, so it is done in parallel.

use crate::frontmatter::{self, Metadata};
use crate::suite;
use crate::summary::{classify, TestInfo};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One test file.
#[derive(Clone, Debug)]
pub struct Entry {
    pub id: String,
    /// The metadata, or why it could not be read (such a test FAILs without running).
    pub meta: Result<Metadata, String>,
}

impl Entry {
    pub fn features(&self) -> &[String] {
        self.meta.as_ref().map_or(&[], |m| m.features.as_slice())
    }
}

pub struct SuiteIndex {
    pub dir: PathBuf,
    /// Sorted by id.
    pub entries: Vec<Entry>,
    pub proposed: BTreeSet<String>,
}

impl SuiteIndex {
    pub fn load(dir: &Path, threads: usize) -> Result<SuiteIndex, String> {
        let ids = suite::list_tests(dir).map_err(|e| format!("cannot list {}: {e}", dir.join("test").display()))?;
        let features_path = dir.join("features.txt");
        let features_txt = std::fs::read_to_string(&features_path)
            .map_err(|e| format!("cannot read {}: {e}", features_path.display()))?;
        let proposed = suite::proposed_features(&features_txt);
        let entries = parse_all(dir, ids, threads.max(1));
        Ok(SuiteIndex { dir: dir.to_path_buf(), entries, proposed })
    }

    /// The summary's and README's view of every test.
    pub fn infos(&self) -> Vec<TestInfo> {
        self.entries
            .iter()
            .map(|e| TestInfo {
                id: e.id.clone(),
                features: e.features().to_vec(),
                groups: classify(&e.id, e.features(), &self.proposed),
            })
            .collect()
    }

    pub fn ids(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.id.clone()).collect()
    }
}

fn parse_all(dir: &Path, ids: Vec<String>, threads: usize) -> Vec<Entry> {
    let chunk = ids.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = ids
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|id| read_entry(dir, id)).collect::<Vec<_>>()))
            .collect();
        let mut out = Vec::with_capacity(ids.len());
        for (h, part) in handles.into_iter().zip(ids.chunks(chunk)) {
            match h.join() {
                Ok(entries) => out.extend(entries),
                // A panic in the parser is a bug; report it on each test of the chunk.
                Err(_) => out.extend(
                    part.iter().map(|id| Entry { id: id.clone(), meta: Err("metadata parser panicked".into()) }),
                ),
            }
        }
        out
    })
}

fn read_entry(dir: &Path, id: &str) -> Entry {
    let path = suite::test_path(dir, id);
    let meta = match std::fs::read_to_string(&path) {
        Ok(text) => frontmatter::parse_test(&text).map_err(|e| e.to_string()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    };
    Entry { id: id.to_string(), meta }
}
