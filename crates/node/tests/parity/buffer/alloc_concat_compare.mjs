import { Buffer, kMaxLength, constants, INSPECT_MAX_BYTES } from 'node:buffer';

console.log(kMaxLength, constants.MAX_LENGTH, INSPECT_MAX_BYTES);
console.log(Buffer.alloc(5), Buffer.alloc(5, 'ab'), Buffer.alloc(4, 0x101), Buffer.alloc(6, 'aGk=', 'base64'));
console.log(Buffer.alloc(3, Buffer.from([7, 8])), Buffer.allocUnsafe(3).fill(0), Buffer.allocUnsafeSlow(2).fill(1));
console.log(Buffer.concat([Buffer.from('ab'), new Uint8Array([99]), Buffer.from('d')]));
console.log(Buffer.concat([Buffer.from('abcdef')], 3), Buffer.concat([Buffer.from('ab')], 4), Buffer.concat([]));
const a = Buffer.from('abc');
const b = Buffer.from('abd');
console.log(Buffer.compare(a, b), Buffer.compare(b, a), Buffer.compare(a, Buffer.from('abc')), a.compare(b));
console.log([b, a, Buffer.from('ab')].sort(Buffer.compare).map(String));
console.log(a.equals(Buffer.from('abc')), a.equals(b), a.equals(new Uint8Array([97, 98, 99])));
console.log(a.compare(b, 0, 2, 0, 2), a.compare(b, 2), a.compare(b, 0, 3, 2, 3));
console.log(Buffer.isBuffer(a), Buffer.isBuffer(new Uint8Array(2)), Buffer.isBuffer('a'));
console.log(Object.getPrototypeOf(Buffer.prototype) === Uint8Array.prototype, a instanceof Uint8Array, a.constructor === Buffer);
console.log(Buffer.from('x').buffer instanceof ArrayBuffer, typeof Buffer.poolSize);
console.log(Buffer.of(1, 2, 3), Buffer.copyBytesFrom(new Uint16Array([1, 2, 3]), 1, 1));
for (const bad of [() => Buffer.alloc(-1), () => Buffer.alloc('3'), () => Buffer.concat('x'), () => Buffer.concat([1]),
  () => Buffer.compare(a, 'x'), () => a.equals('abc'), () => Buffer.alloc(2, '')]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
