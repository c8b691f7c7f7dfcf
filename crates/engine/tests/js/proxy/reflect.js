// The Reflect namespace: shape, argument checks, and each function's behaviour.
function t(label, f) {
  try {
    console.log(label, "ok", f());
  } catch (e) {
    console.log(label, e.constructor.name + ": " + e.message);
  }
}
console.log(typeof Reflect, Object.prototype.toString.call(Reflect), Object.getPrototypeOf(Reflect) === Object.prototype);
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Reflect")) === '{"value":{},"writable":true,"enumerable":false,"configurable":true}');
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(Reflect, Symbol.toStringTag)));
for (const name of Object.getOwnPropertyNames(Reflect).sort()) {
  const f = Reflect[name];
  const d = Object.getOwnPropertyDescriptor(Reflect, name);
  console.log(name, f.name, f.length, d.writable, d.enumerable, d.configurable, "prototype" in f);
}
const kind = (label, f) => { try { f(); console.log(label, "ok"); } catch (e) { console.log(label, e.constructor.name); } };
kind("Reflect()", () => Reflect());
kind("new Reflect.get", () => new Reflect.get({}, "a"));

// apply
t("apply", () => Reflect.apply(Math.max, null, [1, 3, 2]));
t("apply this", () => Reflect.apply(function () { return this.v; }, { v: 7 }, []));
t("apply array-like", () => Reflect.apply((...a) => a.join("|"), null, { length: 3, 0: "x", 2: "z" }));
t("apply non-callable", () => Reflect.apply(1));
t("apply null", () => Reflect.apply(null));
t("apply object", () => Reflect.apply({}));
t("apply string", () => Reflect.apply("abc"));
t("apply no list", () => Reflect.apply(function () {}, null));
t("apply primitive list", () => Reflect.apply(function () {}, null, 1));

// construct
class A { constructor(x) { this.x = x; this.nt = new.target; } }
class B {}
t("construct", () => new A(1).x + Reflect.construct(A, [2]).x);
t("construct newTarget", () => { const o = Reflect.construct(A, [3], B); return [o.x, o.nt === B, o instanceof B].join(); });
t("construct non-constructor", () => Reflect.construct(1, []));
kind("construct arrow", () => Reflect.construct(() => {}, []));
t("construct bad newTarget", () => Reflect.construct(A, [], 1));
t("construct undefined newTarget", () => Reflect.construct(A, [], undefined));
kind("construct newTarget arrow", () => Reflect.construct(A, [], () => {}));
kind("construct newTarget method", () => Reflect.construct(A, [], { m() {} }.m));
t("construct no list", () => Reflect.construct(A));
t("construct Date", () => Reflect.construct(Date, [0]) instanceof Date);

// defineProperty / getOwnPropertyDescriptor
const o = {};
t("defineProperty", () => Reflect.defineProperty(o, "x", { value: 1 }));
t("gopd", () => JSON.stringify(Reflect.getOwnPropertyDescriptor(o, "x")));
t("defineProperty redefine", () => Reflect.defineProperty(o, "x", { value: 2 }));
t("defineProperty same", () => Reflect.defineProperty(o, "x", { value: 1 }));
t("defineProperty accessor", () => { Reflect.defineProperty(o, "g", { get() { return 5; }, enumerable: true }); return o.g; });
t("gopd accessor", () => { const d = Reflect.getOwnPropertyDescriptor(o, "g"); return Object.keys(d).join() + " " + typeof d.get + " " + d.set; });
t("gopd missing", () => Reflect.getOwnPropertyDescriptor(o, "nope"));
t("defineProperty key conversion", () => { Reflect.defineProperty(o, { toString() { return "k"; } }, { value: "v" }); return o.k; });
t("defineProperty non-object", () => Reflect.defineProperty(1, "x", {}));
t("defineProperty bad descriptor", () => Reflect.defineProperty({}, "x", 1));
t("defineProperty bad getter", () => Reflect.defineProperty({}, "x", { get: 1 }));
t("defineProperty bad setter", () => Reflect.defineProperty({}, "x", { set: "s" }));
t("defineProperty mixed", () => Reflect.defineProperty({}, "x", { get() {}, writable: true }));
t("gopd non-object", () => Reflect.getOwnPropertyDescriptor("s", "length"));
const order = [];
const descProxy = new Proxy({ value: 1, writable: true, enumerable: true, configurable: true, get: undefined }, {
  has(t, k) { order.push("has " + k); return Reflect.has(t, k); },
  get(t, k) { order.push("get " + k); return Reflect.get(t, k); },
});
t("descriptor read order", () => { try { Reflect.defineProperty({}, "q", descProxy); } catch (e) { order.push(e.constructor.name); } return order.join(", "); });
t("array length", () => { const a = [1, 2, 3]; return Reflect.defineProperty(a, "length", { value: 1 }) + " " + a.length; });
t("non-extensible", () => Reflect.defineProperty(Object.preventExtensions({}), "x", { value: 1 }));

// deleteProperty
t("deleteProperty", () => { const d = { a: 1 }; return Reflect.deleteProperty(d, "a") + " " + ("a" in d); });
t("deleteProperty frozen", () => Reflect.deleteProperty(Object.freeze({ a: 1 }), "a"));
t("deleteProperty missing", () => Reflect.deleteProperty({}, "a"));
t("deleteProperty non-object", () => Reflect.deleteProperty(1, "a"));

// get / set with receivers
const withAccessors = {
  get who() { return this.name; },
  set who(v) { this.name = "set:" + v; },
  name: "base",
};
const recv = { name: "receiver" };
t("get", () => Reflect.get({ a: 1 }, "a"));
t("get receiver", () => Reflect.get(withAccessors, "who", recv));
t("get default receiver", () => Reflect.get(withAccessors, "who"));
t("get array index", () => Reflect.get([5, 6], 1));
t("get string key number", () => Reflect.get({ 1: "one" }, 1));
t("get symbol", () => Reflect.get({ [Symbol.for("s")]: 3 }, Symbol.for("s")));
t("get non-object", () => Reflect.get("str", "length"));
t("set", () => { const s = {}; return Reflect.set(s, "a", 1) + " " + s.a; });
t("set receiver", () => { Reflect.set(withAccessors, "who", "x", recv); return recv.name + " " + withAccessors.name; });
t("set data receiver", () => { const r = {}; const tgt = { a: 1 }; Reflect.set(tgt, "a", 2, r); return tgt.a + " " + r.a; });
t("set frozen", () => Reflect.set(Object.freeze({ a: 1 }), "a", 2));
t("set non-object receiver", () => Reflect.set({ a: 1 }, "a", 2, 5));
t("set no value", () => { const s = {}; Reflect.set(s, "u"); return "u" in s && s.u === undefined; });
t("set non-object", () => Reflect.set(1, "a", 2));
t("set array length", () => { const a = [1, 2, 3]; return Reflect.set(a, "length", 0) + " " + a.length; });

// has
t("has", () => Reflect.has({ a: 1 }, "a") + " " + Reflect.has({}, "toString") + " " + Reflect.has({}, "zz"));
t("has array", () => Reflect.has([1], 0) + " " + Reflect.has([1], "length"));
t("has non-object", () => Reflect.has("s", "length"));

// prototypes and extensibility
const proto = {};
const child = Object.create(proto);
t("getPrototypeOf", () => Reflect.getPrototypeOf(child) === proto);
t("getPrototypeOf null", () => Reflect.getPrototypeOf(Object.create(null)));
t("getPrototypeOf non-object", () => Reflect.getPrototypeOf(1));
t("setPrototypeOf", () => Reflect.setPrototypeOf(child, null) + " " + Reflect.getPrototypeOf(child));
t("setPrototypeOf cycle", () => Reflect.setPrototypeOf(proto, child) + " " + Reflect.setPrototypeOf(Object.prototype, {}));
t("setPrototypeOf self cycle", () => { const x = {}; const y = Object.create(x); return Reflect.setPrototypeOf(x, y); });
t("setPrototypeOf non-extensible", () => Reflect.setPrototypeOf(Object.preventExtensions({}), {}));
t("setPrototypeOf same non-extensible", () => Reflect.setPrototypeOf(Object.preventExtensions({}), Object.prototype));
t("setPrototypeOf bad proto", () => Reflect.setPrototypeOf({}, 1));
t("setPrototypeOf undefined proto", () => Reflect.setPrototypeOf({}));
t("setPrototypeOf non-object", () => Reflect.setPrototypeOf(1, null));
t("isExtensible", () => Reflect.isExtensible({}) + " " + Reflect.isExtensible(Object.freeze({})));
t("isExtensible non-object", () => Reflect.isExtensible(1));
t("preventExtensions", () => { const x = {}; return Reflect.preventExtensions(x) + " " + Reflect.isExtensible(x); });
t("preventExtensions non-object", () => Reflect.preventExtensions(1));

// ownKeys: indices ascending, then strings, then symbols, in creation order.
const s1 = Symbol("s1");
const keyed = { b: 1, [s1]: 2, 2: 3, a: 4, 1: 5 };
t("ownKeys", () => Reflect.ownKeys(keyed).map(String).join());
t("ownKeys array", () => Reflect.ownKeys([7, 8]).join());
t("ownKeys non-enumerable", () => Reflect.ownKeys(Object.defineProperty({}, "h", { value: 1 })).join());
t("ownKeys non-object", () => Reflect.ownKeys(1));
t("ownKeys fresh array", () => { const k1 = Reflect.ownKeys({}); return Array.isArray(k1) && k1 !== Reflect.ownKeys({}); });
