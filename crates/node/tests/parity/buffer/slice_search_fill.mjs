import { Buffer } from 'node:buffer';

const buf = Buffer.from('hello world, hello buffer');
const s = buf.slice(6, 11);
s[0] = 87;
console.log(buf.toString(), s.toString(), s instanceof Buffer);
console.log(buf.subarray(-6).toString(), buf.slice(-6, -3).toString(), buf.subarray(3, 1).length, buf.slice().length);
console.log(buf.indexOf('hello'), buf.indexOf('hello', 1), buf.lastIndexOf('hello'), buf.indexOf('nope'));
console.log(buf.indexOf(111), buf.indexOf(111 + 256), buf.indexOf(Buffer.from('world')), buf.indexOf('o', -5));
console.log(buf.lastIndexOf('o', 10), buf.lastIndexOf('l', -20), buf.includes('buffer'), buf.includes('x'));
console.log(buf.indexOf('6c6c', 'hex'), buf.indexOf('aGVsbG8=', 0, 'base64'), buf.indexOf(''), buf.indexOf('', 100));
console.log(Buffer.from('abc').indexOf('c', 5), Buffer.from('aaa').lastIndexOf('a'));
const f = Buffer.alloc(10);
console.log(f.fill('ab'), f.fill(0).fill('xyz', 2, 7), f.fill(255, 8), f.fill('', 0));
console.log(Buffer.alloc(6).fill('€'), Buffer.alloc(5).fill('aGk=', 'base64'), Buffer.alloc(4).fill(Buffer.from([1, 2, 3])));
console.log(Buffer.alloc(3).fill(true), Buffer.alloc(3).fill('a', 'latin1'));
const t = Buffer.alloc(8, 46);
console.log(Buffer.from('abcdef').copy(t, 2, 1, 4), t.toString());
console.log(Buffer.from('abcdef').copy(t, 6), t.toString());
const o = Buffer.from('0123456789');
o.copy(o, 2, 0, 5);
console.log(o.toString());
const w = Buffer.alloc(10);
console.log(w.write('héllo'), w.write('abc', 7), w.write('€', 8), w, w.write('ff00', 1, 'hex'), w);
console.log(w.write('xyz', 2, 1), w.write('zz', 'latin1'), w.toString('latin1'));
console.log(JSON.stringify(Buffer.from('hi')), Buffer.from('hi').toJSON());
const swapped = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
console.log(swapped.swap16(), swapped.swap32(), swapped.swap64());
for (const bad of [() => Buffer.alloc(3).swap16(), () => buf.indexOf({}), () => buf.fill('x', -1), () => w.write(5),
  () => buf.indexOf('a', 0, 'nope')]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
