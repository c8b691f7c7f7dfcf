//! Property: over generated agent programs and host answers, a straight run, a run imaged and
//! restored (into a fresh runtime) at every suspension, and a replay of the journal from the
//! top end with the same output, the same state hash and byte-identical final images.
//!
//! Programs are drawn by a seeded xorshift generator (the same cases on every machine) from
//! the features durable agents use: host calls, `Promise.all` over calls, human input,
//! durable sleeps, steps, timers, `Math.random`, closures, classes and Maps.
#![allow(clippy::unwrap_used)]

mod support;

use amber::{CallResult, Journal, OpKind, Outcome, PendingOp, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::{capture, take_output};

const START: u64 = 1_750_000_000_000;

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(capture).start_time_ms(START).seed([3; 32]).wall_clock(|| START)
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One generated agent program.
fn program(rng: &mut Rng) -> String {
    let mut body = String::new();
    let statements = 4 + rng.below(10);
    for i in 0..statements {
        let k = rng.below(1000);
        let line = match rng.below(11) {
            0 => format!("acc = (acc * 31 + {k}) % 1000003;"),
            1 => format!("log.push(await amber.call(\"tool{}\", {{ n: acc % 100, i: {i} }}));", k % 3),
            2 => format!(
                "const [a{i}, b{i}] = await Promise.all([amber.call(\"p\", {{ i: {i} }}), amber.call(\"q\", {{ i: {i}, k: {k} }})]);\n  acc += a{i}.v + b{i}.v;"
            ),
            3 => format!("acc += (await amber.input(\"question {i}\")).length;"),
            4 => format!("await amber.sleep({});", 1 + k % 500),
            5 => format!("setTimeout(() => log.push(\"t{i}@\" + (Date.now() - t0)), {});", k % 300),
            6 => "acc += Math.floor(Math.random() * 100);".to_string(),
            7 => format!("m.set(\"k{i}\", new Box(acc)); acc = (acc + m.get(\"k{i}\").twice()) % 1000003;"),
            8 => format!("acc += await amber.step(\"s{i}\", () => (acc * {k}) % 97);"),
            9 => format!("const f{i} = (y) => y + acc; acc = f{i}({k}) % 1000003;"),
            _ => format!("pending.push(amber.call(\"later\", {{ i: {i} }}).then((r) => log.push(\"late\" + r.v)));"),
        };
        body.push_str("  ");
        body.push_str(&line);
        body.push('\n');
    }
    format!(
        r#"class Box {{ constructor(x) {{ this.x = x; }} twice() {{ return this.x * 2; }} }}
(async () => {{
  const log = [], pending = [], m = new Map(), t0 = Date.now();
  let acc = 1;
{body}  await Promise.all(pending);
  await amber.sleep(1000);
  console.log(JSON.stringify(log), acc, m.size);
}})();
"#
    )
}

/// The host's answer to an operation: a pure function of the case, the operation and its args.
fn answer(case: u64, op: &PendingOp) -> (CallResult, u64) {
    let mut h = case.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ op.seq;
    for b in op.name.bytes().chain(op.args.to_string().bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let duration = h % 50;
    let result = match op.kind {
        OpKind::Input => CallResult::Ok(json!("y".repeat((h % 5) as usize))),
        _ => CallResult::Ok(json!({ "v": h % 100 })),
    };
    (result, duration)
}

/// Answer every pending operation (sleeps complete when due).
fn answer_all(case: u64, rt: &mut Runtime, ops: &[PendingOp]) {
    for op in ops {
        if op.kind == OpKind::Sleep {
            continue;
        }
        let (result, duration) = answer(case, op);
        rt.resolve_with_duration(op.id, result, duration).unwrap();
    }
    // Sleeps complete exactly when due: the clock then reads the due time.
    if let Some(due) = ops.iter().filter_map(|op| op.due_time_ms).min() {
        rt.complete_due_sleeps(due);
    }
}

struct End {
    output: String,
    hash: String,
    image: Vec<u8>,
    suspensions: usize,
}

fn straight(case: u64, program: &Program) -> (End, Journal) {
    let mut rt = builder().build().unwrap();
    let mut outcome = rt.run(program).unwrap();
    let mut suspensions = 0;
    while let Outcome::Suspended(ops) = outcome {
        suspensions += 1;
        answer_all(case, &mut rt, &ops);
        outcome = rt.resume().unwrap();
    }
    assert!(matches!(outcome, Outcome::Completed(_)), "case {case}: {outcome:?}");
    let journal = Journal::from_records(rt.take_records()).unwrap();
    let hash = rt.state_hash().unwrap();
    let image = rt.snapshot().unwrap();
    (End { output: take_output(), hash, image, suspensions }, journal)
}

fn imaged(case: u64, program: &Program) -> End {
    let mut rt = builder().build().unwrap();
    let mut outcome = rt.run(program).unwrap();
    let mut suspensions = 0;
    while let Outcome::Suspended(ops) = outcome {
        suspensions += 1;
        let image = rt.snapshot().unwrap();
        // A second image of the same state is byte-identical (canonical bytes).
        assert_eq!(rt.snapshot().unwrap(), image, "case {case}: imaging is not deterministic");
        rt = Runtime::restore(&image, builder()).unwrap();
        answer_all(case, &mut rt, &ops);
        outcome = rt.resume().unwrap();
    }
    assert!(matches!(outcome, Outcome::Completed(_)), "case {case}: {outcome:?}");
    let hash = rt.state_hash().unwrap();
    let image = rt.snapshot().unwrap();
    End { output: take_output(), hash, image, suspensions }
}

fn replayed(case: u64, program: &Program, journal: &Journal) -> End {
    let mut rt = builder().print_while_replaying(true).replay(journal).unwrap();
    let outcome = rt.run(program).unwrap();
    assert!(matches!(outcome, Outcome::Completed(_)), "case {case}: replay ended {outcome:?}");
    let hash = rt.state_hash().unwrap();
    let image = rt.snapshot().unwrap();
    End { output: take_output(), hash, image, suspensions: 0 }
}

#[test]
fn straight_imaged_and_replayed_runs_reach_the_same_state() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut total_suspensions = 0;
    let mut with_steps = 0;
    let cases: u64 = std::env::var("CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(40);
    for case in 0..cases {
        let source = program(&mut rng);
        let program = Program::script("gen.js", source.clone());
        let (a, journal) = straight(case, &program);
        let b = imaged(case, &program);
        let c = replayed(case, &program, &journal);
        assert!(!a.output.is_empty(), "case {case} printed nothing:\n{source}");
        assert_eq!(a.suspensions, b.suspensions, "case {case}");
        assert_eq!(a.output, b.output, "case {case}: imaged output differs\n{source}");
        assert_eq!(a.output, c.output, "case {case}: replayed output differs\n{source}");
        assert_eq!(a.hash, b.hash, "case {case}: imaged state differs\n{source}");
        // A step's function runs live but not on replay; the hash is of the canonical state,
        // so the garbage, shapes and warmer caches it leaves behind do not count.
        assert_eq!(a.hash, c.hash, "case {case}: replayed state differs\n{source}");
        // Images hold the state in canonical form: the same bytes after all three histories.
        assert!(a.image == b.image, "case {case}: the imaged run's final image differs\n{source}");
        assert!(a.image == c.image, "case {case}: the replay's final image differs\n{source}");
        with_steps += u32::from(source.contains("amber.step"));
        total_suspensions += a.suspensions;
    }
    assert!(total_suspensions >= 80, "the generator should suspend often: {total_suspensions}");
    assert!(with_steps >= 10, "too few programs with steps: {with_steps}");
}
