//! The one path normalizer of the virtual filesystem.
//!
//! [`normalize`] turns any path a program names into the absolute, canonical spelling the
//! [`Vfs`](super::Vfs) keys its lookups by. It is purely lexical (it never consults the tree)
//! and total: every input gives `Ok` or a [`VfsError`], never a panic.
//!
//! Rules:
//! - the result is rooted at `/`: a relative `path` is taken relative to `cwd` (itself
//!   normalized from `/` by the same rules; an empty `cwd` means `/`);
//! - `.` segments and repeated slashes collapse; `..` removes the previous segment and, at the
//!   root, stays at the root (`/..` is `/`), so no path escapes the tree;
//! - no trailing slash, except for the root itself (`/`);
//! - an empty `path` is [`VfsError::NoEnt`] (Node: `ENOENT` for `''`); a path or cwd containing
//!   a NUL byte is [`VfsError::Inval`] (Node throws `ERR_INVALID_ARG_VALUE` before the call;
//!   the fs layer checks that first).
//!
//! Invariants the fuzzer checks: the result starts with `/`; contains no `//`, no `.` or `..`
//! segment and no trailing `/` (unless it is `/`); `normalize(cwd, normalize(cwd, p)) ==
//! normalize(cwd, p)`.
//!
//! NOTE: POSIX resolves `a/../b` physically (through `a`, which must exist); the VFS resolves
//! it lexically, like `path.resolve`. Symlinks met during a lookup are still followed by the
//! tree walk (see `Vfs::walk`).

use super::VfsError;

/// Normalize `path` against `cwd` (see the module docs).
pub fn normalize(cwd: &str, path: &str) -> Result<String, VfsError> {
    if path.is_empty() {
        return Err(VfsError::NoEnt);
    }
    if path.contains('\0') || cwd.contains('\0') {
        return Err(VfsError::Inval);
    }
    let mut segments: Vec<&str> = Vec::new();
    if !path.starts_with('/') {
        push_segments(&mut segments, cwd);
    }
    push_segments(&mut segments, path);
    Ok(join(&segments))
}

/// Whether `path` names a directory by its spelling: it ends in `/`, `/.` or `/..` (or is
/// `.`/`..`). POSIX then requires the final component to be a directory.
pub fn wants_directory(path: &str) -> bool {
    path.ends_with('/') || path.ends_with("/.") || path.ends_with("/..") || path == "." || path == ".."
}

/// Split an absolute normalized path into its segments (`/` → none).
pub fn segments(abs: &str) -> impl Iterator<Item = &str> {
    abs.split('/').filter(|s| !s.is_empty())
}

/// The parent of a normalized absolute path (`/` is its own parent) and the final name
/// (empty for `/`).
pub fn split_parent(abs: &str) -> (&str, &str) {
    match abs.rfind('/') {
        Some(0) => ("/", &abs[1..]),
        Some(i) => (&abs[..i], &abs[i + 1..]),
        None => ("/", abs),
    }
}

/// Join a normalized absolute directory and a name.
pub fn join_name(dir: &str, name: &str) -> String {
    if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

fn push_segments<'a>(segments: &mut Vec<&'a str>, path: &'a str) {
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
}

fn join(segments: &[&str]) -> String {
    if segments.is_empty() {
        return "/".to_string();
    }
    let mut out = String::with_capacity(segments.iter().map(|s| s.len() + 1).sum());
    for s in segments {
        out.push('/');
        out.push_str(s);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn n(cwd: &str, p: &str) -> String {
        normalize(cwd, p).unwrap()
    }

    #[test]
    fn absolute_paths() {
        assert_eq!(n("/", "/"), "/");
        assert_eq!(n("/", "//"), "/");
        assert_eq!(n("/", "/a/b/"), "/a/b");
        assert_eq!(n("/", "/a//b///c"), "/a/b/c");
        assert_eq!(n("/x", "/a/./b/."), "/a/b");
        assert_eq!(n("/", "/a/b/../c"), "/a/c");
    }

    #[test]
    fn dotdot_clamps_at_root() {
        assert_eq!(n("/", "/.."), "/");
        assert_eq!(n("/", "/../../a"), "/a");
        assert_eq!(n("/a", "../../../b"), "/b");
        assert_eq!(n("/a/b", ".."), "/a");
        assert_eq!(n("/", "a/../../.."), "/");
    }

    #[test]
    fn relative_paths_use_cwd() {
        assert_eq!(n("/home/agent", "x.txt"), "/home/agent/x.txt");
        assert_eq!(n("/home/agent/", "./x/../y"), "/home/agent/y");
        assert_eq!(n("", "x"), "/x");
        assert_eq!(n("relative/cwd", "x"), "/relative/cwd/x");
        assert_eq!(n("/a/../..", "."), "/");
    }

    #[test]
    fn errors() {
        assert_eq!(normalize("/", ""), Err(VfsError::NoEnt));
        assert_eq!(normalize("/", "a\0b"), Err(VfsError::Inval));
        assert_eq!(normalize("/\0", "a"), Err(VfsError::Inval));
        // An absolute path does not need the cwd, but a NUL there is still refused.
        assert_eq!(normalize("/\0", "/a"), Err(VfsError::Inval));
    }

    #[test]
    fn idempotent_and_well_formed() {
        let cases = ["a/b/../c/./", "/../..//x/.", "...", "a/.../b", ". /x", "/a/b/c/../../../../d"];
        for p in cases {
            let once = n("/w/d", p);
            assert!(once.starts_with('/'));
            assert!(!once.contains("//"));
            assert!(once == "/" || !once.ends_with('/'));
            assert!(segments(&once).all(|s| s != "." && s != ".."));
            assert_eq!(n("/w/d", &once), once);
        }
        assert_eq!(n("/", "..."), "/...");
    }

    #[test]
    fn helpers() {
        assert_eq!(split_parent("/"), ("/", ""));
        assert_eq!(split_parent("/a"), ("/", "a"));
        assert_eq!(split_parent("/a/b"), ("/a", "b"));
        assert_eq!(join_name("/", "a"), "/a");
        assert_eq!(join_name("/a", "b"), "/a/b");
        assert!(wants_directory("a/"));
        assert!(wants_directory("a/.."));
        assert!(!wants_directory("a/b"));
        assert!(!wants_directory("a/.b"));
    }
}
