// DisposableStack, AsyncDisposableStack and SuppressedError (ES2026 explicit resource
// management). Node 20 lacks them: expected output generated with Node 24.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : typeof x === "function" ? "fn" : JSON.stringify(x))).join(" "));
const order = [];
const res = (name) => ({ [Symbol.dispose]() { order.push("dispose " + name); } });

const s = new DisposableStack();
log(s.disposed, Object.prototype.toString.call(s), s.use(null), s.use(undefined));
const r1 = res("a");
log(s.use(r1) === r1, s.adopt(7, (v) => order.push("adopt " + v)), s.defer(() => order.push("defer")));
s.use(res("b"));
s.dispose();
log(order.join(", "), s.disposed, s.dispose());
for (const [name, f] of [["use", () => s.use(res("x"))], ["adopt", () => s.adopt(1, () => {})], ["defer", () => s.defer(() => {})], ["move", () => s.move()]]) {
  try { f(); } catch (e) { log(name, e.constructor.name); }
}
const t = new DisposableStack();
try { t.use(1); } catch (e) { log("use 1", e.constructor.name); }
try { t.use({}); } catch (e) { log("use {}", e.constructor.name); }
try { t.adopt(1, 2); } catch (e) { log("adopt", e.constructor.name); }
try { t.defer(); } catch (e) { log("defer", e.constructor.name); }
try { DisposableStack(); } catch (e) { log("call", e.constructor.name); }
try { DisposableStack.prototype.dispose.call({}); } catch (e) { log("brand", e.constructor.name); }

order.length = 0;
const m = new DisposableStack();
m.defer(() => order.push("moved one"));
const moved = m.move();
log(m.disposed, moved.disposed, moved instanceof DisposableStack, order.length);
moved[Symbol.dispose]();
log(order.join(", "), DisposableStack.prototype[Symbol.dispose] === DisposableStack.prototype.dispose);

const e = new DisposableStack();
e.defer(() => { throw new Error("first"); });
e.defer(() => { throw new Error("second"); });
e.defer(() => order.push("ran"));
try { e.dispose(); } catch (err) {
  log(err.constructor.name, err instanceof SuppressedError, err instanceof Error, err.error.message, err.suppressed.message, Object.keys(err));
}
const se = new SuppressedError(1, 2, "msg");
log(se.error, se.suppressed, se.message, se.name, String(se), Object.getOwnPropertyNames(se).filter((k) => k !== "stack").sort(), SuppressedError.length);
log(Object.getPrototypeOf(SuppressedError) === Error, Object.getPrototypeOf(SuppressedError.prototype) === Error.prototype, SuppressedError.prototype.message === "", SuppressedError().message, "message" in SuppressedError(1, 2), Object.hasOwn(SuppressedError(1, 2), "message"));

(async () => {
  const order2 = [];
  const a = new AsyncDisposableStack();
  a.use({ async [Symbol.asyncDispose]() { await null; order2.push("async res"); } });
  a.use({ [Symbol.dispose]() { order2.push("sync res in async stack"); } });
  a.use(null);
  a.adopt("v", async (v) => { order2.push("adopt " + v); });
  a.defer(() => order2.push("defer"));
  const p = a.disposeAsync();
  log(p instanceof Promise, a.disposed, order2.join(", "));
  await p;
  log(order2.join(", "), await a.disposeAsync());
  const b = new AsyncDisposableStack();
  b.defer(async () => { throw new Error("x"); });
  b.defer(() => { throw new Error("y"); });
  try { await b.disposeAsync(); } catch (err) { log(err.constructor.name, err.error.message, err.suppressed.message); }
  try { await AsyncDisposableStack.prototype.disposeAsync.call({}); } catch (err) { log("brand", err.constructor.name); }
  try { new AsyncDisposableStack().use({}); } catch (err) { log("use {}", err.constructor.name); }
  log(Object.prototype.toString.call(new AsyncDisposableStack()), AsyncDisposableStack.prototype[Symbol.asyncDispose] === AsyncDisposableStack.prototype.disposeAsync);
})();
