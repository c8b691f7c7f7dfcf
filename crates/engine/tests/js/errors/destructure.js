// Destructuring null or undefined: V8's messages name the first property and the value's text.
function t(name, f) {
  try {
    f();
    console.log(name, "=> no throw");
  } catch (e) {
    console.log(name, "=>", e.constructor.name + ":", e.message);
  }
}
const o = { p: undefined, n: null, m() { return null; } };
let x = "q";
t("const {a} = null", () => { const { a } = null; });
t("const {a} = undefined", () => { const { a } = undefined; });
t("var {a} = null", () => { var { a } = null; });
t("const {} = null", () => { const {} = null; });
t("const {a} = o.p", () => { const { a } = o.p; });
t("const {a} = o.n", () => { const { a } = o.n; });
t("const {a} = o.m()", () => { const { a } = o.m(); });
t("const {a} = (() => null)()", () => { const { a } = (() => null)(); });
t("const {[x]: a} = null", () => { const { [x]: a } = null; });
t("const {'s t': a} = null", () => { const { "s t": a } = null; });
t("const {0: a} = null", () => { const { 0: a } = null; });
t("const {b: c} = null", () => { const { b: c } = null; });
t("const {...r} = null", () => { const { ...r } = null; });
t("({a} = null)", () => { let a; ({ a } = null); });
t("({a} = o.x)", () => { let a; ({ a } = o.x); });
t("const {a: {}} = {}", () => { const { a: {} } = {}; });
t("const {a: {b}} = {}", () => { const { a: { b } } = {}; });
t("const {a: {b}} = {a: null}", () => { const { a: { b } } = { a: null }; });
t("const {b: {[x]: c}} = {}", () => { const { b: { [x]: c } } = {}; });
t("const [{b}] = [null]", () => { const [{ b }] = [null]; });
t("const [{}] = [undefined]", () => { const [{}] = [undefined]; });
t("for (const {a} of [null])", () => { for (const { a } of [null]) {} });
t("param ({a}) null", () => (({ a }) => a)(null));
t("param ({a}) undefined", () => (({ a }) => a)());
t("param ({}) null", () => (({}) => 0)(null));
t("catch ({a})", () => { try { throw null; } catch ({ a }) {} });
