// Map: construction, SameValueZero keys, order, mutation during iteration.
const log = (...a) => console.log(a.map(String).join(" "));

const m = new Map([[1, "one"], ["1", "string one"], [NaN, "nan"], [-0, "zero"]]);
log(m.size, m.get(1), m.get("1"), m.get(NaN), m.get(0), m.get(-0), m.get(2));
log(m.has(NaN), m.has(+0), m.has(1.0), m.has(undefined));
log(Object.is([...m.keys()][3], -0), Object.is([...m.keys()][3], 0));
m.set(2 ** 40, "big").set(2 ** 40 + 0.5, "frac");
log(m.get(2 ** 40), m.get(1099511627776), m.get(2 ** 40 + 0.5));
m.set(10n, "bigint");
log(m.get(10n), m.get(BigInt(10)), m.get(10));
const s1 = "ab", s2 = "a" + "b".repeat(1);
m.set(s1, "ab");
log(m.get(s2), m.size);
const o = {}, sym = Symbol("s");
m.set(o, "obj").set(sym, "sym");
log(m.get(o), m.get({}), m.get(sym), m.get(Symbol("s")));
log(m.delete(1), m.delete(1), m.has(1), m.size);
log(JSON.stringify([...m.keys()].map(k => typeof k)));

// Overwrite keeps position.
const order = new Map([["a", 1], ["b", 2], ["c", 3]]);
order.set("a", 10);
log(JSON.stringify([...order]));
order.delete("a");
order.set("a", 11);
log(JSON.stringify([...order.entries()]), JSON.stringify([...order.values()]));

// Deleting ahead of an iterator skips; adding is visited.
const it = new Map([[1, 1], [2, 2], [3, 3]]);
const seen = [];
for (const [k] of it) {
  seen.push(k);
  if (k === 1) { it.delete(2); it.set(4, 4); }
}
log(seen.join(","));

// clear during iteration, then add: the iterator continues with new entries.
const c = new Map([[1, 1], [2, 2]]);
const ci = c.keys();
log(JSON.stringify(ci.next()));
c.clear();
c.set(9, 9);
log(JSON.stringify(ci.next()), JSON.stringify(ci.next()));
c.set(10, 10);
log(JSON.stringify(ci.next()));

// forEach sees additions, passes (value, key, map) and thisArg.
const f = new Map([["x", 1]]);
f.forEach(function (v, k, map) {
  log("forEach", k, v, map === f, this.tag);
  if (k === "x") map.set("y", 2);
}, { tag: "T" });

// Iterator protocol details.
const mi = new Map()[Symbol.iterator]();
log(Object.prototype.toString.call(mi), mi[Symbol.toStringTag]);
log(Map.prototype[Symbol.iterator] === Map.prototype.entries);
log(Object.getPrototypeOf(Object.getPrototypeOf(mi)) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
log(Object.getOwnPropertyNames(Map.prototype).join());
log(String(Map.prototype[Symbol.toStringTag]), Map.length, Map.name, Map[Symbol.species] === Map);
const sizeDesc = Object.getOwnPropertyDescriptor(Map.prototype, "size");
log(typeof sizeDesc.get, sizeDesc.set, sizeDesc.enumerable, sizeDesc.configurable, sizeDesc.get.name);

// Errors.
const tryIt = (f) => { try { f(); log("no error"); } catch (e) { log(e.constructor.name + ": " + e.message); } };
tryIt(() => Map());
tryIt(() => new Map(5));
tryIt(() => new Map({}));
tryIt(() => new Map([1]));
tryIt(() => Map.prototype.get.call({}, 1));
tryIt(() => Map.prototype.set.call(new Set(), 1, 1));
tryIt(() => sizeDesc.get.call(1));
tryIt(() => new Map().forEach(1));
tryIt(() => mi.next.call({}));

// Subclassing and a user-defined adder.
class MyMap extends Map {
  set(k, v) { log("MyMap.set", k, v); return super.set(k, v * 2); }
}
const mm = new MyMap([["a", 1], ["b", 2]]);
log(mm instanceof MyMap, mm instanceof Map, mm.get("a"), mm.get("b"), mm.size);

// Closing the iterator when the adder throws.
const iterable = {
  [Symbol.iterator]() {
    let i = 0;
    return {
      next() { i++; return { value: [i, i], done: i > 3 }; },
      return() { log("return called at", i); return {}; },
    };
  },
};
class Throwing extends Map { set(k) { if (k === 2) throw new Error("boom"); return super.set(k, k); } }
tryIt(() => new Throwing(iterable));
