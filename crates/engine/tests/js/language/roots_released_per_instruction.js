// What an instruction roots while it runs (a spread source, an iterator, an iterator result)
// is released when it completes: objects spread, rested and iterated in a loop stay
// collectable, and the values still in use survive collections.
let sum = 0;
const kept = [];
for (let i = 0; i < 20000; i++) {
  const o = { a: i, b: 2 };
  const c = { ...o, d: 1 };
  const { a, ...rest } = c;
  sum += rest.b + rest.d;
  for (const x of new Set([1, 2])) sum += x;
  const [p, q] = [a, i % 7];
  if (i % 5000 === 0) kept.push({ ...c, p, q });
}
console.log(sum, JSON.stringify(kept));
