// Proxy.revocable: the result object, the revoke function, and every operation on a
// revoked proxy.
function t(label, f) {
  try {
    console.log(label, "ok", String(f()));
  } catch (e) {
    console.log(label, e.constructor.name + ": " + e.message);
  }
}
const r = Proxy.revocable({ a: 1 }, {});
console.log(Object.keys(r).join(), Object.getPrototypeOf(r) === Object.prototype);
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(r, "proxy")), typeof r.revoke);
console.log(JSON.stringify(r.revoke.name), r.revoke.length, "prototype" in r.revoke);
console.log(r.proxy.a);
console.log(r.revoke(), r.revoke());
const p = r.proxy;
t("get", () => p.a);
t("set", () => { p.a = 1; });
t("has", () => "a" in p);
t("delete", () => delete p.a);
t("ownKeys", () => Reflect.ownKeys(p));
t("getPrototypeOf", () => Reflect.getPrototypeOf(p));
t("setPrototypeOf", () => Reflect.setPrototypeOf(p, null));
t("isExtensible", () => Reflect.isExtensible(p));
t("preventExtensions", () => Reflect.preventExtensions(p));
t("getOwnPropertyDescriptor", () => Reflect.getOwnPropertyDescriptor(p, "a"));
t("defineProperty", () => Reflect.defineProperty(p, "a", {}));
t("isArray", () => Array.isArray(p));
t("typeof", () => typeof p);
t("as prototype", () => Object.create(p).a);

const f = Proxy.revocable(function () { return 1; }, {});
console.log(f.proxy());
f.revoke();
t("apply", () => f.proxy());
t("construct", () => new f.proxy());
t("typeof function", () => typeof f.proxy);

// A revoked proxy may still be used as a target or handler; using the new proxy throws.
const dead = Proxy.revocable({}, {});
dead.revoke();
const outer = new Proxy(dead.proxy, {});
t("outer get", () => outer.x);
const viaHandler = new Proxy({}, dead.proxy);
t("revoked handler", () => viaHandler.x);

// Revoking from inside a trap: the trap's own operation finishes.
const self = Proxy.revocable({ v: 5 }, {
  get(target, key) {
    self.revoke();
    return target[key];
  },
});
t("revoke inside trap", () => self.proxy.v);
t("after", () => self.proxy.v);

// Revoke functions of two proxies are independent.
const a = Proxy.revocable({ n: "a" }, {});
const b = Proxy.revocable({ n: "b" }, {});
a.revoke();
t("other alive", () => b.proxy.n);
try { new b.revoke(); } catch (e) { console.log("revoke is not a constructor", e.constructor.name); }
