// Decorator metadata: node 20 has no Symbol.metadata, so tsc's helpers see this polyfill;
// Amber has the well-known symbol already and `??=` keeps it.
(Symbol as any).metadata ??= Symbol("Symbol.metadata");
function tag(value: string) {
  return (_v: any, c: any) => { c.metadata[c.name] = value; };
}
class Base {
  @tag("base-field") a = 1;
}
class Derived extends Base {
  @tag("derived-method") m() {}
  @tag("derived-accessor") accessor b = 2;
}
const bm = (Base as any)[Symbol.metadata];
const dm = (Derived as any)[Symbol.metadata];
console.log(Object.keys(bm).join(), Object.keys(dm).join());
console.log(dm.a, dm.m, Object.getPrototypeOf(dm) === bm, Object.getPrototypeOf(bm) === null);
class Plain { accessor x = 1; static accessor y = 2; accessor #z = 3; z() { return this.#z; } }
const p = new Plain();
p.x = 10;
console.log(p.x, Plain.y, p.z(), Object.keys(p).length, typeof Object.getOwnPropertyDescriptor(Plain.prototype, "x")!.get);
let order: string[] = [];
function o(name: string) { order.push("eval " + name); return (_v: any, c: any) => { order.push("apply " + name); c.addInitializer(() => order.push("init " + name)); }; }
@o("class") class Ordered {
  @o("field") f = order.push("field value");
  @o("static") static s() {}
  @o("method") m() {}
  static sf = order.push("static field");
}
order.push("constructed");
new Ordered();
console.log(order.join("\n"));
