//! What the CLI's end-to-end tests share: a scratch directory that holds the programs and the
//! session store, and runs the real `amber` binary in a fresh process, as a user would.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub mod http_server;
pub mod server;

pub const EXE: &str = env!("CARGO_BIN_EXE_amber");

/// A temporary directory holding programs and the session store (`store/`), removed on drop.
pub struct Sandbox {
    pub dir: PathBuf,
}

/// A finished `amber` process.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Sandbox {
    pub fn new(name: &str) -> Sandbox {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("amber-cli-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Sandbox { dir }
    }

    /// Write `file` (parent folders created) and return its relative name.
    pub fn write(&self, file: &str, text: &str) -> String {
        let path = self.dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        file.to_string()
    }

    pub fn store(&self) -> PathBuf {
        self.dir.join("store")
    }

    /// `amber args…` run from `cwd`, not yet started.
    pub fn command_in(&self, cwd: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(EXE);
        cmd.args(args).current_dir(cwd).env("AMBER_STORE", self.store()).env("TZ", "UTC");
        cmd
    }

    pub fn command(&self, args: &[&str]) -> Command {
        self.command_in(&self.dir, args)
    }

    pub fn amber_in(&self, cwd: &Path, args: &[&str]) -> Out {
        let out = self.command_in(cwd, args).stdin(Stdio::null()).output().unwrap();
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    pub fn amber(&self, args: &[&str]) -> Out {
        self.amber_in(&self.dir, args)
    }

    /// `amber args…` with extra environment variables.
    pub fn amber_env(&self, args: &[&str], env: &[(&str, &str)]) -> Out {
        let mut cmd = self.command(args);
        cmd.envs(env.iter().copied());
        let out = cmd.stdin(Stdio::null()).output().unwrap();
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    pub fn db(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.store().join("sessions.db")).unwrap()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The process exited with `code` (both streams shown otherwise).
#[track_caller]
pub fn expect(out: &Out, code: i32) {
    assert_eq!(out.code, code, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
}
