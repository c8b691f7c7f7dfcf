import util from 'node:util';
import { format, inspect } from 'util';

console.log(format('%s is %d years and %i days, %f', 'Bob', 42.5, 3.9, 1.5));
console.log(format('%j', { a: [1, 2] }), format('%o', 42), format('%O', { b: { c: {} } }));
console.log(format('%% %s', 'x'), format('%c styled', 'color: red'), format('%s', Symbol('s')));
console.log(format('no args %s'), format('extra', 1, 'two', { three: 3 }));
console.log(format(1, 2, 3), format('%d', '0x10'), format('%i', 12345678901234567890n));
console.log(util.formatWithOptions({ colors: false }, '%s!', 'hi'));
console.log(inspect('str'), inspect(42), inspect(-0), inspect(null), inspect(undefined), inspect(10n));
console.log(inspect({ a: 1, b: 'two', c: [1, 2, 3], d: { e: { f: { g: 1 } } } }));
console.log(inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: 0 }));
console.log(inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: Infinity }));
console.log(inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: null }));
console.log(inspect({ a: 1, b: 2 }, { compact: false }));
console.log(inspect({ z: 1, a: 2, m: 3 }, { sorted: true }));
console.log(inspect(Array.from({ length: 30 }, (_, i) => i * 1000), { breakLength: 40 }));
console.log(inspect({ long: 'x'.repeat(50), other: 'y'.repeat(20) }, { breakLength: Infinity }));
console.log(inspect(new Map([[1, { a: 1 }], ['k', [1, 2]]])), inspect(new Set(['a', 1])));
class Custom {
  constructor() {
    this.secret = 1;
  }
  [util.inspect.custom](depth, options, insp) {
    return `Custom<${depth},${typeof options.stylize},${insp === util.inspect}>`;
  }
}
console.log(inspect(new Custom()), [new Custom()]);
console.log({ nested: { c: new Custom() } });
const other = { [Symbol.for('nodejs.util.inspect.custom')]: () => ({ replaced: true }) };
console.log(inspect(other));
console.log(inspect(new Custom(), { customInspect: false }));
console.log(util.inspect.custom === Symbol.for('nodejs.util.inspect.custom'));
const circ = { name: 'c' };
circ.self = circ;
console.log(inspect(circ));
console.log(util.inspect.defaultOptions.depth);
