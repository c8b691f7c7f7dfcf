import { setTimeout as sleep, setImmediate as immediate, setInterval as every, scheduler } from 'node:timers/promises';
import timers from 'node:timers';
import { promises as tp } from 'timers';

console.log(timers.setTimeout === setTimeout, typeof timers.clearImmediate, tp.setTimeout === sleep);
const order = [];
const a = sleep(20, 'a').then((v) => order.push(v));
const b = sleep(10, 'b').then((v) => order.push(v));
const c = immediate('c').then((v) => order.push(v));
await Promise.all([a, b, c]);
console.log(order.join(','));
console.log(await sleep(5), await sleep(1, { x: 1 }));

const ac = new AbortController();
const pending = sleep(1000, 'late', { signal: ac.signal });
setTimeout(() => ac.abort(), 5);
try {
  await pending;
} catch (e) {
  console.log(e.name, e.code, e.message);
}
try {
  await sleep(10, null, { signal: AbortSignal.abort('why') });
} catch (e) {
  console.log('pre-aborted', e.name, e.cause);
}
try {
  await sleep('10');
} catch (e) {
  console.log(e.code, e.message);
}

let n = 0;
for await (const v of every(10, 'tick')) {
  n++;
  console.log(v, n);
  if (n === 3) break;
}
const ac2 = new AbortController();
let k = 0;
try {
  for await (const v of every(10, 'x', { signal: ac2.signal })) {
    console.log('interval', v);
    if (++k === 2) ac2.abort();
  }
} catch (e) {
  console.log('interval aborted', e.name);
}
await scheduler.wait(5);
console.log('waited');
