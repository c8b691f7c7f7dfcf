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
// Filled from the top down, then overwritten in order: one key per index, values as written.
var down = [];
for (var k = 5; k >= 0; k--) down[k] = "v" + k;
for (var k = 0; k < 6; k++) down[k] = down[k] + "!";
down.extra = 1;
down[6] = "v6";
console.log(Object.keys(down).join(), down.length, JSON.stringify(down));
var mixed = [];
mixed[2] = 2;
Object.defineProperty(mixed, 1, { value: 1, writable: false, enumerable: true, configurable: true });
mixed[0] = 0;
mixed[1] = "no";
mixed[2] = "yes";
console.log(Object.keys(mixed).join(), JSON.stringify(mixed), Object.getOwnPropertyDescriptor(mixed, "1").writable);
