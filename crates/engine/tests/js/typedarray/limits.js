// Hostile lengths throw RangeErrors instead of exhausting memory.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { const r = f(); return "ok " + r; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
log(err(() => new ArrayBuffer(2 ** 53)));
log(err(() => new ArrayBuffer(2 ** 53 - 1)));
log(err(() => new Uint8Array(2 ** 40)));
log(err(() => new Float64Array(2 ** 50)));
log(err(() => new ArrayBuffer(1, { maxByteLength: 2 ** 53 })));
log(err(() => new SharedArrayBuffer(2 ** 53)));
log(err(() => new Int32Array({ length: 2 ** 53 - 1 })));
log(err(() => Uint8Array.from({ length: -5 }).length));
