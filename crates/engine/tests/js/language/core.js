// closures & scoping
var fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); console.log(fs.map(f => f()));
var gs = []; for (var j = 0; j < 3; j++) gs.push(() => j); console.log(gs.map(f => f()));
function counter() { let c = 0; return { inc: () => ++c, get: () => c }; }
const c = counter(); c.inc(); c.inc(); console.log(c.get());
// switch
function sw(x) { switch (x) { case 1: return 'one'; case 2: case 3: return 'two-three'; default: return 'other'; } }
console.log(sw(1), sw(3), sw(9));
// try/finally
function tf() { try { return 'try'; } finally { console.log('finally runs'); } }
console.log(tf());
function tf2() { for (let i = 0; i < 3; i++) { try { if (i == 1) break; } finally { console.log('f', i); } } return 'done'; }
console.log(tf2());
// getters/setters
const o = { _v: 1, get v() { return this._v * 10; }, set v(x) { this._v = x; } };
o.v = 5; console.log(o.v, Object.keys(o));
// spread & rest
function sum(...xs) { return xs.reduce((a, b) => a + b, 0); }
console.log(sum(...[1, 2, 3], 4), Math.max(...[3, 9, 2]));
console.log({ ...{ a: 1 }, b: 2 });
// optional chaining & nullish
const n = null; console.log(n?.x, n?.x.y, ({a:{b:1}}).a?.b, n ?? 'def', 0 ?? 1);
// typeof/instanceof/in
console.log(typeof (() => 1), typeof Symbol(), 'x' in {x:1}, [] instanceof Array);
// template literals tagged
function tag(s, ...v) { return s.raw.join('|') + v.join(','); }
console.log(tag`a${1}b${2}c`);
// labeled continue, do-while
let k = 0; do { k++; } while (k < 5); console.log(k);
// exceptions with custom errors
class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } }
try { throw new MyErr('boom'); } catch (e) { console.log(e.name, e.message, e instanceof MyErr, e instanceof Error, String(e)); }
// generators with return/throw
function* gen() { try { const x = yield 1; console.log('got', x); yield 2; } finally { console.log('cleanup'); } }
const it = gen(); console.log(it.next()); console.log(it.next('hello')); console.log(it.return(9)); console.log(it.next());
// for-in order
const fo = { b: 1, a: 2, 1: 'x', 0: 'y' }; for (const key in fo) console.log(key);
// Array methods
console.log([1,2,3,4].filter(x => x % 2).map(x => x * 3), [3,1,2].sort((a,b)=>a-b), [1,[2,[3,[4]]]].flat(Infinity));
console.log(Array.from({length: 3}, (_, i) => i * i), Array.of(7, 8), [1,2,3].includes(2), [1,2,3].indexOf(3));
console.log([..."héllo"], "abc".split(""), "a-b-c".split("-", 2));
// JSON
console.log(JSON.stringify({a: [1, {b: 2}], c: "x"}), JSON.parse('{"x":[1,2]}').x[1]);
console.log(JSON.stringify({a:1,b:[1,2]}, null, 2));
// Map/Set
const m = new Map([[1, 'a'], ['k', {z: 1}]]); m.set(NaN, 'nan'); console.log(m.get(NaN), m.size, [...m.keys()]);
const st = new Set([1, 2, 2, 3]); console.log(st.size, [...st], st.has(2));
console.log(m, st);
// destructuring params
function dp({a, b = 2}, [c, d] = [3, 4]) { return a + b + c + d; } console.log(dp({a: 1}));
// arguments
function args() { return arguments.length + ':' + Array.prototype.slice.call(arguments).join(); } console.log(args(1, 2, 3));
// number formatting
console.log(1/3, 1e21, 1e-7, -0, [-0], 123456789012345680000, (0.1).toFixed(2), (255).toString(16), parseInt('ff', 16), parseFloat('3.14abc'));
console.log(String(Symbol('s')), [1, 'a', null, undefined, true].join());
