const { subtle } = globalThis.crypto;
const hex = (ab) => Buffer.from(ab).toString('hex');
const key = await subtle.importKey('raw', new Uint8Array(16).fill(9), { name: 'AES-CTR' }, true, ['encrypt', 'decrypt']);
console.log(key.algorithm, key.usages);
const data = new TextEncoder().encode('a message that spans more than two AES blocks of data');
for (const [counter, length] of [[new Uint8Array(16).fill(1), 64], [new Uint8Array(16).fill(0xff), 2], [new Uint8Array(16).fill(0xfe), 128]]) {
  const ct = await subtle.encrypt({ name: 'AES-CTR', counter, length }, key, data);
  console.log(length, hex(ct));
  console.log(new TextDecoder().decode(await subtle.decrypt({ name: 'AES-CTR', counter, length }, key, ct)));
}
console.log(await subtle.exportKey('jwk', key));
const g = await subtle.generateKey({ name: 'AES-CTR', length: 256 }, true, ['encrypt']);
console.log(g.algorithm, g.usages, (await subtle.exportKey('raw', g)).byteLength);
