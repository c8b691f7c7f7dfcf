// nextTick vs promise jobs vs queueMicrotask vs timers, in an ES module entry.
const log = (s) => console.log(s);
Promise.resolve().then(() => log('promise 1'));
process.nextTick(() => log('tick 1'));
queueMicrotask(() => log('microtask 1'));
process.nextTick((a, b) => log(`tick 2 args ${a} ${b}`), 'x', 'y');
setTimeout(() => {
  log('timeout 1');
  Promise.resolve().then(() => log('timeout 1 promise'));
  process.nextTick(() => {
    log('timeout 1 tick');
    process.nextTick(() => log('nested tick'));
    Promise.resolve().then(() => log('promise from tick'));
  });
  Promise.resolve().then(() => {
    log('promise 2');
    process.nextTick(() => log('tick from promise'));
    Promise.resolve().then(() => log('promise 3'));
  });
}, 0);
setTimeout(() => log('timeout 2'), 0);
setImmediate(() => {
  log('immediate');
  process.nextTick(() => log('immediate tick'));
});
