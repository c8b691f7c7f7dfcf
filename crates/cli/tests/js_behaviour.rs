//! JS behaviour tests through the `amber` binary: every `crates/*/tests/js/**/<name>.js` runs
//! under `amber run`, and its stdout must equal `<name>.expected` (what `node` prints for the
//! same file). When the run exits non-zero, the expected file ends with `--- exit N` and the
//! first stderr line. `UPDATE_EXPECT=1` rewrites the expected files from the actual output.
//!
//! The plain run covers every corpus, end to end. The test modes (docs/testing.md) run here
//! over the corpora of the crates above the engine (node, amber, cli), whose programs need
//! the Node layer and the runtime's event loop, and over the engine's programs that need it
//! too (`behaviour::THROUGH_AMBER_ONLY`); the rest of the engine's corpus runs in every mode
//! in `cargo test -p amber-engine` (crates/engine/tests/js_behaviour.rs). The image mode also
//! runs here over the engine's corpus: it is the runtime's image (canonical copy, durable
//! state, re-bound host functions) that it checks, which the engine's runner does not make.

#[path = "../../engine/tests/behaviour/mod.rs"]
mod behaviour;

use std::path::Path;
use std::process::Command;

use behaviour::{check_all, corpus, repo_root, Mode, Settings};

/// Every corpus; the engine's first.
const ALL: &[&str] = &["engine", "node", "amber", "cli"];
/// The corpora of the crates above the engine.
const ABOVE_ENGINE: &[&str] = &["node", "amber", "cli"];

/// `amber run file` with `settings` as the environment's switches.
fn actual_output(file: &Path, settings: Settings) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_amber"));
    cmd.arg("run").arg(file).current_dir(file.parent().unwrap_or(Path::new("."))).env("TZ", "UTC");
    for (name, value) in settings.env() {
        match value {
            Some(v) => cmd.env(name, v),
            None => cmd.env_remove(name),
        };
    }
    let out = cmd.output().expect("run amber");
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or("");
        s.push_str(&format!("--- exit {code}\n{first}\n"));
    }
    s
}

fn run_mode(mode: Mode, krates: &[&str]) {
    let root = repo_root(env!("CARGO_MANIFEST_DIR"));
    let mut files = corpus(&root, krates);
    behaviour::check_stress_exceptions(&root, &files, krates);
    if !krates.contains(&"engine") {
        // The engine's programs its runner leaves to this one run here in every mode.
        let engine = corpus(&root, &["engine"]);
        behaviour::check_through_amber_only(&root, &engine);
        files.extend(engine.into_iter().filter(|f| behaviour::through_amber_only(&root, f)));
    }
    check_all(&root, &files, mode, actual_output);
}

#[test]
fn js_behaviour() {
    run_mode(Mode::Plain, ALL);
}

#[test]
fn js_behaviour_under_gc_stress() {
    run_mode(Mode::GcStress, ABOVE_ENGINE);
}

#[test]
fn js_behaviour_with_fast_tier_off() {
    run_mode(Mode::FastTierOff, ABOVE_ENGINE);
}

#[test]
fn js_behaviour_imaged_every_turn() {
    run_mode(Mode::ImageEveryTurn, ALL);
}
