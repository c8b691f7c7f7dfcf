//! `test262/config.toml`: where the pinned suite is, the per-test limits, and what is skipped.
//! Paths in the file are relative to the repository root (the runner's working directory).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The default location of the configuration, relative to the repository root.
pub const DEFAULT_PATH: &str = "test262/config.toml";

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub suite: SuiteConfig,
    pub run: RunConfig,
    #[serde(default)]
    pub skip: SkipConfig,
    pub slice: SliceConfig,
    pub output: OutputConfig,
}

/// The pinned suite.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteConfig {
    /// The tarball, checked against `sha256` before it is unpacked.
    pub tarball: PathBuf,
    pub sha256: String,
    /// The tc39/test262 commit the tarball holds (shown in the README).
    pub commit: String,
    /// Where the tarball is unpacked (gitignored).
    pub dir: PathBuf,
}

/// Limits and host properties for every test.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Instruction budget per execution (fuel); exhausting it is a TIMEOUT.
    pub max_instructions: u64,
    /// Heap budget per execution in MiB, if the engine enforces one.
    pub max_heap_mib: Option<u64>,
    /// Wall-clock limit per execution; the watchdog kills the worker past it (TIMEOUT).
    pub timeout_ms: u64,
    /// Native stack of the thread a worker runs each test on.
    pub stack_size_mib: usize,
    /// The host's [[CanBlock]]: decides whether CanBlockIsTrue or CanBlockIsFalse tests run.
    pub can_block: bool,
}

/// Tests not run: each entry maps a feature (or a path prefix under `test/`) to the reason.
/// A skipped test counts as a failure (SKIP).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkipConfig {
    #[serde(default)]
    pub features: BTreeMap<String, String>,
    #[serde(default)]
    pub paths: BTreeMap<String, String>,
    /// Folders inside a skipped path that run anyway (path prefix → why): the feature
    /// and flag rules still apply to them.
    #[serde(default)]
    pub run_paths: BTreeMap<String, String>,
}

/// The CI slice (`--slice ci`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SliceConfig {
    /// Every `ci_stride`-th test in sorted order is in the slice...
    pub ci_stride: usize,
}

/// Where results go.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputConfig {
    /// Committed results: expectations.json, summary.json, README.md.
    pub conformance_dir: PathBuf,
    /// The last run's full results with messages (not committed).
    pub last_run: PathBuf,
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Config::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        if config.slice.ci_stride == 0 {
            return Err("slice.ci_stride must be at least 1".into());
        }
        if config.run.timeout_ms == 0 {
            return Err("run.timeout_ms must be at least 1".into());
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_config_parses() {
        let text = include_str!("../../../test262/config.toml");
        let config = Config::parse(text).unwrap();
        assert_eq!(config.suite.sha256.len(), 64);
        assert!(config.run.max_instructions > 0);
        assert!(config.skip.features.values().all(|reason| !reason.trim().is_empty()));
        assert!(config.skip.paths.values().all(|reason| !reason.trim().is_empty()));
    }

    #[test]
    fn unknown_keys_are_errors() {
        let text = include_str!("../../../test262/config.toml");
        let bad = format!("{text}\n[bogus]\nx = 1\n");
        assert!(Config::parse(&bad).is_err());
    }
}
