// Resizable ArrayBuffers, length-tracking views, out-of-bounds views, transfer and detach.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { const r = f(); return "ok " + r; } catch (e) { return e.constructor.name; } };

const rab = new ArrayBuffer(8, { maxByteLength: 16 });
log(rab.byteLength, rab.maxByteLength, rab.resizable, new ArrayBuffer(4).resizable, new ArrayBuffer(4).maxByteLength);
const tracking = new Uint16Array(rab);
const fixed = new Uint16Array(rab, 2, 2);
const tail = new Uint8Array(rab, 4);
tracking.set([1, 2, 3, 4]);
log(tracking.length, fixed.length, tail.length, fixed.join(), tail.join());
rab.resize(12);
log(rab.byteLength, tracking.length, fixed.length, tail.length, tracking.join());
rab.resize(5);
log(tracking.length, tracking.join(), fixed.length, fixed.byteLength, fixed.byteOffset, tail.length, tail.join());
log(err(() => fixed.join()), err(() => fixed[0]), 0 in fixed, Object.keys(fixed).length);
rab.resize(3);
log(tracking.length, tail.length, tail.byteOffset, err(() => tail.fill(1)), err(() => tail.length));
rab.resize(16);
log(tracking.length, tail.length, fixed.length, fixed.join(), tracking.join());
log(err(() => rab.resize(17)), err(() => rab.resize(-1)), err(() => new ArrayBuffer(4).resize(2)));
log(err(() => new ArrayBuffer(10, { maxByteLength: 4 })), new ArrayBuffer(1, { maxByteLength: undefined }).resizable, new ArrayBuffer(0, {}).resizable);
log(err(() => Object.preventExtensions(tracking)), err(() => Object.preventExtensions(new Uint8Array(rab, 0, 2))), err(() => Object.seal(new Uint8Array(2))));

// A DataView over a resizable buffer.
const dv = new DataView(rab);
const dvFixed = new DataView(rab, 2, 4);
rab.resize(4);
log(dv.byteLength, err(() => dvFixed.byteLength), err(() => dvFixed.getUint8(0)), err(() => dvFixed.byteOffset));
rab.resize(8);
log(dvFixed.byteLength, dvFixed.byteOffset);

// transfer.
const src = new ArrayBuffer(4);
new Uint8Array(src).set([1, 2, 3, 4]);
const view = new Uint8Array(src);
const moved = src.transfer();
log(src.detached, src.byteLength, moved.byteLength, new Uint8Array(moved).join(), view.length, view.byteLength, view.byteOffset, view[0]);
log(err(() => view.join()), err(() => src.slice()), err(() => src.transfer()), err(() => new Uint8Array(src)), err(() => new DataView(src)));
const grown = moved.transfer(6);
log(new Uint8Array(grown).join(), moved.detached, grown.resizable);
const shrunk = grown.transferToFixedLength(2);
log(new Uint8Array(shrunk).join(), shrunk.resizable);
const r2 = new ArrayBuffer(2, { maxByteLength: 8 });
const r3 = r2.transfer(4);
log(r3.resizable, r3.maxByteLength, r3.byteLength, r2.transferToFixedLength === undefined);
const r4 = r3.transferToFixedLength();
log(r4.resizable, r4.byteLength, err(() => r4.transfer(-1)));
log(err(() => new ArrayBuffer(8, { maxByteLength: 8 }).transfer(9)));

// slice.
const sl = new Uint8Array([1, 2, 3, 4, 5]).buffer;
log(new Uint8Array(sl.slice(1, 3)).join(), new Uint8Array(sl.slice(-2)).join(), sl.slice(3, 1).byteLength, sl.slice().resizable);
class MyBuf extends ArrayBuffer {}
log(new MyBuf(4).slice(1) instanceof MyBuf, ArrayBuffer[Symbol.species] === ArrayBuffer);
log(ArrayBuffer.isView(new Uint8Array(1)), ArrayBuffer.isView(new DataView(new ArrayBuffer(1))), ArrayBuffer.isView(new ArrayBuffer(1)), ArrayBuffer.isView());
log(Object.prototype.toString.call(new ArrayBuffer(1)), err(() => ArrayBuffer(1)), err(() => new ArrayBuffer(-1)));
log(err(() => ArrayBuffer.prototype.slice.call(new SharedArrayBuffer(1))), err(() => Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get.call(new SharedArrayBuffer(1))));

// SharedArrayBuffer.
const sab = new SharedArrayBuffer(4, { maxByteLength: 8 });
log(sab.byteLength, sab.growable, sab.maxByteLength, Object.prototype.toString.call(sab), new SharedArrayBuffer(2).growable);
const sabView = new Int8Array(sab);
sab.grow(6);
log(sab.byteLength, sabView.length, err(() => sab.grow(5)), err(() => sab.grow(9)), err(() => new SharedArrayBuffer(2).grow(2)));
log(new Uint8Array(sab.slice(1, 3)).length, sab.slice(0) instanceof SharedArrayBuffer, err(() => SharedArrayBuffer.prototype.slice.call(new ArrayBuffer(1))));
