// The same ordering in a CommonJS entry: ticks run before promise jobs after the main script.
const log = (s) => console.log(s);
Promise.resolve().then(() => log('promise 1'));
process.nextTick(() => log('tick 1'));
queueMicrotask(() => log('microtask 1'));
process.nextTick(() => {
  log('tick 2');
  Promise.resolve().then(() => log('promise from tick'));
  process.nextTick(() => log('tick from tick'));
});
setTimeout(() => {
  log('timeout');
  process.nextTick(() => log('timeout tick'));
  Promise.resolve().then(() => log('timeout promise'));
}, 5);
async function f() {
  log('async start');
  await null;
  log('after await');
  process.nextTick(() => log('tick after await'));
  await null;
  log('after second await');
}
f();
