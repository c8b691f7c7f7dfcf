// Math: exact cases of every function, signed zeros, coercion order, constants, random.
const log = (...a) => console.log(a.map((v) => (Object.is(v, -0) ? "-0" : String(v))).join(" "));
const near = (x) => (Number.isFinite(x) ? x.toPrecision(12) : String(x));

log(Math.E, Math.LN10, Math.LN2, Math.LOG10E, Math.LOG2E, Math.PI, Math.SQRT1_2, Math.SQRT2);
log(Object.prototype.toString.call(Math), typeof Math, Object.getOwnPropertyDescriptor(Math, "PI").writable);
log(Math.abs(-3), Math.abs(-0), Math.abs("-2"), Math.abs(null), Math.abs(), Math.abs([-4]));
log(Math.ceil(-0.5), Math.ceil(1.1), Math.floor(-0.5), Math.floor(0.5), Math.trunc(-0.9), Math.trunc(4.7), Math.sign(-3), Math.sign(-0), Math.sign(NaN));
log(Math.round(2.5), Math.round(-2.5), Math.round(-0.4), Math.round(0.49999999999999994), Math.round(-0), Math.round(4503599627370495.5), Math.round(-4.5000001));
log(Math.max(), Math.min(), Math.max(1, 3, 2), Math.min(1, -3, 2), Math.max(-0, 0), Math.min(0, -0), Math.max(1, NaN), Math.min("2", [1]));
log(Math.sqrt(16), Math.sqrt(-1), Math.sqrt(-0), Math.cbrt(27), Math.cbrt(-8), Math.hypot(3, 4), Math.hypot(), Math.hypot(NaN, Infinity), Math.hypot(-0), Math.hypot(1e300, 1e300));
log(Math.pow(2, 10), Math.pow(2, -1), Math.pow(NaN, 0), Math.pow(1, Infinity), Math.pow(-8, 1 / 3), Math.pow(-0, -1), Math.pow(-0, -2));
log(Math.clz32(1), Math.clz32(0), Math.clz32(-1), Math.clz32(0.5), Math.imul(3, 4), Math.imul(0xffffffff, 5), Math.imul(2 ** 31, 2));
log(Math.fround(5.5), Math.fround(5.05), Math.fround(2 ** 128), Math.fround(-0), Math.fround(1e-46));
log(Math.exp(0), Math.exp(-Infinity), Math.expm1(-0), Math.log(1), Math.log(0), Math.log(-1), Math.log1p(-1), Math.log10(1000), Math.log2(8), Math.log2(1 / 1024));
log(Math.sin(0), Math.sin(-0), Math.cos(0), Math.tan(-0), Math.asin(1) === Math.PI / 2, Math.acos(1), Math.atan(Infinity) === Math.PI / 2, Math.atan2(0, -0) === Math.PI, Math.atan2(-0, 1));
log(Math.sinh(-0), Math.cosh(0), Math.tanh(Infinity), Math.asinh(-0), Math.acosh(1), Math.atanh(1), Math.atanh(-0), Math.acosh(0.5));
log(near(Math.sin(1)), near(Math.cos(1)), near(Math.tan(1)), near(Math.exp(1)), near(Math.log(10)), near(Math.atan2(1, 2)), near(Math.sinh(1)), near(Math.cbrt(2)), near(Math.expm1(1e-10)), near(Math.log1p(1e-10)));
const order = [];
const v = (n) => ({ valueOf() { order.push(n); return n; } });
Math.max(v(1), v(NaN), v(3));
Math.hypot(v(4), v(5));
Math.atan2(v(6), v(7));
log(order.join(","));
let ok = true;
for (let i = 0; i < 1000; i++) { const r = Math.random(); if (!(r >= 0 && r < 1)) ok = false; }
log(ok, Math.random() !== Math.random());
log(Math.max.length, Math.hypot.length, Math.random.length, Math.abs.name, Math.max.name);
