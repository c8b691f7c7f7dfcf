// A function inside a `finally` block is compiled once per exit of the `try` (normal, return,
// throw, break); every copy must get its own registers and env slots. The second copy used
// to reuse the first copy's layout, leaving it with too few registers (a verifier-rejected
// image; found by fuzzing, target `snapshot_roundtrip`).
function run(how) {
  const log = [];
  for (const i of [1, 2]) {
    try {
      if (how === "throw") throw new Error("x" + i);
      if (how === "break") break;
      if (how === "return") return log.concat(["returned"]);
    } catch (e) {
      log.push(e.message);
    } finally {
      const f = (a) => {
        let p = a * 10, q = p + 1;
        const inner = () => p + q + i;
        return [p, q, inner()];
      };
      log.push(f(i).join("/"));
      let kept = i;
      log.push((() => kept * 100)());
    }
  }
  return log;
}
for (const how of ["normal", "throw", "break", "return"]) console.log(how, run(how).join(" "));
async function later() {
  try {
    await null;
  } finally {
    const g = function (n) { let acc = 0; for (let k = 0; k < n; k++) acc += k; return acc; };
    console.log("async finally", g(5));
  }
}
later();
