// obj[i] and obj[i] = v on TypedArrays, in loops (the interpreter's fast tier) and once
// (its general path): every element kind, bounds, conversions, and the cases the shortcut
// leaves to the full [[Get]]/[[Set]] (BigInt kinds, out of bounds, non-Number values,
// shrunk buffers, shared memory).
'use strict';

function sum(ta) {
  let s = 0;
  for (let i = 0; i < ta.length; i++) s += ta[i];
  return s;
}

function fill(ta, values) {
  for (let i = 0; i < values.length; i++) ta[i] = values[i];
  return Array.from(ta);
}

const values = [0, 1, -1, 127, 128, 255, 256, -129, 65535, 65536, 2 ** 31, -(2 ** 31) - 1, 1.5, -1.5, 2.5, 0.1, NaN, Infinity, -Infinity, -0, 1e40];
for (const C of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array]) {
  const ta = new C(values.length);
  const stored = fill(ta, values);
  console.log(C.name, JSON.stringify(stored.map(String)), Object.is(ta[19], -0), sum(new C([1, 2, 3])));
}

// Reads past the end are undefined; writes past the end are dropped; negative indices too.
const u8 = new Uint8Array(4);
let reads = [];
for (let i = -2; i < 6; i++) reads.push(u8[i]);
for (let i = -2; i < 6; i++) u8[i] = 9;
console.log(JSON.stringify(reads), JSON.stringify(Array.from(u8)), u8[-1], u8.length, JSON.stringify(Object.keys(u8)));

// A non-Number value is converted by ToNumber, which may run code, once per store.
const log = [];
const f64 = new Float64Array(3);
for (let i = 0; i < 3; i++) f64[i] = { valueOf() { log.push(i); return i * 10; } };
f64[1] = '2.5';
f64[2] = true;
console.log(JSON.stringify(Array.from(f64)), JSON.stringify(log));
// Out of bounds, the conversion still happens (TypedArraySetElement converts first).
f64[7] = { valueOf() { log.push('oob'); return 1; } };
console.log(JSON.stringify(log));

// The prototype chain is never consulted for integer indices, in bounds or not.
Object.defineProperty(Object.prototype, 5, { get() { return 'from proto'; }, set(v) { log.push('proto set ' + v); }, configurable: true });
const i16 = new Int16Array(2);
let got = [];
for (let i = 0; i < 7; i++) { i16[i] = i; got.push(i16[i]); }
delete Object.prototype[5];
console.log(JSON.stringify(got), log.includes('proto set 5'));

// Subclasses and views with an offset read and write the shared bytes.
class Bytes extends Uint8Array {}
const buf = new ArrayBuffer(8);
const view = new Bytes(buf, 2, 4);
for (let i = 0; i < view.length; i++) view[i] = 0xa0 + i;
const whole = new Uint8Array(buf);
console.log(JSON.stringify(Array.from(whole)), view[3], view[4]);
const u16 = new Uint16Array(buf, 2, 2);
console.log(u16[0].toString(16), u16[1].toString(16));

// BigInt kinds take and give BigInts.
const b64 = new BigInt64Array(2);
for (let i = 0; i < 2; i++) b64[i] = BigInt(i) - 3n;
console.log(b64[0], b64[1], typeof b64[0]);
try { b64[0] = 1; } catch (e) { console.log(e.constructor.name, e.message); }
const bu = new BigUint64Array(1);
bu[0] = -1n;
console.log(bu[0]);

// A length-tracking view over a resizable buffer follows resizes.
const rab = new ArrayBuffer(4, { maxByteLength: 8 });
const tracking = new Uint8Array(rab);
for (let i = 0; i < 4; i++) tracking[i] = i + 1;
rab.resize(2);
const seen = [];
for (let i = 0; i < 4; i++) { tracking[i] = 50; seen.push(tracking[i]); }
rab.resize(6);
console.log(JSON.stringify(seen), JSON.stringify(Array.from(tracking)));
const fixed = new Uint8Array(rab, 0, 4);
rab.resize(3);
console.log(fixed[0], fixed.length);

// Shared memory goes through the same element semantics.
const shared = new Int32Array(new SharedArrayBuffer(8));
for (let i = 0; i < 2; i++) shared[i] = 2 ** 31 + i;
console.log(shared[0], shared[1]);
