//! node:fs over the VFS across an image: files and open descriptors written before a
//! suspension are intact after restore in a fresh runtime; the capability ledger records the
//! fs surfaces; `fs = Disabled` makes fs operations throw.
#![allow(clippy::unwrap_used)]

mod support;

use amber::durable::capability::Capability;
use amber::{Mode, Outcome, Policy, PolicySurface, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::{capture, take_output};

const START: u64 = 1_700_000_000_000;

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(capture).start_time_ms(START).seed([3; 32]).wall_clock(|| START + 1_000)
}

const AGENT: &str = r#"
const fs = require('fs');
const fsp = require('fs/promises');
(async () => {
  fs.mkdirSync('/work/notes', { recursive: true });
  process.chdir('/work');
  fs.writeFileSync('notes/a.txt', 'alpha');
  fs.symlinkSync('notes/a.txt', 'latest');
  const fd = fs.openSync('notes/log.txt', 'w');
  fs.writeSync(fd, 'line1\n');
  const born = fs.statSync('notes/a.txt').birthtimeMs;
  const reply = await amber.call('tool', { step: 1 });
  fs.writeSync(fd, `line2 ${reply}\n`);
  fs.closeSync(fd);
  fs.appendFileSync('notes/a.txt', '+beta');
  await fsp.writeFile('notes/b.json', JSON.stringify({ reply }));
  console.log(process.cwd(), fs.readFileSync('latest', 'utf8'));
  console.log(JSON.stringify(fs.readFileSync('notes/log.txt', 'utf8')));
  console.log(fs.readdirSync('notes').join(','), (await fsp.readFile('notes/b.json', 'utf8')));
  const st = fs.statSync('notes/a.txt');
  console.log('mtime moved', st.mtimeMs > born, 'birth kept', st.birthtimeMs === born);
})();
"#;

fn suspended(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Suspended(ops) => ops.len(),
        other => panic!("expected Suspended, got {other:?}"),
    }
}

#[test]
fn vfs_contents_and_descriptors_survive_an_image() {
    let program = Program::commonjs("/agent.js", AGENT);
    // Uninterrupted.
    let mut straight = builder().build().unwrap();
    assert_eq!(suspended(straight.run(&program).unwrap()), 1);
    straight.resolve_with_duration(1, amber::CallResult::Ok(json!("ok")), 250).unwrap();
    assert_eq!(straight.resume().unwrap(), Outcome::Completed(json!(null)));
    let expected = take_output();
    assert_eq!(
        expected,
        "/work alpha+beta\n\"line1\\nline2 ok\\n\"\na.txt,b.json,log.txt {\"reply\":\"ok\"}\nmtime moved true birth kept true\n"
    );

    // Imaged at the suspension, restored in a fresh runtime.
    let mut rt = builder().build().unwrap();
    assert_eq!(suspended(rt.run(&program).unwrap()), 1);
    let image = rt.snapshot().unwrap();
    drop(rt);
    let mut rt = Runtime::restore(&image, builder()).unwrap();
    rt.resolve_with_duration(1, amber::CallResult::Ok(json!("ok")), 250).unwrap();
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), expected);
    let ledger = rt.capabilities();
    for c in [Capability::FsRead, Capability::FsWrite] {
        assert!(ledger.contains(c), "{c:?} missing from the ledger");
    }
    assert!(!ledger.contains(Capability::FsDelete));
}

#[test]
fn deletes_are_a_capability() {
    let src =
        "const fs = require('fs'); fs.writeFileSync('/x', '1'); fs.unlinkSync('/x'); console.log(fs.existsSync('/x'));";
    let mut rt = builder().build().unwrap();
    assert_eq!(rt.run(&Program::commonjs("/p.js", src)).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), "false\n");
    assert!(rt.capabilities().contains(Capability::FsDelete));
}

#[test]
fn a_disabled_fs_policy_makes_fs_throw() {
    let policy = Policy::durable().with(PolicySurface::Fs, Mode::Disabled);
    let mut rt = builder().policy(policy).build().unwrap();
    let src = r#"
const fs = require('fs');
for (const f of [() => fs.readFileSync('/etc/passwd'), () => fs.writeFileSync('/x', 'y'), () => fs.existsSync('/')]) {
  try { f(); console.log('no error'); } catch (e) { console.log(e.code, e.message); }
}
fs.readFile('/x', (err) => console.log('callback', err.code));
"#;
    assert_eq!(rt.run(&Program::commonjs("/p.js", src)).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(
        take_output(),
        "ERR_AMBER_POLICY node:fs is disabled by the run's policy (fs: disabled): open '/etc/passwd'\n\
         ERR_AMBER_POLICY node:fs is disabled by the run's policy (fs: disabled): open '/x'\n\
         ERR_AMBER_POLICY node:fs is disabled by the run's policy (fs: disabled): access '/'\n\
         callback ERR_AMBER_POLICY\n"
    );
    assert!(!rt.capabilities().contains(Capability::FsRead));
}

/// A temp host folder holding `keep.txt`; removed when dropped.
struct Folder(std::path::PathBuf);

impl Folder {
    fn new(tag: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("amber-fs-rollback-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("keep.txt"), "lower").unwrap();
        Folder(std::fs::canonicalize(dir).unwrap())
    }

    fn builder(&self, blobs: Option<amber::lower::BlobSource>) -> RuntimeBuilder {
        let folder = amber::lower::HostFolder::open(&self.0, &[], blobs).unwrap();
        let at = self.0.display().to_string();
        builder().lower_folder(folder, &at, &at)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn fs_rollback_discards_the_upper_layer_and_a_replay_does_the_same() {
    let folder = Folder::new("embed");
    let src = "const fs = require('fs');\n\
               fs.writeFileSync('keep.txt', 'upper'); fs.writeFileSync('new.txt', 'x');\n\
               amber.call('wait', {}).then(() => console.log(fs.readFileSync('keep.txt', 'utf8'), fs.existsSync('new.txt')));";
    let program = Program::commonjs(format!("{}/main.js", folder.0.display()), src);
    let mut rt = folder.builder(None).build().unwrap();
    assert!(rt.fs_rollback().is_err(), "nothing has run yet");
    assert_eq!(suspended(rt.run(&program).unwrap()), 1);
    assert_eq!(rt.fs_rollback().unwrap(), 2);
    assert_eq!(rt.fs_rollback().unwrap(), 0, "a second rollback has nothing left to drop");
    rt.resolve(1, json!(null)).unwrap();
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), "lower false\n");
    assert_eq!(std::fs::read_to_string(folder.0.join("keep.txt")).unwrap(), "lower", "the host is untouched");
    let records = rt.take_records();
    let kinds: Vec<String> = records.iter().map(|r| r.kind.to_string()).collect();
    assert_eq!(kinds.iter().filter(|k| *k == "fs-rollback").count(), 2, "{kinds:?}");
    let live_hash = rt.state_hash().unwrap();
    let blobs: std::collections::BTreeMap<_, _> = rt.take_blobs().into_iter().map(|(d, b)| (d.0, b.to_vec())).collect();
    let source: amber::lower::BlobSource = Box::new(move |hash| blobs.get(hash).cloned());

    // Replaying the journal applies both rollbacks at the suspension and reaches the same state.
    let journal = amber::durable::journal::Journal::from_records(records).unwrap();
    let mut replay = folder.builder(Some(source)).replay(&journal).unwrap();
    assert!(replay.fs_rollback().is_err(), "nothing has run yet");
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(replay.state_hash().unwrap(), live_hash);
}

#[test]
fn fs_diff_and_fs_commit_write_the_upper_layer_unless_the_host_changed() {
    use amber::engine::vfs::Change;
    use amber::overlay::FsCommit;
    let folder = Folder::new("commit");
    std::fs::write(folder.0.join("gone.txt"), "delete me").unwrap();
    let src = "const fs = require('fs');\n\
               fs.appendFileSync('keep.txt', ' + upper'); fs.writeFileSync('new.txt', 'x'); fs.unlinkSync('gone.txt');\n\
               amber.call('wait', {});";
    let program = Program::commonjs(format!("{}/main.js", folder.0.display()), src);
    let mut rt = folder.builder(None).build().unwrap();
    assert_eq!(suspended(rt.run(&program).unwrap()), 1);
    let changes: Vec<(char, String)> = rt
        .fs_diff()
        .unwrap()
        .iter()
        .map(|c| {
            let letter = match c {
                Change::Added { .. } => 'A',
                Change::Modified { .. } => 'M',
                Change::Deleted { .. } => 'D',
            };
            (letter, c.path().rsplit('/').next().unwrap().to_string())
        })
        .collect();
    let expected = [('D', "gone.txt"), ('M', "keep.txt"), ('A', "new.txt")];
    assert_eq!(changes, expected.map(|(l, p)| (l, p.to_string())));

    // A host file the run read that changed since refuses the whole commit.
    std::fs::write(folder.0.join("keep.txt"), "edited on the host").unwrap();
    let FsCommit::Conflicts(conflicts) = rt.fs_commit(None).unwrap() else { panic!("expected conflicts") };
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    assert!(conflicts[0].contains("keep.txt: changed on the host since the run read it"), "{conflicts:?}");
    assert!(folder.0.join("gone.txt").exists() && !folder.0.join("new.txt").exists(), "nothing was written");

    // Put back as read, it commits: every change lands on the host.
    std::fs::write(folder.0.join("keep.txt"), "lower").unwrap();
    assert_eq!(rt.fs_commit(None).unwrap(), FsCommit::Committed { root: folder.0.clone(), written: 3 });
    assert_eq!(std::fs::read_to_string(folder.0.join("keep.txt")).unwrap(), "lower + upper");
    assert_eq!(std::fs::read_to_string(folder.0.join("new.txt")).unwrap(), "x");
    assert!(!folder.0.join("gone.txt").exists());
    // Rolled back, the run drops the three changes it committed.
    assert_eq!(rt.fs_rollback().unwrap(), 3);
}
