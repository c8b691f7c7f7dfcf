//! The process-wide compile cache of builtin module bodies (`engine/src/compiler/cache.rs`):
//! a runtime whose builtins were rebuilt from the cache behaves, and images, exactly as the
//! one that compiled them. (One test in this file: its process starts with an empty cache.)
#![allow(clippy::unwrap_used)]

mod support;

use amber::{Outcome, Program, Runtime};
use serde_json::json;
use support::{capture, take_output};

const AGENT: &str = r#"
const path = require("node:path");
const { EventEmitter } = require("node:events");
const util = require("node:util");
const e = new EventEmitter();
e.on("x", (v) => console.log("event", v));
e.emit("x", { deep: { list: [1, 2n, "three"], when: new Date(0) } });
console.log(path.join("/a", "b", "..", "c"), util.format("%s=%d", "n", 42), Buffer.from("hé").toString("hex"));
console.log(process.argv.length, typeof process.nextTick, [1, 2, 3].map((n) => n * 2));
(async () => {
  const r = await amber.call("tool", { q: path.basename("/x/y.txt") });
  console.log("after", util.inspect(r, { depth: 0 }), new Map([[1, { a: 1 }]]));
  try { require("node:assert").strictEqual(1, 2); } catch (err) { console.log(err.message.split("\n")[0]); }
})();
"#;

fn run_once() -> (String, Vec<u8>, String) {
    let mut runtime = Runtime::builder()
        .print_hook(capture)
        .module_loader(amber::node::loader::load_module)
        .start_time_ms(1_700_000_000_000)
        .seed([3; 32])
        .build()
        .unwrap();
    let outcome = runtime.run(&Program::commonjs("/app/agent.js", AGENT)).unwrap();
    let Outcome::Suspended(ops) = outcome else { panic!("expected a suspension, got {outcome:?}") };
    assert_eq!(ops[0].args, json!({ "q": "y.txt" }));
    let before = take_output();
    let image = runtime.snapshot().unwrap();
    runtime.resolve(ops[0].id, json!({ "ok": [1, 2] })).unwrap();
    runtime.resume().unwrap();
    (before, image, take_output())
}

#[test]
fn builtins_rebuilt_from_the_cache_run_and_image_as_compiled_ones() {
    let compiled = run_once();
    assert!(
        compiled.0.contains("event { deep: { list: [ 1, 2n, 'three' ], when: 1970-01-01T00:00:00.000Z } }"),
        "{}",
        compiled.0
    );
    assert!(compiled.2.contains("Expected values to be strictly equal:"), "{}", compiled.2);
    let cached = run_once();
    assert_eq!(cached.0, compiled.0);
    assert_eq!(cached.2, compiled.2);
    assert!(cached.1 == compiled.1, "the images differ ({} and {} bytes)", cached.1.len(), compiled.1.len());
    // Another thread builds its own baseline with the cache full: the baseline must still be
    // compiled (an image names its baseline's fingerprint, so the bytes would differ).
    let elsewhere = std::thread::spawn(run_once).join().unwrap();
    assert_eq!(elsewhere.0, compiled.0);
    assert!(elsewhere.1 == compiled.1, "another thread's image differs: its baseline was built from the cache");
}
