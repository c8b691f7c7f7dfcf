// Stack frames as V8 writes them: Type.name [as key] for method calls, new Name for
// constructors, a bare location for anonymous top-level calls, and each call placed at the
// name before its `(` (or at the `(` when no name precedes it). Directories are stripped so
// the expected text does not depend on where the checkout lives.
function frame(depth) {
  return new Error().stack.split("\n")[depth].trim().replace(/[^ (]*\//g, "");
}
function where() { return frame(3); }
function caller() { return frame(3); }
const o = { m: where, k: { deep: where } };
console.log(o.m());
console.log(o["m"]());
console.log(o.k.deep());
console.log(where());
console.log((0, o.m)());
console.log(o?.m(), o.m?.());
console.log(o
  .m());
try { o.nope(); } catch (e) { console.log(e.stack.split("\n")[1].trim().replace(/[^ (]*\//g, "")); }
class C {
  #p() { return where(); }
  static s() { return where(); }
  q() { return this.#p(); }
}
const c = new C();
C.prototype.alias = C.prototype.q;
console.log(c.q(), "|", c.alias(), "|", C.s());
function P() { return caller(); }
Object.defineProperty(C.prototype, "zz", { value: function () { return caller(); } });
console.log(c.zz(), "|", P.call(c), "|", P.call("str"), "|", P.call(5), "|", P.call(null));
const anon = { ["computed"]: function () { return caller(); } };
console.log(anon.computed());
function Test() {}
Test.prototype._assert = function assert() { return caller(); };
console.log(new Test()._assert());
const obj = { run() { return caller(); } };
console.log(obj.run());
function Foo() { this.x = caller(); }
console.log(new Foo().x);
class Base { constructor() { this.b = caller(); } }
class Derived extends Base {}
console.log(new Derived().b);
console.log((function () { return caller(); })());
console.log((() => caller())());
console.log([1].map((x) => caller())[0]);
