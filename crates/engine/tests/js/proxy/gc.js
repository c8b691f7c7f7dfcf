// Values a proxy operation holds in Rust (target, handler, trap results, fresh keys) stay
// alive while traps allocate enough to trigger collections.
function churn() {
  let keep = null;
  for (let i = 0; i < 300000; i++) keep = { i, next: i % 1000 === 0 ? null : keep };
  return keep !== null;
}

// The get trap revokes its own proxy and drops every other reference to the target, then
// the invariant check still reads the (frozen) target.
let r = Proxy.revocable(Object.freeze({ a: "frozen value" }), {
  get(t, k) {
    r.revoke();
    r = null;
    churn();
    return "frozen value";
  },
});
const p = r.proxy;
console.log(p.a);

// ownKeys returns symbols held only by the trap result; the invariant checks run further
// traps that allocate.
const target = Object.preventExtensions({});
let returned = 0;
const syms = new Proxy(target, {
  ownKeys() {
    returned++;
    return [];
  },
  getOwnPropertyDescriptor(t, k) {
    churn();
    return undefined;
  },
});
console.log(Reflect.ownKeys(syms).length, returned);
const fresh = new Proxy({}, {
  ownKeys() {
    return [Symbol("one"), Symbol("two"), "s"];
  },
});
const keys = Reflect.ownKeys(fresh);
churn();
console.log(keys.map(String).join());

// A descriptor built from getters that allocate.
const desc = {
  get value() { churn(); return { note: "value survived" }; },
  get enumerable() { churn(); return true; },
  configurable: true,
  writable: true,
};
const o = {};
Reflect.defineProperty(o, "k", desc);
churn();
console.log(o.k.note, Object.keys(o).join());

// apply and construct traps receive argument arrays created by the proxy.
const f = new Proxy(function () {}, {
  apply(t, self, args) { churn(); return args.map((a) => a.tag).join(); },
  construct(t, args) { churn(); return { tags: args.map((a) => a.tag).join() }; },
});
console.log(f({ tag: "a" }, { tag: "b" }), new f({ tag: "c" }).tags);
console.log(Reflect.apply(f, null, [{ tag: "d" }]), Reflect.construct(f, [{ tag: "e" }]).tags);

// The outer proxy's target is a proxy that only the outer operation still holds: the has
// trap revokes the outer proxy, and the target's own trap drops the last JS reference and
// allocates. The invariant check then asks the same target whether it is extensible.
const events = [];
let inner = new Proxy({}, {
  getOwnPropertyDescriptor(t, k) {
    inner = null;
    churn();
    return { value: 1, configurable: true };
  },
  isExtensible(t) {
    events.push("inner isExtensible");
    return true;
  },
});
let outer = Proxy.revocable(inner, {
  has(t, k) {
    outer.revoke();
    outer = null;
    return false;
  },
});
const viaOuter = outer.proxy;
console.log("x" in viaOuter, events.join());
