// util.inspect / console.log of Map and Set iterators: the entries still to come, read without
// advancing the iterator ([Map Iterator], [Map Entries], [Set Iterator], [Set Entries]).
const m = new Map([[1, 'a'], [2, 'b'], [3, { c: [1] }]]);
const k = m.keys(); k.next(); console.log(k, m.values(), m.entries(), m[Symbol.iterator]());
const s = new Set([1, 'two', [3]]);
console.log(s.values(), s.entries(), s.keys(), s[Symbol.iterator]());
const e = new Set([1]).values(); e.next(); e.next(); console.log(e, [m.keys()], { it: s.values() });
const big = new Map(Array.from({ length: 120 }, (_, i) => [i, i])); console.log(big.keys());
m.delete(2); const k2 = m.keys(); console.log(k2); m.set(9, 9); console.log(k2);
