// An 8192-bit RSA key (made by node 20): past the rsa crate's 4096-bit default for public keys.
import crypto from 'node:crypto';
import fs from 'node:fs';
const K = JSON.parse(fs.readFileSync(new URL('./rsa8k.json', import.meta.url)));
const t = (l, f) => { try { console.log(l, f()); } catch (e) { console.log(l, 'ERR', e.code, e.message); } };
t('pub', () => crypto.createPublicKey(K.pub).asymmetricKeyDetails.modulusLength);
t('priv', () => crypto.createPrivateKey(K.priv).asymmetricKeyDetails.modulusLength);
t('verify', () => crypto.verify('sha256', Buffer.from('x'), K.pub, Buffer.from(K.sig, 'hex')));
t('sign', () => crypto.sign('sha256', Buffer.from('x'), K.priv).toString('hex') === K.sig);
t('jwk', () => crypto.createPublicKey({ key: crypto.createPublicKey(K.pub).export({ format: 'jwk' }), format: 'jwk' }).export({ type: 'spki', format: 'pem' }) === K.pub);
t('pkcs1', () => crypto.createPublicKey(crypto.createPublicKey(K.pub).export({ type: 'pkcs1', format: 'pem' })).export({ type: 'spki', format: 'pem' }) === K.pub);
t('oaep', () => crypto.privateDecrypt(K.priv, crypto.publicEncrypt(K.pub, Buffer.from('big'))).toString());
