// Assignments and updates whose value is unused (expression statements, `for` updates,
// comma operands) store without keeping the value; what they store, the errors they
// throw and the completion values eval sees stay as before.

function locals() {
  let a = 1, b = 2, i = 0, j = 10;
  a = b + 1;
  b += a;
  i++;
  ++i;
  j--;
  --j;
  for (let k = 0; k < 3; k++, j -= 2) a = a * 2;
  (a++, b--);
  return [a, b, i, j];
}
console.log(JSON.stringify(locals()));

// Captured bindings (environment slots) and globals.
function captured() {
  let n = 0;
  const inc = () => { n++; n += 10; };
  inc();
  inc();
  return n;
}
console.log(captured());
var g = 5;
g++;
g *= 3;
globalThis.h = 1;
h += 1;
console.log(g, h);

// ToNumeric still happens for postfix updates whose value is unused.
let s = '5';
s++;
let big = 10n;
big++;
big -= 3n;
let obj = { valueOf() { console.log('valueOf'); return 41; } };
obj++;
console.log(s, typeof s, big, obj);

// Errors: const, TDZ, strict undeclared.
for (const src of [
  'const c = 1; c = 2;',
  'const c = 1; c++;',
  'const c = 1; c += 1;',
  'x1++; let x1 = 0;',
  'x2 = 1; let x2;',
  '"use strict"; undeclared = 1;',
  '"use strict"; undeclared2++;',
]) {
  try {
    (0, eval)(src);
    console.log('no error');
  } catch (e) {
    console.log(e.constructor.name + ': ' + e.message);
  }
}

// The completion value of a script or eval is the assigned or updated value.
let q = 1;
console.log(eval('q = 7'), eval('q++'), eval('++q'), eval('q += 2'), eval('q--, q'), q);
console.log((0, eval)('var z = 3; z *= 2'), (0, eval)('for (var w = 0; w < 3; w++) w; '));

// Named evaluation still names a function assigned in statement position.
let f;
f = function () {};
let arrow;
arrow = () => {};
console.log(f.name, arrow.name);

// Assignments through `with` and sloppy-mode eval-introduced bindings.
const scope = { p: 1 };
with (scope) {
  p = 5;
  p++;
}
function viaEval() {
  eval('var e1 = 1');
  e1 += 4;
  e1++;
  return e1;
}
console.log(scope.p, viaEval());

// Members and destructuring in statement position.
const o = { x: 1, arr: [1, 2] };
o.x = 3;
o.x++;
o.arr[0] += 5;
let m, n;
[m, n] = [n, 9];
({ m = 4 } = {});
console.log(o.x, JSON.stringify(o.arr), m, n);
