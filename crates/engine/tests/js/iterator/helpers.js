// Iterator helpers (ES2025 §27.1.2, §27.1.4) and the iterator-chunking, -includes and -join
// proposals. Node 20 lacks them: the expected output was checked by hand against the spec.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));
const events = [];
// A plain iterator over `values` that logs next/return calls.
function counting(values, name = "it") {
  let i = 0;
  return {
    __proto__: Iterator.prototype,
    next() { events.push(name + ".next"); return i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true }; },
    return() { events.push(name + ".return"); return {}; },
  };
}
const flush = (label) => { log(label, events.join(" ")); events.length = 0; };

events.length = 0;
log("map", counting([1, 2, 3]).map((x, i) => x * 10 + i).toArray());
log("filter", counting([1, 2, 3, 4]).filter((x) => x % 2 === 0).toArray());
events.length = 0;
log("take", counting([1, 2, 3]).take(2).toArray());
flush("take calls");
log("drop", counting([1, 2, 3]).drop(1).toArray(), counting([1]).drop(Infinity).toArray());
log("flatMap", counting([1, 2]).flatMap((x) => [x, "s" + x]).toArray());
log("chunks", counting([1, 2, 3, 4, 5]).chunks(2).toArray());
log("windows", counting([1, 2, 3, 4]).windows(3).toArray(), counting([1, 2]).windows(3).toArray(),
  counting([1, 2]).windows(3, "allow-partial").toArray());
events.length = 0;

// Laziness: nothing is pulled until next().
const lazy = counting([1, 2, 3]).map((x) => x + 1);
flush("after map()");
log(lazy.next());
flush("after next()");

// return() in suspended-start closes the underlying iterator without calling next.
const h1 = counting([1, 2]).filter(() => true);
log(h1.return(), h1.next());
flush("start return");
// return() in suspended-yield closes it too; later calls are done.
const h2 = counting([1, 2]).take(5);
h2.next();
log(h2.return(), h2.return());
flush("yield return");
// flatMap closes the inner iterator, then the outer one.
const h3 = counting([1]).flatMap(() => counting(["a", "b"], "inner"));
h3.next();
h3.return();
flush("flatMap return");
// take(n) closes the underlying iterator once n values were taken.
const h4 = counting([1, 2, 3]).take(1);
log(h4.next(), h4.next());
flush("take exhausted");

// Callback errors close the underlying iterator; next() errors do not.
try { counting([1]).map(() => { throw new Error("boom"); }).next(); } catch (e) { log("mapper threw", e.message); }
flush("mapper throw");
const bad = { __proto__: Iterator.prototype, next() { throw new Error("next"); }, return() { events.push("bad.return"); return {}; } };
try { bad.map((x) => x).next(); } catch (e) { log("next threw", e.message); }
flush("next throw");

// Argument validation closes the receiver before GetIteratorDirect reads `next`.
for (const [name, f] of [["map", (it) => it.map(1)], ["take", (it) => it.take(-1)], ["drop", (it) => it.drop(NaN)],
  ["chunks", (it) => it.chunks(0)], ["windows", (it) => it.windows(2, "x")], ["reduce", (it) => it.reduce()]]) {
  try { f(counting([])); } catch (e) { log(name, e.constructor.name); }
}
flush("validation");

// A running helper cannot be re-entered.
let self;
self = counting([1, 2]).map(() => self.next());
try { self.next(); } catch (e) { log("re-enter", e.constructor.name); }
// Brand checks.
const proto = Object.getPrototypeOf(counting([]).map((x) => x));
try { proto.next.call({}); } catch (e) { log("brand", e.constructor.name); }
try { proto.next.call(Iterator.from({ next() {} })); } catch (e) { log("wrapper brand", e.constructor.name); }
log(Object.prototype.toString.call(proto), Object.getPrototypeOf(proto) === Iterator.prototype);

// Eager methods.
events.length = 0;
log("reduce", counting([1, 2, 3]).reduce((a, b) => a + b), counting([1, 2]).reduce((a, b) => a + b, 10));
log("some/every/find", counting([1, 2, 3]).some((x) => x > 1), counting([1, 2]).every((x) => x > 1), counting([5, 6]).find((x) => x > 5));
flush("eager calls");
const seen = [];
counting(["a", "b"]).forEach((x, i) => seen.push(x + i));
log("forEach", seen);
log("includes", counting([1, NaN, 3]).includes(NaN), counting([1, 2]).includes(1, 1), counting([0]).includes(-0));
log("join", counting([1, null, "x", undefined]).join(), counting([1, 2]).join(""), counting([]).join());
events.length = 0;
