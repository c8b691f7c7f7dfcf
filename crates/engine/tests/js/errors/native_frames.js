// Builtins on the stack as V8 (node 20) prints them: `at Array.forEach (<anonymous>)` for a
// builtin that calls back into JS or throws, none for the call trampolines
// (Function.prototype.call/apply, Reflect.apply/construct) and the Array constructor; an
// Error constructor's own frames and a subclass's are left out, as are
// Error.captureStackTrace's and the frames above its second argument. Each case prints the
// frames above `show`, directories stripped.
function frames(stack) {
  const lines = stack.split("\n").slice(1).map((l) => l.trim().replace(/[^ (]*\//g, ""));
  const end = lines.findIndex((l) => l.startsWith("at show "));
  return lines.slice(0, end - 1).join(" | ");
}
function show(label, f) {
  try {
    f();
    console.log(label, "did not throw");
  } catch (e) {
    console.log(label + ": " + frames(e.stack));
  }
}
function thrower() { throw new Error("x"); }
show("forEach", () => [1].forEach(function cb() { thrower(); }));
show("map", () => [1].map(function cb() { thrower(); }));
show("reduce", () => [1, 2].reduce(function cb() { thrower(); }));
show("sort", () => [2, 1].sort(function cmp() { thrower(); }));
show("filter find some every", () => [1].filter(() => [1].find(() => [1].some(() => [1].every(thrower)))));
show("replace", () => "a".replace("a", function cb() { thrower(); }));
show("replace regexp", () => "a".replace(/a/, function cb() { thrower(); }));
show("replaceAll regexp", () => "aa".replaceAll(/a/g, function cb() { thrower(); }));
show("JSON.parse reviver", () => JSON.parse('{"a":1}', function reviver() { thrower(); }));
show("JSON.parse error", () => JSON.parse("{"));
show("JSON.stringify toJSON", () => JSON.stringify({ toJSON() { thrower(); } }));
show("Promise executor", () => { let stack; new Promise(function executor() { stack = new Error("p").stack; }); throw { stack }; });
show("Reflect.apply", () => Reflect.apply(function cb() { thrower(); }, null, []));
show("Reflect.construct", () => Reflect.construct(function C() { thrower(); }, []));
show("call", () => (function cb() { thrower(); }).call(null));
show("apply", () => (function cb() { thrower(); }).apply(null, []));
show("bound", () => (function cb() { thrower(); }).bind(null)());
show("call forEach", () => Array.prototype.forEach.call([1], function cb() { thrower(); }));
show("Array.from mapper", () => Array.from([1], function mapper() { thrower(); }));
show("Array.from iterable", () => Array.from({ [Symbol.iterator]() { thrower(); } }));
show("Map forEach", () => new Map([[1, 1]]).forEach(function cb() { thrower(); }));
show("typed array map", () => new Uint8Array(1).map(function cb() { thrower(); }));
show("join toString", () => [{ toString() { thrower(); } }].join());
show("String()", () => String({ toString() { thrower(); } }));
show("Math.max valueOf", () => Math.max({ valueOf() { thrower(); } }));
show("Object.assign getter", () => Object.assign({}, { get a() { thrower(); } }));
show("reduce empty", () => [].reduce((a) => a));
show("BigInt", () => BigInt(1.5));
show("Object.defineProperty", () => Object.defineProperty(1, "a", {}));
show("new Map", () => new Map([1]));
show("new Array", () => new Array(-1));
show("repeat", () => "a".repeat(-1));
show("generator next", () => { function* g() { thrower(); } g().next(); });
show("getter", () => { const o = { get q() { thrower(); } }; return o.q; });
show("setter", () => { const o = { set s(v) { thrower(); } }; o.s = 1; });
show("symbol method", () => ({ [Symbol.iterator]() { thrower(); } })[Symbol.iterator]());
show("Error subclass", () => { class E extends Error {} function make() { return new E("y"); } throw make(); });
show("Error subclass ctor", () => { class E extends Error { constructor() { super("y"); } } function make() { return new E(); } throw make(); });
show("Error()", () => { function make() { return Error("y"); } throw make(); });
show("captureStackTrace", () => { const o = {}; function make() { Error.captureStackTrace(o); } make(); throw o; });
show("captureStackTrace fn", () => { function C() { Error.captureStackTrace(this, C); } function make() { return new C(); } throw make(); });
show("captureStackTrace unseen", () => { function C() { Error.captureStackTrace(this, thrower); } throw new C(); });
