// JSON.stringify: types, toJSON, replacer function/array, space, wrappers, cycles, BigInt,
// well-formed output, key order and getters.
const log = (...a) => console.log(a.map(String).join(" "));
const j = JSON.stringify;

log(j(1), j(-0), j(NaN), j(Infinity), j("s"), j(true), j(null), j(undefined), j(() => 1), j(Symbol()), j([undefined, () => 1, Symbol()]), j({ a: undefined, b: () => 1, c: Symbol(), [Symbol()]: 1 }));
log(j(new Number(3)), j(new String("x")), j(new Boolean(false)), j(Object(Symbol())), j([new Date(0)]), j({ toJSON(k) { return "key:" + k; } }), j({ x: { toJSON(k) { return k + "!"; } } }));
log(j("\ud800\udc00\ud800x\udc00"), j("\u2028\u0007\u001f\u007f"), j("\b\f\n\r\t\"\\/"), j({ "a\nb": 1, "\ud800": 2 }));
log(j({ b: 1, 2: 1, a: 1, 1: 1 }), j([1, [2, [3, {}]], []]), j({}), j([]), j(Object.create({ inherited: 1 })), j(Object.defineProperty({}, "hidden", { value: 1 })));
log(j({ a: [1, { b: 2 }], c: "x" }, null, 2));
log(j([1, [2, []], {}], null, "--"), j({ a: 1 }, null, "0123456789ABC"), j({ a: [1] }, null, 20), j({ a: 1 }, null, -5), j({ a: 1 }, null, ""), j({ a: 1 }, null, new Number(1)), j({ a: 1 }, null, new String("\t")), j([], null, 2), j({}, null, 2));
log(j({ a: 1, b: 2, c: { a: 3, d: 4 } }, ["a", "c", "a", 1]), j([{ 1: "one", x: 2 }], [1, new String("x"), new Number(5), {}]), j({ a: 1 }, "not a function"));
const calls = [];
log(j({ a: 1, b: [2, 3] }, function (k, v) { calls.push(`${k === "" ? "(root)" : k}:${Array.isArray(this) ? "arr" : typeof this}`); return typeof v === "number" ? v + 100 : v; }), calls.join(" "));
log(j({ a: 1, b: 2 }, (k, v) => (k === "a" ? undefined : v)), j([1, 2], (k, v) => (k === "0" ? undefined : v)));
try { j(5, (k, v) => [v]); } catch (e) { log(e.constructor.name, e.message); }
const cyc = { name: "c" }; cyc.self = cyc;
try { j(cyc); } catch (e) { log(e.constructor.name, e.message.split("\n")[0]); }
const arr = [1]; arr.push([arr]);
try { j(arr); } catch (e) { log(e.constructor.name, e.message.split("\n")[0]); }
const shared = { v: 1 };
log(j({ a: shared, b: shared, c: [shared, shared] }));
try { j({ n: 1n }); } catch (e) { log(e.constructor.name, e.message); }
BigInt.prototype.toJSON = function () { return this.toString() + "n"; };
log(j({ n: 1n, m: [2n] }), j(Object(3n)));
delete BigInt.prototype.toJSON;
const getters = { get a() { return "got"; }, b: 1 };
log(j(getters));
let deep = []; for (let i = 0; i < 1000; i++) deep = [deep];
log(j(deep).length);
const order = [];
const tracked = new Proxy({ x: 1, y: 2 }, { ownKeys(t) { order.push("ownKeys"); return Reflect.ownKeys(t); }, getOwnPropertyDescriptor(t, k) { order.push("gopd:" + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); }, get(t, k) { order.push("get:" + String(k)); return Reflect.get(t, k); } });
log(j(tracked), order.join(" "));
log(j([1, 2], null, 1), j(JSON.stringify.length), JSON.stringify.name);
