//! [`VfsSeed`]: the files a run starts with. A host directory is copied into the seed once,
//! before the run (never read lazily afterwards), so a run resumed or replayed in another
//! process sees the same files: the VFS rides the image, and the seed itself is stored with
//! a session to replay from the top.
//!
//! Collection rules ([`VfsSeed::from_host_dir`]): the directory is walked in name order and
//! mounted at its canonical absolute path, so `__filename` and stack traces show familiar
//! paths. Symlinks are followed (the link's path gets a copy of the target; a directory
//! already visited — a cycle — is skipped); sockets, devices, unreadable entries and names
//! that are not UTF-8 are skipped; `.git` and `.amber` directories (and the caller's extra
//! skips, such as the session store) are left out. More than [`VfsSeed::from_host_dir`]'s
//! byte or entry cap is an error, not a silent truncation.
//!
//! Hash ([`VfsSeed::hash`]): sha256 over the canonical listing — every entry in path
//! order, a directory as `D path NUL`, a file as `F path NUL size NUL bytes`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use amber_durable::digest::Digest;
use amber_engine::Vm;
use serde::{Deserialize, Serialize};

/// A seed: directories and files by absolute path, and the working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VfsSeed {
    /// The directory the seed was taken from (its absolute path inside the VFS too).
    pub root: String,
    /// The VFS working directory when the run starts.
    pub cwd: String,
    /// Directories, parents first.
    pub dirs: Vec<String>,
    /// Files and their bytes, in path order.
    pub files: Vec<(String, Vec<u8>)>,
}

/// Default cap on the bytes of a seed.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;
/// Cap on the entries (files and directories) of a seed.
pub const MAX_ENTRIES: usize = 100_000;

impl VfsSeed {
    /// Copies the host directory `root` (see the module docs for the rules). `skip` lists
    /// host paths left out; the cwd is `cwd` if it lies inside the tree, else the root.
    pub fn from_host_dir(root: &Path, cwd: &Path, skip: &[PathBuf], max_bytes: u64) -> Result<VfsSeed, String> {
        let canonical = std::fs::canonicalize(root).map_err(|e| format!("cannot seed from {}: {e}", root.display()))?;
        if !canonical.is_dir() {
            return Err(format!("cannot seed from {}: not a directory", root.display()));
        }
        let root_name =
            canonical.to_str().ok_or_else(|| format!("cannot seed from {}: the path is not UTF-8", root.display()))?;
        let skip: BTreeSet<PathBuf> = skip.iter().filter_map(|p| std::fs::canonicalize(p).ok()).collect();
        let mut walk = Walk {
            skip,
            visited: BTreeSet::new(),
            seed: VfsSeed { root: root_name.to_string(), ..VfsSeed::default() },
            bytes: 0,
            max_bytes,
            root: canonical.clone(),
        };
        walk.visited.insert(canonical.clone());
        walk.seed.dirs.push(root_name.to_string());
        walk.dir(&canonical, root_name)?;
        walk.seed.files.sort_by(|a, b| a.0.cmp(&b.0));
        let cwd = std::fs::canonicalize(cwd).ok().and_then(|c| c.to_str().map(str::to_string));
        walk.seed.cwd = match cwd {
            Some(c) if walk.seed.dirs.contains(&c) => c,
            _ => root_name.to_string(),
        };
        Ok(walk.seed)
    }

    /// sha256 of the canonical listing (module docs).
    pub fn hash(&self) -> Digest {
        let mut entries: Vec<(&str, Option<&[u8]>)> = self.dirs.iter().map(|d| (d.as_str(), None)).collect();
        entries.extend(self.files.iter().map(|(p, b)| (p.as_str(), Some(b.as_slice()))));
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut listing = Vec::new();
        for (path, bytes) in entries {
            match bytes {
                None => {
                    listing.extend_from_slice(b"D ");
                    listing.extend_from_slice(path.as_bytes());
                    listing.push(0);
                }
                Some(bytes) => {
                    listing.extend_from_slice(b"F ");
                    listing.extend_from_slice(path.as_bytes());
                    listing.push(0);
                    listing.extend_from_slice(bytes.len().to_string().as_bytes());
                    listing.push(0);
                    listing.extend_from_slice(bytes);
                }
            }
        }
        Digest::of(&listing)
    }

    /// Total bytes of the files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, b)| b.len() as u64).sum()
    }

    /// The seed as text (JSON, file bytes in base64), to store with a session.
    pub fn encode(&self) -> String {
        let files: Vec<serde_json::Value> =
            self.files.iter().map(|(p, b)| serde_json::json!([p, base64_encode(b)])).collect();
        serde_json::json!({ "root": self.root, "cwd": self.cwd, "dirs": self.dirs, "files": files }).to_string()
    }

    /// Reads [`VfsSeed::encode`]'s text back.
    pub fn decode(text: &str) -> Result<VfsSeed, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("corrupt VFS seed: {e}"))?;
        let s = |v: &serde_json::Value| v.as_str().map(str::to_string).ok_or("corrupt VFS seed: expected a string");
        let mut seed = VfsSeed { root: s(&v["root"])?, cwd: s(&v["cwd"])?, ..VfsSeed::default() };
        for d in v["dirs"].as_array().ok_or("corrupt VFS seed: no dirs")? {
            seed.dirs.push(s(d)?);
        }
        for f in v["files"].as_array().ok_or("corrupt VFS seed: no files")? {
            let bytes = base64_decode(&s(&f[1])?).ok_or("corrupt VFS seed: bad base64")?;
            seed.files.push((s(&f[0])?, bytes));
        }
        Ok(seed)
    }

    /// Writes the seed into `vm.vfs` (times `now_ms`) and sets its cwd.
    pub fn install(&self, vm: &mut Vm, now_ms: f64) -> Result<(), String> {
        let fail =
            |what: &str, path: &str, e: amber_engine::vfs::VfsError| format!("seeding the VFS: {what} {path}: {e}");
        for d in &self.dirs {
            vm.vfs.mkdir_all(d, 0o755, now_ms).map_err(|e| fail("mkdir", d, e))?;
        }
        for (path, bytes) in &self.files {
            vm.vfs.write_file(path, bytes, now_ms).map_err(|e| fail("write", path, e))?;
        }
        if !self.cwd.is_empty() {
            vm.vfs.set_cwd(&self.cwd).map_err(|e| fail("chdir", &self.cwd, e))?;
        }
        Ok(())
    }
}

struct Walk {
    skip: BTreeSet<PathBuf>,
    visited: BTreeSet<PathBuf>,
    seed: VfsSeed,
    bytes: u64,
    max_bytes: u64,
    root: PathBuf,
}

impl Walk {
    fn too_big(&self) -> String {
        format!(
            "{} holds more than {} MiB of files (or more than {MAX_ENTRIES} entries) to copy into the virtual \
             filesystem; run from a smaller directory or choose one with --fs DIR",
            self.root.display(),
            self.max_bytes >> 20
        )
    }

    fn dir(&mut self, host: &Path, vfs: &str) -> Result<(), String> {
        let Ok(entries) = std::fs::read_dir(host) else { return Ok(()) };
        let mut names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
        names.sort();
        for name in names {
            let Some(name_str) = name.to_str() else { continue };
            if name_str == ".git" || name_str == ".amber" {
                continue;
            }
            let host_path = host.join(&name);
            let Ok(meta) = std::fs::metadata(&host_path) else { continue };
            if !self.skip.is_empty() && std::fs::canonicalize(&host_path).is_ok_and(|c| self.skip.contains(&c)) {
                continue;
            }
            let vfs_path = if vfs == "/" { format!("/{name_str}") } else { format!("{vfs}/{name_str}") };
            if self.seed.dirs.len() + self.seed.files.len() >= MAX_ENTRIES {
                return Err(self.too_big());
            }
            if meta.is_dir() {
                let Ok(canonical) = std::fs::canonicalize(&host_path) else { continue };
                if !self.visited.insert(canonical.clone()) {
                    continue;
                }
                self.seed.dirs.push(vfs_path.clone());
                self.dir(&canonical, &vfs_path)?;
            } else if meta.is_file() {
                if self.bytes + meta.len() > self.max_bytes {
                    return Err(self.too_big());
                }
                let Ok(bytes) = std::fs::read(&host_path) else { continue };
                self.bytes += bytes.len() as u64;
                if self.bytes > self.max_bytes {
                    return Err(self.too_big());
                }
                self.seed.files.push((vfs_path, bytes));
            }
        }
        Ok(())
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|&b| b != b'=').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = ALPHABET.iter().position(|&a| a == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        let count = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        for i in 0..count {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for n in 0..20u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(base64_decode(&base64_encode(&bytes)).as_deref(), Some(bytes.as_slice()));
        }
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert_eq!(base64_decode("a"), None);
    }

    #[test]
    fn encodes_hashes_and_installs() {
        let seed = VfsSeed {
            root: "/p".into(),
            cwd: "/p".into(),
            dirs: vec!["/p".into(), "/p/d".into()],
            files: vec![("/p/a.js".into(), b"1".to_vec()), ("/p/d/b".into(), vec![0, 255])],
        };
        let back = VfsSeed::decode(&seed.encode()).unwrap();
        assert_eq!(back, seed);
        assert_eq!(back.hash(), seed.hash());
        let mut other = seed.clone();
        other.files[1].1 = vec![0, 254];
        assert_ne!(other.hash(), seed.hash());
        let mut vm = Vm::new(amber_engine::VmOptions::default());
        seed.install(&mut vm, 0.0).unwrap();
        assert_eq!(vm.vfs.read_file("/p/d/b").unwrap(), &[0, 255]);
        assert_eq!(vm.vfs.cwd, "/p");
        assert!(VfsSeed::decode("{").is_err());
    }
}
