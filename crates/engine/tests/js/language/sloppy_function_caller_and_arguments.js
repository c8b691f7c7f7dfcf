// Sloppy functions carry own `arguments` and `caller` properties (null), as in V8; strict
// functions, arrows, methods and classes do not, and reach the throwing accessors.
function sloppy() { return [sloppy.caller, sloppy.arguments]; }
console.log(Object.getOwnPropertyNames(sloppy));
console.log(Object.getOwnPropertyDescriptor(sloppy, "caller"));
console.log(sloppy.hasOwnProperty("arguments"), Object.keys(sloppy));
function strict() { "use strict"; }
console.log(Object.getOwnPropertyNames(strict), Object.getOwnPropertyNames(() => 1));
console.log(Object.getOwnPropertyNames({ m() {} }.m), Object.getOwnPropertyNames(class {}));
try { strict.caller; } catch (e) { console.log(e.constructor.name); }
(function () { "use strict"; sloppy(); })();
console.log(sloppy.caller === null || typeof sloppy.caller === "function");
