//! Durability benchmarks (issue 4): image size and snapshot/restore time for the example agent
//! and for a ~100 MB heap; restore time against journals of 10 and 10,000 records; replay time
//! against journal length. Prints a Markdown table; `benches/durability.sh` runs it in release
//! mode and writes it into benches/RESULTS-durability.md. A benchmark, not a test: nothing here
//! asserts a time.

use std::time::Instant;

use amber::{Journal, Outcome, Program, Runtime, RuntimeBuilder};

fn quiet(_vm: &mut amber::engine::Vm, _stream: amber::engine::vm::Stream, _text: &str) {}

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(quiet).start_time_ms(1_750_000_000_000).seed([1; 32])
}

/// Median of `runs` timings of `f`, in milliseconds.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn suspended(rt: &mut Runtime, program: &Program) {
    match rt.run(program) {
        Ok(Outcome::Suspended(_)) => {}
        other => panic!("expected the program to suspend, got {other:?}"),
    }
}

/// Image size, snapshot and restore time of a program suspended on its first host call.
fn image_row(label: &str, program: &Program, runs: usize) {
    let mut rt = builder().build().expect("runtime");
    suspended(&mut rt, program);
    let image = rt.snapshot().expect("snapshot");
    let snapshot = median_ms(runs, || {
        rt.snapshot().expect("snapshot");
    });
    let restore = median_ms(runs, || {
        Runtime::restore(&image, builder()).expect("restore");
    });
    let heap = rt.vm().heap.bytes_estimate;
    println!("| {label} | {:.1} MB | {} bytes | {snapshot:.2} ms | {restore:.2} ms |", heap as f64 / 1e6, image.len());
}

/// A program that makes `n` host calls served in-process, then suspends on one nobody serves.
fn calls_program(n: usize) -> Program {
    Program::script(
        "calls.js",
        format!(
            "(async () => {{ let s = 0; for (let i = 0; i < {n}; i++) s += (await amber.call('tool', {{ i }})).v; \
             await amber.call('final', {{ s }}); }})();"
        ),
    )
}

fn served() -> RuntimeBuilder {
    builder().host_function("tool", |op| Ok(serde_json::json!({ "v": op.args["i"].as_u64().unwrap_or(0) % 7 })))
}

/// (journal, image) of `calls_program(n)` suspended on its final call.
fn journaled(n: usize) -> (Journal, Vec<u8>) {
    let mut rt = served().build().expect("runtime");
    suspended(&mut rt, &calls_program(n));
    let image = rt.snapshot().expect("snapshot");
    (Journal::from_records(rt.take_records()).expect("journal"), image)
}

fn main() {
    let agent = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/agent.js"))
        .expect("examples/agent.js");
    println!("## Images\n");
    println!("| program | heap (estimate) | image | snapshot (median) | restore (median) |");
    println!("|---|---:|---:|---:|---:|");
    image_row("examples/agent.js, first suspension", &Program::commonjs("/examples/agent.js", agent), 21);
    let big = "globalThis.big = []; for (let i = 0; i < 600000; i++) big.push({ i, s: 'item ' + i, t: [i, i + 1] }); \
               amber.call('wait', {});";
    image_row("100 MB heap (600,000 objects with strings and arrays)", &Program::script("big.js", big), 3);

    println!("\n## Restore against a journal\n");
    println!("The image taken at the end of a run, restored without its journal and with the whole");
    println!("journal (records past the image are served; here there are none). The journal's length");
    println!("should not matter; the heap's size (garbage from the calls) does.\n");
    println!("| journal records | restore, no journal | restore, whole journal |");
    println!("|---:|---:|---:|");
    for n in [5, 5_000] {
        let (journal, image) = journaled(n);
        let alone = median_ms(11, || {
            builder().restore(&image, None).expect("restore");
        });
        let with_journal = median_ms(11, || {
            builder().restore(&image, Some(&journal)).expect("restore");
        });
        println!("| {} | {alone:.2} ms | {with_journal:.2} ms |", journal.records().len());
    }

    println!("\n## Replay from the top\n");
    println!("| journal records | replay (median) | per record |");
    println!("|---:|---:|---:|");
    for n in [10, 100, 1_000, 5_000] {
        let (journal, _) = journaled(n);
        let program = calls_program(n);
        let replay = median_ms(5, || {
            let mut rt = builder().replay(&journal).expect("replay");
            let _ = rt.run(&program).expect("replay run");
        });
        let records = journal.records().len();
        println!("| {records} | {replay:.1} ms | {:.1} µs |", replay * 1000.0 / records as f64);
    }
}
