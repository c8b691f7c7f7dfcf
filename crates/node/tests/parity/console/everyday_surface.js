// Issue 18's "everyday surface", one line each: what console.log prints for typed arrays,
// ArrayBuffer, DataView, Proxies, Map/Set iterators, cycles in arrays and quoted __proto__
// keys; console.dir/table/count/group; V8's wording of common TypeErrors and ReferenceErrors;
// rope-built messages and names in .stack; FunctionDeclarationInstantiation step 28.
console.log(new Uint8Array(3));
console.log(new ArrayBuffer(2));
console.log(new DataView(new ArrayBuffer(2)));
console.log(new Proxy({ a: 1 }, {}));
console.log(new Map([[1, 2]]).keys(), new Set([1]).values(), new Map([[1, 2]]).entries());
const arr = [1];
arr.push(arr);
console.log(arr);
console.log({ ['__proto__']: 1 });
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.table([{ a: 1, b: 2 }, { a: 3 }]);
console.count();
console.count();
console.countReset();
console.count('x');
console.group('G');
console.log('in');
console.groupEnd();
console.log('out');
function f(x = 1, g = () => x) { var x = 2; return [x, g()]; }
console.log(f());
for (const t of ['const o = {}; o.foo()', 'x()', 'undefined.x', 'let u; u.x', 'nosuch', 'for (const i of 5) {}', 'null.y']) {
  try { eval(t); } catch (e) { console.log(e.constructor.name, e.message); }
}
const long = (c) => c.repeat(40) + String(Math.random() > 2);
const e = new Error(long('a'));
console.log(e.stack.split('\n')[0]);
e.name = long('N');
console.log(String(e), e.stack.split('\n')[0]);
