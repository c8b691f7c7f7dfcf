//! Replays every committed fuzz regression (`fuzz/regressions/<target>/*`) through the same
//! code the libFuzzer target runs, on stable, as part of `cargo test`. With
//! `AMBER_FUZZ_CORPUS=1` (or `=<target>`) it also replays the local corpora
//! (`fuzz/corpus/<target>/*`, made by `fuzz/seeds.sh` and grown by fuzzing), so a target that
//! crashes on a known input fails.

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Runs `target` on every file under `dir`; returns how many ran.
fn replay_dir(target: &str, dir: &Path) -> usize {
    let f = amber_fuzz::target(target).unwrap_or_else(|| panic!("no target named {target}"));
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    paths.sort();
    for path in &paths {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let r = std::panic::catch_unwind(|| f(&data));
        if r.is_err() {
            panic!("{target} fails on {}", path.display());
        }
    }
    paths.len()
}

/// Every target replays at least one committed input (a missing or misspelt folder would
/// otherwise pass by replaying nothing), and every folder belongs to a target.
#[test]
fn committed_regressions_pass() {
    let regressions = fuzz_dir().join("regressions");
    let mut total = 0;
    for (name, _) in amber_fuzz::TARGETS {
        let n = replay_dir(name, &regressions.join(name));
        assert!(n > 0, "no committed inputs for fuzz target {name}: add one under fuzz/regressions/{name}/");
        total += n;
    }
    let folders = std::fs::read_dir(&regressions).unwrap_or_else(|e| panic!("{}: {e}", regressions.display()));
    for folder in folders.flatten() {
        let name = folder.file_name().to_string_lossy().into_owned();
        assert!(amber_fuzz::target(&name).is_some(), "fuzz/regressions/{name} names no fuzz target");
    }
    eprintln!("replayed {total} regression inputs");
}

#[test]
fn local_corpora_pass() {
    if std::env::var_os("AMBER_FUZZ_CORPUS").is_none() {
        return;
    }
    // AMBER_FUZZ_CORPUS=1 replays every target's corpus; a target name replays only its own.
    let only = std::env::var("AMBER_FUZZ_CORPUS").unwrap_or_default();
    for (name, _) in amber_fuzz::TARGETS {
        if only != "1" && only != *name {
            continue;
        }
        let n = replay_dir(name, &fuzz_dir().join("corpus").join(name));
        eprintln!("{name}: replayed {n} corpus inputs");
    }
}

#[test]
fn every_target_runs_on_empty_and_small_inputs() {
    for (name, f) in amber_fuzz::TARGETS {
        for data in [&b""[..], b"\0", b"1+1", b"\xff\xfe[]{}", &[7u8; 64]] {
            let r = std::panic::catch_unwind(|| f(data));
            assert!(r.is_ok(), "{name} fails on {data:?}");
        }
    }
}

#[test]
fn generated_programs_parse_and_survive_image_restore_and_replay() {
    // Deterministic pseudo-random inputs: every rendered program must parse.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..40 {
        let data: Vec<u8> = (0..600)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        amber_fuzz::vm::run_structured(&data);
        amber_fuzz::roundtrip::run(&data);
    }
}

#[test]
fn path_normalize_agrees_with_node_on_known_cases() {
    // (cwd, path, what Node's path.posix.resolve("/", cwd, path) gives)
    let cases = [
        ("/", "/", "/"),
        ("/a/b", "../../../c", "/c"),
        ("", "a/./b//c/..", "/a/b"),
        ("rel/dir", "x", "/rel/dir/x"),
        ("/a", "/..", "/"),
        ("/a", "...", "/a/..."),
        ("/a", "b/.../..", "/a/b"),
        ("/", "\u{e9}/../\u{1F600}/", "/\u{1F600}"),
    ];
    for (cwd, path, node) in cases {
        assert_eq!(amber_engine::vfs::normalize(cwd, path).ok().as_deref(), Some(node), "{cwd:?} {path:?}");
        amber_fuzz::path::check(cwd, path);
    }
}
