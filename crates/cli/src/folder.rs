//! The host folder of `amber run`: the overlay VFS's lower layer (docs/vfs.md). The folder is
//! `--fs DIR`, or by default the project root of the entry file ([`project_root`]); it is
//! mounted at its own canonical path, read lazily, and every first read is captured in the
//! journal (bytes as blobs in the store). Which folder a session uses is stored with it as the
//! reserved source [`FOLDER_SOURCE`], so resume, replay and recovery open the same one — or,
//! when it is gone, answer everything from the journal and the store.

use std::path::{Path, PathBuf};

use amber::durable::store::{LoadedSession, Source};
use amber::lower::{store_blobs, HostFolder};
use amber::seed::VfsSeed;
use amber::RuntimeBuilder;
use serde_json::json;

use crate::error::{CliResult, Failure};

/// The reserved source path holding a session's folder ([`FolderSpec`], JSON).
pub const FOLDER_SOURCE: &str = "amber:fs.json";
/// The reserved source path of a VFS seed, which sessions of earlier versions stored (a copy
/// of their folder); a replay of such a session still starts from it.
pub const SEED_SOURCE: &str = "amber:vfs-seed.json";

/// Which host folder a run mounts, where, and what it starts in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderSpec {
    /// The folder's canonical host path, which is also where it is mounted in the VFS.
    pub root: String,
    /// The working directory the run starts in.
    pub cwd: String,
    /// Mount-relative paths shown although hidden by default (`--fs-reveal`).
    pub reveal: Vec<String>,
}

/// The default folder for `entry`: the nearest ancestor of its directory holding a
/// `package.json` — continued up to an enclosing workspace root (a `package.json` with
/// `workspaces`) whose `node_modules` the packages share — else the entry's directory.
/// An entry inside an installed package (a path through `node_modules`, such as a package's
/// own test file) starts the search from the project that installed it: node resolves the
/// package's dependencies in the enclosing `node_modules` folders, which must be inside.
pub fn project_root(entry: &Path) -> PathBuf {
    let dir = entry.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    let installer = dir.ancestors().filter(|d| d.file_name().is_some_and(|n| n == "node_modules")).last();
    let dir = match installer.and_then(Path::parent) {
        Some(project) => project.to_path_buf(),
        None => dir,
    };
    let Some(package) = dir.ancestors().find(|d| d.join("package.json").is_file()) else { return dir };
    let workspace = package.ancestors().skip(1).find(|d| {
        std::fs::read_to_string(d.join("package.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|v| v.get("workspaces").is_some())
    });
    workspace.unwrap_or(package).to_path_buf()
}

impl FolderSpec {
    /// The spec of a fresh run: `root` canonicalized; the host's cwd if it lies inside.
    pub fn new(root: &Path, reveal: Vec<String>) -> CliResult<FolderSpec> {
        let canonical =
            std::fs::canonicalize(root).map_err(|e| Failure::usage(format!("--fs {}: {e}", root.display())))?;
        if !canonical.is_dir() {
            return Err(Failure::usage(format!("--fs {}: not a directory", root.display())));
        }
        let text = |p: &Path| p.to_str().map(str::to_string);
        let root_text = text(&canonical)
            .ok_or_else(|| Failure::usage(format!("--fs {}: the path is not UTF-8", root.display())))?;
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|c| std::fs::canonicalize(c).ok())
            .filter(|c| c.starts_with(&canonical))
            .and_then(|c| text(&c))
            .unwrap_or_else(|| root_text.clone());
        Ok(FolderSpec { root: root_text, cwd, reveal })
    }

    /// The spec as a session source.
    pub fn source(&self) -> Source {
        let text = json!({ "root": self.root, "cwd": self.cwd, "reveal": self.reveal }).to_string();
        Source::new(FOLDER_SOURCE, &text)
    }

    /// The spec a session stored, if it stored one.
    pub fn of_session(loaded: &LoadedSession) -> CliResult<Option<FolderSpec>> {
        FolderSpec::of_sources(&loaded.meta.name, &loaded.sources)
    }

    /// The spec among session `name`'s sources (a stored session's or an export's), if any.
    pub fn of_sources(name: &str, sources: &[Source]) -> CliResult<Option<FolderSpec>> {
        let Some(source) = sources.iter().find(|s| s.path == FOLDER_SOURCE) else { return Ok(None) };
        let bad = || Failure::integrity(format!("session {name}: corrupt {FOLDER_SOURCE}"));
        let v: serde_json::Value = serde_json::from_str(&source.text).map_err(|_| bad())?;
        let text = |key: &str| v[key].as_str().map(str::to_string).ok_or_else(bad);
        let reveal = match v["reveal"].as_array() {
            Some(items) => {
                items.iter().map(|i| i.as_str().map(str::to_string).ok_or_else(bad)).collect::<Result<_, _>>()?
            }
            None => Vec::new(),
        };
        Ok(Some(FolderSpec { root: text("root")?, cwd: text("cwd")?, reveal }))
    }

    /// `builder` with this folder as the lower layer: the host folder if it can be opened,
    /// else a folder that is gone (the journal and `store_dir`'s blobs answer).
    pub fn mount(&self, builder: RuntimeBuilder, store_dir: &Path) -> RuntimeBuilder {
        self.attach(builder, self.open(store_dir), store_dir)
    }

    /// The folder as a lower layer (not yet mounted): the host folder if it can be opened,
    /// else a folder that is gone.
    fn open(&self, store_dir: &Path) -> HostFolder {
        let root = Path::new(&self.root);
        let folder = match HostFolder::open(root, &[store_dir.to_path_buf()], Some(store_blobs(store_dir))) {
            Ok(folder) => folder,
            Err(_) => HostFolder::absent(root, Some(store_blobs(store_dir))),
        };
        self.reveal.iter().fold(folder, |f, rel| f.reveal(rel))
    }

    fn attach(&self, builder: RuntimeBuilder, folder: HostFolder, store_dir: &Path) -> RuntimeBuilder {
        builder.blob_source(store_blobs(store_dir)).lower_folder(folder, &self.root, &self.cwd)
    }

    /// `path` relative to the folder, if it lies inside.
    pub fn relative<'a>(&self, path: &'a str) -> Option<&'a str> {
        path.strip_prefix(self.root.trim_end_matches('/'))?.strip_prefix('/')
    }
}

/// `builder` with whatever files `loaded` runs over: its folder — where the session's own
/// module sources (an upgrade's new code) stand in for the folder's files — or (a session of
/// an earlier version) its stored seed.
pub fn with_session_files(
    builder: RuntimeBuilder,
    loaded: &LoadedSession,
    store_dir: &Path,
) -> CliResult<RuntimeBuilder> {
    with_session_files_upgrading(builder, loaded, store_dir, None)
}

/// [`with_session_files`] for `amber upgrade` from a folder: the new code's files in
/// `upgrade_from` stand in for those the journal captured when they differ.
pub fn with_session_files_upgrading(
    builder: RuntimeBuilder,
    loaded: &LoadedSession,
    store_dir: &Path,
    upgrade_from: Option<&Path>,
) -> CliResult<RuntimeBuilder> {
    if let Some(spec) = FolderSpec::of_session(loaded)? {
        let folder = code_files(&spec, loaded).fold(spec.open(store_dir), |f, (rel, text)| f.with_code_file(rel, text));
        let folder = match upgrade_from {
            Some(dir) => folder.upgrading_from(dir).map_err(Failure::usage)?,
            None => folder,
        };
        return Ok(spec.attach(builder, folder, store_dir));
    }
    if upgrade_from.is_some() {
        return Err(Failure::usage(format!(
            "session {} runs over a stored copy of its files (an earlier version's): only its entry can be upgraded (--program FILE)",
            loaded.meta.name
        )));
    }
    match loaded.sources.iter().find(|s| s.path == SEED_SOURCE) {
        None => Ok(builder.blob_source(store_blobs(store_dir))),
        Some(s) => {
            let seed = VfsSeed::decode(&s.text)
                .map_err(|e| Failure::integrity(format!("session {}: {e}", loaded.meta.name)))?;
            Ok(builder.blob_source(store_blobs(store_dir)).vfs_seed(seed))
        }
    }
}

/// The session's sources that stand in for files of its folder: every stored module inside
/// the folder except the entry (which the run is given as its program), by relative path.
fn code_files<'a>(spec: &'a FolderSpec, loaded: &'a LoadedSession) -> impl Iterator<Item = (&'a str, &'a str)> {
    loaded
        .sources
        .iter()
        .filter(|s| s.path != loaded.meta.entry)
        .filter_map(|s| Some((spec.relative(&s.path)?, s.text.as_str())))
}
