//! The embedding API end to end: run, suspend, image, restore, resolve, replay.
#![allow(clippy::unwrap_used)]

mod support;

use amber::{CallRecord, Error, Journal, Outcome, PendingOp, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::{capture, take_output};

const START: u64 = 1_700_000_000_000;

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(capture).start_time_ms(START).seed([7; 32]).wall_clock(|| START + 5_000)
}

fn suspended(outcome: Outcome) -> Vec<PendingOp> {
    match outcome {
        Outcome::Suspended(ops) => ops,
        other => panic!("expected Suspended, got {other:?}"),
    }
}

const AGENT: &str = r#"
class Planner {
  constructor(task) { this.task = task; this.notes = new Map(); }
  plan() { return ["search", "ask", "summarize"]; }
}
(async () => {
  const p = new Planner("find docs");
  const r = Math.random();
  const t0 = Date.now();
  setTimeout(() => console.log("timer fired", Date.now() - t0), 10);
  const [hits, answer] = await Promise.all([
    amber.call("search", { q: p.task, limit: 3 }),
    amber.input("Approve?"),
  ]);
  p.notes.set("hits", hits);
  const score = await amber.step("score", () => hits.length * 10 + (answer === "yes" ? 1 : 0));
  await amber.sleep(50);
  console.log("plan", p.plan().join(","), "score", score, "random stable", r === r);
  console.log("elapsed >= 50", Date.now() - t0 >= 50);
})();
"#;

#[test]
fn suspend_image_restore_resume_matches_uninterrupted_and_replays() {
    let program = Program::script("agent.js", AGENT);
    // Uninterrupted (in one runtime).
    let mut straight = builder().build().unwrap();
    let ops = suspended(straight.run(&program).unwrap());
    assert_eq!(ops.len(), 2);
    assert_eq!((ops[0].id, ops[0].name.as_str()), (1, "search"));
    assert_eq!(ops[0].args, json!({"q": "find docs", "limit": 3}));
    assert_eq!((ops[1].id, ops[1].name.as_str()), (2, "Approve?"));
    straight.resolve_with_duration(1, amber::CallResult::Ok(json!(["a", "b"])), 20).unwrap();
    straight.resolve_with_duration(2, amber::CallResult::Ok(json!("yes")), 30).unwrap();
    let ops = suspended(straight.resume().unwrap());
    assert_eq!(ops.len(), 1, "the durable sleep is pending: {ops:?}");
    assert_eq!(ops[0].due_time_ms, Some(START + 30 + 50));
    straight.complete_due_sleeps(START + 1_000);
    assert_eq!(straight.resume().unwrap(), Outcome::Completed(json!(null)));
    let expected = take_output();
    assert!(expected.contains("timer fired 10"), "{expected}");
    assert!(expected.contains("plan search,ask,summarize score 21 random stable true"), "{expected}");
    let mut records: Vec<CallRecord> = straight.take_records();

    // Interrupted at every suspension, through images.
    let mut rt = builder().build().unwrap();
    suspended(rt.run(&program).unwrap());
    let image = rt.snapshot().unwrap();
    let mut rt = builder().restore(&image, None).unwrap();
    rt.resolve_with_duration(1, amber::CallResult::Ok(json!(["a", "b"])), 20).unwrap();
    let image = {
        suspended(rt.resume().unwrap());
        rt.snapshot().unwrap()
    };
    let mut rt = Runtime::restore(&image, builder()).unwrap();
    rt.resolve_with_duration(2, amber::CallResult::Ok(json!("yes")), 30).unwrap();
    suspended(rt.resume().unwrap());
    let image = rt.snapshot().unwrap();
    let mut rt = Runtime::restore(&image, builder()).unwrap();
    rt.complete_due_sleeps(START + 1_000);
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), expected);

    // Replay from the journal alone: silent, same outcome.
    let journal = Journal::from_records(std::mem::take(&mut records)).unwrap();
    let mut replay = builder().replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), "");

    // A changed program diverges, naming the seq and location.
    let changed = Program::script("agent.js", AGENT.replace("limit: 3", "limit: 4"));
    let mut replay = builder().replay(&journal).unwrap();
    match replay.run(&changed) {
        Err(Error::Divergence { seq, expected, actual, location }) => {
            assert_eq!(seq, 1);
            assert!(expected.contains("\"limit\":3") && actual.contains("\"limit\":4"), "{expected} / {actual}");
            assert!(location.unwrap().starts_with("agent.js:"));
        }
        other => panic!("expected a divergence, got {other:?}"),
    }
}

#[test]
fn a_try_catch_cannot_swallow_a_divergence() {
    let src = r#"(async () => { try { await amber.call("a", 1) } catch (e) { console.log("caught") } })()"#;
    let mut rt = builder().build().unwrap();
    suspended(rt.run(&Program::script("x.js", src)).unwrap());
    let journal = Journal::from_records(rt.take_records()).unwrap();
    let other = src.replace("\"a\"", "\"b\"");
    let mut replay = builder().replay(&journal).unwrap();
    assert!(matches!(replay.run(&Program::script("x.js", other)), Err(Error::Divergence { seq: 1, .. })));
    assert_eq!(take_output(), "");
}

#[test]
fn timers_run_in_node_order_on_the_logical_clock() {
    let src = r#"
      const t0 = Date.now();
      const log = (s) => console.log(s, Date.now() - t0);
      setTimeout(() => log("timeout 10"), 10);
      setTimeout(() => { log("timeout 0"); queueMicrotask(() => log("micro in timeout")); }, 0);
      setImmediate(() => log("immediate"));
      const iv = setInterval(() => { log("interval"); if (++n === 3) clearInterval(iv); }, 4);
      let n = 0;
      const dead = setTimeout(() => log("never"), 5); clearTimeout(dead);
      setTimeout(() => log("unref'd"), 1000).unref();
      Promise.resolve().then(() => log("micro"));
      log("sync");
    "#;
    let mut rt = builder().build().unwrap();
    assert_eq!(rt.run(&Program::script("t.js", src)).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(
        take_output(),
        "sync 0\nmicro 0\nimmediate 0\ntimeout 0 1\nmicro in timeout 1\ninterval 4\ninterval 8\ntimeout 10 10\ninterval 12\n"
    );
}

#[test]
fn a_timeout_races_a_host_call_by_its_recorded_duration() {
    let src = r#"
      const t0 = Date.now();
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 100));
      Promise.race([amber.call("slow", null), timeout])
        .then((v) => console.log("won", v, Date.now() - t0), (e) => console.log(e.message, Date.now() - t0));
    "#;
    for (duration, expected) in [(40, "won 1 40\n"), (500, "timeout 100\n")] {
        let mut rt = builder().build().unwrap();
        suspended(rt.run(&Program::script("race.js", src)).unwrap());
        rt.resolve_with_duration(1, amber::CallResult::Ok(json!(1)), duration).unwrap();
        assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
        assert_eq!(take_output(), expected);
    }
}

#[test]
fn steps_run_once_live_and_never_on_replay() {
    let src = r#"
      let calls = 0;
      (async () => {
        const a = await amber.step("double", () => { calls++; return 21 * 2; });
        let err;
        try { await amber.step("fail", () => { throw new TypeError("nope"); }); } catch (e) { err = e; }
        try { await amber.step("effect", () => amber.call("x", 1)); } catch (e) { console.log(e.message); }
        console.log(a, calls, err instanceof TypeError, err.message);
      })();
    "#;
    let program = Program::script("s.js", src);
    let mut rt = builder().build().unwrap();
    assert_eq!(rt.run(&program).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(
        take_output(),
        "amber.call cannot be used inside amber.step: a step must be a pure computation\n42 1 true nope\n"
    );
    let journal = Journal::from_records(rt.take_records()).unwrap();
    let mut replay = builder().print_while_replaying(true).replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(json!(null)));
    // `calls` stays 0: the journal answered both steps.
    assert!(take_output().ends_with("42 0 true nope\n"));
    // A renamed step diverges.
    let renamed = Program::script("s.js", src.replace("\"double\"", "\"triple\""));
    let mut replay = builder().replay(&journal).unwrap();
    assert!(matches!(replay.run(&renamed), Err(Error::Divergence { seq: 1, .. })));
}

#[test]
fn host_call_args_must_be_json() {
    let cases = [
        ("undefined", "amber.call args is not JSON-serializable: found undefined"),
        ("{ a: [1, undefined] }", "amber.call args.a[1] is not JSON-serializable: found undefined"),
        ("10n", "amber.call args is not JSON-serializable: found a BigInt"),
        ("{ f() {} }", "amber.call args.f is not JSON-serializable: found a function"),
        (
            "(() => { const o = {}; o.self = o; return o; })()",
            "amber.call args.self is not JSON-serializable: it contains a cycle",
        ),
        ("NaN", "amber.call args is not JSON-serializable: found NaN"),
    ];
    for (args, message) in cases {
        let src = format!("try {{ amber.call('f', {args}) }} catch (e) {{ console.log(e.name + ': ' + e.message) }}");
        let mut rt = builder().build().unwrap();
        assert_eq!(rt.run(&Program::script("j.js", src)).unwrap(), Outcome::Completed(json!(null)));
        assert_eq!(take_output(), format!("TypeError: {message}\n"), "args {args}");
    }
    // toJSON and wrappers, like JSON.stringify.
    let mut rt = builder().build().unwrap();
    let src = "amber.call('f', { d: new Date(0), n: new Number(2), s: 'x', nested: { t: true, z: null } })";
    let ops = suspended(rt.run(&Program::script("j.js", src)).unwrap());
    assert_eq!(
        ops[0].args,
        json!({"d": "1970-01-01T00:00:00.000Z", "n": 2, "s": "x", "nested": {"t": true, "z": null}})
    );
}

#[test]
fn in_process_host_functions_and_rejections() {
    let src = r#"
      (async () => {
        console.log(await amber.call("add", [2, 3]));
        try { await amber.call("fail", {}); } catch (e) { console.log("rejected:", e.message); }
        await amber.call("external", {});
      })();
    "#;
    let mut rt = builder()
        .host_function("add", |op| {
            let sum: i64 = op.args.as_array().into_iter().flatten().filter_map(|v| v.as_i64()).sum();
            Ok(json!(sum))
        })
        .host_function("fail", |_| Err("no such thing".into()))
        .build()
        .unwrap();
    let ops = suspended(rt.run(&Program::script("h.js", src)).unwrap());
    assert_eq!(ops[0].name, "external");
    assert_eq!(take_output(), "5\nrejected: no such thing\n");
    rt.reject(ops[0].id, "gone").unwrap();
    match rt.resume().unwrap() {
        Outcome::Threw(report) => {
            assert!(report.in_promise);
            assert_eq!(report.to_string().lines().next(), Some("Uncaught (in promise) Error: gone"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_clock_starts_at_the_captured_time_and_sleeps_wait_for_it() {
    let src = r#"
      (async () => {
        console.log(Date.now());
        await amber.sleep(1000);
        console.log(Date.now());
      })();
    "#;
    let mut rt = builder().build().unwrap();
    let ops = suspended(rt.run(&Program::script("c.js", src)).unwrap());
    assert_eq!(ops[0].due_time_ms, Some(START + 1000));
    assert!(rt.complete_due_sleeps(START + 999).is_empty());
    assert!(matches!(rt.resolve(ops[0].id, json!(null)), Err(Error::Usage(_))));
    suspended(rt.resume().unwrap());
    assert_eq!(rt.complete_due_sleeps(START + 1500), vec![ops[0].id]);
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), format!("{START}\n{}\n", START + 1500));
}

#[test]
fn errors_and_limits() {
    let mut rt = builder().build().unwrap();
    match rt.run(&Program::script("e.js", "function f() { throw new RangeError('bad') }\nf()")).unwrap() {
        Outcome::Threw(r) => assert!(r.to_string().starts_with("Uncaught RangeError: bad\n    at f (e.js:1:")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(rt.resume(), Err(Error::Usage(_))));
    let mut rt = builder().max_instructions(Some(10_000)).build().unwrap();
    assert!(matches!(rt.run(&Program::script("l.js", "for (;;) {}")), Err(Error::Limit(_))));
    let mut rt = builder().build().unwrap();
    match rt.run(&Program::script("s.js", "let = ;")).unwrap() {
        Outcome::Threw(r) => assert!(r.syntax),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_restoring_embedder_bounds_the_images_limits() {
    let src = "(async () => { await amber.input('go'); let n = 0; for (;;) n++; })()";
    let mut rt = builder().build().unwrap();
    let ops = suspended(rt.run(&Program::script("loop.js", src)).unwrap());
    let image = rt.snapshot().unwrap();
    // The image was made without limits; the restoring host grants 20,000 instructions.
    let mut rt = builder().max_instructions(Some(20_000)).restore(&image, None).unwrap();
    assert!(rt.vm().fuel <= 20_000);
    rt.resolve(ops[0].id, json!("ok")).unwrap();
    assert!(matches!(rt.resume(), Err(Error::Limit(_))));

    let src =
        "(async () => { await amber.input('go'); const keep = []; for (;;) keep.push(new Array(1000).fill(1)); })()";
    let mut rt = builder().build().unwrap();
    let ops = suspended(rt.run(&Program::script("grow.js", src)).unwrap());
    let image = rt.snapshot().unwrap();
    let mut rt = builder().max_heap_bytes(Some(32 << 20)).restore(&image, None).unwrap();
    rt.resolve(ops[0].id, json!("ok")).unwrap();
    assert!(matches!(rt.resume(), Err(Error::Limit(_))));
}

#[test]
fn corrupt_images_are_refused_with_integrity_errors() {
    let mut rt = builder().build().unwrap();
    suspended(rt.run(&Program::script("a.js", "amber.input('x')")).unwrap());
    let image = rt.snapshot().unwrap();
    for at in [0, 20, image.len() / 2, image.len() - 1] {
        let mut bad = image.clone();
        bad[at] ^= 0x40;
        let err = Runtime::restore(&bad, builder()).err().unwrap();
        assert_eq!(err.kind(), amber::ErrorKind::Integrity, "flip at {at}: {err}");
    }
    let err = Runtime::restore(&image[..image.len() - 3], builder()).err().unwrap();
    assert_eq!(err.kind(), amber::ErrorKind::Integrity);
}

#[test]
fn a_policy_can_disable_surfaces() {
    use amber::{Mode, Policy, PolicySurface};
    let policy = Policy::durable().with(PolicySurface::Random, Mode::Disabled);
    let mut rt = builder().policy(policy).build().unwrap();
    let src = "try { Math.random() } catch (e) { console.log(e.message) }";
    assert_eq!(rt.run(&Program::script("p.js", src)).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), "Math.random is disabled by the run's policy (random: disabled)\n");
    let host = Policy::durable().with(PolicySurface::Clock, Mode::Host);
    assert!(builder().policy(host).build().is_err());
}

#[test]
fn captured_math_random_is_journaled_and_replayed() {
    use amber::durable::capability::Capability;
    use amber::{Mode, Policy, PolicySurface};
    let captured = || builder().policy(Policy::durable().with(PolicySurface::Random, Mode::Captured));
    let src = "const r0 = Math.random, a = r0(); (async () => { await amber.input('go'); const b = Math.random(); \
               console.log(Math.random === r0, a !== b, a >= 0 && a < 1 && b >= 0 && b < 1, String(a), String(b)); })()";
    let program = Program::script("r.js", src);
    let mut rt = captured().build().unwrap();
    let ops = suspended(rt.run(&program).unwrap());
    assert!(rt.capabilities().contains(Capability::Random));
    let mut records = rt.take_records();
    // Imaged and restored: Math.random is still the function the run started with.
    let image = rt.snapshot().unwrap();
    let mut rt = captured().restore(&image, None).unwrap();
    rt.resolve(ops[0].id, json!("ok")).unwrap();
    assert_eq!(rt.resume().unwrap(), Outcome::Completed(json!(null)));
    let live = take_output();
    assert!(live.starts_with("true true true "), "{live}");
    records.extend(rt.take_records());
    let draws: Vec<_> = records.iter().filter(|r| r.function == "Math.random").collect();
    assert_eq!(draws.len(), 2, "one Random record per call");
    // Replay serves both values from the journal.
    let journal = Journal::from_records(records).unwrap();
    let mut replay = captured().print_while_replaying(true).replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(json!(null)));
    assert_eq!(take_output(), live);
}

#[test]
fn reading_the_clock_touches_the_clock_capability() {
    use amber::durable::capability::Capability;
    let mut quiet = builder().build().unwrap();
    assert_eq!(quiet.run(&Program::script("a.js", "1 + 1")).unwrap(), Outcome::Completed(json!(2)));
    assert!(!quiet.capabilities().contains(Capability::Clock));
    for source in ["Date.now()", "new Date().getTime()", "String(new Date())"] {
        let mut rt = builder().build().unwrap();
        assert!(matches!(rt.run(&Program::script("a.js", source)).unwrap(), Outcome::Completed(_)));
        assert!(rt.capabilities().contains(Capability::Clock), "{source}");
    }
    // A Date built from a time value does not read the clock.
    let mut rt = builder().build().unwrap();
    rt.run(&Program::script("a.js", "new Date(0).toISOString()")).unwrap();
    assert!(!rt.capabilities().contains(Capability::Clock));
}
