// Array.prototype.sort below 64 elements calls the comparator as V8 does, so inconsistent
// comparators (NaN, constant, random-looking) give Node's order and the same call log.
const log = [];
const logged = (a, b) => {
  log.push(`${a}${b}`);
  return a < b ? -1 : a > b ? 1 : 0;
};
console.log(['d', 'a', 'c', 'b', 'e'].sort(logged).join(''), log.join(' '));
log.length = 0;
console.log(['e', 'd', 'c', 'b', 'a', 'f'].sort(logged).join(''), log.join(' '));
console.log(['c', 'b', 'a'].sort(() => NaN).join(''));
console.log([3, 1, 2].sort(() => -1).join(''), [3, 1, 2].sort(() => 1).join(''));
const o = { c: 8, b: [1], a: 3 };
console.log(Object.keys(o).sort((x, y) => o[x] - o[y]).join(''));
let seed = 7;
const noisy = Array.from({ length: 40 }, (_, i) => i);
console.log(noisy.sort(() => ((seed = (seed * 31 + 11) % 97) % 3) - 1).join(','));
const long = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
console.log(long.sort((a, b) => a - b).every((v, i) => v === i));
console.log([5, undefined, 1, , 3].sort((a, b) => b - a));
