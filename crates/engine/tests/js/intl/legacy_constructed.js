// ECMA-402's normative optional constructor mode, as V8 has it: Intl.DateTimeFormat and
// Intl.NumberFormat called without `new` on an instance store the new formatter under
// %Intl%.[[FallbackSymbol]] and return the instance; format and resolvedOptions unwrap it
// (expected output from node 20).
const o = Object.create(Intl.DateTimeFormat.prototype);
const r = Intl.DateTimeFormat.call(o, 'en-US', { timeZone: 'UTC' });
const syms = Object.getOwnPropertySymbols(o);
console.log(r === o, syms.map(String), syms[0].description);
console.log(o.format(0), o.resolvedOptions().timeZone, typeof o.format);
const d = Object.getOwnPropertyDescriptor(o, syms[0]);
console.log(d.writable, d.enumerable, d.configurable, d.value instanceof Intl.DateTimeFormat);
try { o.formatToParts(0); } catch (e) { console.log(e.constructor.name); }
const n = Intl.NumberFormat.call(Object.create(Intl.NumberFormat.prototype), 'de');
console.log(n.format(12345.5), n.resolvedOptions().locale);
try { n.formatToParts(1); } catch (e) { console.log(e.constructor.name); }
const sn = Object.getOwnPropertySymbols(n)[0];
console.log(sn === syms[0], String(sn));
// Not an instance: a new formatter, the receiver untouched.
const plain = {};
console.log(Intl.DateTimeFormat.call(plain) instanceof Intl.DateTimeFormat, Object.getOwnPropertySymbols(plain).length);
// With `new`: never chained.
const made = new Intl.NumberFormat();
console.log(Object.getOwnPropertySymbols(made).length);
// An existing formatter called again: chained, and the old slots still answer.
const again = Intl.DateTimeFormat.call(made instanceof Intl.NumberFormat ? new Intl.DateTimeFormat('en', { timeZone: 'UTC' }) : null, 'fr', { timeZone: 'UTC' });
console.log(again.resolvedOptions().locale, Object.getOwnPropertySymbols(again).length);
// Collator has no legacy mode.
console.log(Object.getOwnPropertySymbols(Intl.Collator.call(Object.create(Intl.Collator.prototype))).length);
// A proxy sees the symbol read.
let seen;
const p = new Proxy(Intl.NumberFormat.call(Object.create(Intl.NumberFormat.prototype)), {
  get(t, k) { seen = k; return t[k]; },
});
Intl.NumberFormat.prototype.resolvedOptions.call(p);
console.log(typeof seen, seen.description);
// A frozen instance: DefinePropertyOrThrow fails.
try { Intl.DateTimeFormat.call(Object.freeze(Object.create(Intl.DateTimeFormat.prototype))); } catch (e) { console.log(e.constructor.name); }
