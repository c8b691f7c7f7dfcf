//! Crypto randomness per policy (DESIGN §7): Seeded is a pure function of the run seed and
//! rides the image; Disabled throws; Captured replays from the journal.
#![allow(clippy::unwrap_used)]

mod support;

use amber::{Journal, Outcome, Program, Runtime, RuntimeBuilder};
use amber::{Mode, Policy, PolicySurface};
use serde_json::json;
use support::{capture, take_output};

fn builder(crypto: Mode, seed: u8) -> RuntimeBuilder {
    let policy = Policy::durable().with(PolicySurface::Crypto, crypto);
    Runtime::builder().print_hook(capture).policy(policy).start_time_ms(1_700_000_000_000).seed([seed; 32])
}

const DRAW: &str = r#"
(async () => {
  const a = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");
  console.log("a", a);
  const r = await amber.call("wait", {});
  const b = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");
  console.log("b", b, r);
})();
"#;

/// Runs DRAW to the host call, images, restores, resolves, finishes: the output.
fn run_across_image(crypto: Mode, seed: u8) -> (String, Journal) {
    let mut rt = builder(crypto, seed).build().unwrap();
    let mut records = Vec::new();
    let ops = match rt.run(&Program::script("draw.js", DRAW)).unwrap() {
        Outcome::Suspended(ops) => ops,
        other => panic!("expected Suspended, got {other:?}"),
    };
    records.extend(rt.take_records());
    let image = rt.snapshot().unwrap();
    drop(rt);
    let mut rt = builder(crypto, seed).restore(&image, None).unwrap();
    rt.resolve(ops[0].id, json!("ok")).unwrap();
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(serde_json::Value::Null));
    records.extend(rt.take_records());
    (take_output(), Journal::from_records(records).unwrap())
}

#[test]
fn seeded_crypto_is_a_function_of_the_seed_and_rides_the_image() {
    let (first, journal) = run_across_image(Mode::Seeded, 3);
    let (second, _) = run_across_image(Mode::Seeded, 3);
    let (other, _) = run_across_image(Mode::Seeded, 4);
    assert_eq!(first, second);
    assert_ne!(first, other);
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 2, "{first}");
    // The generator advanced across the image: the second draw is not the first again.
    assert_ne!(lines[0].trim_start_matches("a "), lines[1].trim_start_matches("b ").trim_end_matches(" ok"));
    // Seeded draws are not journaled: only the seed (run start) and the host call.
    assert!(journal.records().iter().all(|r| r.kind.to_string() != "random"));
}

#[test]
fn captured_crypto_replays_from_the_journal() {
    let (live, journal) = run_across_image(Mode::Captured, 5);
    let randoms = journal.records().iter().filter(|r| r.kind.to_string() == "random").count();
    assert_eq!(randoms, 2);
    let mut replay = builder(Mode::Captured, 5).print_while_replaying(true).replay(&journal).unwrap();
    let outcome = replay.run(&Program::script("draw.js", DRAW)).unwrap();
    assert_eq!(outcome, Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), live);
}

#[test]
fn disabled_crypto_throws_a_clear_error() {
    let mut rt = builder(Mode::Disabled, 1).build().unwrap();
    let src = r#"
      try { crypto.getRandomValues(new Uint8Array(4)); } catch (e) { console.log(e.message); }
    "#;
    rt.run(&Program::script("d.js", src)).unwrap();
    let out = take_output();
    assert!(out.contains("disabled by the run's policy"), "{out}");
}
