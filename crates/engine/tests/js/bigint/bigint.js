// BigInt: constructor conversions, asIntN/asUintN, toString(radix), toLocaleString.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { return String(f()); } catch (e) { return e.constructor.name + ": " + e.message; } };

log(BigInt(10), BigInt("0x1f"), BigInt(" 42 "), BigInt(""), BigInt(true), BigInt(-0), BigInt(2 ** 60), BigInt("-123"), BigInt("0b101"), BigInt(Number.MAX_SAFE_INTEGER) + 2n);
log(err(() => BigInt(1.5)), err(() => BigInt("1x")), err(() => BigInt(Symbol("q"))), err(() => BigInt(undefined)), err(() => new BigInt(1)), err(() => BigInt(NaN)), err(() => BigInt("-0x1")), err(() => BigInt({})));
log(BigInt.asIntN(8, 255n), BigInt.asIntN(8, 128n), BigInt.asIntN(8, -129n), BigInt.asUintN(8, -1n), BigInt.asUintN(64, -1n), BigInt.asIntN(64, 2n ** 63n), BigInt.asIntN(0, 5n), BigInt.asUintN(1000, 5n));
log(err(() => BigInt.asUintN(2 ** 40, -1n)), BigInt.asIntN(2 ** 40, -1n), err(() => BigInt.asIntN(8, 1)));
log((255n).toString(16), (-255n).toString(2), (2n ** 100n).toString(36), (0n).toString(), err(() => (1n).toString(1)), (12345678901234567890n).toLocaleString(), (-1234n).toLocaleString(), (12n).toLocaleString());
log(typeof Object(1n), Object(1n).valueOf() === 1n, Object.prototype.toString.call(1n), BigInt.prototype[Symbol.toStringTag], err(() => BigInt.prototype.toString.call(1)), err(() => BigInt.prototype.valueOf.call({})));
log(BigInt.length, BigInt.name, BigInt.asIntN.length, BigInt.prototype.toString.length);
