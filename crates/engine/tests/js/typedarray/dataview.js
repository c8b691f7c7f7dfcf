// DataView: every getter and setter, endianness, bounds, and the accessors.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { const r = f(); return "ok " + r; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };

const buf = new ArrayBuffer(16);
const dv = new DataView(buf);
const bytes = new Uint8Array(buf);
dv.setInt8(0, -2); dv.setUint8(1, 300);
log(dv.getInt8(0), dv.getUint8(0), dv.getUint8(1), bytes[0], bytes[1]);
dv.setInt16(2, -2); log(bytes[2], bytes[3], dv.getInt16(2), dv.getInt16(2, true), dv.getUint16(2));
dv.setUint16(2, 0x1234, true); log(bytes[2], bytes[3], dv.getUint16(2).toString(16), dv.getUint16(2, true).toString(16));
dv.setInt32(4, -123456789); log(dv.getInt32(4), dv.getUint32(4), dv.getInt32(4, true), Array.from(bytes.slice(4, 8)).join());
dv.setUint32(4, 0xdeadbeef, true); log(dv.getUint32(4, true).toString(16), dv.getUint32(4).toString(16));
dv.setFloat32(8, Math.PI); log(dv.getFloat32(8), dv.getFloat32(8, true), Array.from(bytes.slice(8, 12)).join());
dv.setFloat64(8, -1 / 3, true); log(dv.getFloat64(8, true), dv.getFloat64(8));
dv.setBigInt64(0, -5n); log(dv.getBigInt64(0), dv.getBigUint64(0), dv.getBigInt64(0, true));
dv.setBigUint64(8, 2n ** 64n + 7n, true); log(dv.getBigUint64(8, true), dv.getBigInt64(8, true));
log(err(() => dv.setBigInt64(0, 1)), err(() => dv.setInt8(0, 1n)));
dv.setFloat16(0, 1.337); log(dv.getFloat16(0), dv.getUint16(0).toString(16), dv.getFloat16(0, true));
dv.setFloat16(2, 65520, true); dv.setFloat16(4, -1e-8); dv.setFloat16(6, NaN);
log(dv.getFloat16(2, true), Object.is(dv.getFloat16(4), -0), dv.getFloat16(6), dv.getUint16(2, true).toString(16));
log(DataView.prototype.getFloat16.length, DataView.prototype.setFloat16.length, DataView.prototype.getInt8.length, DataView.prototype.setUint8.length);

// Offsets and bounds.
const part = new DataView(buf, 4, 8);
log(part.byteOffset, part.byteLength, part.buffer === buf, new DataView(buf, 16).byteLength, new DataView(buf, 3).byteLength);
log(err(() => part.getInt32(5)), err(() => part.getInt8(8)), err(() => part.getInt8(-1)), err(() => part.setFloat64(1, 0)), part.getInt8("2"));
log(err(() => new DataView(buf, 17)), err(() => new DataView(buf, 4, 13)), err(() => new DataView({})), err(() => DataView(buf)));
log(err(() => new DataView(buf, -1)), err(() => DataView.prototype.getInt8.call(new Uint8Array(1), 0)).split(":")[0]);
let order = [];
const idx = { valueOf() { order.push("index"); return 0; } };
const val = { valueOf() { order.push("value"); return 1; } };
dv.setUint8(idx, val);
log(order.join());
log(err(() => dv.setUint8(99, { valueOf() { order.push("value2"); return 1; } })), order.join());
log(Object.prototype.toString.call(dv), DataView.length, DataView.name);
class MyView extends DataView {}
log(new MyView(buf, 1).byteLength, new MyView(buf) instanceof MyView);
