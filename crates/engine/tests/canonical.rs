//! The canonical form of a state (`Vm::write_canonical`) depends on what the state holds, not
//! on the history that built the heap: garbage, collection points, shapes and atoms left by
//! code that ran and finished, ropes flattened or not, Map tombstones, inline caches.
#![allow(clippy::unwrap_used)]

use amber_engine::{Vm, VmOptions};

fn canonical(vm: &mut Vm) -> Vec<u8> {
    let mut out = Vec::new();
    vm.write_canonical(&[], &mut |b| out.extend_from_slice(b)).unwrap();
    out
}

/// Panics with where two canonical forms first differ (they are too long to print whole).
fn assert_same(a: &[u8], b: &[u8], what: &str) {
    if a != b {
        let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        let window = |v: &[u8]| v[at.saturating_sub(40)..(at + 40).min(v.len())].to_vec();
        panic!(
            "{what}: lengths {} and {}, first difference at {at}:\n{:?}\n{:?}",
            a.len(),
            b.len(),
            window(a),
            window(b)
        );
    }
}

fn state_after(source: &str, collect: bool) -> Vec<u8> {
    let mut vm = Vm::new(VmOptions::default());
    vm.eval_script(source, "canonical.js").unwrap();
    vm.run_jobs().unwrap();
    if collect {
        amber_engine::gc::collect(&mut vm);
    }
    canonical(&mut vm)
}

const PLAIN: &str = r#"
var scratch = null, m = new Map([["a", 1], ["c", 3]]), s = "left-" + "x".repeat(300), o;
var o = { p: 1, q: [1, 2, { r: "deep" }], m };
o.self = o;
"#;

/// The same end state, reached after throwaway work: garbage of every kind, new shapes and
/// atoms, a Map entry added and deleted, a rope read (flattened), warm inline caches.
const BUSY: &str = r#"
var scratch = [], m, s, o;
for (let i = 0; i < 3000; i++) scratch.push({ ["k" + (i % 50)]: i, t: "v" + i });
(() => {
  const warm = (x) => x.p + x.p;
  for (let i = 0; i < 100; i++) warm({ p: i });
})();
m = new Map([["a", 1], ["b", 2], ["c", 3]]);
m.delete("b");
s = "left-" + "x".repeat(300);
s.charCodeAt(200);
scratch = null;
o = { p: 1, q: [1, 2, { r: "deep" }], m };
o.self = o;
"#;

#[test]
fn different_histories_to_the_same_state_write_the_same_bytes() {
    let plain = state_after(PLAIN, false);
    assert_same(&plain, &state_after(PLAIN, true), "collected");
    assert_same(&plain, &state_after(BUSY, false), "busy");
    assert_same(&plain, &state_after(BUSY, true), "busy, collected");
}

#[test]
fn different_states_write_different_bytes() {
    let plain = state_after(PLAIN, false);
    for changed in [
        PLAIN.replace("p: 1", "p: 2"),
        PLAIN.replace("\"deep\"", "\"deeper\""),
        PLAIN.replace("[\"c\", 3]", "[\"c\", 4]"),
        PLAIN.replace("o.self = o", "o.self = o.q"),
        PLAIN.replace("repeat(300)", "repeat(301)"),
        format!("{PLAIN}\nvar extra = Symbol('x');"),
    ] {
        assert_ne!(plain, state_after(&changed, false), "{changed}");
    }
}

/// A VM every run of these tests starts from, sealed as embedders seal theirs.
fn baseline() -> Vm {
    let mut vm = Vm::new(VmOptions::default());
    vm.heap.seal_baseline();
    vm
}

/// The image bytes (baseline-relative, of the canonical copy) after `source`.
fn image_after(source: &str, collect: bool) -> Vec<u8> {
    let mut vm = baseline();
    vm.eval_script(source, "canonical.js").unwrap();
    vm.run_jobs().unwrap();
    if collect {
        amber_engine::gc::collect(&mut vm);
    }
    let base = baseline();
    vm.canonical_copy(&base).unwrap().encode_state_relative(&base).unwrap()
}

#[test]
fn different_histories_to_the_same_state_image_to_the_same_bytes() {
    let plain = image_after(PLAIN, false);
    assert_same(&plain, &image_after(PLAIN, true), "collected");
    assert_same(&plain, &image_after(BUSY, false), "busy");
    assert_same(&plain, &image_after(BUSY, true), "busy, collected");
    assert_ne!(plain, image_after(&PLAIN.replace("p: 1", "p: 2"), false));
}

/// Code that is still reachable (closures, a class, a generator suspended mid-way, pending
/// promise reactions, a live Map iterator past deleted entries, eval'd code) after more or
/// less throwaway work: the images agree, and the restored copy runs on as the original.
#[test]
fn a_canonical_image_restores_and_runs_on_like_the_original() {
    let program = r#"
var log = [];
class Counter { #n = 0; inc() { return ++this.#n; } }
var c = new Counter(); c.inc();
function* gen() { let i = 0; while (true) yield i++; }
var g = gen(); g.next();
var m = new Map([[1, "a"], [2, "b"], [3, "c"], [4, "d"]]);
var it = m.keys(); it.next(); m.delete(2); m.delete(3);
var evaled = eval("(function (x) { return x * 2; })");
var later = new Promise((resolve) => { globalThis.resolveLater = resolve; }).then((v) => log.push("then " + v));
"#;
    // Throwaway work in a script of its own, whose code nothing keeps.
    let busywork = "for (let i = 0; i < 2000; i++) ({ ['k' + (i % 40)]: i }); eval('var junk = 1; delete junk'); new Map([[1, 2]]).delete(1);";
    let base = baseline();
    let image = |busy: bool| {
        let mut vm = baseline();
        if busy {
            vm.eval_script(busywork, "busy.js").unwrap();
        }
        vm.eval_script(program, "canonical.js").unwrap();
        vm.run_jobs().unwrap();
        vm.canonical_copy(&base).unwrap().encode_state_relative(&base).unwrap()
    };
    let quiet = image(false);
    let busy = image(true);
    // The busy history declared `junk` in the global scope and deleted it, and compiled a
    // script and eval code that nothing reaches any more: their source texts are not kept.
    assert_same(&quiet, &busy, "busy history");
    let mut restored = Vm::decode_state_relative(&quiet, baseline()).unwrap();
    // Imaging the restored state again gives the same bytes.
    let again = restored.canonical_copy(&base).unwrap().encode_state_relative(&base).unwrap();
    assert_same(&quiet, &again, "re-imaged");
    let probe = r#"
resolveLater(7);
[c.inc(), g.next().value, [...it].join(","), evaled(21), typeof junk].join(" ")
"#;
    let out = restored.eval_script(probe, "probe.js").unwrap();
    restored.run_jobs().unwrap();
    let out = restored.heap.flat(out.as_string().unwrap()).to_rust_string();
    assert_eq!(out, "2 1 4 42 undefined");
    let log = restored.eval_script("log.join()", "log.js").unwrap();
    assert_eq!(restored.heap.flat(log.as_string().unwrap()).to_rust_string(), "then 7");
}

/// A live Map iterator over a table with many deleted entries: the collector squeezes the
/// tombstones out (moving the iterator) in one history and not in the other.
#[test]
fn a_live_map_iterator_hashes_and_images_the_same_before_and_after_a_collection() {
    let source = r#"
var m = new Map();
for (let i = 0; i < 40; i++) m.set(i, "v" + i);
var it = m.entries();
for (let i = 0; i < 5; i++) it.next();
for (let i = 3; i < 33; i++) m.delete(i);
"#;
    assert_same(&state_after(source, false), &state_after(source, true), "hash");
    assert_same(&image_after(source, false), &image_after(source, true), "image");
}

/// A collection's heap estimate is computed from the state alone, not from the capacities
/// its history left in the vectors: a restored VM (whose vectors are allocated at their
/// lengths) estimates what the live one does, so it collects, and stops at `--max-heap`, at
/// the same points. Map and Set tables with deleted entries, pending reactions, buffers.
#[test]
fn a_collection_estimates_the_same_heap_live_and_restored() {
    let program = r#"
var m = new Map(), s = new Set(), p = new Promise(() => {}), u = [];
for (let i = 0; i < 1000; i++) { m.set(i, { i }); s.add('k' + i); }
for (let i = 0; i < 300; i++) { m.delete(i); s.delete('k' + i); }
for (let i = 0; i < 100; i++) p.then(() => i);
for (let i = 0; i < 10; i++) u.push(new Float64Array(i + 1));
"#;
    let base = baseline();
    let mut live = baseline();
    live.eval_script(program, "estimate.js").unwrap();
    live.run_jobs().unwrap();
    amber_engine::gc::collect(&mut live);
    let image = live.encode_state_relative(&base).unwrap();
    let mut restored = Vm::decode_state_relative(&image, baseline()).unwrap();
    amber_engine::gc::collect(&mut live);
    amber_engine::gc::collect(&mut restored);
    assert_eq!(live.heap.bytes_estimate, restored.heap.bytes_estimate);
}
