// Long chains of proxies must not overflow the native stack: trap-less forwarding loops,
// and whatever still nests ends in a RangeError, never a crash. Node overflows its stack on
// some of these where Amber succeeds, so each line accepts either outcome.
function attempt(f) {
  try {
    return f();
  } catch (e) {
    return e instanceof RangeError ? "range" : e.constructor.name + ": " + e.message;
  }
}
function chain(n, handler) {
  let p = { x: 1, f() { return "called"; } };
  for (let i = 0; i < n; i++) p = new Proxy(p, handler);
  return p;
}
const long = chain(1e6, {});
let r = attempt(() => long.x);
console.log("get", r === 1 || r === "range");
r = attempt(() => "x" in long);
console.log("has", r === true || r === "range");
r = attempt(() => { long.y = 2; return long.y; });
console.log("set", r === 2 || r === "range");
r = attempt(() => Object.keys(long).join());
console.log("keys", r === "x,f,y" || r === "x,f" || r === "range");
r = attempt(() => Object.getPrototypeOf(long) === Object.prototype);
console.log("getPrototypeOf", r === true || r === "range");

let fn = function () { return "called"; };
for (let i = 0; i < 1e6; i++) fn = new Proxy(fn, {});
r = attempt(() => fn());
console.log("call", r === "called" || r === "range");

// Every level has a trap whose invariant check reaches the next level.
const trapped = chain(1e5, { getOwnPropertyDescriptor(t, k) { return Reflect.getOwnPropertyDescriptor(t, k); } });
r = attempt(() => JSON.stringify(Object.getOwnPropertyDescriptor(trapped, "x")));
console.log("trapped", r === '{"value":1,"writable":true,"enumerable":true,"configurable":true}' || r === "range");

// Proxies and ordinary objects alternating on a prototype chain.
let alt = { deep: "bottom" };
for (let i = 0; i < 1e5; i++) alt = Object.create(new Proxy(alt, {}));
r = attempt(() => alt.deep);
console.log("alternating", r === "bottom" || r === "range");

// Moderate chains work everywhere (nested trap calls are bounded by the interpreter's
// re-entry limit, so that chain stays short).
const short = chain(1000, {});
console.log(short.x, short.f(), "x" in short, Object.keys(short).join());
const trappedShort = chain(100, { get(t, k, rcv) { return k === "x" ? Reflect.get(t, k, rcv) + 1 : Reflect.get(t, k, rcv); } });
console.log(trappedShort.x);
