// Buffer#read/write of 8-, 16- and 32-bit integers: values, fractional and out-of-range
// inputs, offsets of every kind, and the errors, as Node 20 gives them.
const widths = [['8', 1], ['16', 2], ['32', 4]];
const show = (f) => {
  try {
    return JSON.stringify(f());
  } catch (e) {
    return `${e.name} ${e.code} ${e.message}`;
  }
};
const values = [0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, -32768, 65535, 65536,
  2147483647, 2147483648, -2147483648, 4294967295, 4294967296, 1.5, -1.5, 255.9, -0.5, NaN, '12', true, null, undefined];
for (const [bits, size] of widths) {
  for (const end of size === 1 ? [''] : ['LE', 'BE']) {
    for (const sign of ['UInt', 'Int']) {
      const write = `write${sign}${bits}${end}`;
      const read = `read${sign}${bits}${end}`;
      const lines = [];
      for (const v of values) {
        const buf = Buffer.alloc(size + 2, 0xee);
        const r = show(() => buf[write](v, 1));
        lines.push(`${String(v)}: ${r} ${buf.toString('hex')} ${show(() => buf[read](1))}`);
      }
      console.log(write, '\n  ' + lines.join('\n  '));
      const buf = Buffer.from([0x81, 0x82, 0x83, 0x84, 0x85, 0x86]);
      const offsets = [undefined, 0, 1, 2, 5, 6, -1, 1.5, NaN, Infinity, '1', null, {}, 2 ** 53];
      console.log(read, offsets.map((o) => show(() => buf[read](o))).join(' | '));
      console.log(write, offsets.map((o) => show(() => Buffer.alloc(6)[write](1, o))).join(' | '));
      console.log(read, 'empty', show(() => Buffer.alloc(0)[read](0)), show(() => Buffer.alloc(size - 1 || 0)[read]()));
    }
  }
}
// Aliases are the same functions.
console.log(Buffer.prototype.readUint32BE === Buffer.prototype.readUInt32BE, Buffer.prototype.writeUint16LE === Buffer.prototype.writeUInt16LE);
// Views with an offset into a larger buffer.
const big = Buffer.alloc(16);
const view = big.subarray(4, 12);
view.writeInt32BE(-2, 2);
console.log(big.toString('hex'), view.readInt32BE(2), view.readUInt32LE(2), view.readInt16LE(4));
