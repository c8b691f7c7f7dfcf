// Set: construction, SameValueZero, iteration, aliases, errors, subclassing.
const log = (...a) => console.log(a.map(String).join(" "));

const s = new Set([1, "1", NaN, NaN, -0, 0, 1n, 1n, undefined]);
log(s.size, s.has(NaN), s.has(0), s.has(-0), s.has(1n), s.has(undefined), s.has(null));
log(Object.is([...s][3], 0));
log(JSON.stringify([...s].map((x) => typeof x)));
log(s.add(2) === s, s.add(2).size, s.delete(2), s.delete(2), s.size);

log(Set.prototype.keys === Set.prototype.values, Set.prototype[Symbol.iterator] === Set.prototype.values);
log(JSON.stringify([...new Set(["a", "b"]).entries()]));
const si = new Set([1])[Symbol.iterator]();
log(Object.prototype.toString.call(si), JSON.stringify(si.next()), JSON.stringify(si.next()));
log(Object.getOwnPropertyNames(Set.prototype).join());
log(String(Set.prototype[Symbol.toStringTag]), Set.length, Set[Symbol.species] === Set);

// Mutation during iteration.
const m = new Set([1, 2, 3]);
const seen = [];
for (const x of m) {
  seen.push(x);
  if (x === 1) { m.delete(2); m.add(2); }
  if (x === 3) m.delete(1);
}
log(seen.join(","), [...m].join(","));

m.forEach(function (v, k, set) { log("forEach", v, k, set === m, this.t); }, { t: "this" });

const c = new Set([1, 2]);
const ci = c.values();
ci.next();
c.clear();
log(c.size, JSON.stringify(ci.next()));
c.add(5);
log(JSON.stringify(ci.next()));

const tryIt = (f) => { try { f(); log("no error"); } catch (e) { log(e.constructor.name + ": " + e.message); } };
tryIt(() => Set());
tryIt(() => new Set(3));
tryIt(() => Set.prototype.add.call(new Map(), 1));
tryIt(() => Set.prototype.has.call([], 1));
tryIt(() => si.next.call(new Map()));

class Logged extends Set {
  add(v) { log("add", v); return super.add(v); }
}
const l = new Logged("aba");
log(l.size, l instanceof Set);
