import assert from 'node:assert';

const t = async (f) => {
  try {
    await f();
    console.log('no throw');
  } catch (e) {
    console.log(JSON.stringify({ name: e.name, code: e.code, msg: e.message, op: e.operator, gen: e.generatedMessage }));
  }
};
const boom = () => { throw new TypeError('kaboom'); };
await t(() => assert.throws(boom));
await t(() => assert.throws(boom, TypeError));
await t(() => assert.throws(boom, Error));
await t(() => assert.throws(boom, RangeError));
await t(() => assert.throws(boom, /kaboom/));
await t(() => assert.throws(boom, /nope/));
await t(() => assert.throws(boom, { name: 'TypeError', message: 'kaboom' }));
await t(() => assert.throws(boom, { message: /kab/ }));
await t(() => assert.throws(boom, { message: 'other' }));
await t(() => assert.throws(boom, (e) => e instanceof TypeError));
await t(() => assert.throws(boom, function check(e) { return false; }));
await t(() => assert.throws(() => {}));
await t(() => assert.throws(() => {}, TypeError));
await t(() => assert.throws(() => {}, 'with message'));
await t(() => assert.throws(() => { throw 'str'; }, { a: 1 }));
await t(() => assert.throws(boom, {}));
await t(() => assert.throws('not fn'));
await t(() => assert.doesNotThrow(() => {}));
await t(() => assert.doesNotThrow(boom));
await t(() => assert.doesNotThrow(boom, 'msg here'));
await t(() => assert.doesNotThrow(boom, RangeError));
await t(() => assert.rejects(Promise.reject(new Error('no')), /no/));
await t(() => assert.rejects(Promise.resolve(1)));
await t(() => assert.rejects(async () => { throw new RangeError('r'); }, RangeError));
await t(() => assert.rejects(async () => { throw new RangeError('r'); }, TypeError));
await t(() => assert.rejects(() => 5));
await t(() => assert.doesNotReject(Promise.resolve(1)));
await t(() => assert.doesNotReject(Promise.reject(new Error('bad'))));
