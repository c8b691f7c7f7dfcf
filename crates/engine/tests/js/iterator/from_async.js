// Array.fromAsync (ES2026): iterables, async iterables and array-likes, with awaited values
// and mapping. Node 20 has Array.fromAsync, so the expected output is Node's.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));

async function* gen() { yield 1; yield Promise.resolve(2); yield 3; }
const closing = (name) => ({
  i: 0,
  [Symbol.iterator]() { return this; },
  next() { return { value: this.i++, done: false }; },
  return() { log(name, "closed"); return {}; },
});

(async () => {
  log("sync", await Array.fromAsync([1, Promise.resolve(2), 3]));
  log("async", await Array.fromAsync(gen()));
  log("array-like", await Array.fromAsync({ length: 2, 0: "a", 1: Promise.resolve("b") }));
  log("mapped", await Array.fromAsync([1, 2], async (x, i) => x * 10 + i));
  log("thisArg", await Array.fromAsync([1], function (x) { return this.k + x; }, { k: 5 }));
  log("string", await Array.fromAsync("hi"));
  class C { constructor(...args) { this.args = args; } }
  const c = await Array.fromAsync.call(C, [7]);
  log("constructor", c instanceof C, c.args, c.length, c[0]);
  const d = await Array.fromAsync.call(C, { length: 1, 0: 8 });
  log("constructor array-like", d.args, d.length);
  try { await Array.fromAsync([1], 5); } catch (e) { log("mapfn", e.constructor.name); }
  try { await Array.fromAsync(null); } catch (e) { log("null", e.constructor.name); }
  try { await Array.fromAsync(closing("map throws"), () => { throw new Error("m"); }); } catch (e) { log("threw", e.message); }
  try { await Array.fromAsync(closing("map rejects"), async () => { throw new Error("r"); }); } catch (e) { log("threw", e.message); }
  try { await Array.fromAsync([Promise.reject(new Error("element"))]); } catch (e) { log("threw", e.message); }
  // Ordering: the result is not ready synchronously, and each element costs microtask turns.
  const order = [];
  const p = Array.fromAsync([1, 2]).then(() => order.push("fromAsync"));
  Promise.resolve().then(() => order.push("tick 1")).then(() => order.push("tick 2"));
  order.push("sync");
  await p;
  log("order", order);
})();
