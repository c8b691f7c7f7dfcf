// The Proxy constructor: shape, new-only, no prototype, and what ProxyCreate copies.
console.log(typeof Proxy, Proxy.name, Proxy.length, Object.getOwnPropertyNames(Proxy).sort().join());
console.log("prototype" in Proxy, Object.getPrototypeOf(Proxy) === Function.prototype);
const d = Object.getOwnPropertyDescriptor(globalThis, "Proxy");
console.log(d.writable, d.enumerable, d.configurable);
const rd = Object.getOwnPropertyDescriptor(Proxy, "revocable");
console.log(typeof rd.value, rd.writable, rd.enumerable, rd.configurable, Proxy.revocable.length, Proxy.revocable.name);
for (const f of [() => Proxy({}, {}), () => Proxy.call({}, {}, {}), () => new Proxy.revocable({}, {})]) {
  try { f(); console.log("no throw"); } catch (e) { console.log(e.constructor.name); }
}
// new.target may be any constructor; the result is still a proxy of the target.
try { class Sub extends Proxy {} } catch (e) { console.log("extends Proxy:", e.constructor.name); }
const viaReflect = Reflect.construct(Proxy, [{ w: 2 }, {}], Object);
console.log(viaReflect.w);
// Callability and constructability come from the target at creation time.
console.log(typeof new Proxy(function () {}, {}), typeof new Proxy(Math.max, {}), typeof new Proxy({}, {}));
try { new (new Proxy(Math.max, {}))(); } catch (e) { console.log("new on non-constructor:", e.constructor.name); }
console.log(new (new Proxy(Date, {}))(0).getTime());
console.log(new Proxy(Math.max, {})(1, 5, 3));
// A proxy target or handler may be any object, including functions, arrays and proxies.
const nested = new Proxy(new Proxy([1, 2, 3], {}), new Proxy({}, {}));
console.log(nested.length, Array.isArray(nested), nested[1]);
const fnHandler = function () {};
fnHandler.get = () => 42;
console.log(new Proxy({}, fnHandler).x);
