// "is not iterable" TypeErrors name the iterable the way V8 renders its source text.
function t(name, f) {
  try {
    f();
    console.log(name, "=> no throw");
  } catch (e) {
    console.log(name, "=>", e.constructor.name + ":", e.message);
  }
}
const o = { a: {}, m() { return 5; } };
let x = 5;
function fn() { return 5; }
function C() {}
t("for of 5", () => { for (const q of 5) {} });
t("for of o", () => { for (const q of o) {} });
t("for of null", () => { for (const q of null) {} });
t("for of o.a", () => { for (const q of o.a) {} });
t("for of o['a']", () => { for (const q of o["a"]) {} });
t("for of x + 1", () => { for (const q of x + 1) {} });
t("for of fn()", () => { for (const q of fn()) {} });
t("for of o.m()", () => { for (const q of o.m()) {} });
t("for of new C()", () => { for (const q of new C()) {} });
t("for of o?.a", () => { for (const q of o?.a) {} });
t("[...5]", () => [...5]);
t("[...o.a]", () => [...o.a]);
t("[...fn()]", () => [...fn()]);
t("f(...5)", () => { function f() {} f(...5); });
t("f(...null)", () => { function f() {} f(...null); });
t("f(...undefined)", () => { function f() {} f(...undefined); });
t("new f(...o.a)", () => { function f() {} new f(...o.a); });
t("const [a] = {}", () => { const [a] = {}; });
t("const [a] = {a: 1}", () => { const [a] = { a: 1 }; });
t("const [a] = o", () => { const [a] = o; });
t("const [a] = 5", () => { const [a] = 5; });
t("const [a] = null", () => { const [a] = null; });
t("const [a] = this", function () { const [a] = this; }.bind(5));
t("const [a] = fn()", () => { const [a] = fn(); });
t("const [a] = o.a", () => { const [a] = o.a; });
t("const [a] = (x)", () => { const [a] = (x); });
t("const [a] = o.m()", () => { const [a] = o.m(); });
t("[a] = x", () => { let a; [a] = x; });
t("param [a]", () => (([a]) => a)(5));
t("const [[b]] = [5]", () => { const [[b]] = [5]; });
t("for (const [a] of [5])", () => { for (const [a] of [5]) {} });
t("yield* 5", () => { function* g() { yield* 5; } g().next(); });
t("yield* o", () => { function* g() { yield* o; } g().next(); });
t("new Map(5)", () => new Map(5));
(async () => {
  try { for await (const q of 5) {} } catch (e) { console.log("for await 5 =>", e.message); }
  try { for await (const q of o) {} } catch (e) { console.log("for await o =>", e.message); }
  try { for await (const q of fn()) {} } catch (e) { console.log("for await fn() =>", e.message); }
})();
