(Symbol as any).metadata ??= Symbol("Symbol.metadata");
function log(s: string) { return (v: any, c: any) => { console.log(s, c.kind, String(c.name), c.static, c.private, Object.keys(c).join()); }; }
function k(s: string) { console.log("key", s); return s; }
@log("class")
class A {
  @log("sm") static sm() {}
  @log("im") im() {}
  @log("sf") static sf = 1;
  @log("if") if = 2;
  @log("sa") static accessor sa = 3;
  @log("ia") accessor ia = 4;
  @log("ig") get ig() { return 1; }
  @log("pm") #pm() {}
  @log("ck") [k("c")]() {}
  @log("sp") static #sp = 1;
  accessor plain = 5;
  static { console.log("block"); }
}
const a = new A();
console.log(a.ia, a.plain, A.sa, a.if);
function twice(v: any, c: any) { return function(this: any, ...args: any[]) { return v.call(this, ...args) * 2; }; }
function init(v: any, c: any) { c.addInitializer(function (this: any) { console.log("added", c.name, typeof this); }); return (x: number) => x + 10; }
function acc({get, set}: any, c: any) { return { get(this: any) { return get.call(this) + 100; }, set(this: any, v: any) { set.call(this, v); }, init(v: number) { return v * 3; } }; }
class B {
  @twice m() { return 21; }
  @init x = 1;
  @acc accessor y = 2;
  @acc accessor #z = 3;
  @init static s = 5;
  z() { return this.#z; }
}
const b = new B();
console.log(b.m(), b.x, b.y, b.z(), B.s);
try { class C { @(() => 1) m() {} } } catch (e) { console.log(e.constructor.name, e.message); }
function repl(C: any, c: any) { return class extends C { extra = 1; }; }
@repl class D { }
console.log(new D().extra, D[Symbol.metadata] !== undefined);
