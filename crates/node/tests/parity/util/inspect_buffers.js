// util.inspect / console.log of ArrayBuffer, SharedArrayBuffer and DataView, as Node shows them:
// the contents in hex (at most 100 bytes), byteLength, a DataView's byteOffset and buffer.
console.log(new ArrayBuffer(2), new DataView(new ArrayBuffer(4), 1, 2));
console.log(new SharedArrayBuffer(3), new ArrayBuffer(0));
const big = new Uint8Array(130).map((_, i) => i); console.log(big.buffer);
console.log([new ArrayBuffer(1)], { b: new DataView(new ArrayBuffer(2)) });
const ab = new ArrayBuffer(3); ab.extra = 'x'; console.log(ab);
console.log(Buffer.from('hello').buffer.byteLength > 0, new Uint16Array([1, 258]).buffer);
console.log(new DataView(new ArrayBuffer(2, { maxByteLength: 4 })));
