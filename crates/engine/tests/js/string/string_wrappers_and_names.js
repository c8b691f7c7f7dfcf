// String objects index every code unit (not only Latin-1 ones); a parenthesised assignment
// target gives an anonymous function no name; an indirect eval's lexical bindings start in
// their TDZ.
const s = new String('\u0100\uD83D\uDCA9\u4e00');
console.log([0, 1, 2, 3].map((i) => s[i] === s.valueOf()[i]));
console.log(Object.getOwnPropertyDescriptor(s, 3).value === '\u4e00');
s[Symbol.isConcatSpreadable] = true;
console.log([].concat(s).map((c) => c.charCodeAt(0).toString(16)));
console.log(Array.from(new String('\u4e00\u4e01')).length);

let named;
named = function () {};
let covered;
(covered) = function () {};
console.log(JSON.stringify([named.name, covered.name]));

try {
  (0, eval)('typeof early; let early;');
} catch (e) {
  console.log('indirect eval TDZ:', e.constructor.name);
}
(0, eval)('let contained = 1');
console.log(typeof contained);

// Redefining a frozen index with the same (non-Latin-1) unit is allowed; another is not.
const frozen = new String('\u4e00');
Object.defineProperty(frozen, 0, { value: '\u4e00' });
try {
  Object.defineProperty(frozen, 0, { value: 'x' });
} catch (e) {
  console.log('redefine index:', e.constructor.name);
}
