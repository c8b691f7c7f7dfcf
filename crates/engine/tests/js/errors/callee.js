// TypeError messages that name the callee the way V8 renders the call's source text.
function t(name, f) {
  try {
    f();
    console.log(name, "=> no throw");
  } catch (e) {
    console.log(name, "=>", e.constructor.name + ":", e.message);
  }
}
const o = { a: {}, get g() { return undefined; } };
let x = 5, c = true;
function fn() { return 5; }
class A {}
class B { m() {} }
class C extends B { n() { super.zz(); } }
t("o.foo()", () => o.foo());
t("o.a.bar()", () => o.a.bar());
t('o["k"]()', () => o["k"]());
t("o[`k`]()", () => o[`k`]());
t("o['a b']()", () => o.a['a b']());
t("o[1]()", () => o[1]());
t("o[-1]()", () => o[-1]());
t("o[x]()", () => o[x]());
t("o[x + 1]()", () => o[x + 1]());
t("o[fn()]()", () => o[fn()]());
t("o[`k${x}`]()", () => o[`k${x}`]());
t("o[Symbol.iterator]()", () => o[Symbol.iterator]());
t("x()", () => x());
t("new x()", () => new x());
t("new o.a()", () => new o.a());
t("new o.a.b(...[1])", () => new o.a.b(...[1]));
t("new (fn())()", () => new (fn())());
t("new Math.max()", () => new Math.max());
t("o?.a.b()", () => o?.a.b());
t("o?.a?.b()", () => o?.a?.b());
t("o.a?.[x]()", () => o.a?.[x]());
t("(o?.a)()", () => (o?.a)());
t("a[0]()", () => { const a = [1]; a[0](); });
t("this.x()", function () { this.x(); }.bind({}));
t("this.#p()", () => { class K { #p = 1; m() { this.#p(); } } new K().m(); });
t("super.zz()", () => new C().n());
t("fn()()", () => fn()());
t("x.toFixed(1)()", () => x.toFixed(1)());
t("(() => 1)()()", () => (() => 1)()());
t("new X()()", () => { function X() {} new X()(); });
t("getter", () => o.g());
t("getter with spread", () => o.g(...[1]));
t("template", () => `${o.foo()}`);
t("tagged", () => o.foo`x`);
t("(1, o.foo)()", () => (1, o.foo)());
t("(o.foo)()", () => (o.foo)());
t("(c ? o.a : o.b)()", () => (c ? o.a : o.b)());
t("(y = o.foo)()", () => { let y; (y = o.foo)(); });
t("(y++)()", () => { let y = 1; (y++)(); });
t("(x + 1)()", () => (x + 1)());
t("(x && o.a)()", () => (x && o.a)());
t("(!x)()", () => (!x)());
t("(typeof x)()", () => (typeof x)());
t("(-1)()", () => (-1)());
t("null()", () => null());
t('"abc"()', () => "abc"());
t("/a/g()", () => /a/g());
t("[1,2]()", () => [1, 2]());
t("({a:1})()", () => ({ a: 1 })());
t("(function(){})()()", () => (function () {})()());
t("arguments[0]()", function () { arguments[0](); });
t("new.target()", function () { new.target(); });
t("nested arg call", () => fn(o.a.b()));
t("A()", () => A());
t("(class {})()", () => (class {})());
t("undefinedVar()", () => undefinedVar());
t("o.z.y", () => o.z.y);
t("o.p.q = 1", () => { o.p.q = 1; });
t("'a' in 5", () => "a" in 5);
t("callback", () => [1].map(o.foo));
(async () => {
  try { await o.foo(); } catch (e) { console.log("await o.foo() =>", e.message); }
  try { (await o).foo(); } catch (e) { console.log("(await o).foo() =>", e.message); }
})();
