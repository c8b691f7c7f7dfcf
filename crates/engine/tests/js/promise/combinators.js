// Promise.all / allSettled / any / race.
const log = (...a) => console.log(a.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join(" "));
// Settles after `ticks` microtask turns (no timers needed).
const delay = (v, ticks, fail) => {
  let p = Promise.resolve();
  for (let i = 0; i < ticks; i++) p = p.then(() => {});
  return p.then(() => (fail ? Promise.reject(v) : v));
};

async function main() {
  log(await Promise.all([1, Promise.resolve(2), delay(3, 5), { then(r) { r(4); } }]));
  log(await Promise.all([]));
  log(await Promise.all("ab"));
  log(await Promise.all(new Set([delay("x", 2), "y"])));
  try { await Promise.all([1, delay(new Error("all fail"), 1, true), delay(3, 20)]); } catch (e) { log("all rejected:", e.message); }

  log(await Promise.allSettled([1, Promise.reject("no"), delay("late", 3)]));
  log(await Promise.allSettled([]));

  log(await Promise.any([Promise.reject(1), delay("second", 3), delay("first", 1)]));
  try { await Promise.any([Promise.reject("r1"), delay("r2", 1, true)]); } catch (e) {
    log(e.constructor.name, e.message, e.errors, Object.getOwnPropertyDescriptor(e, "errors").enumerable, e instanceof AggregateError);
  }
  try { await Promise.any([]); } catch (e) { log(e.constructor.name, e.errors); }

  log(await Promise.race([delay("slow", 10), delay("fast", 1)]));
  try { await Promise.race([delay("slow", 10), delay("fast-fail", 1, true)]); } catch (e) { log("race rejected:", e); }
  const never = Promise.race([]);
  let settled = false;
  never.then(() => { settled = true; });
  await delay(0, 5);
  log("race([]) settled:", settled);

  // Non-iterables reject (they do not throw synchronously).
  const p = Promise.all(5);
  log(p instanceof Promise);
  try { await p; } catch (e) { log(e.constructor.name, e.message); }
  try { await Promise.allSettled(); } catch (e) { log(e.constructor.name, e.message); }

  // Iterator closing when resolve throws; iterator errors reject without closing.
  const iter = (values, hooks = {}) => ({
    [Symbol.iterator]() {
      let i = 0;
      return {
        next() { if (hooks.nextThrows && i === 1) throw new Error("next threw"); return i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true }; },
        return() { log("iterator closed"); return {}; },
      };
    },
  });
  const OrigResolve = Promise.resolve;
  Promise.resolve = function (v) { if (v === "bad") throw new Error("resolve threw"); return OrigResolve.call(this, v); };
  try { await Promise.all(iter(["ok", "bad", "unused"])); } catch (e) { log("all:", e.message); }
  Promise.resolve = OrigResolve;
  try { await Promise.race(iter([1, 2], { nextThrows: true })); } catch (e) { log("race:", e.message); }

  // Promise.resolve lookup happens once, before iterating.
  let lookups = 0;
  const P2 = class extends Promise {};
  Object.defineProperty(P2, "resolve", { configurable: true, get() { lookups++; return Promise.resolve.bind(this); } });
  await P2.all([1, 2, 3]);
  log("resolve lookups", lookups);
  Object.defineProperty(P2, "resolve", { value: 1 });
  try { await P2.all([1]); } catch (e) { log(e.constructor.name); }

  // Element functions are single-shot.
  let captured;
  const thenable = { then(res) { captured = res; res("once"); } };
  const r = await Promise.all([thenable]);
  captured("twice");
  log(r);
}
main().then(() => log("done"));
