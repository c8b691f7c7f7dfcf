// Errors of scrypt, SHAKE, AES-CTR and ChaCha20-Poly1305 as Node 20 words them.
import c from 'node:crypto';
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, e.code, JSON.stringify(e.message)); } };
t(() => c.scryptSync('pw', 'salt', 16, { N: 16 }));
t(() => c.scryptSync('pw', 'salt', 0));
t(() => c.scryptSync('pw', 'salt', 16, { N: 3 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 1 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 2 ** 20 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 16, r: 0, p: 0 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 16, cost: 16 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 16, maxmem: 100 }));
t(() => c.scryptSync('pw', 'salt', -1));
t(() => c.scryptSync('pw', 'salt', 16, { N: 16.5 }));
t(() => c.scryptSync('pw', 'salt', 16, { N: 16, r: 1, p: 2 ** 30 }));
t(() => c.scryptSync('pw', 'salt', 16, { cost: 32, blockSize: 2, parallelization: 2 }));
c.scrypt('pw', 'salt', 8, (err, key) => console.log('async', err, key.toString('hex')));
t(() => c.createCipheriv('chacha20-poly1305', Buffer.alloc(32), Buffer.alloc(11)));
t(() => c.createCipheriv('chacha20-poly1305', Buffer.alloc(31), Buffer.alloc(12)));
t(() => c.createCipheriv('chacha20-poly1305', Buffer.alloc(32), Buffer.alloc(12), { authTagLength: 17 }));
t(() => { const x = c.createCipheriv('chacha20-poly1305', Buffer.alloc(32), Buffer.alloc(12), { authTagLength: 3 }); x.final(); return x.getAuthTag(); });
t(() => { const x = c.createDecipheriv('chacha20-poly1305', Buffer.alloc(32), Buffer.alloc(12)); x.setAuthTag(Buffer.alloc(16)); x.update('abcd'); return x.final(); });
t(() => c.createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(15)));
t(() => c.createCipheriv('aes-256-ctr', Buffer.alloc(16), Buffer.alloc(16)));
console.log(c.getCipherInfo('aes-128-ctr'), c.getCipherInfo('aes-192-ctr'), c.getCipherInfo('chacha20-poly1305'), c.getCipherInfo('aes-256-ctr'));
t(() => c.createHash('shake256', { outputLength: 5 }).update('a').digest('hex'));
t(() => c.createHash('shake256').update('a').digest('hex'));
t(() => c.createHash('shake128').update('a').digest('hex'));
t(() => c.createHash('shake256', { outputLength: 0 }).update('a').digest('hex'));
t(() => c.createHash('shake256', { outputLength: -1 }));
t(() => c.createHash('shake128', { outputLength: 40 }).copy({ outputLength: 3 }).digest('hex'));
for (const a of ['sha3-224', 'sha3-256', 'sha3-384', 'sha3-512']) {
  t(() => [c.hash(a, 'abc'), c.createHmac(a, 'key').update('abc').digest('base64'), c.pbkdf2Sync('pw', 'salt', 2, 20, a).toString('hex'), c.hkdfSync(a, 'ikm', 'salt', 'info', 16).byteLength].join(' '));
}
