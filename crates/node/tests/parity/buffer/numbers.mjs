import { Buffer } from 'node:buffer';

const b = Buffer.from([0x01, 0x02, 0x03, 0x04, 0xff, 0xfe, 0x80, 0x00, 0x7f, 0x10]);
console.log(b.readUInt8(0), b.readInt8(4), b.readUint8(6), b.readInt8(6));
console.log(b.readUInt16LE(0), b.readUInt16BE(0), b.readInt16LE(4), b.readInt16BE(4), b.readUint16LE(2));
console.log(b.readUInt32LE(0), b.readUInt32BE(0), b.readInt32LE(4), b.readInt32BE(4), b.readUint32BE(6));
console.log(b.readUIntLE(0, 3), b.readUIntBE(0, 6), b.readIntLE(4, 2), b.readIntBE(4, 5), b.readUIntLE(1, 1));
console.log(b.readBigUInt64LE(0), b.readBigUInt64BE(1), b.readBigInt64LE(2), b.readBigInt64BE(0), b.readBigUint64LE(0));
console.log(b.readFloatLE(0), b.readFloatBE(0), b.readDoubleLE(0), b.readDoubleBE(2));
const w = Buffer.alloc(16);
console.log(w.writeUInt8(255, 0), w.writeInt8(-2, 1), w.writeUInt16LE(0xabcd, 2), w.writeUInt16BE(0xabcd, 4));
console.log(w.writeInt16LE(-300, 6), w.writeInt16BE(-300, 8), w.writeUInt32LE(0xdeadbeef, 10), w);
console.log(w.writeInt32BE(-123456789, 0), w.writeUInt32BE(7, 4), w.writeInt32LE(-1, 8), w.writeUint32LE(1, 12), w);
console.log(w.writeUIntLE(0x123456, 0, 3), w.writeUIntBE(0x1234567890, 3, 5), w.writeIntLE(-5, 8, 6), w.writeIntBE(-7000, 14, 2), w);
console.log(w.writeBigUInt64LE(0x0102030405060708n, 0), w.writeBigInt64BE(-2n, 8), w);
console.log(w.writeBigUint64BE(18446744073709551615n, 0), w.readBigUInt64BE(0), w.readBigInt64BE(0));
console.log(w.writeFloatLE(1.5, 0), w.writeFloatBE(-0.1, 4), w.writeDoubleLE(Math.PI, 8), w);
console.log(w.readFloatLE(0), w.readFloatBE(4), w.readDoubleLE(8));
console.log(w.writeDoubleBE(1e300, 0), w.readDoubleBE(0), w.writeFloatLE(NaN, 8), w.readFloatLE(8), w.writeFloatBE(Infinity, 12), w.readFloatBE(12));
for (const bad of [
  () => b.readUInt8(10), () => b.readUInt16LE(9), () => b.readUInt32BE(-1), () => b.readUInt8(1.5), () => b.readUInt8('1'),
  () => w.writeUInt8(256, 0), () => w.writeInt8(-129, 0), () => w.writeUInt16LE(-1), () => w.writeUInt32BE(2 ** 32),
  () => w.writeInt32LE(2 ** 31), () => w.writeUIntLE(2 ** 48, 0, 6), () => w.writeIntBE(2 ** 40, 0, 6),
  () => w.writeBigUInt64LE(-1n), () => w.writeBigInt64LE(2n ** 63n), () => w.writeBigUInt64LE(1), () => b.readUIntLE(0, 7),
  () => b.readUIntLE(0), () => Buffer.alloc(1).readUInt16LE(0), () => w.writeUInt8('1', 0), () => w.writeDoubleLE(1, 9),
]) {
  try {
    console.log(bad());
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
