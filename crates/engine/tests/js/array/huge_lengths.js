// Generic Array methods on array-likes whose length is near 2^53: the work is what the
// loop actually reaches, so a getter that stops it early ends the call quickly.
class Stop extends Error {}

const reversed = { length: 2 ** 53 + 2, get 9007199254740990() { throw new Stop(); } };
try {
  Array.prototype.reverse.call(reversed);
} catch (e) {
  console.log('reverse stopped at the top index:', e instanceof Stop);
}

const spliced = { 9007199254740985: 'a', 9007199254740986: 'b', length: 2 ** 53 - 2 };
Array.prototype.splice.call(spliced, 9007199254740986, 0, 'new');
console.log(spliced.length === 2 ** 53 - 1, spliced[9007199254740986], spliced[9007199254740987]);

const unshifted = { length: 2 ** 53 - 3, get 9007199254740987() { throw new Stop(); } };
try {
  Array.prototype.unshift.call(unshifted, 1);
} catch (e) {
  console.log('unshift stopped:', e instanceof Stop);
}

console.log((1e-21).toPrecision(16), (1e-21).toPrecision(7), (9.5).toPrecision(1));
