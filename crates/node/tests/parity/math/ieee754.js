// Math's transcendental functions, `Math.pow` and `**` give V8's results to the last bit
// (V8 computes them with fdlibm; Amber ports the same routines). Per function: a digest of the
// result bits for 2,000 inputs from a fixed-seed generator (any one-bit difference changes
// it), then the exact results at special values, thresholds and near multiples of π/2 and ln2.
"use strict";

const view = new DataView(new ArrayBuffer(8));
const hex = (x) => {
  if (x !== x) return "NaN";
  view.setFloat64(0, x);
  return view.getUint32(0).toString(16).padStart(8, "0") + view.getUint32(4).toString(16).padStart(8, "0");
};
const fromBits = (hi, lo) => {
  view.setUint32(0, hi >>> 0);
  view.setUint32(4, lo >>> 0);
  return view.getFloat64(0);
};

// mulberry32: a fixed seed, so node and Amber see the same inputs.
let seed = 0x2545f491;
const rnd32 = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
};
const unit = () => rnd32() / 4294967296 + rnd32() / 18446744073709551616;

/// An input drawn from the ranges where the algorithms branch: any bit pattern, [-1, 1],
/// [-20, 20], [-1500, 1500], wide exponents, near 1, subnormal to huge.
const draw = () => {
  switch (rnd32() % 7) {
    case 0: return fromBits(rnd32(), rnd32());
    case 1: return unit() * 2 - 1;
    case 2: return (unit() * 2 - 1) * 20;
    case 3: return (unit() * 2 - 1) * 1500;
    case 4: return (unit() * 2 - 1) * 2 ** ((rnd32() % 120) - 60);
    case 5: return 1 + (unit() * 2 - 1) * 2 ** -(rnd32() % 50);
    default: return unit() * 2 ** ((rnd32() % 2100) - 1075);
  }
};

/// FNV-1a over the result bits (NaN as one value: its payload is not observable in general).
const digest = (results) => {
  let h = 0x811c9dc5;
  for (const r of results) {
    let hi = 0x7ff80000, lo = 0;
    if (r === r) {
      view.setFloat64(0, r);
      hi = view.getUint32(0);
      lo = view.getUint32(4);
    }
    for (const w of [hi, lo]) {
      for (let s = 0; s < 32; s += 8) h = Math.imul(h ^ ((w >>> s) & 0xff), 0x01000193);
    }
  }
  return (h >>> 0).toString(16).padStart(8, "0");
};

const unary = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh", "exp", "expm1", "log",
  "log1p", "log10", "log2", "sin", "sinh", "tan", "tanh"];
const binary = {
  atan2: (y, x) => Math.atan2(y, x),
  pow: (x, y) => Math.pow(x, y),
  "**": (x, y) => x ** y,
};

const N = 2000;
for (const name of unary) {
  const f = Math[name];
  const results = [];
  for (let i = 0; i < N; i++) results.push(f(draw()));
  console.log(name, N, digest(results));
}
for (const [name, f] of Object.entries(binary)) {
  const results = [];
  for (let i = 0; i < N; i++) {
    const x = draw();
    // Exponents: integers (exact and parity cases), small reals, and anything.
    const r = rnd32() % 3;
    const y = r === 0 ? (rnd32() % 200) - 100 : r === 1 ? (unit() * 2 - 1) * 50 : draw();
    results.push(f(x, y));
  }
  console.log(name, N, digest(results));
}

// Exact results at the edges: special values, algorithm thresholds, multiples of π/2 and ln2.
const specials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 0.5, -0.5, 2, 5e-324, 2.2250738585072014e-308,
  1.7976931348623157e308, 2 ** -28, 22, 709.782712893384, -745.1332191019411, 710.4758600739439, 0.34657359027997264,
  Math.PI / 2, Math.PI / 4, 3 * Math.PI / 4, 1e22, 2 ** 66, 0.975, 0.6744, 27, 1e-300];
for (const name of unary) {
  const f = Math[name];
  console.log(name, specials.map((x) => hex(f(x))).join(" "));
}
const near = [];
for (let k = -12; k <= 12; k++) near.push(k * Math.PI / 2, k * Math.LN2);
for (const name of ["sin", "cos", "tan", "exp", "expm1", "sinh", "cosh"]) {
  const f = Math[name];
  console.log(name, "near", near.map((x) => hex(f(x))).join(" "));
}
const bases = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, -2, 0.5, 10, -8, 5e-324];
const exponents = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, 3, -3, 0.5, 1 / 3, -1074, 1024];
for (const [name, f] of Object.entries(binary)) {
  for (const x of bases) console.log(name, hex(x), exponents.map((y) => hex(f(x, y))).join(" "));
}
// Values numeric libraries test exactly (V8's results, not the correctly rounded ones).
console.log(Math.pow(10, -5), 10 ** -5, Math.exp(1) === Math.E, Math.cbrt(27), Math.cosh(1), Math.atan2(1, 1));
