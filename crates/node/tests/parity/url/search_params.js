// URLSearchParams: constructors, methods, serialization, iteration, errors, inspect.
const util = require('util');
const show = (p) => JSON.stringify([...p]) + ' ' + p.toString() + ' size=' + p.size;
const inits = [
  'a=1&b=2', '?a=1', '??a=1', 'a=1&&b', '=x', 'a=', 'a', '+a+=+b+', 'a%20b=c%2Bd', '%zz=%4', '%E2%82%AC=%F0%9F%98%80',
  '%C3=%FF%FE', 'a=b=c', '', '&', 'é=ü', [['x', '1'], ['y', 2]], [], new Map([['m', 'n']]), { r: 1, s: 'two' },
  { __proto__: { inh: 1 }, own: 2 }, null, undefined, 42, new URLSearchParams('c=3'), 'a=\ud800',
];
for (const init of inits) console.log(show(new URLSearchParams(init)));
for (const bad of [[['a']], [['a', 'b', 'c']], [1], { [Symbol.iterator]: 1 }]) {
  try { new URLSearchParams(bad); console.log('ok'); } catch (e) { console.log(e.name, e.code, e.message); }
}
const p = new URLSearchParams('b=2&a=1&c=3&a=0&\u00e9=1&A=9&z=');
console.log(p.get('a'), p.get('nope'), p.getAll('a'), p.has('a'), p.has('a', '0'), p.has('a', '5'), p.has('q'));
p.sort();
console.log(show(p));
p.set('a', 'new');
console.log(show(p));
p.set('zz', 'end');
p.delete('c', '4');
console.log(show(p));
p.delete('c', '3');
p.delete('A');
console.log(show(p));
p.append('sp ace', "!'()*~-._ &=+%");
console.log(p.toString());
const seen = [];
p.forEach(function (v, k, self) { seen.push([k, v, self === p, this.t]); }, { t: 1 });
console.log(JSON.stringify(seen));
console.log([...p.keys()], [...p.values()], [...p.entries()].length);
const it = p.keys();
console.log(Object.prototype.toString.call(it), typeof it.next, typeof it[Symbol.iterator]);
console.log(p[Symbol.iterator] === p.entries);
const s2 = new URLSearchParams([['b', '1'], ['a', '2'], ['b', '0'], ['\ud83d\ude00', 'x'], ['\uffff', 'y']]);
s2.sort();
console.log(show(s2));
for (const fn of ['append', 'set', 'get', 'getAll', 'has', 'delete']) {
  try { new URLSearchParams()[fn](); } catch (e) { console.log(fn, e.name, e.code, e.message); }
}
try { new URLSearchParams().forEach(1); } catch (e) { console.log(e.name, e.code); }
console.log(util.inspect(new URLSearchParams('a=1&b=x%20y')), util.inspect(new URLSearchParams()));
console.log(util.inspect(new URL('https://u:p@a.com:81/x?y=1#z')));
console.log(util.inspect({ nested: new URL('http://a/') }));
console.log(util.inspect(new URLSearchParams('k=' + 'v'.repeat(90))));
// iteration while mutating
const m = new URLSearchParams('a=1&b=2&c=3');
const out = [];
for (const [k] of m) { out.push(k); if (k === 'a') m.delete('b'); }
console.log(out);
