// A function without a name of its own shows in stack frames under the member it was
// assigned to, as V8 infers it (the chain of keys, `prototype` left out): `at api.f`,
// `at Foo.bar`, `at o.a.b`; its `name` stays empty, as the spec says.
function top(f) {
  try {
    f();
  } catch (e) {
    return e.stack.split("\n")[1].trim().replace(/[^ (]*\//g, "");
  }
}
const api = {};
api.f = function () { throw new Error(); };
function Foo() {}
Foo.prototype.bar = function () { throw new Error(); };
Foo.prototype["baz"] = function () { throw new Error(); };
Foo.st = function () { throw new Error(); };
const o = { a: {} };
o.a.b = function () { throw new Error(); };
o.a.arrow = () => { throw new Error(); };
o.a.named = function own() { throw new Error(); };
o.a[0] = function () { throw new Error(); };
let v;
v = function () { throw new Error(); };
console.log(top(() => api.f()), JSON.stringify(api.f.name));
console.log(top(() => new Foo().bar()), "|", top(() => new Foo().baz()), "|", top(() => Foo.st()));
console.log(top(() => o.a.b()), "|", top(() => o.a.arrow()), "|", top(() => o.a.named()));
console.log(top(() => o.a[0]()), "|", top(() => v()));
const detached = o.a.b;
console.log(top(() => detached()), JSON.stringify(o.a.b.name), JSON.stringify(o.a.arrow.name));
