// `using` declarations (needs the compiler's support): dispose order, null resources, errors
// chained into SuppressedError. Node 20 lacks them: expected output generated with Node 24.
const log = (...a) => console.log(a.join(" "));
const res = (name, fail) => ({ [Symbol.dispose]() { log("dispose", name); if (fail) throw new Error(name); } });
{
  using a = res("a");
  using b = null;
  using c = res("c");
  log("body");
}
try {
  using d = res("d", true);
  using e = res("e", true);
  throw new Error("body");
} catch (err) {
  log(err.constructor.name, err.error.message, err.suppressed.constructor.name, err.suppressed.error.message, err.suppressed.suppressed.message);
}
try { using f = 5; } catch (err) { log("primitive", err.constructor.name); }
try { using g = {}; } catch (err) { log("no dispose", err.constructor.name); }
function early() {
  using h = res("h");
  return "returned";
}
log(early());
for (const x of [1, 2]) {
  using i = res("loop " + x);
}
// `using` in a for statement's head lives until the loop is left; in a for-of head, each
// iteration's value is disposed as the iteration ends (also on break). The expected lines
// for this part follow the spec by hand: no Node with `using` was at hand when they were added.
let n = 0;
for (using j = res("for head"); n < 2; n++) {
  log("for body", n);
}
for (using k of [res("of 1"), res("of 2"), res("of 3")]) {
  log("of body");
  if (k === null) continue;
  if (n++ === 3) break;
}
