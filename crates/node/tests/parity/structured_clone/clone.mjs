const src = {
  n: 1, s: 'str', b: true, nil: null, u: undefined, big: 10n, neg: -0,
  arr: [1, [2, 3], { x: 4 }], date: new Date(86400000), re: /ab+c/gi,
  map: new Map([['k', { v: 1 }], [1, 'one']]), set: new Set([1, 'two', { three: 3 }]),
  bytes: new Uint8Array([1, 2, 3]), f64: new Float64Array([1.5, -2]),
  boxed: Object(5), err: new RangeError('bad range'),
};
src.self = src;
src.arr.push(src.arr);
const copy = structuredClone(src);
console.log(copy !== src, copy.self === copy, copy.arr[3] === copy.arr);
console.log(copy.n, copy.s, copy.b, copy.nil, copy.u, copy.big, Object.is(copy.neg, -0));
console.log(copy.arr[1], copy.arr[2], copy.date instanceof Date, copy.date.getTime(), copy.re.source, copy.re.flags, copy.re.lastIndex);
console.log(copy.map instanceof Map, copy.map.get('k'), copy.map.get('k') !== src.map.get('k'), [...copy.set].length);
console.log(copy.bytes instanceof Uint8Array, [...copy.bytes], copy.bytes.buffer !== src.bytes.buffer, [...copy.f64]);
console.log(typeof copy.boxed, copy.boxed.valueOf(), copy.err instanceof RangeError, copy.err.message, copy.err.name);
class Point {
  constructor() {
    this.x = 1;
  }
  get y() {
    return 2;
  }
}
const p = structuredClone(new Point());
console.log(p instanceof Point, Object.getPrototypeOf(p) === Object.prototype, p.x, p.y);
const buf = new ArrayBuffer(4);
const views = structuredClone({ a: new Uint8Array(buf), b: new Uint16Array(buf) });
console.log(views.a.buffer === views.b.buffer);
for (const bad of [() => {}, Symbol('s'), { f() {} }, new WeakMap(), Promise.resolve()]) {
  try {
    structuredClone(bad);
    console.log('cloned?');
  } catch (e) {
    console.log(e.name, e.code, e instanceof DOMException);
  }
}
try {
  structuredClone();
} catch (e) {
  console.log(e.name, e.code);
}
console.log(structuredClone(1), structuredClone('x'), structuredClone(null));
