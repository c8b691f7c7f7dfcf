// Optional calls inside larger expressions (found by fuzzing, target `snapshot_roundtrip`):
// a short-circuit inside the callee chain (`a?.b()`) used to leave an extra value on the
// operand stack, and the compiler's depth count went wrong inside conditionals.
var a = null;
var o = { b() { return 7; }, n: null, f: () => 8, deep: { g() { return this === o.deep; } } };
console.log([1, a?.b(), 3]);
console.log([1, a?.b.c(), 3]);
console.log([1, a?.["b"](), a?.b?.(), 3]);
console.log([1, a?.(), o.n?.(), 3]);
function g(y) {
  return [y ? a?.b() : 2, y ? a?.() : 5, y ? o?.b() : 6, y ? o.deep?.g() : 0, 9];
}
console.log(g(1), g(0));
console.log([1, o?.b(), o.f?.(), o?.deep.g(), 3]);
console.log(Math.max(1, a?.b() ?? 4, o?.b()), `${a?.b()}-${o?.b()}`);
try {
  (a?.b)();
} catch (e) {
  console.log(e.constructor.name);
}
let n = 0;
for (let i = 0; i < 3; i++) n += (i % 2 ? o : a)?.b() ?? 100;
console.log(n);
