const { subtle } = globalThis.crypto;
const enc = new TextEncoder();
const hex = (ab) => Buffer.from(ab).toString('hex');

for (const alg of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512', { name: 'sha-256' }]) {
  console.log(JSON.stringify(alg), hex(await subtle.digest(alg, enc.encode('abc'))));
}
const hk = await subtle.importKey('raw', enc.encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify']);
console.log(hk.type, hk.extractable, hk.algorithm, hk.usages, Object.prototype.toString.call(hk));
const sig = await subtle.sign('HMAC', hk, enc.encode('message'));
console.log(sig instanceof ArrayBuffer, hex(sig));
console.log(await subtle.verify('HMAC', hk, sig, enc.encode('message')), await subtle.verify({ name: 'HMAC' }, hk, sig, enc.encode('other')));
console.log(hex(await subtle.exportKey('raw', hk)));
const hk512 = await subtle.importKey('raw', new Uint8Array(10), { name: 'HMAC', hash: { name: 'SHA-512' } }, false, ['sign']);
console.log(hk512.algorithm, hex(await subtle.sign('HMAC', hk512, new Uint8Array(0))));
const ak = await subtle.importKey('raw', new Uint8Array(32).fill(7), { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
console.log(ak.algorithm, ak.usages);
const iv = new Uint8Array(12).fill(1);
const ct = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: enc.encode('aad') }, ak, enc.encode('attack at dawn'));
console.log(hex(ct));
const pt = await subtle.decrypt({ name: 'AES-GCM', iv, additionalData: enc.encode('aad') }, ak, ct);
console.log(new TextDecoder().decode(pt));
const ct96 = await subtle.encrypt({ name: 'AES-GCM', iv, tagLength: 96 }, ak, new Uint8Array([1, 2, 3]));
console.log(hex(ct96), ct96.byteLength);
try {
  await subtle.decrypt({ name: 'AES-GCM', iv }, ak, ct);
} catch (e) {
  console.log(e.name, e.message);
}
const gk = await subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
console.log(gk.algorithm, (await subtle.exportKey('raw', gk)).byteLength);
const gak = await subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt']);
console.log(gak.algorithm, gak.extractable, gak.usages);
try {
  await subtle.exportKey('raw', gak);
} catch (e) {
  console.log(e.name, e.message);
}
console.log(Object.prototype.toString.call(globalThis.crypto), Object.prototype.toString.call(subtle));
