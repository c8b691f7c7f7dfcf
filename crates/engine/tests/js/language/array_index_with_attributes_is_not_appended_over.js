// An array index defined with non-default attributes lives outside the dense elements:
// assignment must respect it (writable: false, accessors), not append a second copy.
var arrObj = [];
Object.defineProperty(arrObj, 0, { value: "own", configurable: false });
console.log(Object.getOwnPropertyDescriptor(arrObj, "0"));
arrObj[0] = "changed";
console.log(arrObj[0]);
var o = {};
Object.defineProperty(o, "x", { value: 1, configurable: false });
console.log(Object.getOwnPropertyDescriptor(o, "x"));
var a2 = [1,2];
Object.defineProperty(a2, 1, { writable: false });
console.log(Object.getOwnPropertyDescriptor(a2, "1"), Object.getOwnPropertyDescriptor(a2, "0"));
var frozen0 = [];
Object.defineProperty(frozen0, 0, { value: 1, writable: false, configurable: true });
try { (function () { "use strict"; frozen0[0] = 2; })(); } catch (e) { console.log(e.constructor.name); }
console.log(frozen0, frozen0.length);
var acc = [];
Object.defineProperty(acc, 0, { get() { return "got"; }, set(v) { console.log("set", v); }, configurable: true });
acc[0] = 5;
console.log(acc[0], acc.length);
