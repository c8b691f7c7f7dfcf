// JS-to-JS calls and returns of plain functions (which the interpreter's fast tier makes
// itself) next to those it leaves to the general path: `this` binding in sloppy and strict
// code, arrows, extra and missing arguments, recursion limits, constructors, generators,
// async functions, closures with captured variables, and errors thrown across calls.

function sloppyThis() { return this; }
function strictThis() { 'use strict'; return this; }
const results = [];
for (let i = 0; i < 3; i++) {
  results.push(sloppyThis() === globalThis, strictThis() === undefined);
  results.push(typeof sloppyThis.call(5), typeof strictThis.call(5));
  const o = { m: sloppyThis, s: strictThis };
  results.push(o.m() === o, o.s() === o);
}
console.log(JSON.stringify(results));

// Primitive receivers of methods.
Number.prototype.sloppy = function () { return typeof this; };
Number.prototype.strict = function () { 'use strict'; return typeof this; };
let kinds = [];
for (let i = 0; i < 2; i++) kinds.push((1).sloppy(), (1).strict());
console.log(kinds.join(','));

// Arrows keep the `this` and `new.target` of their creation.
function Outer() {
  const arrow = () => [this instanceof Outer, new.target === Outer];
  let r;
  for (let i = 0; i < 2; i++) r = arrow();
  this.r = r;
}
console.log(JSON.stringify(new Outer().r));

// Extra and missing arguments; `arguments` sees the extras.
function args(a, b) { return [a, b, arguments.length, arguments[2]]; }
function rest(a, ...more) { return [a, more.length]; }
let collected = [];
for (let i = 0; i < 2; i++) collected.push(args(1), args(1, 2, 3), rest(1, 2, 3, 4), rest());
console.log(JSON.stringify(collected));

// Deep recursion, then a stack overflow that is caught.
function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); }
console.log(depth(5000));
function forever(n) { return forever(n + 1) + 1; }
try {
  forever(0);
} catch (e) {
  console.log(e instanceof RangeError, e.message);
}

// Class constructors need `new`; constructors return `this`.
class C { constructor(x) { this.x = x; } }
for (let i = 0; i < 2; i++) {
  try {
    C(1);
  } catch (e) {
    console.log(e.constructor.name, e.message);
  }
}
function P(x) { this.x = x; }
let ps = [];
for (let i = 0; i < 2; i++) ps.push(new P(i).x);
console.log(ps);

// Generators, async functions and closures over captured variables.
function* gen(n) { for (let i = 0; i < n; i++) yield i * 2; }
let sum = 0;
for (let i = 0; i < 3; i++) for (const v of gen(3)) sum += v;
function counter() { let c = 0; return () => ++c; }
const next = counter();
for (let i = 0; i < 4; i++) next();
console.log(sum, next());
async function twice(x) { return x * 2; }
(async () => {
  let total = 0;
  for (let i = 0; i < 3; i++) total += await twice(i);
  console.log('async', total);
})();

// Throws unwind through calls to the nearest handler, and `finally` runs.
function thrower(n) { if (n === 0) throw new Error('bottom'); return thrower(n - 1); }
function catcher() {
  const log = [];
  try {
    try {
      thrower(10);
    } finally {
      log.push('finally');
    }
  } catch (e) {
    log.push(e.message);
  }
  return log;
}
console.log(catcher().join(' '));

// Stack traces name the functions on the way.
function a1() { return b1(); }
function b1() { return new Error('here').stack.split('\n').slice(1, 3).map((l) => l.trim().split(' ')[1]); }
console.log(a1().join(' '));

// A callee that is not callable.
const notFn = {};
try {
  notFn.missing();
} catch (e) {
  console.log(e.constructor.name, e.message);
}
