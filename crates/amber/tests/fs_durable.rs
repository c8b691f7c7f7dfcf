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
