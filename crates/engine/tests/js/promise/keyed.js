// Promise.allKeyed / allSettledKeyed (proposal-await-dictionary). Node does not ship them
// yet: the expected output was produced with the small stand-in below; only results are
// printed, not tick-level ordering, so the stand-in's timing does not matter.
if (typeof Promise.allKeyed !== "function") {
  const keyed = (settled) => function (obj) {
    const keys = Reflect.ownKeys(obj).filter((k) => Object.getOwnPropertyDescriptor(obj, k).enumerable);
    const wrap = (p) => settled ? Promise.resolve(p).then((value) => ({ status: "fulfilled", value }), (reason) => ({ status: "rejected", reason })) : p;
    return Promise.all(keys.map((k) => wrap(obj[k]))).then((vals) => {
      const out = Object.create(null);
      keys.forEach((k, i) => { out[k] = vals[i]; });
      return out;
    });
  };
  Promise.allKeyed = keyed(false);
  Promise.allSettledKeyed = keyed(true);
}
const show = (o) => JSON.stringify(Object.fromEntries(Reflect.ownKeys(o).map((k) => [String(k), o[k]])));
const sym = Symbol("s");
const input = { b: Promise.resolve(2), a: 1, [sym]: Promise.resolve("sym"), 0: "zero" };
Object.defineProperty(input, "hidden", { value: Promise.reject(new Error("never awaited")), enumerable: false });
input.hidden.catch(() => {});
(async () => {
  const r = await Promise.allKeyed(input);
  console.log(Object.getPrototypeOf(r) === null, show(r));
  const s = await Promise.allSettledKeyed({ ok: Promise.resolve(1), bad: Promise.reject("no") });
  console.log(show(s));
  try { await Promise.allKeyed({ x: Promise.reject(new Error("first failure")), y: 1 }); } catch (e) { console.log(e.message); }
  try { await Promise.allKeyed(5); } catch (e) { console.log(e.constructor.name); }
  console.log(show(await Promise.allKeyed({})));
})();
