import crypto from 'node:crypto';
import { createHash, createHmac, hash, getHashes } from 'node:crypto';

const inputs = ['', 'abc', 'The quick brown fox jumps over the lazy dog', 'é€𝄞'.repeat(50)];
for (const alg of ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'SHA256', 'RSA-SHA1']) {
  for (const input of inputs) {
    console.log(alg, JSON.stringify(input.slice(0, 10)), createHash(alg).update(input).digest('hex'));
  }
}
const h = createHash('sha256');
h.update('hello ').update(Buffer.from('wor')).update(new Uint8Array([108, 100]));
const copy = h.copy();
copy.update('!');
console.log(h.digest('base64'), copy.digest('base64url'));
console.log(createHash('sha1').update('6869', 'hex').digest('latin1').length, createHash('md5').update('hi').digest());
console.log(createHash('sha256').update('x', 'utf8').digest('binary').length, createHash('sha512').digest('hex').slice(0, 16));
console.log(hash('sha1', 'abc'), hash('md5', Buffer.from('abc'), 'base64'), hash('sha256', 'abc', 'buffer'));
for (const [alg, key, msg] of [['sha256', 'key', 'The quick brown fox jumps over the lazy dog'], ['md5', '', ''],
  ['sha1', Buffer.alloc(100, 7), 'long key'], ['sha512', 'k', 'x'.repeat(1000)], ['sha384', new Uint8Array([1, 2]), 'y']]) {
  console.log(alg, createHmac(alg, key).update(msg).digest('hex'));
}
const hm = createHmac('sha256', 'secret');
hm.update('a');
hm.update('b');
console.log(hm.digest('base64'), hm.digest('hex'));
console.log(getHashes().includes('sha256'), getHashes().includes('md5'), typeof crypto.createHash);
const done = createHash('md5');
done.digest();
for (const bad of [() => createHash('nope'), () => createHmac('nope', 'k'), () => done.update('x'), () => done.digest(),
  () => createHash('sha1').update(5), () => createHash(5), () => createHmac('sha1', 5), () => hash('sha1', 5)]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
