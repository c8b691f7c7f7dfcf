//! What the JS behaviour runners share: the corpus, the test modes, and the comparison with
//! the `.expected` files. The engine's runner (`crates/engine/tests/js_behaviour.rs`) runs
//! its corpus through the engine's embedding API; the CLI's (`crates/cli/tests/js_behaviour.rs`)
//! runs every corpus through the `amber` binary and includes this file by path. The modes and
//! how to run each locally: docs/testing.md.
#![allow(dead_code)] // each runner uses its part

use std::path::{Path, PathBuf};

/// Every `.js` and `.mjs` file under `dir`, in path order.
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "js" || e == "mjs") {
            out.push(p);
        }
    }
}

/// The repository's root, from a crate's manifest directory.
pub fn repo_root(manifest_dir: &str) -> PathBuf {
    Path::new(manifest_dir).join("../..")
}

/// The corpora of `crates/<krate>/tests/js` for each of `krates`.
pub fn corpus(root: &Path, krates: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in krates {
        collect(&root.join("crates").join(krate).join("tests/js"), &mut files);
    }
    assert!(!files.is_empty(), "no JS behaviour tests found under {krates:?}");
    files
}

/// The switches a program runs under. Each is one environment variable, the same for the
/// engine's runner and the `amber` binary (`amber::test_modes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `AMBER_GC_INTERVAL`: collect after this many allocations.
    pub gc_interval: Option<u64>,
    /// `AMBER_FAST_TIER=off`.
    pub fast_tier_off: bool,
    /// `AMBER_IMAGE_EVERY_TURN=1`.
    pub image_every_turn: bool,
}

pub const GC_INTERVAL: &str = "AMBER_GC_INTERVAL";
pub const FAST_TIER: &str = "AMBER_FAST_TIER";
pub const IMAGE_EVERY_TURN: &str = "AMBER_IMAGE_EVERY_TURN";

impl Settings {
    /// The switches set in this process's environment: the plain run takes them, so
    /// `AMBER_FAST_TIER=off cargo test …` runs the plain test in that mode.
    pub fn from_env() -> Settings {
        let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_ascii_lowercase());
        Settings {
            gc_interval: var(GC_INTERVAL).and_then(|v| v.parse().ok()).filter(|&n: &u64| n > 0),
            fast_tier_off: var(FAST_TIER).is_some_and(|v| matches!(v.as_str(), "off" | "0" | "false")),
            image_every_turn: var(IMAGE_EVERY_TURN).is_some_and(|v| matches!(v.as_str(), "1" | "on" | "true")),
        }
    }

    /// The environment that gives `amber` these settings: (variable, value or None to unset).
    pub fn env(&self) -> [(&'static str, Option<String>); 3] {
        [
            (GC_INTERVAL, self.gc_interval.map(|n| n.to_string())),
            (FAST_TIER, self.fast_tier_off.then(|| "off".to_string())),
            (IMAGE_EVERY_TURN, self.image_every_turn.then(|| "1".to_string())),
        ]
    }
}

/// A column of the test matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// As the program runs for a user (or as the environment's switches say).
    Plain,
    /// A collection after every allocation, at the next instruction boundary: a value that a
    /// native holds without a root across a call into JS is freed while still in use.
    GcStress,
    /// Every instruction on the general path: a fast-tier arm that is not an exact shortcut
    /// of its general arm changes the output.
    FastTierOff,
    /// An image at every turn of the event loop, the run going on from the restored image:
    /// state the image forgets changes the output.
    ImageEveryTurn,
}

/// The programs that allocate so much that collecting after every allocation would take
/// minutes: in the GC-stress mode they collect every N allocations instead (None: skipped).
/// Paths are relative to `crates/`.
pub const STRESS_EXCEPTIONS: &[(&str, Option<u64>)] = &[
    // Two million proxies; nothing in it holds a value across a call.
    ("engine/tests/js/proxy/deep.js", None),
    ("engine/tests/js/regexp/large.js", Some(50_000)),
    ("engine/tests/js/json/stringify.js", Some(20_000)),
    // The collection tests themselves: hundreds of thousands of objects each.
    ("engine/tests/js/map/gc.js", Some(2_000)),
    ("engine/tests/js/proxy/gc.js", Some(2_000)),
    ("engine/tests/js/promise/gc.js", Some(2_000)),
    ("engine/tests/js/module/dynamic_import_gc.mjs", Some(1_000)),
    ("engine/tests/js/module/dynamic_import_gc_dep.mjs", Some(1_000)),
];

impl Mode {
    /// The settings `file` runs with in this mode, or None when it is left out of it.
    pub fn settings(self, root: &Path, file: &Path) -> Option<Settings> {
        let rel = file.strip_prefix(root.join("crates")).unwrap_or(file);
        match self {
            Mode::Plain => Some(Settings::from_env()),
            Mode::GcStress => {
                let interval = match STRESS_EXCEPTIONS.iter().find(|(name, _)| rel == Path::new(name)) {
                    Some(&(_, interval)) => interval?,
                    None => 1,
                };
                Some(Settings { gc_interval: Some(interval), ..Settings::default() })
            }
            Mode::FastTierOff => Some(Settings { fast_tier_off: true, ..Settings::default() }),
            Mode::ImageEveryTurn => Some(Settings { image_every_turn: true, ..Settings::default() }),
        }
    }
}

/// Programs of the engine's corpus whose output depends on the Node layer around a script,
/// with why: the engine's runner leaves them out and the CLI's runs them in every mode.
/// Paths are relative to `crates/`.
pub const THROUGH_AMBER_ONLY: &[(&str, &str)] = &[(
    "engine/tests/js/errors/stack_frames.js",
    "the top-level frame is `Object.<anonymous>`: the CommonJS wrapper `amber run` (like node) \
     calls a script in, which a script the engine evaluates alone does not have",
)];

/// Whether `file` is one of [`THROUGH_AMBER_ONLY`].
pub fn through_amber_only(root: &Path, file: &Path) -> bool {
    let rel = file.strip_prefix(root.join("crates")).unwrap_or(file);
    THROUGH_AMBER_ONLY.iter().any(|(name, _)| rel == Path::new(name))
}

/// Every path in [`THROUGH_AMBER_ONLY`] names a file of `files`, so a renamed test cannot
/// silently leave its entry behind (and drop out of the engine's runner unseen).
pub fn check_through_amber_only(root: &Path, files: &[PathBuf]) {
    let crates = root.join("crates");
    for (name, _) in THROUGH_AMBER_ONLY {
        assert!(files.iter().any(|f| f.strip_prefix(&crates).is_ok_and(|p| p == Path::new(name))), "{name} is gone");
    }
}

/// Every path in [`STRESS_EXCEPTIONS`] that lies in one of `krates` still names a file of
/// `files`, so a renamed test cannot silently leave its exception behind.
pub fn check_stress_exceptions(root: &Path, files: &[PathBuf], krates: &[&str]) {
    let crates = root.join("crates");
    for (name, _) in STRESS_EXCEPTIONS {
        if !krates.iter().any(|k| name.starts_with(&format!("{k}/"))) {
            continue;
        }
        assert!(files.iter().any(|f| f.strip_prefix(&crates).is_ok_and(|p| p == Path::new(name))), "{name} is gone");
    }
}

/// The expected output of `file`: its `.expected` sibling, which must exist and not be empty
/// (a program that prints nothing proves nothing; it would pass whatever broke).
pub fn expected(file: &Path) -> Result<String, String> {
    let path = file.with_extension("expected");
    let how = format!(
        "generate it with node: cd {} && TZ=UTC node {} > {}",
        file.parent().map_or(String::new(), |d| d.display().to_string()),
        file.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
    );
    match std::fs::read_to_string(&path) {
        Err(e) => Err(format!("{} is missing ({e}): {how}", path.display())),
        Ok(text) if text.is_empty() => {
            Err(format!("{} is empty: a test must print what it checks; {how}", path.display()))
        }
        Ok(text) => Ok(text),
    }
}

/// Runs every file of `files` that `mode` includes (`run(file, settings)` gives its output:
/// stdout, then `--- exit N` and the first stderr line when it failed) and compares each with
/// its `.expected`. `UPDATE_EXPECT=1` rewrites them from the plain run instead (then check the
/// diff against node). Panics listing every difference.
pub fn check_all(root: &Path, files: &[PathBuf], mode: Mode, run: impl Fn(&Path, Settings) -> String) {
    let update = mode == Mode::Plain && std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for f in files {
        let Some(settings) = mode.settings(root, f) else { continue };
        ran += 1;
        let actual = run(f, settings);
        if update && settings == Settings::default() {
            std::fs::write(f.with_extension("expected"), &actual).expect("write expected");
            continue;
        }
        let name = f.strip_prefix(root).unwrap_or(f).display().to_string();
        let expected = match expected(f) {
            Ok(text) => text,
            Err(why) => {
                failures.push(format!("{name}: {why}"));
                continue;
            }
        };
        if expected != actual {
            let first_diff = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            failures.push(format!(
                "{name}: line {}\n  expected: {:?}\n  actual:   {:?}",
                first_diff + 1,
                expected.lines().nth(first_diff).unwrap_or("<end>"),
                actual.lines().nth(first_diff).unwrap_or("<end>")
            ));
        }
    }
    println!("{mode:?}: {} passed, {} failed", ran - failures.len(), failures.len());
    assert!(ran > 0, "{mode:?}: no JS behaviour test ran");
    assert!(
        failures.is_empty(),
        "{mode:?}: {} of {} JS behaviour tests differ:\n{}",
        failures.len(),
        ran,
        failures.join("\n")
    );
}
