// Every trap is called with the spec's arguments, and a handler without a trap forwards
// to the target.
const log = [];
const target = function (a, b) { return a + b; };
target.a = 1;
let proxy;
function show(v) {
  if (v === target) return "target";
  if (v === proxy) return "proxy";
  if (typeof v === "symbol") return v.toString();
  if (typeof v === "function") return "function";
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return String(v);
}
// The handler is itself a proxy: every trap lookup goes through its get trap.
const handler = new Proxy({}, {
  get(_, trap) {
    return function (...args) {
      log.push(trap + "(" + args.map(show).join(", ") + ")");
      return Reflect[trap](...args);
    };
  },
});
proxy = new Proxy(target, handler);
function run(label, f) {
  log.length = 0;
  let r;
  try { r = show(f()); } catch (e) { r = e.name + ": " + e.message; }
  console.log(label, "->", r);
  for (const l of log) console.log("   ", l);
}
run("get", () => proxy.a);
run("get symbol", () => proxy[Symbol.iterator]);
run("get index", () => proxy[0]);
run("set", () => (proxy.b = 2));
run("has", () => "b" in proxy);
run("delete", () => delete proxy.b);
run("defineProperty", () => Object.defineProperty(proxy, "c", { value: 3, writable: true, enumerable: false, configurable: true }) === proxy);
run("getOwnPropertyDescriptor", () => Object.getOwnPropertyDescriptor(proxy, "c"));
run("getPrototypeOf", () => Object.getPrototypeOf(proxy) === Function.prototype);
run("setPrototypeOf", () => Object.setPrototypeOf(proxy, Function.prototype) === proxy);
run("isExtensible", () => Object.isExtensible(proxy));
run("apply", () => proxy(2, 3));
run("apply with this", () => proxy.call("t", 4, 5));
run("construct", () => typeof new proxy(1));
run("ownKeys", () => Reflect.ownKeys(proxy).filter((k) => k === "a" || k === "c"));
run("preventExtensions", () => Object.preventExtensions(proxy) === proxy);
run("isExtensible after", () => Object.isExtensible(proxy));

// No traps at all: everything reaches the target.
const t2 = { x: 1 };
const p2 = new Proxy(t2, {});
p2.y = 2;
console.log(t2.y, p2.x, "x" in p2, delete p2.x, "x" in t2, Object.keys(p2).join());
console.log(typeof p2, typeof new Proxy(function () {}, {}), typeof new Proxy(class {}, {}));
console.log(Array.isArray(new Proxy([], {})), Array.isArray(new Proxy({}, {})));

// Receiver: a proxy on the prototype chain sees the original receiver.
const seen = [];
const protoProxy = new Proxy({}, {
  get(t, k, r) { seen.push(["get", String(k), r === child]); return k === "hello" ? "world" : undefined; },
  set(t, k, v, r) { seen.push(["set", String(k), v, r === child]); return Reflect.set(t, k, v, r); },
  has(t, k) { seen.push(["has", String(k)]); return k === "hello"; },
});
const child = Object.create(protoProxy);
console.log(child.hello, "hello" in child, "nope" in child);
child.z = 9;
console.log(Object.getOwnPropertyNames(child).join(), JSON.stringify(seen));

// Traps get the handler as `this`.
const h3 = { get(t, k) { return this === h3 ? "handler-this" : "wrong"; } };
console.log(new Proxy({}, h3).anything);

// Trap keys: numbers arrive as strings, symbols as themselves.
const keys = [];
const p4 = new Proxy({}, { get(t, k) { keys.push(typeof k + ":" + String(k)); return 1; } });
p4[1]; p4["01"]; p4[1.5]; p4[-0]; p4[Symbol.for("s")];
console.log(keys.join(" "));

// apply and construct receive an array of the arguments and new.target.
const p5 = new Proxy(function () {}, {
  apply(t, self, args) { return [self === undefined, Array.isArray(args), args.length].join(); },
  construct(t, args, nt) { return { nt: nt === p5, args: args.join("+") }; },
});
console.log(p5(1, 2, 3), JSON.stringify(new p5(7, 8)));
class Base {}
const P6 = new Proxy(Base, {});
class Derived extends P6 {}
console.log(new Derived() instanceof Base, Object.getPrototypeOf(new Derived()) === Derived.prototype);
console.log(Reflect.construct(P6, [], Derived) instanceof Derived);
