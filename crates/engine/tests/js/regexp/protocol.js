// The RegExp constructor (IsRegExp, species, pattern from a regexp), Annex B compile,
// protocol details: user exec, subclasses, observable Get/Set order.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));

const r = /ab/g;
log(RegExp(r) === r, new RegExp(r) === r, String(new RegExp(r, "i")), String(RegExp(r, "y")), String(new RegExp("a+", "g")), String(RegExp()));
const fake = { [Symbol.match]: true, source: "x.y", flags: "m", constructor: RegExp };
log(String(new RegExp(fake)), RegExp(fake) === fake, String(new RegExp(fake, "g")));
const notRe = /q/;
notRe[Symbol.match] = false;
log(String(new RegExp(notRe)), new RegExp({ toString() { return "obj"; } }).source);
for (const [p, f] of [["(", ""], ["a", "gg"], ["a", "x"], ["a", "uv"], ["[", "u"], ["\\", ""], ["a{2,1}", ""], ["(?<a>x)(?<a>y)", ""], ["\\k<nope>(?<x>y)", ""]]) {
  try { new RegExp(p, f); log("ok", p, f); } catch (e) { log(e.constructor.name, p, f); }
}
log(RegExp.length, RegExp.name, RegExp[Symbol.species] === RegExp, Object.getOwnPropertyNames(RegExp.prototype).sort().join());
log(Object.getOwnPropertyDescriptor(/a/, "lastIndex"), Object.keys(/a/), Object.getOwnPropertyNames(/a/));

const c = /a/g;
c.lastIndex = 3;
log(c.compile("b+", "i") === c, String(c), c.lastIndex, c.test("xBB"), String(c.compile(/z/m)), String(c.compile()));
try { c.compile(/z/, "g"); } catch (e) { log(e.constructor.name); }

const calls = [];
const custom = /./g;
custom.exec = function (s) {
  calls.push("exec:" + this.lastIndex);
  if (this.lastIndex >= 3) return null;
  const res = ["X" + this.lastIndex];
  res.index = this.lastIndex;
  this.lastIndex++;
  return res;
};
log("abcdef".replace(custom, "<$&>"), "abcdef".match(custom), calls.join(","));
const bad = /a/;
bad.exec = () => 42;
try { bad.test("a"); } catch (e) { log(e.constructor.name); }
bad.exec = "not callable";
log(bad.test("a"));

class MyRE extends RegExp {
  exec(s) { const m = super.exec(s); if (m) m[0] = m[0].toUpperCase(); return m; }
}
const my = new MyRE("b", "g");
log(my instanceof MyRE, my instanceof RegExp, "abcb".replace(my, "[$&]"), "abcb".match(my), String(my), [..."abcb".matchAll(my)].map((m) => m[0]));
log("a1b2".split(new MyRE("\\d")));

const order = [];
const proxied = new Proxy(/b/g, {
  get(t, k, rcv) {
    order.push(typeof k === "symbol" ? k.toString() : k);
    const v = Reflect.get(t, k, t);
    return typeof v === "function" ? v.bind(t) : v;
  },
  set(t, k, v) { order.push("set " + k + "=" + v); t[k] = v; return true; },
});
RegExp.prototype[Symbol.split].call(proxied, "abcb");
log(order.join(","));
order.length = 0;
RegExp.prototype[Symbol.search].call(proxied, "abcb");
log(order.join(","));

class NoSpecies extends RegExp { static get [Symbol.species]() { return RegExp; } }
const ns = new NoSpecies("-");
log("a-b".split(ns), ns[Symbol.matchAll]("a-b").next().value[0]);
const saved = RegExp.prototype.exec;
RegExp.prototype.exec = function (s) { return saved.call(this, s.toUpperCase()); };
log(/A/.test("a"), "xa".replace(/A/, "!"), "a".search(/A/));
RegExp.prototype.exec = saved;
log(/A/.test("a"));
const lastIndexObj = /a/g;
lastIndexObj.lastIndex = { valueOf() { log("valueOf"); return 0; } };
log(lastIndexObj.test("a"), lastIndexObj.lastIndex);
