// Destructuring, spread and rest: object and array patterns with defaults, rest parameters,
// spread into calls, arrays and object literals, and swaps through array patterns.
var ROUNDS = 120000;

function sum(...xs) { var s = 0; for (var i = 0; i < xs.length; i++) s += xs[i]; return s; }
function point({ x = 0, y = 0, z = 1 } = {}) { return x * z + y; }
function head([first, second = 10, ...rest]) { return first + second + rest.length; }

var total = 0, merged = null;
for (var r = 0; r < ROUNDS; r++) {
  var arr = [r, r + 1, r + 2, r + 3];
  var [a, b, ...others] = arr;
  var { length, 0: zero } = others;
  total += a + b + length + zero;
  total += sum(...arr, r % 5);
  total += point({ x: r % 7, y: 2 }) + point({ y: r % 3 }) + point();
  total += head(arr) + head([r]);
  var base = { id: r, kind: "item", tags: ["a", "b"] };
  var copy = { ...base, id: r + 1, extra: true };
  var { id, kind, ...restObj } = copy;
  total += id + kind.length + Object.keys(restObj).length;
  var swapA = r, swapB = r * 2;
  [swapA, swapB] = [swapB, swapA];
  total += swapA - swapB;
  var combined = [...arr, ...others, ...copy.tags];
  total += combined.length;
  if (r % 1000 === 0) merged = Object.assign({}, copy, { r: r });
  total %= 1000000007;
}
console.log("total " + total);
console.log(JSON.stringify(merged));
