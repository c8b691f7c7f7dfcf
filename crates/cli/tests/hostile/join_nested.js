// Array.prototype.join over arrays nested a million deep: a RangeError.
// exit: 0
// stdout: RangeError
let a = [];
for (let i = 0; i < 1e6; i++) a = [a];
try { String(a); console.log('joined'); } catch (e) { console.log(e.name); }
