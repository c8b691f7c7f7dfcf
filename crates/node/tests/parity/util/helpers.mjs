import util from 'node:util';
import types from 'node:util/types';

// promisify
function legacy(a, b, cb) {
  setTimeout(() => (a < 0 ? cb(new Error('negative')) : cb(null, a + b)), 1);
}
const p = util.promisify(legacy);
console.log(await p(1, 2));
try {
  await p(-1, 0);
} catch (e) {
  console.log('rejected', e.message);
}
function withCustom() {}
withCustom[util.promisify.custom] = () => Promise.resolve('custom!');
console.log(await util.promisify(withCustom)(), util.promisify(withCustom) === withCustom[util.promisify.custom]);
try {
  util.promisify(1);
} catch (e) {
  console.log(e.code, e.message);
}
// callbackify
const cbf = util.callbackify(async (x) => x * 2);
await new Promise((resolve) => cbf(21, (err, v) => { console.log('callbackified', err, v); resolve(); }));
const cbr = util.callbackify(async () => { throw new Error('nope'); });
await new Promise((resolve) => cbr((err) => { console.log('callbackified error', err.message); resolve(); }));
const cbn = util.callbackify(() => Promise.reject(null));
await new Promise((resolve) => cbn((err) => { console.log(err.code, err.message, err.reason); resolve(); }));
console.log(cbf.name, cbf.length);
// inherits
function Base() {}
Base.prototype.hello = function () { return 'hello'; };
function Derived() { Base.call(this); }
util.inherits(Derived, Base);
console.log(new Derived().hello(), Derived.super_ === Base);
try {
  util.inherits(Derived, {});
} catch (e) {
  console.log(e.code, e.message);
}
// deprecate: warning on stderr once; value passes through
const dep = util.deprecate((x) => x + 1, 'dep is deprecated', 'DEP0001');
console.log(dep(1), dep(2));
// isDeepStrictEqual
console.log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }));
console.log(util.isDeepStrictEqual({ a: 1 }, { a: '1' }), util.isDeepStrictEqual([1, 2], [1, 2, 3]));
console.log(util.isDeepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])));
console.log(util.isDeepStrictEqual(new Set([{ a: 1 }, 2]), new Set([2, { a: 1 }])));
console.log(util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual(0, -0));
console.log(util.isDeepStrictEqual(new Date(5), new Date(5)), util.isDeepStrictEqual(/a/g, /a/i));
// types
console.log(types === util.types, types.isPromise(Promise.resolve()), types.isDate(new Date()));
console.log(types.isRegExp(/x/), types.isMap(new Map()), types.isSet(new Set()), types.isWeakMap(new WeakMap()));
console.log(types.isTypedArray(new Uint8Array(1)), types.isUint8Array(new Uint8Array(1)), types.isUint8Array(new Int8Array(1)));
console.log(types.isArrayBuffer(new ArrayBuffer(1)), types.isAnyArrayBuffer(new ArrayBuffer(2)), types.isDataView(new DataView(new ArrayBuffer(1))));
console.log(types.isAsyncFunction(async () => {}), types.isAsyncFunction(() => {}), types.isGeneratorFunction(function* () {}));
console.log(types.isGeneratorObject((function* () {})()), types.isProxy(new Proxy({}, {})), types.isProxy({}));
console.log(types.isBoxedPrimitive(Object(1)), types.isBoxedPrimitive(1), types.isNumberObject(Object(2)), types.isStringObject(Object('s')));
console.log(types.isNativeError(new TypeError('x')), types.isNativeError({ message: 'x' }));
console.log(types.isMapIterator(new Map().keys()), types.isSetIterator(new Set().values()), types.isArgumentsObject((function () { return arguments; })()));
console.log(types.isArrayBufferView(new Float64Array(2)), types.isBigInt64Array(new BigInt64Array(1)));
// misc
console.log(util.stripVTControlCharacters('\u001b[31mred\u001b[39m plain'));
console.log(JSON.stringify(util.styleText('red', 'hi')), JSON.stringify(util.styleText(['bold', 'underline'], 'x')));
console.log(util.toUSVString('a\ud800b'), util.isArray([]), util.types.isDate(1));
console.log(util.getSystemErrorName(-2), typeof util.debuglog('x'));
