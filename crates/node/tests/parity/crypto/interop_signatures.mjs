// Signatures node 20 made (random ECDSA nonces, high and low S; random PSS salts) verify.
import crypto from 'node:crypto';
import fs from 'node:fs';
const K = JSON.parse(fs.readFileSync(new URL('./keys.json', import.meta.url)));
const sigs = JSON.parse(fs.readFileSync(new URL('./node_signatures.json', import.meta.url)));
let ok = 0;
sigs.forEach(([a, b, c], i) => {
  ok += crypto.verify('sha256', Buffer.from('m' + i), K.ec.pub, Buffer.from(a, 'hex'));
  ok += crypto.verify('sha384', Buffer.from('m' + i), { key: K.ec384.pub, dsaEncoding: 'ieee-p1363' }, Buffer.from(b, 'hex'));
  ok += crypto.verify('sha256', Buffer.from('m' + i), { key: K.rsa.pub, padding: 6 }, Buffer.from(c, 'hex'));
});
console.log(ok, sigs.length * 3);
