// Recursion through a builtin reaches past 10,000 frames, then a RangeError.
// exit: 0
// stdout: RangeError 10000+
let n = 0;
const E = require("events"); const e = new E(); e.on("x", () => { n++; e.emit("x"); }); const f = () => e.emit("x");
try { f(); } catch (e) { console.log(e.constructor.name, n >= 10000 ? '10000+' : n); }
