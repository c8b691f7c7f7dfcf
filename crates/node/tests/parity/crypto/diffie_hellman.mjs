// Finite-field Diffie-Hellman: MODP groups (private keys of OpenSSL's sizes), given primes and
// generators in Node's argument forms, agreement, errors.
import crypto from 'node:crypto';
const t = (label, f) => {
  try {
    const r = f();
    console.log(label, Buffer.isBuffer(r) ? r.toString('hex') : r);
  } catch (e) {
    console.log(label, 'ERR', e.name, e.code, e.message);
  }
};
for (const [g, maxPrivate] of [['modp1', 96], ['modp2', 128], ['modp5', 25], ['modp14', 29], ['modp15', 35], ['modp16', 41]]) {
  const d = crypto.getDiffieHellman(g);
  const pub = d.generateKeys();
  t(g, () => [d.getPrime().length, d.getGenerator('hex'), pub.length <= d.getPrime().length, d.getPrivateKey().length <= maxPrivate, d.verifyError].join());
}
const a = crypto.createDiffieHellman(crypto.getDiffieHellman('modp2').getPrime(), 2);
const b = crypto.createDiffieHellman(a.getPrime(), a.getGenerator());
a.generateKeys();
b.generateKeys();
t('agree', () => a.computeSecret(b.getPublicKey()).equals(b.computeSecret(a.getPublicKey())));
t('secret length', () => a.computeSecret(b.getPublicKey()).length);
t('hex prime', () => crypto.createDiffieHellman('ffff', 'hex').getPrime('hex'));
t('buffer generator', () => crypto.createDiffieHellman(Buffer.from([23]), Buffer.from([5])).getGenerator('hex'));
t('number generator', () => crypto.createDiffieHellman(Buffer.from([23]), 5).getGenerator('hex'));
t('hex generator', () => crypto.createDiffieHellman('17', 'hex', '05', 'hex').getGenerator());
const fixed = crypto.createDiffieHellman(crypto.getDiffieHellman('modp1').getPrime(), 2);
fixed.setPrivateKey(Buffer.from('0102030405', 'hex'));
t('fixed secret', () => fixed.computeSecret(Buffer.from('05', 'hex')));
t('fixed public', () => { fixed.generateKeys(); return fixed.getPublicKey('base64'); });
t('unknown group', () => crypto.getDiffieHellman('modp3'));
t('no keys', () => crypto.getDiffieHellman('modp14').getPublicKey());
t('no private', () => crypto.getDiffieHellman('modp14').getPrivateKey());
t('group setters', () => typeof crypto.getDiffieHellman('modp14').setPrivateKey);
t('group alias', () => crypto.createDiffieHellmanGroup('modp5').getPrime().length);
