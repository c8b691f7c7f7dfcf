import { createCipheriv, createDecipheriv, getCiphers, getCipherInfo } from 'node:crypto';

const key16 = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const key24 = Buffer.alloc(24, 0x24);
const key32 = Buffer.alloc(32, 0x42);
const iv16 = Buffer.from('0f0e0d0c0b0a09080706050403020100', 'hex');
const iv12 = Buffer.from('cafebabefacedbaddecaf888', 'hex');
const messages = ['', 'a', 'exactly sixteen!', 'a longer message that spans several AES blocks of sixteen bytes', '€𝄞'];

for (const [alg, key] of [['aes-128-cbc', key16], ['aes-192-cbc', key24], ['aes-256-cbc', key32]]) {
  for (const m of messages) {
    const c = createCipheriv(alg, key, iv16);
    const ct = Buffer.concat([c.update(m, 'utf8'), c.final()]);
    const d = createDecipheriv(alg, key, iv16);
    const pt = Buffer.concat([d.update(ct), d.final()]).toString();
    console.log(alg, ct.toString('hex'), pt === m);
  }
}
// Streaming in odd pieces gives the same bytes.
const c = createCipheriv('aes-128-cbc', key16, iv16);
let out = c.update('abc', 'utf8', 'hex');
out += c.update('defghijklmnopqrstuvwxyz', 'utf8', 'hex');
out += c.final('hex');
console.log(out);
const d = createDecipheriv('aes-128-cbc', key16, iv16);
console.log(d.update(out.slice(0, 10), 'hex', 'utf8') + d.update(out.slice(10), 'hex', 'utf8') + d.final('utf8'));
// No padding.
const np = createCipheriv('aes-256-cbc', key32, iv16).setAutoPadding(false);
const npct = Buffer.concat([np.update(Buffer.alloc(32, 1)), np.final()]);
console.log(npct.toString('base64'));
const npd = createDecipheriv('aes-256-cbc', key32, iv16);
npd.setAutoPadding(false);
console.log(Buffer.concat([npd.update(npct), npd.final()]));

for (const [alg, key] of [['aes-128-gcm', key16], ['aes-192-gcm', key24], ['aes-256-gcm', key32]]) {
  for (const m of messages) {
    const c = createCipheriv(alg, key, iv12);
    c.setAAD(Buffer.from('header'));
    const ct = Buffer.concat([c.update(m), c.final()]);
    const tag = c.getAuthTag();
    const d = createDecipheriv(alg, key, iv12);
    d.setAAD(Buffer.from('header'));
    d.setAuthTag(tag);
    const pt = Buffer.concat([d.update(ct), d.final()]).toString();
    console.log(alg, ct.toString('hex'), tag.toString('hex'), pt === m);
  }
}
// GCM streaming in pieces, a short tag, and a tampered message.
const g = createCipheriv('aes-256-gcm', key32, iv12, { authTagLength: 12 });
const parts = [g.update('stream'), g.update('ing gcm in '), g.update('three parts'), g.final()];
console.log(Buffer.concat(parts).toString('hex'), g.getAuthTag().toString('hex'));
const bad = createDecipheriv('aes-256-gcm', key32, iv12);
bad.setAuthTag(Buffer.alloc(16));
bad.update(Buffer.concat(parts));
try {
  bad.final();
} catch (e) {
  console.log(e.name, e.message);
}
const cbcBad = createDecipheriv('aes-128-cbc', key16, iv16);
cbcBad.update(Buffer.alloc(16, 9));
try {
  cbcBad.final();
} catch (e) {
  console.log(e.name, e.code, e.message, e.reason, e.library);
}
const short = createCipheriv('aes-128-cbc', key16, iv16).setAutoPadding(false);
short.update(Buffer.alloc(5));
try {
  short.final();
} catch (e) {
  console.log(e.name, e.code, e.message);
}
console.log(['aes-128-cbc', 'aes-256-gcm'].every((n) => getCiphers().includes(n)));
console.log(getCipherInfo('aes-256-cbc'), getCipherInfo('aes-128-gcm'), getCipherInfo('nope'));
for (const f of [() => createCipheriv('aes-128-gcm', Buffer.alloc(15), iv12), () => createCipheriv('aes-128-cbc', key16, iv12),
  () => createCipheriv('nope', key16, iv16), () => createCipheriv('aes-128-gcm', key16, iv12).getAuthTag(),
  () => { const x = createCipheriv('aes-128-cbc', key16, iv16); x.final(); x.update('a'); }]) {
  try {
    console.log(f());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
