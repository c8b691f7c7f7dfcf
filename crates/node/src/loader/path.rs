//! POSIX path helpers for module names: absolute, `/`-separated, lexically normalised.

/// `p` with `.` and empty segments dropped and `..` applied (clamped at the root); a
/// relative `p` is taken from the root.
pub fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `rel` against the directory `base` (not normalised); an absolute `rel` stands alone.
pub fn join(base: &str, rel: &str) -> String {
    if rel.starts_with('/') {
        rel.to_string()
    } else if base.ends_with('/') {
        format!("{base}{rel}")
    } else {
        format!("{base}/{rel}")
    }
}

/// The directory holding `p` (`/` for the root and for top-level names).
pub fn dirname(p: &str) -> String {
    let p = p.trim_end_matches('/');
    match p.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => p[..i].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(normalize("/a/./b/../c//d/"), "/a/c/d");
        assert_eq!(normalize("/../../x"), "/x");
        assert_eq!(normalize(""), "/");
        assert_eq!(join("/a", "b"), "/a/b");
        assert_eq!(join("/", "b"), "/b");
        assert_eq!(join("/a", "/b"), "/b");
        assert_eq!(dirname("/a/b.js"), "/a");
        assert_eq!(dirname("/a"), "/");
        assert_eq!(dirname("/"), "/");
        assert_eq!(dirname("x.js"), "/");
    }
}
