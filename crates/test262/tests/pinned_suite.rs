//! Facts about the pinned suite that the runner relies on: the three headline totals, the
//! metadata of every file parses, and the CI slice covers every directory. Unpacks the
//! tarball into `test262/suite/` (as the runner does) when it is not there yet.
#![allow(clippy::unwrap_used)]

use amber_test262::config::Config;
use amber_test262::index::SuiteIndex;
use amber_test262::slice;
use amber_test262::suite;
use amber_test262::summary::PINNED_TOTALS;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn index() -> SuiteIndex {
    let root = repo_root();
    let config = Config::load(&root.join("test262/config.toml")).unwrap();
    let dir = root.join(&config.suite.dir);
    let tarball = root.join(&config.suite.tarball);
    suite::ensure_unpacked(&dir, &tarball, &config.suite.sha256).unwrap();
    SuiteIndex::load(&dir, 2).unwrap()
}

#[test]
fn headline_totals_metadata_and_ci_slice() {
    let index = index();
    let infos = index.infos();

    // The three headline totals of issue 3.
    let full = infos.len() as u64;
    let main = infos.iter().filter(|t| t.groups.main).count() as u64;
    let core = infos.iter().filter(|t| t.groups.core).count() as u64;
    assert_eq!([("full", full), ("main", main), ("core", core)], PINNED_TOTALS);

    // Every test's metadata parses.
    let broken: Vec<String> =
        index.entries.iter().filter_map(|e| e.meta.as_ref().err().map(|m| format!("{}: {m}", e.id))).collect();
    assert!(broken.is_empty(), "{broken:#?}");
    let proposed = &index.proposed;
    assert!(proposed.contains("decorators") && proposed.contains("Iterator.prototype.join"));
    assert!(!proposed.contains("Temporal"));
    assert_eq!(proposed.len(), 17);

    // The CI slice: its documented size, and every two-level directory is in it.
    let config = Config::load(&repo_root().join("test262/config.toml")).unwrap();
    let ids = index.ids();
    let ci = slice::ci_slice(&ids, config.slice.ci_stride);
    assert_eq!(ci.len(), 2_700);
    let dir2 = |id: &str| id.split('/').take(2).collect::<Vec<_>>().join("/");
    let all_dirs: BTreeSet<String> = ids.iter().filter(|i| i.matches('/').count() >= 2).map(|i| dir2(i)).collect();
    let slice_dirs: BTreeSet<String> = ci.iter().filter(|i| i.matches('/').count() >= 2).map(|i| dir2(i)).collect();
    assert_eq!(all_dirs, slice_dirs);
    let tops = |v: &[String]| v.iter().map(|i| i.split('/').next().unwrap().to_string()).collect::<BTreeSet<_>>();
    assert_eq!(tops(&ids), tops(&ci));
}
