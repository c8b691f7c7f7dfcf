// A Map as an LRU (delete the oldest, append): iterators made before and after deletions
// at the front, in the middle and by clear() see exactly the live entries in order.
const m = new Map();
const early = m.keys();
for (let i = 0; i < 50; i++) m.set(i, i * i);
const mid = m.entries();
mid.next();
for (let i = 0; i < 30; i++) { const oldest = m.keys().next().value; m.delete(oldest); m.set(100 + i, i); }
m.delete(45);
console.log([...m.keys()].join(","));
console.log(early.next().value, mid.next().value.join(":"));
const s = new Set([1, 2, 3, 4]);
const it = s.values();
s.delete(1); s.delete(2);
console.log(it.next().value, [...s].join(","));
s.clear();
console.log(it.next().done, s.size);
s.add(9);
console.log(it.next().value, [...s.values()].join(","));
