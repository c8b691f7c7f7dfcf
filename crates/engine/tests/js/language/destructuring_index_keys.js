// Object patterns with array-index keys read the index, like `value[0]`.
const { 0: x, 1: y, '2': z, length } = [5, 6, 7];
console.log(x, y, z, length);
const { 0: first } = 'hi';
console.log(first);
function f({ 0: v }, [...{ 0: a, 1: b, length: n }]) {
  return [v, a, b, n];
}
console.log(f([9], [7, 8, 9]));
let p, q;
({ 0: p, 4294967295: q } = { 0: 'zero', 4294967295: 'not an index' });
console.log(p, q);
