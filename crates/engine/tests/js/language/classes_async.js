// classes deeper
class P { static #count = 0; #secret; constructor(s) { this.#secret = s; P.#count++; } static count() { return P.#count; }
  #hidden() { return 'h:' + this.#secret; } reveal() { return this.#hidden(); } get [Symbol.toStringTag]() { return 'PP'; }
  static { this.init = 'static-block'; } has(o) { return #secret in o; } }
const p1 = new P('a'), p2 = new P('b');
console.log(P.count(), p1.reveal(), P.init, p1.has(p2), p1.has({}), String(p1));
class Q extends P { constructor() { super('q'); } reveal() { return 'Q>' + super.reveal(); } }
console.log(new Q().reveal(), Q.count(), Object.getPrototypeOf(Q) === P);
// accessors in classes & static inheritance
class R { static make() { return new this(); } get v() { return 1; } set v(x) { this._x = x; } }
class S extends R {} const s = S.make(); s.v = 4; console.log(s instanceof S, s.v, s._x);
// field initializers with this and arrow capturing this
class T { x = 1; y = this.x + 1; f = () => this.y; } const t = new T(); const f = t.f; console.log(t.x, t.y, f());
// async/await ordering
const log = [];
async function a1() { log.push('a1 start'); await 1; log.push('a1 after'); }
a1(); Promise.resolve().then(() => log.push('p1')); log.push('sync');
setTimeout(() => console.log(log.join(',')), 0);
// async iteration
async function* ag() { yield 1; yield 2; }
(async () => { const out = []; for await (const v of ag()) out.push(v); console.log('for await', out); })();
// generators delegating
function* inner() { yield 'a'; yield 'b'; return 'r'; } function* outer() { const r = yield* inner(); yield r; }
console.log([...outer()]);
// symbols & iterators
const iterable = { *[Symbol.iterator]() { yield 10; yield 20; } }; console.log([...iterable], Math.max(...iterable));
// getter on prototype chain & Object.defineProperty
const base = {}; Object.defineProperty(base, 'k', { get() { return 'got'; }, enumerable: false });
const child = Object.create(base); console.log(child.k, Object.keys(child), 'k' in child);
// freeze
const fr = Object.freeze({ a: 1 }); fr.a = 2; console.log(fr.a, Object.isFrozen(fr));
(function () { 'use strict'; try { fr.a = 3; } catch (e) { console.log(e.constructor.name); } })();
// string methods
console.log('Hello'.padStart(8, '*'), 'abc'.at(-1), ' x '.trim(), 'a,b'.replace(',', ';'), 'aXbX'.replaceAll('X', '-'));
console.log('abc'.localeCompare('abd'), 'ß'.toUpperCase(), 'İ'.toLowerCase().length, 'x'.repeat(3), 'abcdef'.slice(-3, -1));
// regexps
const re = /(\d+)-(?<w>\w+)/g; const str = '12-ab 34-cd'; let mm; while ((mm = re.exec(str))) console.log(mm[1], mm.groups.w, mm.index);
console.log('a1b2c3'.replace(/\d/g, d => d * 2), 'x-y-z'.split(/-/), /^[a-z]+$/i.test('ABC'));
console.log([...'a1b22'.matchAll(/\d+/g)].map(m => m[0]));
// Date
const d = new Date(Date.UTC(2020, 0, 15, 10, 30)); console.log(d.toISOString(), d.getUTCDay(), JSON.stringify({d}));
// labels + comma + void
outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; console.log(i, j); } }
console.log(void 0, (1, 2), typeof void 0);
// errors thrown from natives
try { [].reduce((a, b) => a); } catch (e) { console.log(e.name + ': ' + e.message); }
try { undefinedVar; } catch (e) { console.log(e.name + ': ' + e.message); }
try { (void 0)(); } catch (e) { console.log(e.name); }
// WeakMap, Proxy basics
const wm = new WeakMap(); const key = {}; wm.set(key, 1); console.log(wm.get(key), wm.has({}));
const px = new Proxy({}, { get: (t, k) => 'proxied:' + String(k) }); console.log(px.foo);
console.log(Reflect.ownKeys({ a: 1, [Symbol('s')]: 2 }));
