// WeakMap, WeakSet, WeakRef, FinalizationRegistry.
const log = (...a) => console.log(a.map(String).join(" "));
const tryIt = (f) => { try { const r = f(); log("ok", r); } catch (e) { log(e.constructor.name + ": " + e.message); } };

const k1 = {}, k2 = function () {}, sym = Symbol("local");
const wm = new WeakMap([[k1, 1], [k2, 2]]);
log(wm.get(k1), wm.get(k2), wm.has(k1), wm.has({}), wm.get({}));
log(wm.set(sym, "s") === wm, wm.get(sym), wm.has(Symbol.iterator));
wm.set(k1, "one");
log(wm.get(k1), wm.delete(k1), wm.delete(k1), wm.has(k1));
log(wm.get(1), wm.has("x"), wm.delete(null));
tryIt(() => wm.set(1, 1));
tryIt(() => wm.set(Symbol.for("registered"), 1));
tryIt(() => new WeakMap([[1, 2]]));
tryIt(() => new WeakMap([1]));
tryIt(() => WeakMap());
tryIt(() => WeakMap.prototype.get.call(new Map(), k1));
log(Object.prototype.toString.call(wm), Object.getOwnPropertyNames(WeakMap.prototype).join());
log("size" in wm, typeof wm.clear, typeof wm[Symbol.iterator]);

const ws = new WeakSet([k1, k1, sym]);
log(ws.has(k1), ws.has(sym), ws.has(k2), ws.add(k2) === ws, ws.has(k2));
log(ws.delete(k2), ws.delete(k2), ws.has(k2), ws.has(1), ws.delete(1));
tryIt(() => ws.add(1));
tryIt(() => ws.add(Symbol.for("r")));
tryIt(() => new WeakSet([1]));
log(Object.prototype.toString.call(ws), Object.getOwnPropertyNames(WeakSet.prototype).join());

const target = { name: "target" };
const ref = new WeakRef(target);
log(ref.deref() === target, ref.deref().name, Object.prototype.toString.call(ref));
log(new WeakRef(sym).deref() === sym);
tryIt(() => new WeakRef(1));
tryIt(() => new WeakRef(Symbol.for("x")));
tryIt(() => WeakRef(target));
tryIt(() => WeakRef.prototype.deref.call({}));
log(WeakRef.length, FinalizationRegistry.length, WeakMap.length, WeakSet.length);

const fr = new FinalizationRegistry((held) => log("cleanup", held));
const token = {};
log(fr.register(target, "held", token), fr.register({}, 1), fr.register(sym, 2, sym));
log(fr.unregister(token), fr.unregister(token), fr.unregister(sym), fr.unregister({}));
tryIt(() => fr.register(1, 1));
tryIt(() => fr.register(target, target));
tryIt(() => fr.register(target, 1, 1));
tryIt(() => fr.unregister(1));
tryIt(() => new FinalizationRegistry());
tryIt(() => FinalizationRegistry(() => {}));
log(Object.prototype.toString.call(fr), Object.getOwnPropertyNames(FinalizationRegistry.prototype).join());

class MyWeakMap extends WeakMap {}
const mw = new MyWeakMap([[k1, 5]]);
log(mw instanceof WeakMap, mw.get(k1));
