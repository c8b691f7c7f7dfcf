//! `path_normalize`: the VFS path normalizer (`amber_engine::vfs::normalize`). Invariants: the
//! result is absolute, never escapes `/` (no `.`/`..` segment, no `//`, no trailing `/` except
//! the root), is a fixed point (normalizing it again, against any cwd, changes nothing),
//! equals a small segment-stack model, and equals Node's `path.posix.resolve("/", cwd, path)`
//! (ported below from Node's `lib/path.js`), which is the rule Node's fs applies to a path.

use amber_engine::vfs::{normalize, VfsError};

/// `path_normalize`: byte 0 splits the rest into cwd and path.
pub fn run(data: &[u8]) {
    let Some((&split, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let at = (usize::from(split) % (text.len() + 1)..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let (cwd, path) = text.split_at(at);
    check(cwd, path);
}

/// Every invariant for one (cwd, path).
pub fn check(cwd: &str, path: &str) {
    let result = normalize(cwd, path);
    if path.is_empty() {
        assert!(matches!(result, Err(VfsError::NoEnt)), "empty path: {result:?}");
        return;
    }
    if path.contains('\0') || cwd.contains('\0') {
        assert!(matches!(result, Err(VfsError::Inval)), "NUL in {cwd:?} / {path:?}: {result:?}");
        return;
    }
    let r = match result {
        Ok(r) => r,
        Err(e) => panic!("normalize({cwd:?}, {path:?}) failed: {e:?}"),
    };
    assert!(r.starts_with('/'), "not absolute: {r:?}");
    assert!(r == "/" || !r.ends_with('/'), "trailing slash: {r:?}");
    assert!(!r.contains("//"), "empty segment: {r:?}");
    assert!(r.split('/').skip(1).all(|s| s != "." && s != ".."), "dot segment left: {r:?}");
    for again_cwd in ["/", cwd, "/x/y", ""] {
        assert_eq!(normalize(again_cwd, &r).ok().as_deref(), Some(&*r), "not a fixed point: {cwd:?} {path:?}");
    }
    assert_eq!(r, model(cwd, path), "differs from the segment model: {cwd:?} {path:?}");
    assert_eq!(r, node_resolve(cwd, path), "differs from Node's path.posix.resolve: {cwd:?} {path:?}");
}

/// The obvious model: a stack of segments, `..` pops (never past the root).
fn model(cwd: &str, path: &str) -> String {
    let mut stack: Vec<&str> = Vec::new();
    let whole = if path.starts_with('/') { vec![path] } else { vec![cwd, path] };
    for part in whole {
        for seg in part.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    stack.pop();
                }
                s => stack.push(s),
            }
        }
    }
    format!("/{}", stack.join("/"))
}

/// Node's `path.posix.resolve("/", cwd, path)`: arguments right to left until one is absolute
/// (empty ones skipped), then `normalizeString(…, allowAboveRoot = false)` and a leading `/`.
fn node_resolve(cwd: &str, path: &str) -> String {
    let mut resolved = String::new();
    for arg in [path, cwd, "/"] {
        if arg.is_empty() {
            continue;
        }
        resolved = if resolved.is_empty() { arg.to_string() } else { format!("{arg}/{resolved}") };
        if arg.starts_with('/') {
            break;
        }
    }
    format!("/{}", normalize_string(resolved.as_bytes()))
}

/// Node's `normalizeString(path, false, "/")`, byte for byte. Node walks UTF-16 code units,
/// but only ever compares them with `/` and `.`, which no UTF-8 continuation byte equals, and
/// its length tests only separate "one segment" from "more", so bytes give the same result.
fn normalize_string(path: &[u8]) -> String {
    let mut res: Vec<u8> = Vec::new();
    let mut last_segment_length = 0usize;
    let mut last_slash: isize = -1;
    let mut dots: i32 = 0;
    let mut code = 0u8;
    let mut i = 0usize;
    while i <= path.len() {
        if i < path.len() {
            code = path[i];
        } else if code == b'/' {
            break;
        } else {
            code = b'/';
        }
        if code == b'/' {
            if last_slash == i as isize - 1 || dots == 1 {
                // nothing
            } else if dots == 2 {
                let ends_dotdot = res.len() >= 2
                    && last_segment_length == 2
                    && res[res.len() - 1] == b'.'
                    && res[res.len() - 2] == b'.';
                if !ends_dotdot {
                    if res.len() > 2 {
                        match res.iter().rposition(|&b| b == b'/') {
                            None => {
                                res.clear();
                                last_segment_length = 0;
                            }
                            Some(at) => {
                                res.truncate(at);
                                // res.length - 1 - res.lastIndexOf("/"), with lastIndexOf -1 when absent.
                                last_segment_length = match res.iter().rposition(|&b| b == b'/') {
                                    Some(p) => res.len() - 1 - p,
                                    None => res.len(),
                                };
                            }
                        }
                        last_slash = i as isize;
                        dots = 0;
                        i += 1;
                        continue;
                    } else if !res.is_empty() {
                        res.clear();
                        last_segment_length = 0;
                        last_slash = i as isize;
                        dots = 0;
                        i += 1;
                        continue;
                    }
                }
                // allowAboveRoot is false: nothing is appended.
            } else {
                let start = (last_slash + 1) as usize;
                if !res.is_empty() {
                    res.push(b'/');
                }
                res.extend_from_slice(&path[start..i]);
                last_segment_length = i - start;
            }
            last_slash = i as isize;
            dots = 0;
        } else if code == b'.' && dots != -1 {
            dots += 1;
        } else {
            dots = -1;
        }
        i += 1;
    }
    String::from_utf8_lossy(&res).into_owned()
}
