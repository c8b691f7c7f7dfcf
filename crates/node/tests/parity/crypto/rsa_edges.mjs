// RSA limits and PSS salt lengths as OpenSSL 3 in node 20 applies them (a small key makes them show).
import c from 'node:crypto';
const k = c.generateKeyPairSync('rsa', { modulusLength: 512 });
const t = (f) => { try { console.log('ok', f()); } catch (e) { console.log(e.name, e.code, JSON.stringify(e.message)); } };
t(() => c.sign('sha512', Buffer.from('x'), k.privateKey).length);
t(() => c.sign('sha384', Buffer.from('x'), { key: k.privateKey, padding: 6 }).length);
t(() => c.sign('sha256', Buffer.from('x'), { key: k.privateKey, padding: 6, saltLength: 40 }).length);
t(() => c.verify('sha256', Buffer.from('x'), { key: k.publicKey, padding: 6, saltLength: 40 }, Buffer.alloc(64)));
t(() => c.publicEncrypt({ key: k.publicKey, oaepHash: 'sha512' }, Buffer.from('x')));
t(() => c.sign('sha256', Buffer.from('x'), { key: k.privateKey, padding: 6, saltLength: -3 }).length);
const e = c.generateKeyPairSync('ec', { namedCurve: 'P-256' });
t(() => c.sign('sha256', Buffer.from('x'), { key: e.privateKey, padding: 6 }).length > 0);
t(() => c.sign('md5', Buffer.from('x'), e.privateKey).length > 0);
for (const saltLength of [-1, -2, -3, -4, 0, 10]) {
  let sig;
  t(() => (sig = c.sign('sha256', Buffer.from('y'), { key: k.privateKey, padding: 6, saltLength })).length);
  if (sig) for (const v of [-1, -2, -3, -4, 0, 10]) t(() => [saltLength, v, c.verify('sha256', Buffer.from('y'), { key: k.publicKey, padding: 6, saltLength: v }, sig)].join());
}
