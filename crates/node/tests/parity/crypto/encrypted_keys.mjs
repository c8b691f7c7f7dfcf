// Encrypted PKCS#8 private keys: import with a passphrase (PEM and DER), export with
// cipher + passphrase (salt and IV are random: only round trips are printed), errors.
import crypto from 'node:crypto';
import fs from 'node:fs';
const P = JSON.parse(fs.readFileSync(new URL('./pem_forms.json', import.meta.url)));
const t = (label, f) => {
  try {
    const r = f();
    console.log(label, Buffer.isBuffer(r) ? r.length : typeof r === 'object' ? JSON.stringify(r) : r);
  } catch (e) {
    console.log(label, 'ERR', e.name, e.code, e.message);
  }
};
const plain = crypto.createPrivateKey(P.certKey);
t('decrypt pem', () => crypto.createPrivateKey({ key: P.encrypted, passphrase: 'secret' }).equals(plain));
t('decrypt pem buffer pass', () => crypto.createPrivateKey({ key: P.encrypted, passphrase: Buffer.from('secret') }).equals(plain));
t('wrong pass', () => crypto.createPrivateKey({ key: P.encrypted, passphrase: 'wrong' }));
t('public from encrypted', () => crypto.createPublicKey({ key: P.encrypted, passphrase: 'secret' }).equals(crypto.createPublicKey(P.cert)));
t('sign with encrypted', () => crypto.sign('sha256', Buffer.from('x'), { key: P.encrypted, passphrase: 'secret' }).equals(crypto.sign('sha256', Buffer.from('x'), plain)));
t('pass on plain', () => crypto.createPrivateKey({ key: P.certKey, passphrase: 'secret' }).equals(plain));
for (const cipher of ['aes-256-cbc', 'aes-128-cbc']) {
  const pem = plain.export({ type: 'pkcs8', format: 'pem', cipher, passphrase: 'pw' });
  t(cipher + ' pem', () => [pem.split('\n')[0], crypto.createPrivateKey({ key: pem, passphrase: 'pw' }).equals(plain)]);
  const der = plain.export({ type: 'pkcs8', format: 'der', cipher, passphrase: 'pw' });
  t(cipher + ' der', () => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8', passphrase: 'pw' }).equals(plain));
  t(cipher + ' der no pass', () => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
  // (A wrong passphrase on a random salt is not printed: OpenSSL reports bad decrypt, or an
  // ASN.1 error when the garbage happens to end in valid padding.)
}
t('no passphrase', () => plain.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc' }));
t('no cipher', () => plain.export({ type: 'pkcs8', format: 'pem', passphrase: 'x' }));
t('unknown cipher', () => plain.export({ type: 'pkcs8', format: 'pem', cipher: 'nope', passphrase: 'x' }));
const { privateKey } = crypto.generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'top' } });
t('generated encrypted', () => [privateKey.split('\n')[0], crypto.createPrivateKey({ key: privateKey, passphrase: 'top' }).asymmetricKeyType]);
