// A module that imports itself: namespace object, live bindings, hoisting, TDZ.
import * as self from './namespace.mjs';
import def, { counter as c, bump as inc, later as l, "quoted name" as quoted } from './namespace.mjs';

export let counter = 1;
const q = 'q';

console.log(Reflect.ownKeys(self));
console.log(self[Symbol.toStringTag], Object.getPrototypeOf(self), Object.isExtensible(self));
console.log(typeof inc, inc.name, def.name);
try {
  console.log(l);
} catch (e) {
  console.log('TDZ:', e.constructor.name);
}
try {
  Object.keys(self);
} catch (e) {
  console.log('keys in TDZ:', e.constructor.name);
}
console.log(c, self.counter);
inc();
console.log(c, self.counter);
try {
  c = 5;
} catch (e) {
  console.log('assign import:', e.constructor.name, e.message);
}
console.log(Reflect.set(self, 'counter', 1), Reflect.deleteProperty(self, 'counter'), Reflect.deleteProperty(self, 'nope'));
console.log(Object.getOwnPropertyDescriptor(self, 'counter'));
console.log(Reflect.defineProperty(self, 'counter', { value: 1 }), Reflect.defineProperty(self, 'counter', { value: 2 }));
console.log(quoted, this, typeof import.meta, Object.getPrototypeOf(import.meta));

export function bump() {
  counter += 1;
}
export default function () {}
export const later = 'now initialised';
export { q as 'quoted name' };
console.log(later, Object.keys(self).length);
import('./namespace.mjs').then((again) => console.log(again === self));
