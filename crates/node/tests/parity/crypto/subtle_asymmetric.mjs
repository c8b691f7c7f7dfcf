// Web Crypto with RSA, ECDSA, ECDH, Ed25519 and X25519 keys (fixed keys from keys.json; only
// deterministic results are printed: PKCS#1 v1.5 and Ed25519 signatures, exports, verdicts).
import fs from 'node:fs';
const { subtle } = globalThis.crypto;
const K = JSON.parse(fs.readFileSync(new URL('./keys.json', import.meta.url)));
const der = (pem) => Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
const hex = (ab) => Buffer.from(ab).toString('hex');
const data = new TextEncoder().encode('attack at dawn');
const alg = (a) => JSON.stringify(a, (k, v) => v instanceof Uint8Array ? Array.from(v) : v);
const t = async (label, f) => {
  try {
    const r = await f();
    console.log(label, r instanceof ArrayBuffer ? hex(r) : typeof r === 'object' ? alg(r) : r);
  } catch (e) {
    console.log(label, 'ERR', e.name, e.message);
  }
};

const rsaAlg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const rsaPriv = await subtle.importKey('pkcs8', der(K.rsa.priv), rsaAlg, true, ['sign']);
const rsaPub = await subtle.importKey('spki', der(K.rsa.pub), rsaAlg, true, ['verify']);
console.log(rsaPriv.type, rsaPriv.extractable, alg(rsaPriv.algorithm), rsaPriv.usages, rsaPub.type, rsaPub.usages);
const rsaSig = await subtle.sign('RSASSA-PKCS1-v1_5', rsaPriv, data);
console.log('rsa sig', hex(rsaSig));
await t('rsa verify', () => subtle.verify(rsaAlg, rsaPub, rsaSig, data));
await t('rsa verify other', () => subtle.verify(rsaAlg, rsaPub, rsaSig, new Uint8Array(3)));
await t('rsa jwk pub', () => subtle.exportKey('jwk', rsaPub));
await t('rsa jwk priv keys', async () => Object.keys(await subtle.exportKey('jwk', rsaPriv)).join());
await t('rsa spki', async () => Buffer.from(await subtle.exportKey('spki', rsaPub)).equals(der(K.rsa.pub)));
await t('rsa pkcs8', async () => Buffer.from(await subtle.exportKey('pkcs8', rsaPriv)).equals(der(K.rsa.priv)));
await t('rsa jwk roundtrip', async () => {
  const k = await subtle.importKey('jwk', await subtle.exportKey('jwk', rsaPriv), rsaAlg, true, ['sign']);
  return hex(await subtle.sign(rsaAlg, k, data)) === hex(rsaSig);
});

const pssAlg = { name: 'RSA-PSS', hash: 'SHA-384' };
const pssPriv = await subtle.importKey('pkcs8', der(K.rsa.priv), pssAlg, false, ['sign']);
const pssPub = await subtle.importKey('spki', der(K.rsa.pub), pssAlg, true, ['verify']);
const pssSig = await subtle.sign({ name: 'RSA-PSS', saltLength: 48 }, pssPriv, data);
await t('pss verify', () => subtle.verify({ name: 'RSA-PSS', saltLength: 48 }, pssPub, pssSig, data));
await t('pss verify wrong salt', () => subtle.verify({ name: 'RSA-PSS', saltLength: 20 }, pssPub, pssSig, data));
await t('pss jwk alg', async () => (await subtle.exportKey('jwk', pssPub)).alg);
await t('pss export private', () => subtle.exportKey('pkcs8', pssPriv));

const oaepAlg = { name: 'RSA-OAEP', hash: 'SHA-256' };
const oaepPub = await subtle.importKey('spki', der(K.rsa.pub), oaepAlg, true, ['encrypt', 'wrapKey']);
const oaepPriv = await subtle.importKey('pkcs8', der(K.rsa.priv), oaepAlg, true, ['decrypt']);
console.log('oaep usages', oaepPub.usages, oaepPriv.usages);
const ct = await subtle.encrypt({ name: 'RSA-OAEP', label: new Uint8Array([1, 2]) }, oaepPub, data);
await t('oaep decrypt', async () => new TextDecoder().decode(await subtle.decrypt({ name: 'RSA-OAEP', label: new Uint8Array([1, 2]) }, oaepPriv, ct)));
await t('oaep wrong label', () => subtle.decrypt({ name: 'RSA-OAEP' }, oaepPriv, ct));
await t('oaep jwk alg', async () => (await subtle.exportKey('jwk', oaepPub)).alg);

for (const [name, curve, hash] of [['ec', 'P-256', 'SHA-256'], ['ec384', 'P-384', 'SHA-384']]) {
  const a = { name: 'ECDSA', namedCurve: curve };
  const priv = await subtle.importKey('pkcs8', der(K[name].priv), a, true, ['sign']);
  const pub = await subtle.importKey('spki', der(K[name].pub), a, true, ['verify']);
  console.log(curve, alg(priv.algorithm), priv.usages, pub.usages);
  const sig = await subtle.sign({ name: 'ECDSA', hash }, priv, data);
  console.log(curve, 'sig length', sig.byteLength);
  await t(curve + ' verify', () => subtle.verify({ name: 'ECDSA', hash }, pub, sig, data));
  await t(curve + ' verify other hash', () => subtle.verify({ name: 'ECDSA', hash: 'SHA-1' }, pub, sig, data));
  const raw = await subtle.exportKey('raw', pub);
  console.log(curve, 'raw', hex(raw));
  await t(curve + ' jwk priv', async () => Object.keys(await subtle.exportKey('jwk', priv)).join());
  await t(curve + ' raw import', async () => hex(await subtle.exportKey('spki', await subtle.importKey('raw', raw, a, true, ['verify']))) === hex(der(K[name].pub)));
  await t(curve + ' sign with public', () => subtle.sign({ name: 'ECDSA', hash }, pub, data));
  await t(curve + ' raw private', () => subtle.exportKey('raw', priv));
}
await t('curve mismatch', () => subtle.importKey('spki', der(K.ec.pub), { name: 'ECDSA', namedCurve: 'P-384' }, true, ['verify']));
await t('bad spki', () => subtle.importKey('spki', new Uint8Array(3), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']));
await t('bad usage', () => subtle.importKey('spki', der(K.ec.pub), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']));

const edPriv = await subtle.importKey('pkcs8', der(K.ed.priv), 'Ed25519', true, ['sign']);
const edPub = await subtle.importKey('spki', der(K.ed.pub), { name: 'Ed25519' }, true, ['verify']);
const edSig = await subtle.sign('Ed25519', edPriv, data);
console.log('ed sig', hex(edSig), alg(edPriv.algorithm));
await t('ed verify', () => subtle.verify('Ed25519', edPub, edSig, data));
await t('ed raw', () => subtle.exportKey('raw', edPub));
await t('ed jwk', () => subtle.exportKey('jwk', edPriv));
await t('ed raw import', async () => subtle.verify('Ed25519', await subtle.importKey('raw', await subtle.exportKey('raw', edPub), 'Ed25519', true, ['verify']), edSig, data));

const xa = await subtle.importKey('pkcs8', der(K.x.priv), 'X25519', true, ['deriveBits']);
const xb = await subtle.importKey('spki', der(K.x2.pub), 'X25519', true, []);
await t('x25519 bits', () => subtle.deriveBits({ name: 'X25519', public: xb }, xa, 256));
await t('x25519 bits 100', () => subtle.deriveBits({ name: 'X25519', public: xb }, xa, 100));
const ea = await subtle.importKey('pkcs8', der(K.ec.priv), { name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
const eb = await subtle.importKey('raw', await subtle.exportKey('raw', await subtle.importKey('spki', der(K.ec.pub), { name: 'ECDH', namedCurve: 'P-256' }, true, [])), { name: 'ECDH', namedCurve: 'P-256' }, true, []);
await t('ecdh bits', () => subtle.deriveBits({ name: 'ECDH', public: eb }, ea, 256));

for (const a of [
  { name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  { name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([3]), hash: 'SHA-1' },
  { name: 'ECDSA', namedCurve: 'P-384' },
  { name: 'ECDH', namedCurve: 'P-256' },
  { name: 'Ed25519' },
  { name: 'X25519' },
]) {
  const usages = a.name.startsWith('EC') && a.name === 'ECDH' || a.name === 'X25519' ? ['deriveBits', 'deriveKey'] : a.name === 'RSA-OAEP' ? ['decrypt', 'encrypt'] : ['verify', 'sign'];
  const { publicKey, privateKey } = await subtle.generateKey(a, false, usages);
  console.log('gen', alg(publicKey.algorithm), publicKey.extractable, publicKey.usages, privateKey.extractable, privateKey.usages);
}
await t('gen bad usage', () => subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['encrypt']));
await t('gen no private usage', () => subtle.generateKey({ name: 'Ed25519' }, true, ['verify']));
