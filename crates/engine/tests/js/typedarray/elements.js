// Element conversions per type, and the integer-indexed exotic object behaviour.
const log = (...a) => console.log(a.map(String).join(" "));
const all = (T, values) => Array.from(new T(values)).map(String).join(",");
const vals = [0, -0, 1.5, -1.5, 2.5, 127, 128, 255, 256, -129, 65535, 65536, 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 5, NaN, Infinity, -Infinity, 1e-40];
for (const T of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array]) {
  log(T.name, all(T, vals));
}
log(Object.is(new Float64Array([-0])[0], -0), Object.is(new Float32Array([-0])[0], -0), Object.is(new Int8Array([-0])[0], 0));
log(all(Float32Array, [0.1, 1 / 3, 16777217, 3.4028235677973366e38, 3.4028236e38, 1e-46, 1.4e-45]));
const big = [0n, -1n, 2n ** 63n, 2n ** 64n, -(2n ** 63n) - 1n, 12345678901234567890n];
log(all(BigInt64Array, big));
log(all(BigUint64Array, big));

// Integer-indexed exotic objects.
const ta = new Uint8Array([10, 20, 30]);
ta[1] = 300; ta[5] = 1; ta[-1] = 2; ta["1.5"] = 3; ta["-0"] = 4; ta.foo = 5;
log(ta.join(), ta[5], ta[-1], ta["1.5"], ta["-0"], ta.foo);
log(1 in ta, 3 in ta, "-0" in ta, "1.5" in ta, "-1" in ta, "foo" in ta);
log(Object.keys(ta).join(), JSON.stringify(ta));
log(ta.hasOwnProperty(0), ta.hasOwnProperty(3), ta.hasOwnProperty("-0"));
Object.prototype[7] = "proto";
Object.prototype["-1"] = "proto";
log(ta[7], ta["-1"], 7 in ta);
delete Object.prototype[7];
delete Object.prototype["-1"];
const desc = Object.getOwnPropertyDescriptor(ta, 0);
log(desc.value, desc.writable, desc.enumerable, desc.configurable);
log(Object.getOwnPropertyDescriptor(ta, 9), Object.getOwnPropertyDescriptor(ta, "-0"));
log(Reflect.defineProperty(ta, 0, { value: 99 }), ta[0]);
log(Reflect.defineProperty(ta, 0, { value: 1, writable: false }), Reflect.defineProperty(ta, 0, { get() {} }));
log(Reflect.defineProperty(ta, 0, { value: 1, enumerable: false }), Reflect.defineProperty(ta, 0, { configurable: false }));
log(Reflect.defineProperty(ta, 3, { value: 1 }), Reflect.defineProperty(ta, "-0", { value: 1 }), ta[0]);
log(delete ta[0], delete ta[10], delete ta.foo, Reflect.deleteProperty(ta, 0));
log(Reflect.set(ta, 10, 1), Reflect.set(ta, 0, 77), ta[0]);
log(Reflect.ownKeys(new Int8Array(2)).join());
let conversions = 0;
const obj = { valueOf() { conversions++; return 9; } };
ta[100] = obj;
ta[0] = obj;
log(conversions, ta[0]);
log((() => { try { Object.freeze(new Uint8Array(1)); return "no error"; } catch (e) { return e.constructor.name; } })());
log(Object.isFrozen(Object.freeze(new Uint8Array(0))));
Object.preventExtensions(ta);
log(Object.isExtensible(ta), Reflect.set(ta, 1, 5), ta[1]);
const bi = new BigInt64Array(2);
bi[0] = 5n; bi[1] = "7";
log(bi[0], bi[1], typeof bi[0], Object.getOwnPropertyDescriptor(bi, 1).value);
log((() => { try { bi[0] = 1; return "no error"; } catch (e) { return e.constructor.name; } })());
// Receiver other than the array: an ordinary set on the receiver.
const recv = {};
log(Reflect.set(ta, 0, 1, recv), recv[0], Reflect.set(ta, 50, 1, recv), recv[50]);
const inherits = Object.create(new Uint8Array(2));
inherits[0] = 3; inherits[5] = 4;
log(Object.getPrototypeOf(inherits)[0], inherits.hasOwnProperty(0), inherits[5], inherits.hasOwnProperty(5));
