import { EventEmitter } from 'node:events';
// captureRejections routes a rejected async listener to 'error'.
const e = new EventEmitter({ captureRejections: true });
e.on('ev', async () => {
  throw new Error('async failure');
});
e.on('error', (err) => console.log('error event:', err.message));
e.emit('ev');
// Listener order with prepend and once in combination.
const o = new EventEmitter();
const out = [];
o.once('x', () => out.push(1));
o.on('x', () => out.push(2));
o.prependOnceListener('x', () => out.push(0));
o.emit('x');
o.emit('x');
console.log(out.join(','));
console.log(EventEmitter.listenerCount(o, 'x'));
EventEmitter.defaultMaxListeners = 3;
console.log(new EventEmitter().getMaxListeners());
