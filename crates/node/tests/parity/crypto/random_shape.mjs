import crypto, { randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues, webcrypto } from 'node:crypto';

// Random values vary by design: only their shape is printed.
const b = randomBytes(32);
console.log(Buffer.isBuffer(b), b.length, randomBytes(0).length);
const u = new Uint32Array(4);
console.log(randomFillSync(u) === u, randomFillSync(Buffer.alloc(10), 2, 3).length, randomFillSync(new ArrayBuffer(8)).byteLength);
const z = Buffer.alloc(8);
randomFillSync(z, 6);
console.log(z.subarray(0, 6).every((x) => x === 0));
let ok = true;
for (let i = 0; i < 200; i++) {
  const n = randomInt(10);
  const m = randomInt(-5, 5);
  if (!(Number.isInteger(n) && n >= 0 && n < 10 && m >= -5 && m < 5)) ok = false;
}
console.log('randomInt in range', ok);
const uuid = randomUUID();
console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid), uuid !== randomUUID());
console.log(getRandomValues(new Uint8Array(16)).length, webcrypto.getRandomValues(new Int16Array(3)).length);
console.log(globalThis.crypto === webcrypto, typeof globalThis.crypto.randomUUID(), crypto.webcrypto.subtle === crypto.subtle);
for (const bad of [() => randomBytes(-1), () => randomBytes('1'), () => randomInt(5, 1), () => randomInt(1.5),
  () => randomFillSync('x'), () => randomFillSync(Buffer.alloc(4), 5), () => randomFillSync(Buffer.alloc(4), 1, 4),
  () => getRandomValues(new Float64Array(2)), () => getRandomValues(new Uint8Array(65537))]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
// node runs randomBytes and randomFill on its thread pool, so their callbacks come in no
// fixed order: each is printed once all three have come.
const done = [];
const report = (line) => {
  done.push(line);
  if (done.length === 3) console.log(done.sort().join('\n'));
};
randomBytes(4, (err, buf) => report(`randomBytes cb ${err} ${buf.length}`));
randomFill(new Uint8Array(3), (err, buf) => report(`randomFill cb ${err} ${buf.length}`));
randomInt(1, 3, (err, n) => report(`randomInt cb ${err} ${n === 1 || n === 2}`));
