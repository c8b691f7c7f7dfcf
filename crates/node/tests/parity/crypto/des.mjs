// DES and 3DES in node:crypto: des-ede / des-ede3 in ECB and CBC (and their aliases), two-
// and three-key, padding on and off, streaming in odd pieces, decryption, the errors, and
// single DES, which Node 20 knows but refuses (OpenSSL 3 keeps it in the legacy provider).
import { createCipheriv, createDecipheriv, getCiphers, getCipherInfo } from 'node:crypto';

const key8 = Buffer.from('133457799bbcdff1', 'hex');
const key16 = Buffer.from('0123456789abcdeffedcba9876543210', 'hex');
const key24 = Buffer.from('0123456789abcdef23456789abcdef01456789abcdef0123', 'hex');
const iv8 = Buffer.from('1234567890abcdef', 'hex');
const messages = ['', 'a', 'eight by', 'a longer message spanning several DES blocks of eight bytes', '€𝄞'];

function show(f) {
  try {
    console.log(f());
  } catch (e) {
    console.log(e.constructor.name, e.code, e.message, e.library, e.reason);
  }
}

const cases = [
  ['des-ede', key16, null], ['des-ede-ecb', key16, Buffer.alloc(0)], ['des-ede-cbc', key16, iv8],
  ['des-ede3', key24, null], ['des-ede3-ecb', key24, null], ['des-ede3-cbc', key24, iv8],
  ['des3', key24, iv8], ['DES-EDE3-CBC', key24, iv8],
];
for (const [alg, key, iv] of cases) {
  for (const m of messages) {
    const c = createCipheriv(alg, key, iv);
    const ct = Buffer.concat([c.update(m, 'utf8'), c.final()]);
    const d = createDecipheriv(alg, key, iv);
    const pt = Buffer.concat([d.update(ct), d.final()]).toString();
    console.log(alg, ct.toString('hex'), pt === m);
  }
}

// Streaming in odd pieces, string encodings in and out.
const s = createCipheriv('des-ede3-cbc', key24, iv8);
let out = s.update('abc', 'utf8', 'hex');
out += s.update('defghijklmnopqrstuvwxyz0123', 'utf8', 'hex');
out += s.final('hex');
console.log(out);
const sd = createDecipheriv('des-ede3-cbc', key24, iv8);
console.log(sd.update(out.slice(0, 6), 'hex', 'utf8') + sd.update(out.slice(6, 22), 'hex', 'utf8') + sd.update(out.slice(22), 'hex', 'utf8') + sd.final('utf8'));
show(() => createDecipheriv('des-ede3-cbc', key24, iv8).update(out.slice(0, 17), 'hex'));
const b = createCipheriv('des-ede', key16, null);
console.log(b.update('base64 carried across chunks', 'utf8', 'base64') + b.update('!', 'utf8', 'base64') + b.final('base64'));

// No padding: whole blocks only.
const np = createCipheriv('des-ede3', key24, null).setAutoPadding(false);
console.log(Buffer.concat([np.update(Buffer.alloc(16, 1)), np.final()]).toString('hex'));
show(() => {
  const c = createCipheriv('des-ede-cbc', key16, iv8).setAutoPadding(false);
  c.update(Buffer.alloc(5));
  return c.final();
});
const nd = createDecipheriv('des-ede3-cbc', key24, iv8).setAutoPadding(false);
console.log(Buffer.concat([nd.update(Buffer.alloc(8, 9)), nd.final()]).toString('hex'));

// Bad padding, a short final block, and the constructor's checks.
show(() => {
  const d = createDecipheriv('des-ede3-cbc', key24, iv8);
  d.update(Buffer.alloc(8, 9));
  return d.final();
});
show(() => {
  const d = createDecipheriv('des-ede', key16, null);
  d.update(Buffer.alloc(5));
  return d.final();
});
show(() => createCipheriv('des-ede', key16, iv8));
show(() => createCipheriv('des-ede', Buffer.alloc(15), null));
show(() => createCipheriv('des-ede3-cbc', key24, Buffer.alloc(7)));
show(() => createCipheriv('des-ede3-cbc', key24, null));
show(() => createCipheriv('des-ede3-cbc', key16, iv8));

// Single DES: known, refused when made (before any key check).
show(() => createCipheriv('des-ecb', key8, null));
show(() => createCipheriv('des-cbc', key8, iv8));
show(() => createDecipheriv('des', Buffer.alloc(3), iv8));

for (const n of ['des-ecb', 'des-cbc', 'des', 'des-ede', 'des-ede-cbc', 'des-ede-ecb', 'des-ede3', 'des-ede3-cbc', 'des-ede3-ecb', 'des3']) {
  console.log(n, JSON.stringify(getCipherInfo(n)));
}
console.log(JSON.stringify(getCipherInfo(44)), JSON.stringify(getCipherInfo(32)));
console.log(JSON.stringify(getCipherInfo('des-ede3', { ivLength: 0 })), getCipherInfo('des-ede3', { ivLength: 8 }));
const names = getCiphers();
console.log(['des-ede', 'des-ede-cbc', 'des-ede-ecb', 'des-ede3', 'des-ede3-cbc', 'des-ede3-ecb', 'des3'].every((n) => names.includes(n)), names.includes('des-cbc'));
