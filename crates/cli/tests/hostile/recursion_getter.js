// Recursion through a builtin reaches past 10,000 frames, then a RangeError.
// exit: 0
// stdout: RangeError 10000+
let n = 0;
const o = { get x() { n++; return this.x; } }; const f = () => o.x;
try { f(); } catch (e) { console.log(e.constructor.name, n >= 10000 ? '10000+' : n); }
