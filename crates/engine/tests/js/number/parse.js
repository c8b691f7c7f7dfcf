// Number(), parseInt, parseFloat, and the Number statics.
const log = (...a) => console.log(a.map(String).join(" "));

log(Number(), Number("  12  "), Number("0x1F"), Number("0b101"), Number("0o17"), Number(""), Number("1e3"), Number("-Infinity"), Number("12px"), Number(null), Number([5]), Number(10n), Number(2n ** 70n));
log(typeof new Number(3), new Number(3) + 1, Object.prototype.toString.call(Number.prototype), Number.prototype.valueOf());
for (const s of ["42", "  -42px", "0x1f", "-0x1f", "0b11", "1e3", "3.99", "", "  ", "-", "+7", "\u00a0 12", "123456789012345678901234567890", "9".repeat(400), "1".repeat(60)]) {
  log(JSON.stringify(s.slice(0, 40)), parseInt(s), parseFloat(s));
}
log(parseInt("ff", 16), parseInt("FF", 16), parseInt("z", 36), parseInt("10", 2), parseInt("12", 2), parseInt("10", 1), parseInt("10", 37), parseInt("10", 0), parseInt("0x10", 16), parseInt("0x10", 10), parseInt("11", 4294967312));
log(parseInt("zzzzzzzzzzzzzzz", 36), parseInt("121212121212121212121212", 3), parseInt("777777777777777777777", 8), parseInt("1".repeat(70), 2), Object.is(parseInt("-0"), -0));
log(parseFloat("3.14abc"), parseFloat(".5"), parseFloat("-.5e-3x"), parseFloat("1e"), parseFloat("1.e3"), parseFloat("Infinityx"), parseFloat("-Infinity"), parseFloat("infinity"), parseFloat("e3"), parseFloat("0x10"), Object.is(parseFloat("-0"), -0), parseFloat("1e400"), parseFloat("2.2250738585072011e-308"));
log(parseInt === Number.parseInt, parseFloat === Number.parseFloat, parseInt.name, parseFloat.length, parseInt.length, isNaN.name);
log(Number.EPSILON === 2 ** -52, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
log(Number.isFinite(1), Number.isFinite("1"), Number.isFinite(Infinity), Number.isInteger(5.0), Number.isInteger(5.5), Number.isInteger("5"), Number.isSafeInteger(2 ** 53), Number.isSafeInteger(2 ** 53 - 1), Number.isNaN(NaN), Number.isNaN("NaN"));
log(isNaN("NaN"), isNaN("12"), isFinite("12"), isFinite("Infinity"), isNaN({}), isFinite(null));
const d = Object.getOwnPropertyDescriptor(Number, "MAX_VALUE");
log(d.writable, d.enumerable, d.configurable, Number.length, Number.name);
try { Number(1n ** 1n, Symbol()); Number(Symbol()); } catch (e) { log(e.constructor.name, e.message); }
