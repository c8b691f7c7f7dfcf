// Map.groupBy and the upsert proposal (getOrInsert / getOrInsertComputed).
const log = (...a) => console.log(a.map(String).join(" "));

const g = Map.groupBy([1, 2, 3, 4, 5, -0, 0], (x, i) => (Object.is(x, -0) ? -0 : x % 2 === 0 ? "even" : "odd"));
log(g instanceof Map, g.size, JSON.stringify([...g]));
log(Object.is([...g.keys()][2], 0));
const keyObj = {};
const g2 = Map.groupBy("abcab", (ch, i) => (ch === "a" ? keyObj : i));
log(g2.get(keyObj).join(""), g2.size);
try { Map.groupBy(null, (x) => x); } catch (e) { log(e.constructor.name, e.message); }
try { Map.groupBy([], 1); } catch (e) { log(e.constructor.name); }
log(Map.groupBy.length, Map.groupBy.name);

// Closes the iterator when the callback throws.
const iterable = {
  [Symbol.iterator]() {
    return { i: 0, next() { return { value: this.i++, done: false }; }, return() { log("closed"); return {}; } };
  },
};
try { Map.groupBy(iterable, (x) => { if (x === 2) throw new Error("stop"); return x; }); } catch (e) { log(e.message); }

const m = new Map([["a", 1]]);
log(m.getOrInsert("a", 5), m.getOrInsert("b", 7), m.get("b"), m.size);
log(m.getOrInsert(-0, "zero"), m.has(0), Object.is([...m.keys()][2], 0));
let calls = 0;
log(m.getOrInsertComputed("a", () => { calls++; return 9; }), calls);
log(m.getOrInsertComputed("c", (k) => { calls++; return k + "!"; }), calls, m.get("c"));
log(m.getOrInsertComputed(-0, (k) => { calls++; return "never"; }), calls);
// The callback may insert the key itself: the computed value wins, position kept.
log(m.getOrInsertComputed("d", (k) => { m.set("d", "inner"); m.set("e", "after"); return "outer"; }));
log(JSON.stringify([...m.keys()]), m.get("d"));
try { m.getOrInsertComputed("z", 1); } catch (e) { log(e.constructor.name); }
log(m.has("z"));
try { Map.prototype.getOrInsert.call({}, 1, 1); } catch (e) { log(e.constructor.name, e.message); }
log(Map.prototype.getOrInsert.length, Map.prototype.getOrInsertComputed.length);

const wm = new WeakMap();
const k1 = {}, k2 = {};
log(wm.getOrInsert(k1, 1), wm.getOrInsert(k1, 2), wm.get(k1));
log(wm.getOrInsertComputed(k2, (k) => k === k2), wm.getOrInsertComputed(k2, () => "no"));
try { wm.getOrInsert(1, 1); } catch (e) { log(e.constructor.name, e.message); }
try { wm.getOrInsertComputed(Symbol.for("reg"), () => 1); } catch (e) { log(e.constructor.name); }
log(wm.getOrInsertComputed(Symbol.iterator, () => "wk"));
