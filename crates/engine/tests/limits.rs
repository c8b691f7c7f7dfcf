//! Hostile programs against the engine's limits: deep recursion on a small native stack, and
//! work that natives do on the program's behalf (huge strings, joins, sorts, regex
//! backtracking) charged to the fuel and heap budgets. Every case must end with a limit or a
//! catchable RangeError — never a panic, an abort or a native stack overflow.
#![allow(clippy::unwrap_used)]

use amber_engine::{Limit, RunError, Vm, VmOptions};

fn run(options: VmOptions, source: &str) -> Result<String, RunError> {
    let mut vm = Vm::new(options);
    let v = vm.eval_script(source, "limits.js")?;
    vm.run_jobs()?;
    Ok(vm.to_display_string(v))
}

fn fuel(n: u64) -> VmOptions {
    VmOptions { max_instructions: Some(n), ..VmOptions::default() }
}

fn heap(bytes: u64) -> VmOptions {
    VmOptions { max_heap_bytes: Some(bytes), ..VmOptions::default() }
}

/// Runs `f` on a thread with a 256 KiB native stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    on_stack(256 * 1024, f)
}

fn on_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(bytes).spawn(f).unwrap().join().unwrap()
}

#[test]
fn a_100k_deep_recursion_runs_on_a_256k_native_stack() {
    let out = on_small_stack(|| {
        run(VmOptions::default(), "function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); } depth(100000)")
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.unwrap(), "100000");
}

#[test]
fn the_depth_limit_is_a_catchable_range_error() {
    let options = VmOptions { max_stack_depth: 1_000, ..VmOptions::default() };
    let source = "function f(n) { return f(n + 1); } \
                  try { f(0); 'no error' } catch (e) { e instanceof RangeError ? e.message : 'wrong: ' + e }";
    let out = on_small_stack(move || run(options, source).map_err(|e| e.to_string()));
    assert_eq!(out.unwrap(), "Maximum call stack size exceeded");
}

#[test]
fn unbounded_recursion_through_natives_stays_on_the_native_stack_budget() {
    // Every level re-enters the interpreter from a native (Array.prototype.map, a getter,
    // toString): the native nesting limit (interp::MAX_NATIVE_DEPTH) must stop it before an
    // 8 MiB stack — the CLI's main thread — is gone. (JS-to-JS calls use no native stack;
    // re-entry through natives does, so it needs more than the 256 KiB above.)
    for source in [
        "function f() { return [0].map(f); } try { f() } catch (e) { e.constructor.name }",
        "var o = { get x() { return this.x; } }; try { o.x } catch (e) { e.constructor.name }",
        "var o = { toString() { return String(o); } }; try { String(o) } catch (e) { e.constructor.name }",
    ] {
        let out = on_stack(8 << 20, move || run(VmOptions::default(), source).map_err(|e| e.to_string()));
        assert_eq!(out.unwrap(), "RangeError", "{source}");
    }
}

#[test]
fn natives_charge_fuel_for_their_work() {
    for source in [
        "'a'.repeat(2 ** 28).length",
        "new Array(5e6).fill('x').join(',').length",
        "Array.from({ length: 3e5 }, (_, i) => (i * 7919) % 1000).sort((a, b) => a - b).length",
        "JSON.stringify(new Array(2e6).fill({ a: [1, 2, 3] })).length",
        "'x'.padEnd(2 ** 29).length",
    ] {
        match run(fuel(2_000_000), source) {
            Err(RunError::Limit(Limit::Fuel | Limit::Heap)) => {}
            Err(RunError::Threw { name, .. }) if name == "RangeError" => {}
            other => panic!("{source}: expected a limit, got {:?}", other.map_err(|e| e.to_string())),
        }
    }
}

#[test]
fn catastrophic_regex_backtracking_is_bounded_by_fuel() {
    // Each of these backtracks for an exponential time in the subject's length (2^40 steps):
    // only the fuel charged per backtrack stops them.
    for source in [
        "/(a+)+b/.test('a'.repeat(40))",
        "/^(a|a)*$/.exec('a'.repeat(40) + 'b')",
        "'a'.repeat(40).replace(/(a*)*b/g, 'x')",
        "'x'.repeat(40).split(/(x+x+)+y/)",
        "'a'.repeat(40).match(/(?:a|aa)+$b/)",
        "'a'.repeat(40).search(/(\\w+)*!/)",
    ] {
        match run(fuel(5_000_000), source) {
            Err(RunError::Limit(Limit::Fuel)) => {}
            other => panic!("{source}: expected the fuel limit, got {:?}", other.map_err(|e| e.to_string())),
        }
    }
    // Ordinary matching is charged too, but fits easily.
    let ok = run(fuel(5_000_000), "/(a+)+b/.test('a'.repeat(20) + 'b') && /^(\\d+,)*\\d+$/.test('1,22,333')");
    assert_eq!(ok.map_err(|e| e.to_string()), Ok("true".to_string()));
}

#[test]
fn the_heap_budget_holds() {
    for source in [
        "var a = []; for (;;) a.push({ x: a.length })",
        // Ropes make doubling cheap; the maximum string length must still stop it.
        "var s = 'x'; for (;;) s = s + s",
        "var m = new Map(); for (let i = 0;; i++) m.set(i, [i])",
        "new ArrayBuffer(2 ** 31)",
    ] {
        match run(heap(32 << 20), source) {
            Err(RunError::Limit(Limit::Heap)) => {}
            Err(RunError::Threw { name, .. }) if name == "RangeError" => {}
            other => panic!("{source}: expected the heap limit, got {:?}", other.map_err(|e| e.to_string())),
        }
    }
}

#[test]
fn array_buffers_count_once_and_stop_the_run_at_the_heap_budget() {
    // Kept buffers end the run (not a catchable RangeError a program could swallow and go
    // on allocating); a block larger than the whole budget is a RangeError, as in V8.
    let kept = "const a = []; for (;;) a.push(new Uint8Array(1e5))";
    assert!(matches!(run(heap(16 << 20), kept), Err(RunError::Limit(Limit::Heap))));
    let huge = "try { new ArrayBuffer(32 * 2 ** 20); 'made' } catch (e) { e.name }";
    assert_eq!(run(heap(16 << 20), huge).map_err(|e| e.to_string()), Ok("RangeError".to_string()));
    // Buffers left behind are collected: 200 MB of garbage under a 16 MiB budget, with the
    // budget nearly full of live data, a buffer each resized and transferred on the way.
    let garbage = "const live = []; for (let i = 0; i < 100; i++) live.push(new Uint8Array(1e5)); \
        let n = 0; for (let i = 0; i < 2000; i++) { const b = new ArrayBuffer(5e4, { maxByteLength: 1e5 }); \
        b.resize(1e5); n += b.transfer().byteLength } n";
    assert_eq!(run(heap(16 << 20), garbage).map_err(|e| e.to_string()), Ok("200000000".to_string()));
}

#[test]
fn garbage_made_of_long_strings_is_collected_within_the_heap_budget() {
    // Each iteration leaves a 64 KiB string behind. The collector is paced by bytes, so the
    // garbage is reclaimed long before the 16 MiB budget; paced by object counts alone, a few
    // hundred such strings would pass the budget between two collections.
    let source =
        "let kept = 0; for (let i = 0; i < 2000; i++) { const s = 'ab'.repeat(32768) + i; kept += s.length } kept";
    assert_eq!(run(heap(16 << 20), source).map_err(|e| e.to_string()), Ok("131078890".to_string()));
}

/// What an instruction roots while it runs is released when it completes: 200,000 object
/// spreads, rests and for-of loops fit in 16 MiB (each once stayed reachable for the run).
#[test]
fn spreads_and_iterations_in_a_loop_keep_nothing() {
    let source = "let s = 0; for (let i = 0; i < 200000; i++) { const c = { ...{ a: i, b: 1 } }; \
                  const { a, ...r } = c; for (const x of new Set([r.b])) s += x; } s";
    assert_eq!(run(heap(16 << 20), source).map_err(|e| e.to_string()).unwrap(), "200000");
}

/// A Map used as an LRU (evict the oldest with `keys().next()`, append) costs fuel per
/// operation, not per tombstone left at the front since the last collection: 100,000
/// evictions fit in 20M instructions (the scan once charged ~2,500 tombstones per eviction).
#[test]
fn an_lru_map_scans_no_tombstones() {
    let source = "const m = new Map(); for (let i = 0; i < 1000; i++) m.set(i, i); \
                  for (let i = 1000; i < 101000; i++) { m.delete(m.keys().next().value); m.set(i, i); } \
                  m.size + ':' + m.keys().next().value";
    assert_eq!(run(fuel(20_000_000), source).map_err(|e| e.to_string()).unwrap(), "1000:100000");
}
