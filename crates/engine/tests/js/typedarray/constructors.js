// TypedArray constructors: from a length, an array, an iterable, an array-like, another
// TypedArray (with conversion), and a buffer with offset and length; their errors.
const log = (...a) => console.log(a.map(String).join(" "));
const show = (t) => `${Object.prototype.toString.call(t).slice(8, -1)}[${Array.prototype.join.call(t, ",")}]`;
const err = (f) => { try { f(); return "no error"; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };

log(show(new Int8Array()), show(new Uint8Array(3)), show(new Float64Array(2.7)));
log(show(new Int16Array([1, -2, 3.7, "4", null, undefined, true])));
log(show(new Uint8Array(new Set([5, 6, 7]))));
log(show(new Uint16Array({ length: 3, 0: 10, 2: 30 })));
function* gen() { yield 1; yield 2; yield 300; }
log(show(new Uint8Array(gen())));
log(show(new Float32Array(new Int8Array([-1, 2, -3]))));
log(show(new Uint8Array(new Float64Array([1.5, -1, 256, NaN]))));
log(show(new BigInt64Array(new BigUint64Array([2n ** 64n - 1n, 5n]))));
log(show(new BigInt64Array([1n, -2n])), show(new BigUint64Array([-1n])));

const buf = new ArrayBuffer(16);
const view = new Int32Array(buf, 4, 2);
log(view.length, view.byteOffset, view.byteLength, view.buffer === buf);
const rest = new Int32Array(buf, 8);
log(rest.length, rest.byteOffset);
view[0] = 7;
log(new Int32Array(buf)[1], rest[0]);

// Constants and shape.
log(Int8Array.BYTES_PER_ELEMENT, Float64Array.prototype.BYTES_PER_ELEMENT, BigUint64Array.BYTES_PER_ELEMENT);
log(Int8Array.length, Int8Array.name, Object.getPrototypeOf(Int8Array).name, Object.getPrototypeOf(Int8Array).length);
log(Object.getPrototypeOf(Int8Array.prototype) === Object.getPrototypeOf(Uint8Array.prototype));
const TA = Object.getPrototypeOf(Int8Array);
log(Object.getPrototypeOf(TA) === Function.prototype, TA.prototype.constructor === TA);
log(Object.getOwnPropertyNames(Uint8ClampedArray.prototype).sort().join());
const d = Object.getOwnPropertyDescriptor(Int8Array, "BYTES_PER_ELEMENT");
log(d.writable, d.enumerable, d.configurable);

// Errors.
log(err(() => Int8Array(1)));
log(err(() => new TA()));
log(err(() => new Int8Array(-1)));
log(err(() => new Int32Array(buf, 1)));
log(err(() => new Int32Array(new ArrayBuffer(7))));
log(err(() => new Int32Array(buf, 0, 5)));
log(err(() => new Int32Array(buf, 20)));
log(err(() => new BigInt64Array([1])));
log(err(() => new BigInt64Array(new Int8Array(1))));
log(err(() => new Int8Array([1n])));
log(err(() => new Int8Array(Symbol())));

// Prototype from new.target.
class Mine extends Uint8Array { sum() { return this.reduce((a, b) => a + b, 0); } }
const m = new Mine([1, 2, 3]);
log(m instanceof Mine, m instanceof Uint8Array, m.sum(), m.constructor.name);
function F() {}
F.prototype = Array.prototype;
const r = Reflect.construct(Int8Array, [2], F);
log(Object.getPrototypeOf(r) === Array.prototype);

// from and of.
log(show(Int8Array.from([1, 2, 3], (x, i) => x * 10 + i)));
log(show(Uint8Array.from({ length: 2, 0: 9 })), show(Float64Array.of(1, 2.5, "3")));
log(show(Int16Array.from("123")), show(BigInt64Array.of(1n, 2n)));
log(err(() => TA.from.call({}, [])), (() => { try { Int8Array.from([], 5); } catch (e) { return e.constructor.name; } })());
log(TA[Symbol.species] === TA, Int8Array[Symbol.species] === Int8Array);
