// Subclasses and @@species for map, filter, slice, subarray; the non-species methods.
const log = (...a) => console.log(a.map(String).join(" "));
const show = (t) => `${t.constructor.name}[${Array.prototype.join.call(t, ",")}]`;
const err = (f) => { try { f(); return "no error"; } catch (e) { return e.constructor.name; } };

class Sub extends Int16Array {}
const s = new Sub([1, 2, 3, 4]);
log(show(s.map((x) => x * 2)), show(s.filter((x) => x % 2)), show(s.slice(1)), show(s.subarray(1)));
log(show(s.toReversed()), show(s.toSorted()), show(s.with(0, 9)));

class Plain extends Uint8Array { static get [Symbol.species]() { return Float64Array; } }
const p = new Plain([5, 6, 7]);
log(show(p.map((x) => x / 2)), show(p.slice(0, 2)), err(() => p.subarray(1)), err(() => p.subarray(0)), show(p.filter(() => true)));

let constructed = [];
class Logging extends Uint8Array {
  constructor(...args) { constructed.push(args.length + ":" + typeof args[0]); super(...args); }
}
const l = new Logging([1, 2, 3]);
constructed = [];
l.map((x) => x); l.slice(); l.subarray(0, 1); l.filter(() => true);
log(constructed.join());

class Short extends Uint8Array { static get [Symbol.species]() { return function () { return new Uint8Array(1); }; } }
log(err(() => new Short([1, 2]).map((x) => x)), err(() => new Short([1, 2]).slice()), show(new Short([1, 2]).slice(0, 1)));
class Mismatch extends Uint8Array { static get [Symbol.species]() { return BigInt64Array; } }
log(err(() => new Mismatch([1]).map((x) => x)), err(() => new Mismatch([1]).slice()));
class NotTA extends Uint8Array { static get [Symbol.species]() { return function () { return {}; }; } }
log(err(() => new NotTA([1]).slice()));
const weird = new Uint8Array([1, 2]);
weird.constructor = undefined;
log(show(weird.slice()), err(() => { weird.constructor = 5; weird.slice(); }));
weird.constructor = { [Symbol.species]: null };
log(show(weird.map((x) => x + 1)));

// from/of with a subclass and a custom constructor.
log(show(Sub.from([1, 2])), show(Sub.of(3)));
let made;
const Custom = function (n) { made = n; return new Int8Array(n + 1); };
log(show(Uint8Array.from.call(Custom, [1, 2])), made);
log(err(() => Uint8Array.of.call(function () { return new Int8Array(0); }, 1)));
// slice between different element types keeps values; same type copies bits.
class ToFloat extends Int8Array { static get [Symbol.species]() { return Float32Array; } }
log(show(new ToFloat([-1, 2, -3]).slice(1)));
const nan = new Float64Array([NaN]);
log(new Uint8Array(nan.slice().buffer).join());
