// util.inspect of objects and arrays a million levels deep with depth: Infinity stops where
// node's stack does, and says so in place; never a native stack overflow.
// exit: 0
// stdout: true
const util = require('util');
let o = {};
for (let i = 0; i < 1e6; i++) o = { next: o };
let s = util.inspect(o, { depth: Infinity });
console.log(s.startsWith('{\n  next: {') && s.includes('[Object: Inspection interrupted prematurely. Maximum call stack size exceeded.]'));
let a = [];
for (let i = 0; i < 1e6; i++) a = [a];
s = util.inspect(a, { depth: Infinity });
console.log(s.startsWith('[\n  [') && s.includes('[Array: Inspection interrupted prematurely. Maximum call stack size exceeded.]'));
let m = new Map();
for (let i = 0; i < 1e5; i++) m = new Map([[i, m]]);
s = util.inspect(m, { depth: Infinity });
console.log(s.startsWith('Map(1) {') && s.includes('[Map: Inspection interrupted prematurely. Maximum call stack size exceeded.]'));
