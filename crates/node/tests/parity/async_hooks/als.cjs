// AsyncLocalStorage: the store follows run() into callbacks it schedules (then, timers,
// setImmediate, nextTick, queueMicrotask), nested runs and exit(), bind() and snapshot().
// The asynchronous notes are printed sorted: which of a 1 ms timer and an immediate runs
// first is not fixed in Node.
const { AsyncLocalStorage, AsyncResource, executionAsyncId, createHook } = require('async_hooks');
const als = new AsyncLocalStorage();
const other = new AsyncLocalStorage();
const log = [];
const note = (tag) => log.push(`${tag}=${als.getStore()}/${other.getStore()}`);
console.log(als.getStore());
als.run('a', () => {
  note('sync');
  Promise.resolve().then(() => note('then'));
  Promise.reject(new Error('x')).catch(() => note('catch')).finally(() => note('finally'));
  setTimeout(() => note('timeout'), 1);
  setImmediate(() => note('immediate'));
  process.nextTick(() => note('tick'));
  queueMicrotask(() => note('microtask'));
  other.run('o', () => {
    note('nested');
    setTimeout(() => note('nested-timeout'), 2);
  });
  als.run('b', () => note('inner'));
  als.exit(() => note('exit'));
  note('after');
});
note('outside');
const bound = als.run('c', () => AsyncLocalStorage.bind(() => note('bound')));
bound();
const snap = als.run('d', () => AsyncLocalStorage.snapshot());
snap(() => note('snapshot'));
const resource = als.run('e', () => new AsyncResource('Thing'));
resource.runInAsyncScope(() => note('resource'));
const rbound = als.run('f', () => AsyncResource.bind(() => note('resource-bound')));
rbound();
console.log(typeof executionAsyncId(), typeof createHook({}).enable().disable);
als.enterWith('g');
note('enterWith');
console.log(log.splice(0).join('\n'));
setTimeout(() => {
  console.log(log.sort().join('\n'));
  als.disable();
  note('disabled');
  als.run('h', () => note('re-enabled'));
  console.log(log.slice(-2).join('\n'));
}, 10);
