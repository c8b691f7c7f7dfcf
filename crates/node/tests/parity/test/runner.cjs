// node:test's TAP as Node 20 prints it when stdout is not a terminal: tests, suites,
// subtests, plan, t.assert, skip/todo, hooks, callback tests, failures and the summary.
// Durations and stacks vary run to run, so the TAP is caught and printed at exit without
// them: the test lines, plans, directives, YAML block bounds, failure types and codes.
const original = process.stdout.write.bind(process.stdout);
let tap = '';
process.stdout.write = (chunk, ...rest) => {
  tap += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  const cb = rest.find((r) => typeof r === 'function');
  if (cb) process.nextTick(cb);
  return true;
};
process.on('exit', (code) => {
  const kept = tap.split('\n').filter((l) =>
    /^\s*(# Subtest|# (tests|suites|pass|fail|cancelled|skipped|todo) |ok |not ok |1\.\.|TAP|---|\.\.\.|failureType|code|type)/.test(l));
  original(`${kept.join('\n')}\nexit code ${code}\n`);
});

const { test, describe, it, before, after, beforeEach, afterEach } = require('node:test');
const order = [];

test('sync passes', (t) => {
  t.plan(2);
  t.assert.strictEqual(1 + 1, 2);
  t.assert.deepStrictEqual({ a: [1] }, { a: [1] });
});

test('async with subtests', async (t) => {
  await t.test('first child', () => order.push('first'));
  await t.test('second child', async (t2) => {
    await t2.test('grandchild', () => order.push('grandchild'));
  });
});

test('callback style', (t, done) => {
  setTimeout(() => {
    order.push('callback');
    done();
  }, 1);
});

test('skipped', { skip: true }, () => {
  throw new Error('never runs');
});
test.skip('skipped with message', () => {});
test('todo', { todo: 'later' }, () => {});
test('name with # and \\ and\nnewline', () => {});

test('failing plan', (t) => {
  t.plan(3);
  t.assert.ok(true);
});

test('failing assertion', () => {
  require('assert').strictEqual(1, 2);
});

describe('a suite', () => {
  before(() => order.push('before'));
  beforeEach(() => order.push('beforeEach'));
  afterEach(() => order.push('afterEach'));
  after(() => order.push('after'));
  it('one', () => order.push('one'));
  it('two', async () => order.push('two'));
  describe('nested suite', () => {
    it('three', () => order.push('three'));
  });
});

test('order', () => {
  require('assert').deepStrictEqual(order, ['first', 'grandchild', 'callback', 'before', 'beforeEach', 'one',
    'afterEach', 'beforeEach', 'two', 'afterEach', 'beforeEach', 'three', 'afterEach', 'after']);
});
