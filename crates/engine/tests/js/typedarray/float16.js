// Float16Array: round-to-nearest-even conversion from doubles, and Math.f16round agreement.
const log = (...a) => console.log(a.map(String).join(" "));
const f = new Float16Array([1.337, 65504, 65519.99, 65520, -65520, 1e-8, 3e-8, 2 ** -25, 3 * 2 ** -25, 2 ** -24, 2 ** -14, 2 ** -14 - 2 ** -25, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 0.1, -0, NaN, Infinity, 1e10]);
log(Array.from(f).map((x) => Object.is(x, -0) ? "-0" : String(x)).join());
log(Float16Array.BYTES_PER_ELEMENT, Float16Array.name, Object.prototype.toString.call(f));
log(Array.from(new Uint16Array(new Float16Array([1, -2, 0.5, 65504, -Infinity]).buffer)).map((x) => x.toString(16)).join());
log(new Float16Array(new Uint16Array([0x3c00, 0x7c01, 0x0001, 0x8400]).buffer).join());
const viaFloat32 = 1 + 2 ** -11 + 2 ** -30;
log(new Float16Array([viaFloat32])[0], new Float16Array([Math.fround(viaFloat32)])[0]);
log(new Float16Array([5, 1, 3]).sort().join(), new Float16Array([0.1]).includes(0.0999755859375), new Float16Array([1.5]).indexOf(1.5));
log(new Float16Array(new Int32Array([70000, -3])).join(), new Uint8Array(new Float16Array([300.7, -1])).join());
