// Symbol: constructor, registry, description, conversions, well-known symbols.
const log = (...a) => console.log(a.map(String).join(" "));
const err = (f) => { try { return String(f()); } catch (e) { return e.constructor.name + ": " + e.message; } };

const s = Symbol("desc"), e = Symbol(), u = Symbol(undefined), n = Symbol(null);
log(typeof s, s.toString(), e.toString(), s.description, e.description, u.description, n.description, Symbol("").description === "");
log(s === Symbol("desc"), Symbol.for("k") === Symbol.for("k"), Symbol.keyFor(Symbol.for("k")), Symbol.keyFor(s), Symbol.for(1).description, Symbol.for().toString());
log(err(() => new Symbol()), err(() => Symbol.keyFor("a")), err(() => s + ""), err(() => +s), err(() => Symbol.prototype.toString.call(1)));
const boxed = Object(s);
log(typeof boxed, boxed.valueOf() === s, boxed[Symbol.toPrimitive]("number") === s, boxed.description, boxed == s, Object.prototype.toString.call(boxed));
const d = Object.getOwnPropertyDescriptor(Symbol.prototype, Symbol.toPrimitive);
log(d.writable, d.enumerable, d.configurable, Symbol.prototype[Symbol.toPrimitive].name, Symbol.prototype[Symbol.toStringTag]);
const dd = Object.getOwnPropertyDescriptor(Symbol.prototype, "description");
log(typeof dd.get, dd.set, dd.enumerable, dd.configurable, dd.get.name);
for (const name of ["asyncIterator", "hasInstance", "isConcatSpreadable", "iterator", "match", "matchAll", "replace", "search", "species", "split", "toPrimitive", "toStringTag", "unscopables"]) {
  const p = Object.getOwnPropertyDescriptor(Symbol, name);
  log(name, String(Symbol[name]), typeof Symbol[name], p.writable, p.configurable);
}
log(Symbol.length, Symbol.name, Symbol.for.length, Symbol.keyFor.length, Object.getOwnPropertySymbols({ [s]: 1 })[0] === s);
