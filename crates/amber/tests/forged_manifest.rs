//! Issue 15 item 9: a re-sealed image whose manifest was edited — a pending operation's name,
//! args or seq, the logical time, the heap statistics, a capability seq past the journal —
//! is refused at restore (the manifest is checked against the payload it describes), and an
//! honest image restores.
#![allow(clippy::unwrap_used)]

mod support;

use amber::durable::capability::Capability;
use amber::durable::image::{decode_image, encode_image, Manifest};
use amber::{Error, Outcome, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::capture;

const START: u64 = 1_700_000_000_000;

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(capture).start_time_ms(START).seed([7; 32]).wall_clock(|| START + 5_000)
}

const AGENT: &str = r#"
(async () => {
  const r = Math.random();
  const hits = await amber.call("search", { q: "docs" });
  await amber.sleep(50);
  console.log(hits, r < 1);
})();
"#;

/// An image of AGENT waiting on its first call.
fn image() -> Vec<u8> {
    let mut rt = builder().build().unwrap();
    let outcome = rt.run(&Program::script("agent.js", AGENT)).unwrap();
    assert!(matches!(outcome, Outcome::Suspended(_)), "{outcome:?}");
    rt.snapshot().unwrap()
}

/// One edit of a manifest, named for the failure message.
type Edit = (&'static str, Box<dyn FnOnce(&mut Manifest)>);

fn reseal(image: &[u8], edit: impl FnOnce(&mut Manifest)) -> Vec<u8> {
    let (mut manifest, payload) = decode_image(image, None).unwrap();
    edit(&mut manifest);
    encode_image(&manifest, &payload, None).unwrap()
}

#[test]
fn an_edited_manifest_is_refused_at_restore() {
    let honest = image();
    // Re-sealing an unedited manifest changes nothing: it restores and runs on.
    let same = reseal(&honest, |_| {});
    let mut rt = builder().restore(&same, None).unwrap();
    rt.resolve(1, json!(["a"])).unwrap();
    assert!(matches!(rt.resume().unwrap(), Outcome::Suspended(_)));

    let edits: Vec<Edit> = vec![
        ("pending op name", Box::new(|m| m.pending[0].name = "delete_everything".into())),
        ("pending op args", Box::new(|m| m.pending[0].args = json!({ "q": "other" }))),
        ("pending op seq", Box::new(|m| m.pending[0].seq += 1)),
        ("pending op dropped", Box::new(|m| m.pending.clear())),
        ("logical time", Box::new(|m| m.logical_time_ms += 86_400_000)),
        ("heap objects", Box::new(|m| m.heap.objects += 1)),
        (
            "capability seq",
            Box::new(|m| {
                m.capabilities.touch(Capability::FsWrite, m.journal_head.len + 5);
            }),
        ),
    ];
    for (what, edit) in edits {
        let forged = reseal(&honest, edit);
        match builder().restore(&forged, None) {
            Err(Error::Image(message)) => {
                assert!(message.contains("manifest does not match its payload"), "{what}: {message}")
            }
            Err(other) => panic!("{what}: refused with another error: {other}"),
            Ok(_) => panic!("{what}: a forged manifest restored"),
        }
    }
}

/// A run started from a VFS seed: the manifest's seed hash is checked against the seed the
/// restoring embedder gives (the payload holds the VFS as the run left it, not the seed).
#[test]
fn a_forged_vfs_seed_hash_is_refused_when_the_seed_is_given() {
    use amber::seed::VfsSeed;
    let seed = |text: &str| VfsSeed {
        root: "/app".into(),
        cwd: "/app".into(),
        dirs: vec!["/app".into()],
        files: vec![("/app/data.txt".into(), text.as_bytes().to_vec())],
    };
    let mut rt = builder().vfs_seed(seed("one")).build().unwrap();
    let outcome = rt.run(&Program::script("agent.js", AGENT)).unwrap();
    assert!(matches!(outcome, Outcome::Suspended(_)), "{outcome:?}");
    let honest = rt.snapshot().unwrap();
    assert!(builder().vfs_seed(seed("one")).restore(&honest, None).is_ok());
    // An embedder that gives no seed cannot check the hash: it restores.
    assert!(builder().restore(&honest, None).is_ok());

    let other = seed("two").hash();
    let forgeries: Vec<Edit> = vec![
        ("another seed's hash", Box::new(move |m| m.vfs_seed_hash = Some(other))),
        ("no seed hash", Box::new(|m| m.vfs_seed_hash = None)),
    ];
    for (what, edit) in forgeries {
        let forged = reseal(&honest, edit);
        match builder().vfs_seed(seed("one")).restore(&forged, None) {
            Err(Error::Image(message)) => assert!(message.contains("VFS seed"), "{what}: {message}"),
            Err(other) => panic!("{what}: refused with another error: {other}"),
            Ok(_) => panic!("{what}: a forged seed hash restored"),
        }
    }
}
