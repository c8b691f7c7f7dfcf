//! `overlay`: the overlay VFS (`amber_engine::vfs`, docs/vfs.md) against a model that has no
//! layers. The input builds a small lower tree (files, directories, symlinks, some pointing
//! outside the mount), mounts it lazily at `/m` (or `/`) over an in-memory [`LowerLayer`], then
//! drives a sequence of operations: mkdir, mkdir -p, write, append, truncate, copy, unlink,
//! rmdir, rm -r, rename (inside, into and out of the mount), link, symlink, readlink, readdir,
//! stat/lstat, read, descriptors (open/read/write/close), diff, rollback, and an image
//! (serde encode/decode) taken mid-sequence.
//!
//! The model is the merged view as the program should see it: a map of absolute path → file
//! (by identity, so descriptors and hard links share bytes), directory or symlink, starting as
//! the lower tree placed under the mount. Invariants, after every step:
//! - every operation returns what the model says (the data, or the error kind);
//! - on copies of the tree (so the real one stays lazy): [`Vfs::diff`] equals the model's
//!   changes against the lower tree (on the tree as left, and once everything is read); every
//!   model path lstats to the same type and size, every directory lists the same names and
//!   types, every file reads the same bytes;
//! - an inode number seen for a model node stays that node's (stat on the real tree);
//! - the layer is only asked about a path whose parent it said is a directory (its contract);
//! - an image decodes to an equal tree, and encodes again to the same bytes.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use amber_engine::vfs::lower::{sha256, Sha256};
use amber_engine::vfs::normalize::{segments, split_parent, wants_directory};
use amber_engine::vfs::{
    normalize, Change, FileType, LowerLayer, LowerNode, Vfs, VfsError, VfsResult, MAX_SYMLINKS, O_ACCMODE, O_APPEND,
    O_CREAT, O_DIRECTORY, O_EXCL, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY,
};

/// Names the lower tree and the paths are made of (small, so operations collide often).
const NAMES: [&str; 3] = ["a", "b", "c"];
/// Operations per input at most.
const MAX_STEPS: usize = 160;
/// Open flags the `open` step picks from.
const OPEN_FLAGS: [u32; 6] = [
    O_RDONLY,
    O_RDWR,
    O_WRONLY | O_CREAT | O_TRUNC,
    O_WRONLY | O_CREAT | O_APPEND,
    O_RDWR | O_CREAT | O_EXCL,
    O_RDONLY | O_DIRECTORY,
];

/// `overlay`: see the module docs.
pub fn run(data: &[u8]) {
    let mut input = Input { data, pos: 0 };
    let at = if input.below(5) == 0 { "/" } else { "/m" };
    let mut lower = BTreeMap::from([(String::new(), LowerNode::Dir { perm: 0o755, mtime_ms: 0 })]);
    let mut blobs = BTreeMap::new();
    input.lower_dir("", 0, &mut lower, &mut blobs);
    let layer = Arc::new(Mutex::new(MemLower { nodes: lower.clone(), blobs: blobs.clone() }));
    let mut vfs = Vfs::new();
    vfs.mount_lower(at, layer.clone(), 1.0).expect("mounting on an empty tree");
    // AMBER_OVERLAY_TRACE=1 prints the lower tree and each step (reading a failing input).
    let trace = std::env::var_os("AMBER_OVERLAY_TRACE").is_some();
    if trace {
        eprintln!("mounted at {at}: {lower:?}");
    }
    let mut model = Model::new(at, lower, blobs);
    let mut inos = Inos::default();
    for step in 0..MAX_STEPS {
        if input.done() {
            break;
        }
        let op = Op::decode(&mut input);
        if trace {
            eprintln!("{op:?}");
        }
        let now = 10.0 + step as f64;
        apply(&mut vfs, &mut model, &mut inos, &op, now, &layer);
        check_merged_view(&vfs, &model, &op);
    }
}

// ---- input

struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Input<'_> {
    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn name(&mut self) -> &'static str {
        NAMES[self.below(NAMES.len())]
    }

    /// An absolute path: `/`, or one to four segments, mostly under `/m`, some under `/t`.
    fn path(&mut self) -> String {
        let depth = [1, 2, 2, 3, 3, 4, 1, 0][self.below(8)];
        let mut path = String::new();
        for i in 0..depth {
            let name = match (i, self.below(10)) {
                (0, 0..=5) => "m",
                (0, 6..=8) => "t",
                _ => self.name(),
            };
            path.push('/');
            path.push_str(name);
        }
        if path.is_empty() {
            path.push('/');
        }
        path
    }

    /// A symlink target: absolute, relative, climbing with `..`, or degenerate.
    fn target(&mut self) -> String {
        match self.below(8) {
            0 | 1 => self.path(),
            2 | 3 => self.name().to_string(),
            4 => format!("../{}", self.name()),
            5 => format!("{}/{}", self.name(), self.name()),
            6 => format!("../../{}", self.path().trim_start_matches('/')),
            _ => [".", "..", "", "/"][self.below(4)].to_string(),
        }
    }

    fn bytes(&mut self) -> Vec<u8> {
        let len = self.below(6);
        (0..len).map(|_| b'a' + (self.byte() % 3)).collect()
    }

    /// Fill lower directory `rel` (depth `depth`) with entries decided by the input.
    fn lower_dir(
        &mut self,
        rel: &str,
        depth: usize,
        lower: &mut BTreeMap<String, LowerNode>,
        blobs: &mut BTreeMap<Sha256, Arc<[u8]>>,
    ) {
        for name in NAMES {
            let path = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
            match self.below(8) {
                0..=2 => {}
                3 | 4 => {
                    let bytes = self.bytes();
                    let h = sha256(&bytes);
                    lower.insert(
                        path,
                        LowerNode::File { sha256: h, size: bytes.len() as u64, perm: 0o644, mtime_ms: 5 },
                    );
                    blobs.insert(h, bytes.into());
                }
                5 | 6 if depth < 2 => {
                    lower.insert(path.clone(), LowerNode::Dir { perm: 0o755, mtime_ms: 5 });
                    self.lower_dir(&path, depth + 1, lower, blobs);
                }
                5 | 6 => {}
                _ => {
                    let target = self.target();
                    lower.insert(path, LowerNode::Symlink { target, mtime_ms: 5 });
                }
            }
        }
    }
}

// ---- the lower layer

/// The lower tree by mount-relative path (what `lower_tests.rs`'s MemLower is).
struct MemLower {
    nodes: BTreeMap<String, LowerNode>,
    blobs: BTreeMap<Sha256, Arc<[u8]>>,
}

impl MemLower {
    /// The layer's contract: the VFS asks only inside a directory it was told about.
    fn check_parent(&self, rel: &str, what: &str) {
        if rel.is_empty() {
            return;
        }
        let parent = rel.rsplit_once('/').map_or("", |(p, _)| p);
        assert!(
            matches!(self.nodes.get(parent), Some(LowerNode::Dir { .. })),
            "the layer was asked to {what} {rel:?}, whose parent is not a lower directory"
        );
    }
}

impl LowerLayer for MemLower {
    fn lstat(&mut self, rel: &str) -> VfsResult<LowerNode> {
        self.check_parent(rel, "lstat");
        Ok(self.nodes.get(rel).cloned().unwrap_or(LowerNode::Absent))
    }

    fn list(&mut self, rel: &str) -> VfsResult<Vec<(String, FileType)>> {
        self.check_parent(rel, "list");
        assert!(matches!(self.nodes.get(rel), Some(LowerNode::Dir { .. })), "listing {rel:?}, not a lower directory");
        let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
        Ok(self
            .nodes
            .iter()
            .filter_map(|(p, n)| {
                let name = p.strip_prefix(&prefix)?;
                if name.is_empty() || name.contains('/') {
                    return None;
                }
                Some((name.to_string(), lower_type(n)?))
            })
            .collect())
    }

    fn bytes(&mut self, h: &Sha256) -> VfsResult<Arc<[u8]>> {
        Ok(self.blobs.get(h).cloned().expect("the VFS asks only for hashes the layer gave"))
    }
}

fn lower_type(node: &LowerNode) -> Option<FileType> {
    match node {
        LowerNode::Absent => None,
        LowerNode::File { .. } => Some(FileType::File),
        LowerNode::Dir { .. } => Some(FileType::Dir),
        LowerNode::Symlink { .. } => Some(FileType::Symlink),
    }
}

// ---- operations

#[derive(Debug)]
enum Op {
    Mkdir(String),
    MkdirAll(String),
    Write(String, Vec<u8>),
    Append(String, Vec<u8>),
    Truncate(String, u64),
    Copy(String, String, bool),
    Unlink(String),
    Rmdir(String),
    RemoveAll(String),
    Rename(String, String),
    Link(String, String),
    Symlink(String, String),
    Readlink(String),
    ReadDir(String),
    Stat(String),
    Lstat(String),
    ReadFile(String),
    Open(String, u32),
    Read(u32, usize, Option<u64>),
    WriteFd(u32, Vec<u8>, Option<u64>),
    Close(u32),
    Diff,
    Rollback,
    Image,
}

impl Op {
    fn decode(input: &mut Input) -> Op {
        let fd = |input: &mut Input| 3 + input.below(4) as u32;
        let position = |input: &mut Input| (input.below(4) == 0).then(|| input.below(6) as u64);
        match input.below(30) {
            0 | 1 => Op::Mkdir(input.path()),
            2 => Op::MkdirAll(input.path()),
            3 | 4 => Op::Write(input.path(), input.bytes()),
            5 => Op::Append(input.path(), input.bytes()),
            6 => Op::Truncate(input.path(), input.below(5) as u64),
            7 => Op::Copy(input.path(), input.path(), input.below(2) == 0),
            8 | 9 => Op::Unlink(input.path()),
            10 => Op::Rmdir(input.path()),
            11 => Op::RemoveAll(input.path()),
            12..=14 => Op::Rename(input.path(), input.path()),
            15 => Op::Link(input.path(), input.path()),
            16 => Op::Symlink(input.target(), input.path()),
            17 => Op::Readlink(input.path()),
            18 => Op::ReadDir(input.path()),
            19 => Op::Stat(input.path()),
            20 => Op::Lstat(input.path()),
            21 => Op::ReadFile(input.path()),
            22 => Op::Open(input.path(), OPEN_FLAGS[input.below(OPEN_FLAGS.len())]),
            23 => Op::Read(fd(input), input.below(6), position(input)),
            24 => Op::WriteFd(fd(input), input.bytes(), position(input)),
            25 => Op::Close(fd(input)),
            26 => Op::Diff,
            27 => Op::Rollback,
            _ => Op::Image,
        }
    }
}

/// Model node identity → the VFS inode number first seen for it (and back).
#[derive(Default)]
struct Inos {
    ino: BTreeMap<u64, u64>,
    id: BTreeMap<u64, u64>,
}

impl Inos {
    fn see(&mut self, id: u64, ino: u64, op: &Op) {
        let known_ino = *self.ino.entry(id).or_insert(ino);
        let known_id = *self.id.entry(ino).or_insert(id);
        assert!(
            known_ino == ino && known_id == id,
            "{op:?}: inode {ino} for model node {id} (known: {known_ino}, {known_id})"
        );
    }
}

fn same<T: PartialEq + std::fmt::Debug>(op: &Op, vfs: VfsResult<T>, model: VfsResult<T>) {
    assert_eq!(vfs, model, "{op:?}: the VFS (left) and the model (right) disagree");
}

fn apply(vfs: &mut Vfs, model: &mut Model, inos: &mut Inos, op: &Op, now: f64, layer: &Arc<Mutex<MemLower>>) {
    match op {
        Op::Mkdir(p) => same(op, vfs.mkdir(p, 0o755, now), model.mkdir(p)),
        Op::MkdirAll(p) => same(op, vfs.mkdir_all(p, 0o755, now), model.mkdir_all(p)),
        Op::Write(p, data) => same(op, vfs.write_file(p, data, now), model.write(p, data, false)),
        Op::Append(p, data) => same(op, vfs.append_file(p, data, now), model.write(p, data, true)),
        Op::Truncate(p, len) => same(op, vfs.truncate(p, *len, now), model.truncate(p, *len)),
        Op::Copy(from, to, excl) => same(op, vfs.copy_file(from, to, *excl, now), model.copy(from, to, *excl)),
        Op::Unlink(p) => same(op, vfs.unlink(p, now), model.unlink(p)),
        Op::Rmdir(p) => same(op, vfs.rmdir(p, now), model.rmdir(p)),
        Op::RemoveAll(p) => same(op, vfs.remove_all(p, now), model.remove_all(p)),
        Op::Rename(from, to) => same(op, vfs.rename(from, to, now), model.rename(from, to)),
        Op::Link(existing, p) => same(op, vfs.link(existing, p, now), model.link(existing, p)),
        Op::Symlink(target, p) => same(op, vfs.symlink(target, p, now), model.symlink(target, p)),
        Op::Readlink(p) => same(op, vfs.readlink(p), model.readlink(p)),
        Op::ReadDir(p) => same(op, vfs.read_dir(p), model.read_dir(p)),
        Op::Stat(p) | Op::Lstat(p) => {
            let follow = matches!(op, Op::Stat(_));
            let stat = if follow { vfs.stat(p) } else { vfs.lstat(p) };
            let expected = model.stat(p, follow);
            if let (Ok(st), Ok((id, ..))) = (&stat, &expected) {
                inos.see(*id, st.ino, op);
            }
            let stat = stat.map(|st| (st.file_type().expect("a known file type"), st.size));
            same(op, stat, expected.map(|(_, kind, size)| (kind, size)));
        }
        Op::ReadFile(p) => same(op, vfs.read_file(p).map(<[u8]>::to_vec), model.read_file(p)),
        Op::Open(p, flags) => same(op, vfs.open(p, *flags, 0o644, now), model.open(p, *flags)),
        Op::Read(fd, len, position) => same(op, vfs.read(*fd, *len, *position), model.read(*fd, *len, *position)),
        Op::WriteFd(fd, data, position) => {
            same(op, vfs.write(*fd, data, *position, now), model.write_fd(*fd, data, *position))
        }
        Op::Close(fd) => same(op, vfs.close(*fd), model.close(*fd)),
        Op::Diff => same(op, vfs.diff(), Ok(model.diff())),
        Op::Rollback => {
            same(op, vfs.rollback(now), Ok(()));
            model.rollback();
        }
        Op::Image => {
            let config = bincode::config::standard();
            let bytes = bincode::serde::encode_to_vec(&*vfs, config).expect("a tree encodes");
            let (mut restored, used): (Vfs, usize) =
                bincode::serde::decode_from_slice(&bytes, config).expect("an image of a tree decodes");
            assert_eq!(used, bytes.len(), "the image is read whole");
            assert_eq!(restored, *vfs, "the restored tree equals the imaged one");
            let again = bincode::serde::encode_to_vec(&restored, config).expect("a tree encodes");
            assert!(again == bytes, "the restored tree encodes to the same bytes");
            restored.attach_lower(layer.clone());
            *vfs = restored;
        }
    }
}

/// The whole merged view, checked on a copy of the tree (probing it all would make the real
/// tree eager): types, sizes, listings, bytes, and the diff.
fn check_merged_view(vfs: &Vfs, model: &Model, op: &Op) {
    // The diff first, on the tree as lazy as the program left it.
    let mut copy = vfs.clone();
    assert_eq!(copy.diff(), Ok(model.diff()), "after {op:?}: the diff (left) and the model's changes (right)");
    let mut copy = vfs.clone();
    for (path, node) in &model.nodes {
        let st = copy.lstat(path).unwrap_or_else(|e| panic!("after {op:?}: lstat {path}: {e:?}, the model has it"));
        let kind = st.file_type().expect("a known file type");
        assert_eq!(kind, node.kind.file_type(), "after {op:?}: the type of {path}");
        match &node.kind {
            Kind::Dir { .. } => {
                assert_eq!(copy.read_dir(path), Ok(model.children(path)), "after {op:?}: the listing of {path}");
            }
            Kind::File => {
                let bytes = &model.contents[&node.id];
                assert_eq!(st.size, bytes.len() as u64, "after {op:?}: the size of {path}");
                assert_eq!(copy.read_file(path), Ok(&bytes[..]), "after {op:?}: the bytes of {path}");
            }
            Kind::Symlink(target) => {
                assert_eq!(copy.readlink(path).as_ref(), Ok(target), "after {op:?}: the target of {path}");
            }
        }
    }
    assert_eq!(copy.diff(), Ok(model.diff()), "after {op:?}: the diff of the materialized tree");
}

// ---- the model

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    File,
    /// `mirrors`: the mount-relative lower path whose entries the directory shows (a lower
    /// directory, also once renamed), or None (made by the program: opaque).
    Dir {
        mirrors: Option<String>,
    },
    Symlink(String),
}

impl Kind {
    fn file_type(&self) -> FileType {
        match self {
            Kind::File => FileType::File,
            Kind::Dir { .. } => FileType::Dir,
            Kind::Symlink(_) => FileType::Symlink,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// Identity: hard links share it, a file's bytes are keyed by it.
    id: u64,
    kind: Kind,
}

#[derive(Clone, Debug)]
struct Fd {
    id: u64,
    dir: bool,
    flags: u32,
    position: u64,
}

/// The merged view, with no layers (module docs).
struct Model {
    at: String,
    lower: BTreeMap<String, LowerNode>,
    blobs: BTreeMap<Sha256, Arc<[u8]>>,
    /// Absolute path → node, `/` included.
    nodes: BTreeMap<String, Node>,
    /// File identity → bytes (kept while a descriptor holds an unlinked file).
    contents: BTreeMap<u64, Vec<u8>>,
    fds: BTreeMap<u32, Fd>,
    next_id: u64,
}

type R<T> = Result<T, VfsError>;

impl Model {
    fn new(at: &str, lower: BTreeMap<String, LowerNode>, blobs: BTreeMap<Sha256, Arc<[u8]>>) -> Model {
        let mut model = Model {
            at: at.to_string(),
            lower,
            blobs,
            nodes: BTreeMap::new(),
            contents: BTreeMap::new(),
            fds: BTreeMap::new(),
            next_id: 1,
        };
        let root = model.fresh(Kind::Dir { mirrors: None });
        model.nodes.insert("/".into(), root);
        if at != "/" {
            let mount = model.fresh(Kind::Dir { mirrors: Some(String::new()) });
            model.nodes.insert(at.to_string(), mount);
        }
        model.place_lower();
        model
    }

    fn fresh(&mut self, kind: Kind) -> Node {
        self.next_id += 1;
        if kind == Kind::File {
            self.contents.insert(self.next_id, Vec::new());
        }
        Node { id: self.next_id, kind }
    }

    /// The lower tree, placed under the mount (fresh identities).
    fn place_lower(&mut self) {
        let lower = self.lower.clone();
        for (rel, node) in &lower {
            let path = self.abs(rel);
            let kind = match node {
                LowerNode::Absent => continue,
                LowerNode::Dir { .. } => Kind::Dir { mirrors: Some(rel.clone()) },
                LowerNode::File { sha256, .. } => {
                    let node = self.fresh(Kind::File);
                    let bytes = self.lower_bytes(sha256);
                    self.contents.insert(node.id, bytes);
                    self.nodes.insert(path, node);
                    continue;
                }
                LowerNode::Symlink { target, .. } => Kind::Symlink(target.clone()),
            };
            if rel.is_empty() {
                // The mount directory itself (the root when mounted on `/`).
                let root = self.nodes.get_mut(&path).expect("the mount directory");
                root.kind = kind;
                continue;
            }
            let node = self.fresh(kind);
            self.nodes.insert(path, node);
        }
    }

    fn lower_bytes(&self, h: &Sha256) -> Vec<u8> {
        self.blobs.get(h).map(|b| b.to_vec()).expect("every lower file's bytes")
    }

    fn abs(&self, rel: &str) -> String {
        match (self.at.as_str(), rel) {
            (at, "") => at.to_string(),
            ("/", rel) => format!("/{rel}"),
            (at, rel) => format!("{at}/{rel}"),
        }
    }

    /// `path`'s mount-relative form, if it is the mount or below it.
    fn rel(&self, path: &str) -> Option<String> {
        if path == self.at {
            return Some(String::new());
        }
        let prefix = if self.at == "/" { "/".to_string() } else { format!("{}/", self.at) };
        path.strip_prefix(&prefix).map(str::to_string)
    }

    /// Whether removing or renaming the directory at `path` would take the mount with it.
    fn holds_mount(&self, path: &str) -> bool {
        self.at == path || self.at.starts_with(&format!("{path}/"))
    }

    fn is_dir(&self, path: &str) -> bool {
        matches!(self.nodes.get(path), Some(Node { kind: Kind::Dir { .. }, .. }))
    }

    /// The entries directly in directory `dir`, in name order, with their types.
    fn children(&self, dir: &str) -> Vec<(String, FileType)> {
        let prefix = if dir == "/" { "/".to_string() } else { format!("{dir}/") };
        self.nodes
            .range(prefix.clone()..)
            .take_while(|(p, _)| p.starts_with(&prefix))
            .filter_map(|(p, n)| {
                let name = &p[prefix.len()..];
                (!name.is_empty() && !name.contains('/')).then(|| (name.to_string(), n.kind.file_type()))
            })
            .collect()
    }

    /// `path` and everything below it.
    fn subtree(&self, path: &str) -> Vec<String> {
        let prefix = format!("{path}/");
        let mut out = vec![path.to_string()];
        out.extend(
            self.nodes.range(prefix.clone()..).take_while(|(p, _)| p.starts_with(&prefix)).map(|(p, _)| p.clone()),
        );
        out
    }

    // -- resolution (Vfs::walk's rules: lexical `..`, symlinks expanded in place, ELOOP past 40)

    fn walk(&self, abs: &str, follow_last: bool) -> R<String> {
        let mut stack: Vec<String> = Vec::new();
        let mut pending: VecDeque<String> = segments(abs).map(str::to_string).collect();
        let mut links = 0;
        while let Some(name) = pending.pop_front() {
            match name.as_str() {
                "." => continue,
                ".." => {
                    stack.pop();
                    continue;
                }
                _ => {}
            }
            let cur = join_all(&stack);
            if !self.is_dir(&cur) {
                return Err(VfsError::NotDir);
            }
            let child = join(&cur, &name);
            let node = self.nodes.get(&child).ok_or(VfsError::NoEnt)?;
            if let Kind::Symlink(target) = &node.kind {
                if !pending.is_empty() || follow_last {
                    links += 1;
                    if links > MAX_SYMLINKS {
                        return Err(VfsError::Loop);
                    }
                    if target.is_empty() {
                        return Err(VfsError::NoEnt);
                    }
                    if target.starts_with('/') {
                        stack.clear();
                    }
                    let mut expanded: VecDeque<String> = segments(target).map(str::to_string).collect();
                    expanded.extend(pending.drain(..));
                    pending = expanded;
                    continue;
                }
            }
            stack.push(name);
        }
        Ok(join_all(&stack))
    }

    /// The directory holding `path` (followed) and the final name (empty for `/`).
    fn walk_parent(&self, path: &str) -> R<(String, String)> {
        let abs = normalize("/", path)?;
        let (parent, name) = split_parent(&abs);
        let dir = self.walk(parent, true)?;
        if !self.is_dir(&dir) {
            return Err(VfsError::NotDir);
        }
        Ok((dir, name.to_string()))
    }

    fn node(&self, path: &str) -> &Node {
        self.nodes.get(path).expect("a resolved path names a node")
    }

    // -- operations (each mirrors the order in which the VFS checks its errors)

    fn mkdir(&mut self, path: &str) -> R<()> {
        let (dir, name) = self.walk_parent(path)?;
        let full = join(&dir, &name);
        if name.is_empty() || self.nodes.contains_key(&full) {
            return Err(VfsError::Exist);
        }
        let node = self.fresh(Kind::Dir { mirrors: None });
        self.nodes.insert(full, node);
        Ok(())
    }

    fn mkdir_all(&mut self, path: &str) -> R<Option<String>> {
        let mut first = None;
        let mut prefix = String::new();
        let count = segments(path).count();
        for (i, seg) in segments(path).enumerate() {
            prefix.push('/');
            prefix.push_str(seg);
            match self.walk(&prefix, true) {
                Ok(r) if self.is_dir(&r) => {}
                Ok(_) => return Err(if i + 1 == count { VfsError::Exist } else { VfsError::NotDir }),
                Err(VfsError::NoEnt) => {
                    self.mkdir(&prefix)?;
                    first.get_or_insert_with(|| prefix.clone());
                }
                Err(e) => return Err(e),
            }
        }
        Ok(first)
    }

    /// The file `path` names, created if absent (Vfs::open_file_inode).
    fn open_file(&mut self, path: &str) -> R<u64> {
        match self.walk(path, true) {
            Ok(r) if self.is_dir(&r) => Err(VfsError::IsDir),
            Ok(r) => Ok(self.node(&r).id),
            Err(VfsError::NoEnt) => self.create_file(path, 0),
            Err(e) => Err(e),
        }
    }

    /// Vfs::create_file: a dangling symlink at `path` creates its target.
    fn create_file(&mut self, path: &str, depth: usize) -> R<u64> {
        assert!(depth <= MAX_SYMLINKS as usize + 1, "creating through {depth} dangling symlinks");
        if wants_directory(path) {
            return Err(VfsError::IsDir);
        }
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::IsDir);
        }
        let full = join(&dir, &name);
        if let Some(existing) = self.nodes.get(&full) {
            if let Kind::Symlink(target) = &existing.kind {
                let target = normalize(&dir, target)?;
                if self.walk(&target, true).is_err() {
                    return self.create_file(&target, depth + 1);
                }
            }
            return Err(VfsError::Exist);
        }
        let node = self.fresh(Kind::File);
        let id = node.id;
        self.nodes.insert(full, node);
        Ok(id)
    }

    fn write(&mut self, path: &str, data: &[u8], append: bool) -> R<()> {
        let id = self.open_file(path)?;
        let bytes = self.contents.get_mut(&id).expect("a file has bytes");
        if !append {
            bytes.clear();
        }
        bytes.extend_from_slice(data);
        Ok(())
    }

    fn truncate(&mut self, path: &str, len: u64) -> R<()> {
        let r = self.walk(path, true)?;
        if self.is_dir(&r) {
            return Err(VfsError::IsDir);
        }
        let id = self.node(&r).id;
        self.contents.get_mut(&id).expect("a file has bytes").resize(len as usize, 0);
        Ok(())
    }

    fn copy(&mut self, from: &str, to: &str, exclusive: bool) -> R<()> {
        let data = self.read_file(from)?;
        let id = match self.walk(to, true) {
            Ok(_) if exclusive => return Err(VfsError::Exist),
            Ok(r) if self.is_dir(&r) => return Err(VfsError::IsDir),
            Ok(r) => self.node(&r).id,
            Err(VfsError::NoEnt) => self.create_file(to, 0)?,
            Err(e) => return Err(e),
        };
        self.contents.insert(id, data);
        Ok(())
    }

    fn unlink(&mut self, path: &str) -> R<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::IsDir);
        }
        let full = join(&dir, &name);
        let node = self.nodes.get(&full).ok_or(VfsError::NoEnt)?;
        if matches!(node.kind, Kind::Dir { .. }) {
            return Err(VfsError::IsDir);
        }
        self.nodes.remove(&full);
        Ok(())
    }

    fn rmdir(&mut self, path: &str) -> R<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::Busy);
        }
        let full = join(&dir, &name);
        let node = self.nodes.get(&full).ok_or(VfsError::NoEnt)?;
        if !matches!(node.kind, Kind::Dir { .. }) {
            return Err(VfsError::NotDir);
        }
        if self.holds_mount(&full) {
            return Err(VfsError::Busy);
        }
        if !self.children(&full).is_empty() {
            return Err(VfsError::NotEmpty);
        }
        self.nodes.remove(&full);
        Ok(())
    }

    fn remove_all(&mut self, path: &str) -> R<()> {
        let (dir, name) = self.walk_parent(path)?;
        if name.is_empty() {
            return Err(VfsError::Busy);
        }
        let full = join(&dir, &name);
        if !self.nodes.contains_key(&full) {
            return Err(VfsError::NoEnt);
        }
        if self.holds_mount(&full) {
            return Err(VfsError::Busy);
        }
        for p in self.subtree(&full) {
            self.nodes.remove(&p);
        }
        Ok(())
    }

    fn rename(&mut self, from: &str, to: &str) -> R<()> {
        let (from_dir, from_name) = self.walk_parent(from)?;
        if from_name.is_empty() {
            return Err(VfsError::Busy);
        }
        let from_path = join(&from_dir, &from_name);
        let moving = self.nodes.get(&from_path).ok_or(VfsError::NoEnt)?.clone();
        let (to_dir, to_name) = self.walk_parent(to)?;
        if to_name.is_empty() {
            return Err(VfsError::Busy);
        }
        let moving_dir = matches!(moving.kind, Kind::Dir { .. });
        if moving_dir && self.holds_mount(&from_path) {
            return Err(VfsError::Busy);
        }
        if moving_dir && (to_dir == from_path || to_dir.starts_with(&format!("{from_path}/"))) {
            return Err(VfsError::Inval);
        }
        let to_path = join(&to_dir, &to_name);
        if let Some(existing) = self.nodes.get(&to_path) {
            if existing.id == moving.id {
                return Ok(());
            }
            let existing_dir = matches!(existing.kind, Kind::Dir { .. });
            if existing_dir && self.holds_mount(&to_path) {
                return Err(VfsError::Busy);
            }
            if existing_dir && moving_dir && !self.children(&to_path).is_empty() {
                return Err(VfsError::NotEmpty);
            }
            match (existing_dir, moving_dir) {
                (true, false) => return Err(VfsError::IsDir),
                (false, true) => return Err(VfsError::NotDir),
                _ => {}
            }
            self.nodes.remove(&to_path);
        }
        for p in self.subtree(&from_path) {
            let node = self.nodes.remove(&p).expect("a subtree path");
            self.nodes.insert(format!("{to_path}{}", &p[from_path.len()..]), node);
        }
        Ok(())
    }

    fn link(&mut self, existing: &str, path: &str) -> R<()> {
        let r = self.walk(&normalize("/", existing)?, false)?;
        let node = self.node(&r).clone();
        if matches!(node.kind, Kind::Dir { .. }) {
            return Err(VfsError::Perm);
        }
        let (dir, name) = self.walk_parent(path)?;
        let full = join(&dir, &name);
        if name.is_empty() || self.nodes.contains_key(&full) {
            return Err(VfsError::Exist);
        }
        self.nodes.insert(full, node);
        Ok(())
    }

    fn symlink(&mut self, target: &str, path: &str) -> R<()> {
        let (dir, name) = self.walk_parent(path)?;
        let full = join(&dir, &name);
        if name.is_empty() || self.nodes.contains_key(&full) {
            return Err(VfsError::Exist);
        }
        let node = self.fresh(Kind::Symlink(target.to_string()));
        self.nodes.insert(full, node);
        Ok(())
    }

    fn readlink(&self, path: &str) -> R<String> {
        let r = self.walk(path, false)?;
        match &self.node(&r).kind {
            Kind::Symlink(t) => Ok(t.clone()),
            _ => Err(VfsError::Inval),
        }
    }

    fn read_dir(&self, path: &str) -> R<Vec<(String, FileType)>> {
        let r = self.walk(path, true)?;
        if !self.is_dir(&r) {
            return Err(VfsError::NotDir);
        }
        Ok(self.children(&r))
    }

    /// (identity, type, size) of what `path` names.
    fn stat(&self, path: &str, follow: bool) -> R<(u64, FileType, u64)> {
        let r = self.walk(path, follow)?;
        let node = self.node(&r);
        let size = match &node.kind {
            Kind::File => self.contents[&node.id].len() as u64,
            Kind::Dir { .. } => 4096,
            Kind::Symlink(t) => t.len() as u64,
        };
        Ok((node.id, node.kind.file_type(), size))
    }

    fn read_file(&self, path: &str) -> R<Vec<u8>> {
        let r = self.walk(path, true)?;
        let node = self.node(&r);
        match node.kind {
            Kind::File => Ok(self.contents[&node.id].clone()),
            Kind::Dir { .. } => Err(VfsError::IsDir),
            Kind::Symlink(_) => Err(VfsError::Loop),
        }
    }

    fn open(&mut self, path: &str, flags: u32) -> R<u32> {
        let writable = matches!(flags & O_ACCMODE, O_WRONLY | O_RDWR);
        let (id, dir) = match self.walk(path, true) {
            Ok(_) if flags & O_CREAT != 0 && flags & O_EXCL != 0 => return Err(VfsError::Exist),
            Ok(r) => {
                let node = self.node(&r).clone();
                let dir = matches!(node.kind, Kind::Dir { .. });
                if dir && (writable || flags & O_CREAT != 0) {
                    return Err(VfsError::IsDir);
                }
                if !dir && flags & O_DIRECTORY != 0 {
                    return Err(VfsError::NotDir);
                }
                if !dir && flags & O_TRUNC != 0 && writable {
                    self.contents.get_mut(&node.id).expect("a file has bytes").clear();
                }
                (node.id, dir)
            }
            Err(VfsError::NoEnt) if flags & O_CREAT != 0 => {
                if flags & O_EXCL != 0 && self.walk(path, false).is_ok() {
                    return Err(VfsError::Exist);
                }
                (self.create_file(path, 0)?, false)
            }
            Err(e) => return Err(e),
        };
        let fd = (3..).find(|fd| !self.fds.contains_key(fd)).expect("a free descriptor");
        self.fds.insert(fd, Fd { id, dir, flags, position: 0 });
        Ok(fd)
    }

    fn read(&mut self, fd: u32, len: usize, position: Option<u64>) -> R<Vec<u8>> {
        let file = self.fds.get_mut(&fd).ok_or(VfsError::BadF)?;
        if !matches!(file.flags & O_ACCMODE, O_RDONLY | O_RDWR) {
            return Err(VfsError::BadF);
        }
        if file.dir {
            return Err(VfsError::IsDir);
        }
        let bytes = &self.contents[&file.id];
        let start = position.unwrap_or(file.position);
        let from = (start as usize).min(bytes.len());
        let to = (from + len).min(bytes.len());
        let out = bytes[from..to].to_vec();
        if position.is_none() {
            file.position = start + out.len() as u64;
        }
        Ok(out)
    }

    fn write_fd(&mut self, fd: u32, data: &[u8], position: Option<u64>) -> R<usize> {
        let file = self.fds.get_mut(&fd).ok_or(VfsError::BadF)?;
        if !matches!(file.flags & O_ACCMODE, O_WRONLY | O_RDWR) {
            return Err(VfsError::BadF);
        }
        let bytes = self.contents.get_mut(&file.id).expect("a file has bytes");
        let append = file.flags & O_APPEND != 0;
        let start = if append { bytes.len() } else { position.unwrap_or(file.position) as usize };
        let end = start + data.len();
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[start..end].copy_from_slice(data);
        if position.is_none() || append {
            file.position = end as u64;
        }
        Ok(data.len())
    }

    fn close(&mut self, fd: u32) -> R<()> {
        self.fds.remove(&fd).map(drop).ok_or(VfsError::BadF)
    }

    /// Drops everything under the mount and places the lower tree there again. A node whose
    /// every name was under the mount is gone, and descriptors on it close; one also named
    /// elsewhere (a hard link outside) lives on.
    fn rollback(&mut self) {
        let under: Vec<String> =
            self.nodes.keys().filter(|p| self.rel(p).is_some_and(|r| !r.is_empty())).cloned().collect();
        let mut dropped: Vec<u64> = Vec::new();
        for p in &under {
            dropped.push(self.nodes.remove(p).expect("listed").id);
        }
        dropped.retain(|id| !self.nodes.values().any(|n| n.id == *id));
        self.fds.retain(|_, f| !dropped.contains(&f.id));
        if let Some(mount) = self.nodes.get_mut(&self.at) {
            mount.kind = Kind::Dir { mirrors: Some(String::new()) };
        }
        self.place_lower();
    }

    /// Whether the directory at `path` continues the lower layer: the mount does; below it, a
    /// directory that mirrors the lower directory at its own path under a continuing parent.
    fn continues(&self, path: &str) -> bool {
        if path == self.at {
            return true;
        }
        let Some(rel) = self.rel(path) else { return false };
        let mirrors_own = matches!(
            self.nodes.get(path),
            Some(Node { kind: Kind::Dir { mirrors }, .. }) if mirrors.as_deref() == Some(rel.as_str())
        );
        mirrors_own && self.continues(split_parent(path).0)
    }

    /// The changes of the merged view against the lower tree, as `Vfs::diff` promises them
    /// (what `fs commit` must apply to turn the host folder into the merged view), in path
    /// order: beneath a directory that does not continue the lower layer everything is added;
    /// beneath one that does, each entry is compared with the lower one (another type:
    /// deleted, then added; a directory continues or replaces), and a lower entry gone from
    /// the view is deleted.
    fn diff(&self) -> Vec<Change> {
        let mut changes = Vec::new();
        for (path, node) in &self.nodes {
            let Some(rel) = self.rel(path) else { continue };
            if rel.is_empty() {
                continue;
            }
            let kind = node.kind.file_type();
            if !self.continues(split_parent(path).0) {
                changes.push(Change::Added { path: path.clone(), kind });
                continue;
            }
            let lower = self.lower.get(&rel).filter(|n| !matches!(n, LowerNode::Absent));
            let unchanged = match (lower, &node.kind) {
                (Some(LowerNode::File { sha256: h, .. }), Kind::File) => sha256(&self.contents[&node.id]) == *h,
                (Some(LowerNode::Symlink { target, .. }), Kind::Symlink(t)) => target == t,
                (Some(LowerNode::Dir { .. }), Kind::Dir { mirrors }) => mirrors.as_deref() == Some(rel.as_str()),
                _ => false,
            };
            match lower.and_then(lower_type) {
                _ if unchanged => {}
                Some(old) if old == kind && kind != FileType::Dir => {
                    changes.push(Change::Modified { path: path.clone(), kind });
                }
                Some(old) => {
                    changes.push(Change::Deleted { path: path.clone(), kind: old });
                    changes.push(Change::Added { path: path.clone(), kind });
                }
                None => changes.push(Change::Added { path: path.clone(), kind }),
            }
        }
        for (rel, node) in &self.lower {
            let Some(kind) = lower_type(node) else { continue };
            let path = self.abs(rel);
            if rel.is_empty() || self.nodes.contains_key(&path) {
                continue;
            }
            if self.continues(split_parent(&path).0) {
                changes.push(Change::Deleted { path, kind });
            }
        }
        changes.sort_by(|a, b| a.path().cmp(b.path()));
        changes
    }
}

fn join(dir: &str, name: &str) -> String {
    if name.is_empty() {
        dir.to_string()
    } else {
        amber_engine::vfs::normalize::join_name(dir, name)
    }
}

fn join_all(stack: &[String]) -> String {
    if stack.is_empty() {
        "/".to_string()
    } else {
        stack.iter().map(|s| format!("/{s}")).collect()
    }
}
