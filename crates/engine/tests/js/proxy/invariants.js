// Every invariant check of §10.5 throws a TypeError with V8's message.
function t(label, f) {
  try {
    console.log(label, "ok", String(f()));
  } catch (e) {
    console.log(label, e.constructor.name + ": " + e.message);
  }
}
const frozen = Object.freeze({ a: 1 });
const ne = Object.preventExtensions({ b: 2 });
const acc = {};
Object.defineProperty(acc, "g", { set(v) {}, configurable: false });
const acc2 = {};
Object.defineProperty(acc2, "g", { get() {}, configurable: false });
const nw = {};
Object.defineProperty(nw, "x", { value: 1, writable: true, configurable: false });

t("get frozen", () => new Proxy(frozen, { get() { return 2; } }).a);
t("get frozen same", () => new Proxy(frozen, { get() { return 1; } }).a);
t("get no getter", () => new Proxy(acc, { get() { return 2; } }).g);
t("get no getter undefined", () => new Proxy(acc, { get() { return undefined; } }).g);
t("get string value", () => new Proxy(Object.freeze({ s: "ab" + "c".repeat(2) }), { get() { return "abcc"; } }).s);
t("get NaN", () => new Proxy(Object.freeze({ n: NaN }), { get() { return NaN; } }).n);
t("get -0", () => new Proxy(Object.freeze({ n: 0 }), { get() { return -0; } }).n);

t("set frozen", () => Reflect.set(new Proxy(frozen, { set() { return true; } }), "a", 5));
t("set frozen same", () => Reflect.set(new Proxy(frozen, { set() { return true; } }), "a", 1));
t("set no setter", () => Reflect.set(new Proxy(acc2, { set() { return true; } }), "g", 5));
t("set falsish", () => Reflect.set(new Proxy({}, { set() { return 0; } }), "q", 5));

t("has frozen", () => "a" in new Proxy(frozen, { has() { return false; } }));
t("has non-extensible", () => "b" in new Proxy(ne, { has() { return false; } }));
t("has missing ok", () => "zz" in new Proxy(ne, { has() { return false; } }));

t("delete frozen", () => Reflect.deleteProperty(new Proxy(frozen, { deleteProperty() { return true; } }), "a"));
t("delete non-extensible", () => Reflect.deleteProperty(new Proxy(ne, { deleteProperty() { return true; } }), "b"));
t("delete falsish", () => Reflect.deleteProperty(new Proxy({}, { deleteProperty() { return ""; } }), "b"));

const gopd = (target, result, key) =>
  JSON.stringify(Object.getOwnPropertyDescriptor(new Proxy(target, { getOwnPropertyDescriptor() { return result; } }), key));
t("gopd primitive", () => gopd({}, 1, "x"));
t("gopd undefined non-configurable", () => gopd(frozen, undefined, "a"));
t("gopd undefined non-extensible", () => gopd(ne, undefined, "b"));
t("gopd undefined missing", () => gopd(ne, undefined, "zz"));
t("gopd new on non-extensible", () => gopd(ne, { value: 1, configurable: true }, "zz"));
t("gopd incompatible value", () => gopd(frozen, { value: 2, configurable: false }, "a"));
t("gopd non-configurable of configurable", () => gopd({ x: 1 }, { value: 1, configurable: false }, "x"));
t("gopd non-writable of writable", () => gopd(nw, { value: 1, writable: false, configurable: false }, "x"));
t("gopd completes", () => gopd({ x: 1 }, { configurable: true }, "x"));
t("gopd accessor completes", () => gopd({}, { get: undefined, configurable: true }, "x"));
t("gopd bad getter", () => gopd({}, { get: 1 }, "x"));
t("gopd mixed", () => gopd({}, { get() {}, value: 1 }, "x"));

const dp = (target, key, desc) => Reflect.defineProperty(new Proxy(target, { defineProperty() { return true; } }), key, desc);
t("define falsish", () => Reflect.defineProperty(new Proxy({}, { defineProperty() { return false; } }), "x", { value: 1 }));
t("define on non-extensible", () => dp(ne, "zz", { value: 1 }));
t("define non-configurable new", () => dp({}, "zz", { value: 1, configurable: false }));
t("define incompatible", () => dp(frozen, "a", { value: 3 }));
t("define non-configurable of configurable", () => dp({ y: 1 }, "y", { configurable: false }));
t("define non-writable", () => dp(nw, "x", { value: 1, writable: false, configurable: false }));
t("define compatible", () => dp(frozen, "a", { value: 1 }));

const ok = (target, result) => Reflect.ownKeys(new Proxy(target, { ownKeys() { return result; } })).map(String).join();
t("ownKeys primitive", () => ok({}, 1));
t("ownKeys number element", () => ok({}, [1]));
t("ownKeys undefined element", () => ok({}, { length: 1 }));
t("ownKeys duplicate", () => ok({}, ["a", "a"]));
t("ownKeys missing non-configurable", () => ok(frozen, []));
t("ownKeys extra on non-extensible", () => ok(ne, ["b", "c"]));
t("ownKeys missing on non-extensible", () => ok(ne, []));
t("ownKeys exact non-extensible", () => ok(ne, ["b"]));
t("ownKeys array-like", () => ok({}, { length: 2, 0: "p", 1: Symbol("q") }));
t("ownKeys extensible extra", () => ok({ a: 1 }, ["z", "a", "y"]));

t("getPrototypeOf primitive", () => Object.getPrototypeOf(new Proxy({}, { getPrototypeOf() { return 1; } })));
t("getPrototypeOf non-extensible", () => Object.getPrototypeOf(new Proxy(ne, { getPrototypeOf() { return null; } })));
t("getPrototypeOf non-extensible same", () => Object.getPrototypeOf(new Proxy(ne, { getPrototypeOf() { return Object.prototype; } })) === Object.prototype);
t("setPrototypeOf falsish", () => Reflect.setPrototypeOf(new Proxy({}, { setPrototypeOf() { return false; } }), null));
t("setPrototypeOf non-extensible", () => Reflect.setPrototypeOf(new Proxy(ne, { setPrototypeOf() { return true; } }), null));
t("setPrototypeOf non-extensible same", () => Reflect.setPrototypeOf(new Proxy(ne, { setPrototypeOf() { return true; } }), Object.prototype));

t("isExtensible lie", () => Object.isExtensible(new Proxy({}, { isExtensible() { return false; } })));
t("isExtensible lie 2", () => Object.isExtensible(new Proxy(ne, { isExtensible() { return 1; } })));
t("preventExtensions lie", () => Reflect.preventExtensions(new Proxy({}, { preventExtensions() { return true; } })));
t("preventExtensions falsish", () => Reflect.preventExtensions(new Proxy({}, { preventExtensions() { return false; } })));

t("construct non-object", () => new (new Proxy(function () {}, { construct() { return 1; } }))());
// The interpreter words these messages; only the kind is checked here.
const kind = (label, f) => { try { f(); console.log(label, "ok"); } catch (e) { console.log(label, e.constructor.name); } };
kind("construct non-constructor", () => new (new Proxy(() => {}, {}))());
kind("call non-callable", () => new Proxy({}, {})());
kind("construct revoked-style arrow", () => Reflect.construct(new Proxy(() => {}, {}), []));
t("trap not callable", () => new Proxy({}, { get: 1 }).x);
t("trap object", () => new Proxy({}, { get: {} }).x);
t("trap string", () => "x" in new Proxy({}, { has: "str" }));
t("trap null", () => new Proxy({ x: 4 }, { get: null }).x);
t("create primitive target", () => new Proxy(1, {}));
t("create primitive handler", () => new Proxy({}, null));
t("call Proxy", () => Proxy({}, {}));
