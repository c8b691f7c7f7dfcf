//! The canonical form of a state (`Vm::write_canonical`) depends on what the state holds, not
//! on the history that built the heap: garbage, collection points, shapes and atoms left by
//! code that ran and finished, ropes flattened or not, Map tombstones, inline caches.
#![allow(clippy::unwrap_used)]

use amber_engine::{Vm, VmOptions};

fn canonical(vm: &Vm) -> Vec<u8> {
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
        amber_engine::heap::gc::collect(&mut vm);
    }
    canonical(&vm)
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
