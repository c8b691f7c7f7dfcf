//! `--slice ci`: a fixed, deterministic subset of the suite for the CI regression gate.
//!
//! The slice is every `stride`-th test id in sorted order (ids 0, stride, 2·stride…), plus the
//! first test id of every directory (two levels deep: `built-ins/Array`, `language/expressions`,
//! `harness`…) that the stride missed, so every top-level and second-level directory is
//! covered. It depends only on the list of test ids, so it changes only when the pinned suite
//! does. With the pinned suite and `ci_stride = 20` it holds 2,700 tests.

use std::collections::BTreeSet;

/// The slice names `--slice` accepts.
pub const NAMES: [&str; 1] = ["ci"];

/// The directory a test counts under for coverage: its first two path components that are
/// directories.
fn coverage_dir(id: &str) -> &str {
    let mut slashes = id.match_indices('/').map(|(i, _)| i);
    let first = slashes.next();
    let second = slashes.next();
    match (first, second) {
        (Some(_), Some(j)) => &id[..j],
        (Some(i), None) => &id[..i],
        _ => "",
    }
}

/// Selects the CI slice from sorted test ids; the result is sorted.
pub fn ci_slice(sorted_ids: &[String], stride: usize) -> Vec<String> {
    let stride = stride.max(1);
    let mut chosen: BTreeSet<&str> = sorted_ids.iter().step_by(stride).map(String::as_str).collect();
    let mut covered: BTreeSet<&str> = chosen.iter().map(|id| coverage_dir(id)).collect();
    for id in sorted_ids {
        let dir = coverage_dir(id);
        if covered.insert(dir) {
            chosen.insert(id);
        }
    }
    chosen.into_iter().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stride_plus_one_per_directory() {
        let ids: Vec<String> =
            ["a/x/1.js", "a/x/2.js", "a/x/3.js", "a/x/4.js", "a/y/1.js", "b/1.js", "b/2.js", "c/z/q/1.js"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let s = ci_slice(&ids, 3);
        // Stride picks 0, 3, 6: a/x/1, a/x/4, b/2; then a/y and c/z get their first test.
        assert_eq!(s, ["a/x/1.js", "a/x/4.js", "a/y/1.js", "b/2.js", "c/z/q/1.js"]);
        assert_eq!(ci_slice(&ids, 3), s);
        assert_eq!(ci_slice(&ids, 1).len(), ids.len());
    }

    #[test]
    fn coverage_dirs() {
        assert_eq!(coverage_dir("built-ins/Array/from/a.js"), "built-ins/Array");
        assert_eq!(coverage_dir("harness/assert.js"), "harness");
        assert_eq!(coverage_dir("top.js"), "");
    }
}
