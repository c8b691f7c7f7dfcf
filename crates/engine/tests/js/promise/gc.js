// Promise state held in reactions, capabilities and element functions survives collections.
function churn() {
  let keep = null;
  for (let i = 0; i < 200000; i++) keep = { i, next: i % 1000 === 0 ? null : keep };
  return keep !== null;
}

let p = Promise.resolve({ n: 0 });
for (let i = 1; i <= 3; i++) p = p.then((o) => { churn(); return { n: o.n + i }; });
p.then((o) => console.log("chain", o.n));

Promise.all([1, 2, 3].map((n) => Promise.resolve().then(() => { churn(); return { n }; })))
  .then((xs) => console.log("all", xs.map((x) => x.n).join(",")));

Promise.resolve({ kept: "finally value" }).finally(() => churn()).then((o) => console.log(o.kept));

new Promise((resolve) => { churn(); resolve({ then(r) { churn(); r("thenable value"); } }); }).then((v) => console.log(v));

(async () => {
  const o = { label: "async local" };
  await null;
  churn();
  await Promise.resolve();
  console.log(o.label);
})();
