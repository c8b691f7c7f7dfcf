// Values the collection natives hold in Rust stay alive while callbacks allocate enough to
// trigger collections.
function churn() {
  let keep = null;
  for (let i = 0; i < 200000; i++) keep = { i, next: i % 1000 === 0 ? null : keep };
  return keep !== null;
}

// Entries deleted by a callback are still handed to it.
const m = new Map([[{ k: 1 }, { v: "one" }], [{ k: 2 }, { v: "two" }]]);
m.forEach((v, k) => { m.clear(); churn(); console.log(k.k, v.v); });

// difference(): this's elements removed by has() are kept by the result.
const s = new Set([{ n: 1 }, { n: 2 }, { n: 3 }]);
const diff = s.difference({ size: 100, has(e) { s.clear(); churn(); return e.n === 2; }, keys() {} });
console.log([...diff].map((e) => e.n).join(","));

// The Map constructor's iterator and entries survive collections in next().
const entries = {
  [Symbol.iterator]() {
    let i = 0;
    return { next() { churn(); i++; return i > 3 ? { done: true } : { value: [{ i }, "v" + i], done: false }; } };
  },
};
const built = new Map(entries);
console.log([...built].map(([k, v]) => k.i + "=" + v).join(","));

// groupBy keeps groups alive across callbacks.
const groups = Map.groupBy([1, 2, 3, 4], (x) => { churn(); return x % 2 ? "odd" : "even"; });
console.log(JSON.stringify([...groups]));

// getOrInsertComputed: the key survives the callback.
const goi = new Map();
const v = goi.getOrInsertComputed({ key: true }, (k) => { churn(); return k.key; });
console.log(v, [...goi.keys()][0].key);
