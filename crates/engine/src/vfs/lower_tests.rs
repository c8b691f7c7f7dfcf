//! The overlay's semantics over an in-memory lower layer that counts what it is asked.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::lower::{sha256, Sha256};
use super::*;

/// A lower tree by mount-relative path, and a log of every question asked.
#[derive(Default)]
struct MemLower {
    nodes: BTreeMap<String, LowerNode>,
    bytes: BTreeMap<Sha256, Arc<[u8]>>,
    asked: Vec<String>,
}

impl MemLower {
    fn file(mut self, rel: &str, text: &str) -> Self {
        let h = sha256(text.as_bytes());
        self.bytes.insert(h, text.as_bytes().into());
        self.nodes.insert(rel.into(), LowerNode::File { sha256: h, size: text.len() as u64, perm: 0o644, mtime_ms: 7 });
        self
    }
    fn dir(mut self, rel: &str) -> Self {
        self.nodes.insert(rel.into(), LowerNode::Dir { perm: 0o755, mtime_ms: 7 });
        self
    }
    fn link(mut self, rel: &str, target: &str) -> Self {
        self.nodes.insert(rel.into(), LowerNode::Symlink { target: target.into(), mtime_ms: 7 });
        self
    }
}

impl LowerLayer for MemLower {
    fn lstat(&mut self, rel: &str) -> VfsResult<LowerNode> {
        self.asked.push(format!("lstat {rel}"));
        Ok(self.nodes.get(rel).cloned().unwrap_or(LowerNode::Absent))
    }
    fn list(&mut self, rel: &str) -> VfsResult<Vec<(String, FileType)>> {
        self.asked.push(format!("list {rel}"));
        let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
        Ok(self
            .nodes
            .iter()
            .filter_map(|(p, n)| {
                let name = p.strip_prefix(&prefix)?;
                if name.is_empty() || name.contains('/') {
                    return None;
                }
                let kind = match n {
                    LowerNode::File { .. } => FileType::File,
                    LowerNode::Dir { .. } => FileType::Dir,
                    LowerNode::Symlink { .. } => FileType::Symlink,
                    LowerNode::Absent => return None,
                };
                Some((name.to_string(), kind))
            })
            .collect())
    }
    fn bytes(&mut self, h: &Sha256) -> VfsResult<Arc<[u8]>> {
        self.asked.push("bytes".into());
        self.bytes.get(h).cloned().ok_or(VfsError::Io)
    }
}

fn mounted(lower: MemLower) -> (Vfs, Arc<Mutex<MemLower>>) {
    let layer = Arc::new(Mutex::new(lower.dir("")));
    let mut v = Vfs::new();
    v.mount_lower("/proj", layer.clone(), 1.0).unwrap();
    v.set_cwd("/proj").unwrap();
    (v, layer)
}

fn asked(layer: &Arc<Mutex<MemLower>>) -> Vec<String> {
    std::mem::take(&mut layer.lock().unwrap().asked)
}

#[test]
fn lookups_are_lazy_and_asked_once() {
    let (mut v, layer) = mounted(MemLower::default().dir("a").file("a/b.js", "bee").file("c.txt", "sea"));
    assert!(asked(&layer).is_empty(), "mounting asks nothing");
    assert_eq!(v.read_file("a/b.js").unwrap(), b"bee");
    assert_eq!(asked(&layer), ["lstat a", "lstat a/b.js", "bytes"]);
    assert_eq!(v.read_file("/proj/a/b.js").unwrap(), b"bee");
    assert!(!v.exists("missing"));
    assert!(!v.exists("missing"));
    assert_eq!(asked(&layer), ["lstat missing"]);
    assert_eq!(v.stat("c.txt").unwrap().size, 3);
    assert_eq!(asked(&layer), ["lstat c.txt"], "stat reads no bytes");
    assert_eq!(v.used_bytes(), 0, "lower bytes are not charged");
}

#[test]
fn readdir_merges_and_whiteouts_hide() {
    let (mut v, _) = mounted(MemLower::default().file("x", "1").file("y", "2").dir("d").file("d/z", "3"));
    v.write_file("new", b"n", 2.0).unwrap();
    v.unlink("x", 2.0).unwrap();
    let names: Vec<String> = v.read_dir(".").unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["d", "new", "y"]);
    assert!(!v.exists("x"), "a whiteout is not probed again");
    assert_eq!(v.rmdir("d", 3.0), Err(VfsError::NotEmpty), "a lower child counts before it is read");
    v.unlink("d/z", 3.0).unwrap();
    v.rmdir("d", 3.0).unwrap();
    let names: Vec<String> = v.read_dir(".").unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["new", "y"]);
}

#[test]
fn writes_copy_up_and_the_diff_says_so() {
    let (mut v, _) = mounted(
        MemLower::default().file("keep", "k").file("edit", "e").file("gone", "g").dir("dir").file("dir/f", "f"),
    );
    v.append_file("edit", b"+", 2.0).unwrap();
    assert_eq!(v.read_file("edit").unwrap(), b"e+");
    assert_eq!(v.used_bytes(), 2, "the copy is upper");
    assert_eq!(v.read_file("keep").unwrap(), b"k");
    v.unlink("gone", 2.0).unwrap();
    v.write_file("added", b"a", 2.0).unwrap();
    v.read_file("dir/f").unwrap();
    v.rename("dir", "renamed", 2.0).unwrap();
    assert_eq!(v.read_file("renamed/f").unwrap(), b"f", "a renamed lower dir still shows what is beneath");
    let diff: Vec<String> = v
        .diff()
        .unwrap()
        .into_iter()
        .map(|c| match c {
            Change::Added { path, .. } => format!("A {path}"),
            Change::Modified { path, .. } => format!("M {path}"),
            Change::Deleted { path, .. } => format!("D {path}"),
        })
        .collect();
    assert_eq!(
        diff,
        ["A /proj/added", "D /proj/dir", "M /proj/edit", "D /proj/gone", "A /proj/renamed", "A /proj/renamed/f"]
    );
}

#[test]
fn symlinks_resolve_inside_the_vfs_and_outside_is_nothing() {
    let (mut v, _) = mounted(
        MemLower::default()
            .file("real", "r")
            .link("rel", "real")
            .link("abs", "/etc/passwd")
            .link("up", "../../etc/passwd"),
    );
    assert_eq!(v.read_file("rel").unwrap(), b"r");
    assert_eq!(v.read_file("abs"), Err(VfsError::NoEnt));
    assert_eq!(v.read_file("up"), Err(VfsError::NoEnt));
    assert_eq!(v.read_file("/etc/passwd"), Err(VfsError::NoEnt));
}

#[test]
fn a_restored_tree_reads_lower_bytes_through_the_attached_layer() {
    let (mut v, layer) = mounted(MemLower::default().file("f", "lower bytes"));
    let fd = v.open("f", O_RDONLY, 0, 1.0).unwrap();
    assert_eq!(v.read(fd, 5, None).unwrap(), b"lower");
    let bytes = bincode::serde::encode_to_vec(&v, bincode::config::standard()).unwrap();
    assert!(!bytes.windows(11).any(|w| w == b"lower bytes"), "lower bytes never ride the image");
    let (mut restored, _): (Vfs, usize) =
        bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).unwrap();
    assert_eq!(restored.read(fd, 6, None), Err(VfsError::Io), "no layer attached: EIO, not wrong bytes");
    restored.attach_lower(layer.clone());
    assert_eq!(restored.read(fd, 6, None).unwrap(), b" bytes");
}

#[test]
fn rollback_drops_the_upper_layer_and_shows_the_lower_again() {
    let (mut v, _) = mounted(MemLower::default().file("keep", "k").file("gone", "g"));
    v.write_file("keep", b"changed", 2.0).unwrap();
    v.unlink("gone", 2.0).unwrap();
    v.mkdir("made", 0o755, 2.0).unwrap();
    v.set_cwd("made").unwrap();
    assert_eq!(v.diff().unwrap().len(), 3);
    v.rollback(3.0).unwrap();
    assert_eq!(v.cwd, "/proj", "a working directory that no longer exists returns to the mount");
    assert_eq!(v.read_file("keep").unwrap(), b"k");
    assert_eq!(v.read_file("gone").unwrap(), b"g");
    assert!(!v.exists("made"));
    assert_eq!(v.diff().unwrap(), Vec::new());
    assert_eq!(v.used_bytes(), 0);
}

#[test]
fn rollback_after_the_host_changed_shows_what_the_run_first_read() {
    let names =
        |v: &mut Vfs, dir: &str| -> Vec<String> { v.read_dir(dir).unwrap().into_iter().map(|(n, _)| n).collect() };
    // `amber fs commit` writes the session's changes to the host, then `amber fs rollback`
    // discards them: the session must see the folder as the run first read it, not the
    // committed files, and its diff must stay empty however often it is taken.
    let (mut v, layer) = mounted(MemLower::default().file("edit", "old").file("gone", "bye").dir("d").file("d/x", "x"));
    assert_eq!(names(&mut v, "/proj"), ["d", "edit", "gone"]);
    assert_eq!(names(&mut v, "d"), ["x"]);
    assert_eq!(v.read_file("d/x").unwrap(), b"x");
    v.write_file("edit", b"new", 2.0).unwrap();
    v.unlink("gone", 2.0).unwrap();
    v.write_file("added", b"added", 2.0).unwrap();
    // The commit, on the host.
    {
        let mut host = layer.lock().unwrap();
        host.nodes.remove("gone");
        let committed = std::mem::take(&mut *host).file("edit", "new").file("added", "added");
        *host = committed;
    }
    v.rollback(3.0).unwrap();
    asked(&layer);
    assert_eq!(v.diff().unwrap(), Vec::new());
    assert_eq!(v.diff().unwrap(), Vec::new(), "a second diff agrees");
    assert_eq!(names(&mut v, "/proj"), ["d", "edit", "gone"]);
    assert_eq!(names(&mut v, "d"), ["x"]);
    assert_eq!(v.read_file("edit").unwrap(), b"old");
    assert_eq!(v.read_file("gone").unwrap(), b"bye");
    assert_eq!(v.read_file("d/x").unwrap(), b"x");
    assert!(!v.exists("added"));
    let again = asked(&layer);
    assert!(again.iter().all(|q| q == "bytes"), "nothing but bytes asked again: {again:?}");
}

#[test]
fn logged_lookups_repeated_on_the_same_tree_reach_the_same_tree() {
    let lower = || MemLower::default().dir("a").file("a/b.js", "bee").file("a/c.js", "sea").link("l", "a");
    let (mut live, live_layer) = mounted(lower());
    live.read_dir("/proj").unwrap();
    let (mut replayed, replayed_layer) = mounted(lower());
    replayed.read_dir("/proj").unwrap();
    assert_eq!(live, replayed);
    asked(&live_layer);
    asked(&replayed_layer);

    // The reads a pure computation makes, logged: probes (one of a name the root's listing
    // already shows absent), a listing, a symlink followed.
    live.log_lookups();
    live.read_file("/proj/a/b.js").unwrap();
    assert!(!live.exists("/proj/missing"));
    live.read_dir("/proj/l").unwrap();
    live.stat("/proj/a/c.js").unwrap();
    let lookups = live.take_lookups();
    assert!(live.take_lookups().is_empty(), "taking the log ends it");
    assert_ne!(live, replayed);

    for lookup in &lookups {
        replayed.repeat_lookup(lookup).unwrap();
    }
    assert_eq!(live, replayed);
    let probes = |l: &Arc<Mutex<MemLower>>| asked(l).into_iter().filter(|q| q != "bytes").collect::<Vec<_>>();
    assert_eq!(probes(&live_layer), probes(&replayed_layer), "the layer is asked the same questions");

    // A forged lookup is an error, never a panic or a name with a slash in the tree.
    for forged in [
        LowerLookup::Child { dir: 999, name: "x".into() },
        LowerLookup::Child { dir: ROOT_INO, name: "a/b".into() },
        LowerLookup::Child { dir: ROOT_INO, name: "..".into() },
        LowerLookup::Listing { dir: 999 },
    ] {
        assert!(replayed.repeat_lookup(&forged).is_err(), "{forged:?}");
    }
}

fn diff_lines(v: &mut Vfs) -> Vec<String> {
    v.diff()
        .unwrap()
        .into_iter()
        .map(|c| match c {
            Change::Added { path, .. } => format!("A {path}"),
            Change::Modified { path, .. } => format!("M {path}"),
            Change::Deleted { path, .. } => format!("D {path}"),
        })
        .collect()
}

#[test]
fn a_renamed_lower_dir_is_added_with_everything_beneath_it_read_or_not() {
    // Found by the overlay fuzz target: the diff listed only what the program had read under
    // a renamed directory, so `fs commit` deleted the old directory and made a new one
    // holding only those files.
    let (mut v, _) =
        mounted(MemLower::default().dir("src").file("src/x", "x").dir("src/sub").file("src/sub/y", "y").dir("empty"));
    v.rename("src", "moved", 2.0).unwrap();
    assert_eq!(
        diff_lines(&mut v),
        ["A /proj/moved", "A /proj/moved/sub", "A /proj/moved/sub/y", "A /proj/moved/x", "D /proj/src"]
    );
    // Over another lower directory (empty, so the rename is allowed): that one is replaced.
    v.rename("moved", "empty", 3.0).unwrap();
    assert_eq!(
        diff_lines(&mut v),
        [
            "D /proj/empty",
            "A /proj/empty",
            "A /proj/empty/sub",
            "A /proj/empty/sub/y",
            "A /proj/empty/x",
            "D /proj/src"
        ]
    );
}

#[test]
fn a_lower_dir_removed_and_made_again_replaces_the_host_one() {
    // Found by the overlay fuzz target: `rm -r d; mkdir d` reported no change, so `fs commit`
    // left d's old files on the host.
    let (mut v, _) = mounted(MemLower::default().dir("d").file("d/old", "o").file("d/kept", "k"));
    v.remove_all("d", 2.0).unwrap();
    v.mkdir("d", 0o755, 2.0).unwrap();
    v.write_file("d/kept", b"k", 2.0).unwrap();
    assert_eq!(diff_lines(&mut v), ["D /proj/d", "A /proj/d", "A /proj/d/kept"]);
    assert_eq!(v.read_dir("d").unwrap(), [("kept".to_string(), FileType::File)], "the new directory is opaque");
}

#[test]
fn rollback_keeps_a_file_also_linked_outside_the_mount() {
    // Found by the overlay fuzz target: rollback dropped every inode under the mount, so a
    // hard link in /tmp to a lower file named a missing inode.
    let (mut v, _) = mounted(MemLower::default().file("f", "lower"));
    v.mkdir("/tmp", 0o755, 2.0).unwrap();
    v.link("f", "/tmp/f", 2.0).unwrap();
    v.write_file("/tmp/f", b"changed", 2.0).unwrap();
    let fd = v.open("/tmp/f", O_RDONLY, 0, 2.0).unwrap();
    v.rollback(3.0).unwrap();
    assert_eq!(v.read_file("/tmp/f").unwrap(), b"changed");
    assert_eq!(v.stat("/tmp/f").unwrap().nlink, 1);
    assert_eq!(v.read(fd, 100, None).unwrap(), b"changed", "its descriptor stays open");
    assert_eq!(v.read_file("f").unwrap(), b"lower");
}

#[test]
fn the_mount_and_its_ancestors_cannot_be_removed_or_renamed() {
    let layer = Arc::new(Mutex::new(MemLower::default().dir("")));
    let mut v = Vfs::new();
    v.mount_lower("/srv/proj", layer, 1.0).unwrap();
    v.mkdir("/empty", 0o755, 1.0).unwrap();
    assert_eq!(v.rmdir("/srv/proj", 2.0), Err(VfsError::Busy), "even when empty");
    assert_eq!(v.remove_all("/srv/proj", 2.0), Err(VfsError::Busy));
    assert_eq!(v.remove_all("/srv", 2.0), Err(VfsError::Busy));
    assert_eq!(v.rename("/srv/proj", "/moved", 2.0), Err(VfsError::Busy));
    assert_eq!(v.rename("/srv", "/moved", 2.0), Err(VfsError::Busy));
    assert_eq!(v.rename("/empty", "/srv/proj", 2.0), Err(VfsError::Busy), "nor replaced");
    assert_eq!(v.rmdir("/srv/proj/", 2.0), Err(VfsError::Busy));
    v.write_file("/srv/proj/f", b"", 2.0).unwrap();
    v.rename("/srv/proj/f", "/srv/g", 2.0).unwrap();
    assert_eq!(v.rmdir("/srv/g", 2.0), Err(VfsError::NotDir), "a file is still not a directory");
}

#[test]
fn only_upper_entries_count_against_the_entry_limit() {
    let (mut v, _) = mounted(MemLower::default().dir("d").file("d/a", "a").file("d/b", "b").file("c", "c"));
    let made = v.upper_entries(); // the mount directory
    v.limits.max_entries = made + 1;
    let names: Vec<String> = v.read_dir("d").unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["a", "b"]);
    for f in ["d/a", "d/b", "c"] {
        v.read_file(f).unwrap();
    }
    v.write_file("c", b"copied up", 2.0).unwrap();
    assert_eq!(v.upper_entries(), made, "reading lower entries, or copying one up, makes none");
    v.write_file("new", b"n", 2.0).unwrap();
    assert_eq!(v.write_file("newer", b"n", 2.0), Err(VfsError::NoSpc));
    assert_eq!(v.mkdir("dir", 0o755, 2.0), Err(VfsError::NoSpc));
    assert!(!v.exists("newer") && !v.exists("dir"), "a refused entry is not made");
    v.unlink("new", 3.0).unwrap();
    v.mkdir("dir", 0o755, 3.0).unwrap();
    v.rollback(4.0).unwrap();
    assert_eq!(v.upper_entries(), made, "a rollback gives the entries back");
}
