import qs from 'node:querystring';
import { parse, stringify, escape, unescape } from 'querystring';

console.log(JSON.stringify(parse('a=1&b=2&a=3&c&d=&e=x%20y+z&f=%E2%9C%93')));
console.log(JSON.stringify(parse('a:1;b:2', ';', ':')));
console.log(JSON.stringify(parse('a=%zz&b=%')));
console.log(Object.getPrototypeOf(parse('a=1')));
console.log(stringify({ a: 1, b: [2, 3], c: 'x y', d: true, e: null, f: undefined, g: '✓', h: NaN }));
console.log(stringify({ a: 1, b: 2 }, ';', ':'));
console.log(stringify('nope'), stringify({}), stringify({ 'a b': "!'()*-._~" }));
console.log(escape('a b&c=d/é'), unescape('a%20b%26'), unescape('%E2%9C%93'));
console.log(qs.encode === qs.stringify, qs.decode === qs.parse);
console.log(JSON.stringify(parse('a=1&b=2&c=3', null, null, { maxKeys: 2 })));
console.log(stringify({ w: 'ü' }, null, null, { encodeURIComponent: (s) => s.toUpperCase() }));
