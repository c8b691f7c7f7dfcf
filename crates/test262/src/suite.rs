//! The pinned suite on disk: unpacking the tarball after checking its sha256, listing the test
//! files, and reading `features.txt`.
//!
//! A test file is a `*.js` file under `test/` whose name does not contain `_FIXTURE`
//! (INTERPRETING.md, "Modules"). Test ids are paths relative to `test/` with `/` separators
//! (`built-ins/Array/length.js`), sorted bytewise.

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Written into the unpacked tree: the sha256 of the tarball it came from.
const MARKER: &str = ".amber-suite-sha256";

/// The heading in `features.txt` whose features are proposals (excluded from "main").
pub const PROPOSED_HEADING: &str = "## Proposed language features";

/// Makes sure the suite is unpacked at `dir`, unpacking `tarball` if it is missing or came
/// from a different tarball. Returns a note for the user when it unpacked.
pub fn ensure_unpacked(dir: &Path, tarball: &Path, sha256: &str) -> Result<Option<String>, String> {
    let marker = dir.join(MARKER);
    if dir.join("test").is_dir() && dir.join("harness").is_dir() {
        match fs::read_to_string(&marker) {
            Ok(found) if found.trim() == sha256 => return Ok(None),
            // Unpacked by hand (README in shared/ shows how): trust it.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
    }
    let actual = file_sha256(tarball).map_err(|e| {
        format!("cannot read the test262 tarball {}: {e} (set suite.tarball in the config)", tarball.display())
    })?;
    if actual != sha256 {
        return Err(format!("{} has sha256 {actual}, the config pins {sha256}", tarball.display()));
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let staging = parent.join(format!(".suite-unpack-{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    unpack(tarball, &staging).map_err(|e| format!("cannot unpack {}: {e}", tarball.display()))?;
    fs::write(staging.join(MARKER), format!("{sha256}\n"))
        .map_err(|e| format!("cannot write the suite marker: {e}"))?;
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| format!("cannot remove stale {}: {e}", dir.display()))?;
    }
    if let Err(e) = fs::rename(&staging, dir) {
        // Another runner may have unpacked it at the same time; theirs is as good as ours.
        let _ = fs::remove_dir_all(&staging);
        if !dir.join("test").is_dir() {
            return Err(format!("cannot move the unpacked suite to {}: {e}", dir.display()));
        }
    }
    Ok(Some(format!("unpacked {} into {}", tarball.display(), dir.display())))
}

/// The lowercase hex sha256 of a file.
pub fn file_sha256(path: &Path) -> io::Result<String> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn unpack(tarball: &Path, into: &Path) -> io::Result<()> {
    let file = fs::File::open(tarball)?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    // `unpack` refuses entries that would land outside `into`.
    archive.unpack(into)
}

/// Whether a file name under `test/` is a test.
pub fn is_test_file(name: &str) -> bool {
    name.ends_with(".js") && !name.contains("_FIXTURE")
}

/// Every test id under `<suite>/test`, sorted.
pub fn list_tests(suite: &Path) -> io::Result<Vec<String>> {
    let root = suite.join("test");
    let mut out = Vec::new();
    walk(&root, String::new(), &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, prefix: String, out: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), rel, out)?;
        } else if kind.is_file() && is_test_file(&name) {
            out.push(rel);
        }
    }
    Ok(())
}

/// The path of a test id.
pub fn test_path(suite: &Path, rel: &str) -> PathBuf {
    suite.join("test").join(rel)
}

/// The features listed under [`PROPOSED_HEADING`] in `features.txt`. Section headings are
/// `## ` lines ending in "features" (other `## ` lines inside a section are comments).
pub fn proposed_features(features_txt: &str) -> BTreeSet<String> {
    let mut in_proposed = false;
    let mut out = BTreeSet::new();
    for line in features_txt.lines() {
        let line = line.trim();
        if line.starts_with("## ") && line.to_ascii_lowercase().ends_with("features") {
            in_proposed = line == PROPOSED_HEADING;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let feature = line.split('#').next().unwrap_or("").trim();
        if in_proposed && !feature.is_empty() {
            out.insert(feature.to_string());
        }
    }
    out
}

/// Turns a user-given path (`test262/suite/test/built-ins/Array`, `test/built-ins/Array`,
/// `built-ins/Array/`, an absolute path into the suite…) into a test-id prefix.
pub fn normalize_filter(suite: &Path, filter: &str) -> String {
    let mut f = filter.replace('\\', "/");
    if let Ok(abs_suite) = suite.join("test").canonicalize() {
        let abs_suite = abs_suite.to_string_lossy().replace('\\', "/");
        if let Some(rest) = f.strip_prefix(&abs_suite) {
            f = rest.to_string();
        }
    }
    let suite_test = format!("{}/test/", suite.to_string_lossy().replace('\\', "/"));
    if let Some(rest) = f.strip_prefix(&suite_test) {
        f = rest.to_string();
    }
    let f = f.trim_start_matches("./").trim_start_matches('/');
    let f = f.strip_prefix("test/").unwrap_or(f);
    f.trim_end_matches('/').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposed_section_is_read_with_its_comment_lines() {
        let text = "## Proposed language features\n#\n# prose\n\n# Deco\nShadowRealm\ndecorators\n\n# Source Phase\n## https://example\nsource-phase-imports\n## test262 special specifier\nsource-phase-imports-module-source\n\n## Standard language features\n#\nTemporal\nstable-array-sort  # https://x\n\n## Test-Harness Features\nIsHTMLDDA\n";
        let p = proposed_features(text);
        let expected: BTreeSet<String> =
            ["ShadowRealm", "decorators", "source-phase-imports", "source-phase-imports-module-source"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        assert_eq!(p, expected);
    }

    #[test]
    fn test_file_names() {
        assert!(is_test_file("length.js"));
        assert!(!is_test_file("dep_FIXTURE.js"));
        assert!(!is_test_file("data_FIXTURE.json"));
        assert!(!is_test_file("README.md"));
        assert!(!is_test_file("forofstatementjs"));
    }

    #[test]
    fn filters_normalize_to_test_ids() {
        let s = Path::new("test262/suite");
        assert_eq!(normalize_filter(s, "test262/suite/test/built-ins/Array/"), "built-ins/Array");
        assert_eq!(normalize_filter(s, "test/language/x.js"), "language/x.js");
        assert_eq!(normalize_filter(s, "./built-ins"), "built-ins");
        assert_eq!(normalize_filter(s, "built-ins\\Array"), "built-ins/Array");
    }

    #[test]
    fn sha256_of_a_file() {
        let dir = std::env::temp_dir().join(format!("amber-t262-sha-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let f = dir.join("abc");
        fs::write(&f, b"abc").unwrap();
        assert_eq!(file_sha256(&f).unwrap(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        fs::remove_dir_all(&dir).unwrap();
    }
}
