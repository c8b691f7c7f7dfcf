// A cipher's output encoding is one decoder across update() and final(), as in Node: a
// base64 group or a UTF-8 character split between chunks is carried over, not padded or
// broken per chunk; changing the encoding midway is Node's internal assertion.
import { createCipheriv, createDecipheriv } from 'node:crypto';

const key = Buffer.alloc(16, 7);
const iv = Buffer.alloc(16, 9);
for (const enc of ['base64', 'base64url', 'hex', 'latin1']) {
  const c = createCipheriv('aes-128-cbc', key, iv);
  let s = c.update('hello world, this is more than one block of text', 'utf8', enc);
  s += c.update('x'.repeat(7), 'utf8', enc);
  s += c.update('', 'utf8', enc);
  s += c.final(enc);
  const d = createDecipheriv('aes-128-cbc', key, iv);
  console.log(enc, JSON.stringify(s), d.update(s, enc, 'utf8') + d.final('utf8'));
}
// A UTF-8 character split across decrypted chunks.
const text = '€uro and 𝄞 clef, across blocks';
const c = createCipheriv('aes-128-cbc', key, iv);
const ct = Buffer.concat([c.update(text), c.final()]);
const d = createDecipheriv('aes-128-cbc', key, iv);
const parts = [];
for (let i = 0; i < ct.length; i += 5) parts.push(d.update(ct.subarray(i, i + 5), undefined, 'utf8'));
parts.push(d.final('utf8'));
console.log(JSON.stringify(parts), parts.join('') === text);
// GCM in base64, chunk by chunk.
const g = createCipheriv('aes-128-gcm', key, Buffer.alloc(12, 1));
console.log(g.update('ab', 'utf8', 'base64') + g.update('cdefg', 'utf8', 'base64') + g.final('base64'), g.getAuthTag().toString('hex'));
const x = createCipheriv('aes-128-cbc', key, iv);
x.update('abcdefghijklmnopq', 'utf8', 'hex');
try {
  x.final('base64');
} catch (e) {
  console.log(e.code, JSON.stringify(e.message));
}
