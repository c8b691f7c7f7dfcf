import assert, { AssertionError } from 'node:assert';
import strict from 'node:assert/strict';

const t = (f) => {
  try {
    f();
    console.log('no throw');
  } catch (e) {
    console.log(JSON.stringify({ name: e.name, code: e.code, msg: e.message, op: e.operator, gen: e.generatedMessage }));
  }
};
t(() => assert.strictEqual(1, 2));
t(() => assert.strictEqual('a', 'b', 'custom'));
t(() => assert.equal(1, 2));
t(() => assert.equal(1, '1'));
t(() => assert.notStrictEqual(1, 1));
t(() => assert.notEqual(1, '1'));
t(() => assert.ok(false));
t(() => assert(0));
t(() => assert.ok(typeof 123 === 'string'));
t(() => {
  assert.ok(
    false
  );
});
t(() => assert.ok());
t(() => assert.deepStrictEqual({ a: 1 }, { a: 2 }));
t(() => assert.deepStrictEqual([1, 2, 3], [1, 2, 4]));
t(() => assert.deepStrictEqual({ a: 1 }, { a: 2 }, 'mine'));
t(() => assert.deepStrictEqual({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8 }, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 9 }));
t(() => assert.deepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }));
t(() => assert.deepStrictEqual([1, 2], [1, 2, 3]));
t(() => assert.deepStrictEqual(new Map([[1, 'a']]), new Map([[1, 'b']])));
t(() => assert.deepEqual({ a: 1 }, { a: 2 }));
t(() => assert.deepEqual({ a: 1 }, { a: '1' }));
t(() => assert.notDeepStrictEqual({ a: 1 }, { a: 1 }));
t(() => assert.notDeepStrictEqual([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]));
t(() => assert.notDeepEqual({ a: 1 }, { a: 1 }));
t(() => assert.strictEqual({ a: 1 }, { a: 1 }));
t(() => assert.strictEqual('x'.repeat(10), 'y'));
t(() => assert.strictEqual('hello world', 'hello there'));
t(() => assert.strictEqual(NaN, 0));
t(() => assert.strictEqual(NaN, NaN));
const o = { a: 1 };
t(() => assert.notStrictEqual(o, o));
t(() => assert.ok(null, new TypeError('own')));
t(() => assert.strictEqual(1));
t(() => assert.fail());
t(() => assert.fail('boom'));
t(() => assert.ifError(new Error('e')));
t(() => assert.ifError(null));
t(() => assert.ifError('str'));
t(() => assert.match('abc', /x/));
t(() => assert.match(123, /x/));
t(() => assert.doesNotMatch('abc', /b/));
t(() => assert.match('abc', /b/));
t(() => strict.equal(1, '1'));
t(() => strict.deepEqual({ a: 1 }, { a: '1' }));
t(() => strict(false));
console.log(strict.strict === strict, assert.strict === strict, typeof AssertionError);
const err = new AssertionError({ actual: 1, expected: 2, operator: 'strictEqual' });
console.log(err.name, err.code, err.actual, err.expected, err.operator, err.generatedMessage, err instanceof Error);
console.log(Object.keys(err));
