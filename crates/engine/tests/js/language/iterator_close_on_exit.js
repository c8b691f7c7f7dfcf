// Leaving a for-of or for-await loop by break, continue or return closes the iterator once:
// an error from `return` (or a non-object result) leaves the loop without closing it again,
// and for-await awaits what `return` gives, on normal and throw completions alike.
const log = [];
function mk(ret) {
  return { [Symbol.iterator]() { return this; }, next() { return { value: 1, done: false }; }, return: ret };
}
try { for (const x of mk(() => 5)) break; } catch (e) { log.push("sync break: " + e.constructor.name); }
try { for (const x of mk(() => { throw new Error("ret"); })) break; } catch (e) { log.push("sync break throws: " + e.message); }
try { for (const x of mk(() => { throw new Error("ret"); })) throw new Error("body"); } catch (e) { log.push("sync body throws: " + e.message); }
outer: for (const y of [1, 2]) {
  try { for (const x of mk(() => 5)) continue outer; } catch (e) { log.push("continue outer: " + e.constructor.name); }
}
function f() { for (const x of mk(() => 5)) return 1; }
try { f(); } catch (e) { log.push("return: " + e.constructor.name); }
(async () => {
  const amk = (ret) => ({ [Symbol.asyncIterator]() { return this; }, next() { return Promise.resolve({ value: 1, done: false }); }, return: ret });
  try { for await (const x of amk(() => Promise.resolve(5))) break; } catch (e) { log.push("async awaited non-object: " + e.constructor.name); }
  try { for await (const x of amk(() => Promise.reject(new Error("rej")))) break; } catch (e) { log.push("async rejected: " + e.message); }
  try { for await (const x of amk(() => Promise.reject(new Error("rej")))) throw new Error("body"); } catch (e) { log.push("async body throws: " + e.message); }
  let order = [];
  try {
    for await (const x of amk(() => { order.push("ret"); return new Promise(r => setTimeout(() => { order.push("settled"); r({}); }, 5)); })) throw new Error("b");
  } catch (e) { order.push("caught " + e.message); }
  log.push(order.join(">"));
  async function g() { for await (const x of amk(() => ({ then(r) { log.push("thenable"); r({}); } }))) return 7; }
  log.push("g " + await g());
  console.log(log.join("\n"));
})();
