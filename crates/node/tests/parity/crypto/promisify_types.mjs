// util.promisify of crypto's callback APIs (generateKeyPair resolves to { publicKey, privateKey }),
// util.types.isKeyObject / isCryptoKey.
import crypto from 'node:crypto';
import util from 'node:util';
const { publicKey, privateKey } = await util.promisify(crypto.generateKeyPair)('ed25519', {});
console.log(publicKey.type, privateKey.type);
const k = await util.promisify(crypto.generateKey)('hmac', { length: 64 });
console.log(k.symmetricKeySize);
console.log((await util.promisify(crypto.scrypt)('a', 'b', 8)).length, (await util.promisify(crypto.pbkdf2)('a', 'b', 1, 8, 'sha1')).length);
console.log((await util.promisify(crypto.sign)('sha256', Buffer.from('x'), crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)).length > 60);
console.log(typeof crypto.generateKeyPair[util.promisify.custom]);
console.log(util.types.isKeyObject(publicKey), util.types.isKeyObject({}), util.types.isCryptoKey(publicKey));
const ck = await globalThis.crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
console.log(util.types.isCryptoKey(ck), util.types.isKeyObject(ck), crypto.KeyObject.from(ck).type, util.types.isKeyObject(crypto.KeyObject.from(ck)));
console.log(Object.getOwnPropertySymbols(crypto.generateKeyPair).map(String));
