// Keys in the PEM forms OpenSSL's tools write: a certificate's public key, an EC key after
// its EC PARAMETERS block, a traditional RSA PRIVATE KEY; and what is refused.
import crypto from 'node:crypto';
import fs from 'node:fs';
const P = JSON.parse(fs.readFileSync(new URL('./pem_forms.json', import.meta.url)));
const t = (label, f) => {
  try {
    const r = f();
    console.log(label, Buffer.isBuffer(r) ? r.toString('hex') : typeof r === 'object' ? JSON.stringify(r) : r);
  } catch (e) {
    console.log(label, 'ERR', e.name, e.code, e.message);
  }
};
const certKey = crypto.createPublicKey(P.cert);
t('cert key', () => [certKey.type, certKey.asymmetricKeyType, certKey.asymmetricKeyDetails.modulusLength]);
t('cert spki', () => certKey.export({ type: 'spki', format: 'pem' }));
t('cert matches key', () => crypto.createPublicKey(P.certKey).equals(certKey));
t('cert verify', () => crypto.verify('sha256', Buffer.from('m'), P.cert, crypto.sign('sha256', Buffer.from('m'), P.certKey)));
t('cert verify stream', () => crypto.createVerify('RSA-SHA256').update('m').verify(P.cert, crypto.createSign('RSA-SHA256').update('m').sign(P.certKey, 'base64'), 'base64'));
t('cert encrypt', () => crypto.privateDecrypt(P.certKey, crypto.publicEncrypt(P.cert, Buffer.from('to the holder'))).toString());
t('ec cert', () => crypto.createPublicKey(P.ecCert).export({ format: 'jwk' }).crv);
t('ec cert as private', () => crypto.createPrivateKey(P.ecCert));
t('public as private', () => crypto.createPrivateKey(certKey.export({ type: 'spki', format: 'pem' })));
const ecKey = crypto.createPrivateKey(P.ecParamKey);
t('ec param key', () => [ecKey.asymmetricKeyType, ecKey.asymmetricKeyDetails]);
t('ec param pub', () => crypto.createPublicKey(P.ecParamKey).export({ format: 'jwk' }).kty);
t('ec param sec1', () => ecKey.export({ type: 'sec1', format: 'pem' }) === P.ecParamKey.slice(P.ecParamKey.indexOf('-----BEGIN EC PRIVATE')));
const rsa = crypto.createPrivateKey(P.rsaTraditional);
t('traditional', () => [rsa.asymmetricKeyType, rsa.asymmetricKeyDetails.modulusLength, String(rsa.asymmetricKeyDetails.publicExponent)]);
t('traditional pkcs1', () => rsa.export({ type: 'pkcs1', format: 'pem' }) === P.rsaTraditional);
t('traditional sig', () => crypto.sign('sha1', Buffer.from('abc'), P.rsaTraditional));
t('pkcs1 public', () => crypto.createPublicKey(rsa.export({ type: 'pkcs1', format: 'pem' })).export({ type: 'pkcs1', format: 'pem' }) === crypto.createPublicKey(rsa).export({ type: 'pkcs1', format: 'pem' }));
t('pkcs1 public pem', () => crypto.createPublicKey(crypto.createPublicKey(rsa).export({ type: 'pkcs1', format: 'pem' })).asymmetricKeyType);
t('truncated cert', () => crypto.createPublicKey(P.cert.slice(0, 200) + '\n-----END CERTIFICATE-----\n'));
t('no key block', () => crypto.createPublicKey('-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n'));
t('passphrase needed', () => crypto.createPrivateKey(P.encrypted));
t('passphrase needed, public', () => crypto.createPublicKey(P.encrypted));
