// console.table as Node 20 prints it: arrays of objects and of arrays, objects of objects,
// primitive rows under Values, the properties filter, Map/Set (and their iterators) rows,
// cell rendering (strings quoted, nested objects shallow, long arrays cut at 3), fallback to
// console.log for non-objects, the properties type check; and the console methods as
// enumerable own properties in Node's order.
console.table([{ a: 1, b: 'Y' }, { a: 'Z', b: 2 }]);
console.table([{ a: 1 }, { b: 2 }, { a: 3, c: { x: 1 } }]);
console.table([[1, 2], [3, 4, 5]]);
console.table({ r1: { c1: 1, c2: 2 }, r2: { c2: 3, c3: 4 } });
console.table([1, 'two', { a: 3 }, null, undefined, true]);
console.table([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5, c: 6 }], ['a', 'c']);
console.table([{ a: 1 }, 5], ['a']);
console.table({ 10: { z: 1, 2: 'two', y: 2, 1: 'one' }, a: { y: 3 } });
console.table(new Map([['k1', { v: 1 }], [{ o: 1 }, 'v2']]));
console.table(new Set(['a', 2, [1, 2, 3, 4, 5]]));
const it = new Map([[1, 'a'], [2, 'b'], [3, 'c']]).entries();
it.next();
console.table(it);
console.table(new Map([[1, 'a']]).keys());
console.table(new Set(['s']).values());
console.table(new Set(['s', 't']).entries());
console.table([{ nested: { deep: { deeper: 1 } }, many: { p: 1, q: 2, r: 3 }, arr: [1, 2, 3, 4], fn() {} }]);
console.table([{ s: 'a longer string value', n: -0, big: 10n, sym: Symbol('q') }]);
console.table([]);
console.table({});
console.table('not tabular');
console.table(42);
console.table(null);
console.table(undefined);
console.table(() => 1);
console.table([{ a: 1 }], []);
class Point { constructor(x, y) { this.x = x; this.y = y; } }
console.table([new Point(1, 2), new Point(3, 4)]);
console.table([{ 'odd key': 1, ünï: 'çödé' }]);
console.group('grouped');
console.table([{ a: 1 }]);
console.groupEnd();
for (const bad of [5, 'ab', {}, null]) {
  try {
    console.table([], bad);
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}
console.log(Object.keys(console).filter((k) => !['Console', 'context', 'createTask'].includes(k)).join(' '));
const d = Object.getOwnPropertyDescriptor(console, 'table');
console.log(typeof d.value, d.writable, d.enumerable, d.configurable, console.table.name, console.table.length);
