// Number formatting: toString(radix), toFixed, toExponential, toPrecision, toLocaleString.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { return String(f()); } catch (e) { return e.constructor.name + ": " + e.message; } };

const values = [0, -0, 1, -1, 0.1, 0.5, 1.005, 123.456, -1.5, 2.5, 1e21, 1.23e-7, 5e-324, 1.7976931348623157e308, 2 ** 53, 123456789.123456789, NaN, Infinity, -Infinity, 0.000001, 1e-7, 999.9999];
for (const x of values) {
  log(x, x.toFixed(), x.toFixed(2), x.toFixed(20), x.toExponential(), x.toExponential(3), x.toPrecision(), x.toPrecision(1), x.toPrecision(4), x.toPrecision(21));
}
for (const x of [255, -255, 0.5, 0.1, 3.14159, 1e21, 2 ** 60, -0.000123, 1 / 3, 123.456, 2 ** -1074, 0]) {
  log(x.toString(2), x.toString(3), x.toString(8), x.toString(16), x.toString(36));
}
log((0.1).toFixed(100).length, (1e-10).toPrecision(100).slice(-5), (123).toExponential(100).length);
log(err(() => (1).toFixed(101)), err(() => (1).toFixed(-1)), err(() => (1).toExponential(-1)), err(() => (1).toPrecision(0)), err(() => (1).toPrecision(101)), err(() => (1).toString(1)), err(() => (1).toString(37)));
log(err(() => Infinity.toFixed(1000)), err(() => NaN.toExponential(1000)), err(() => Infinity.toPrecision(1000)), err(() => Number.prototype.toFixed.call("1")));
log((1234567.891).toLocaleString(), (-1234.5).toLocaleString(), (0.0625).toLocaleString(), (1e21).toLocaleString(), NaN.toLocaleString(), (-0).toLocaleString(), (2.0005).toLocaleString());
log(new Number(5).toFixed(1), Number.prototype.toString.call(new Number(255), 16), (25).toString(undefined), (-7.25).toString(2));
