// How KeyObjects print: Node's symbols, cached on first access; never the key material.
import crypto from 'node:crypto';
import fs from 'node:fs';
const K = JSON.parse(fs.readFileSync(new URL('./keys.json', import.meta.url)));
const priv = crypto.createPrivateKey(K.ec.priv);
const pub = crypto.createPublicKey(K.ec.pub);
console.log(pub);
console.log(priv);
priv.asymmetricKeyType;
console.log(priv);
console.log(priv.asymmetricKeyDetails, priv);
console.log(crypto.createSecretKey(Buffer.alloc(4)));
console.log(Object.prototype.toString.call(priv), Object.keys(priv), JSON.stringify(priv));
const h = crypto.createHash('sha256');
console.log(Object.keys(h).length, typeof h.pipe, h instanceof (await import('node:stream')).Transform);
