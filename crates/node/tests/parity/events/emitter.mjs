import EventEmitter, { once, on, errorMonitor, getEventListeners } from 'node:events';
import { EventEmitter as EE2 } from 'events';

console.log(EventEmitter === EE2, EventEmitter.defaultMaxListeners, typeof once, typeof on);
const e = new EventEmitter();
console.log(e);
const calls = [];
e.on('newListener', (name) => calls.push(`new:${String(name)}`));
function a(x) { calls.push(`a:${x}`); }
function b(x) { calls.push(`b:${x}`); }
e.on('ev', a);
e.prependListener('ev', b);
e.once('ev', (x) => calls.push(`once:${x}`));
e.prependOnceListener('ev', (x) => calls.push(`ponce:${x}`));
console.log(e.listenerCount('ev'), e.eventNames(), e.listeners('ev').length, e.rawListeners('ev').length);
console.log(e.emit('ev', 1), e.emit('ev', 2), e.emit('nothing'));
console.log(calls.join(' '));
e.on('removeListener', (name, fn) => console.log('removed', name, fn.name));
e.off('ev', a);
e.removeListener('ev', b);
console.log(e.listenerCount('ev'), e.eventNames());
console.log(e.listenerCount('ev', a));

// this, and argument passing
const t = new EventEmitter();
t.on('x', function (p, q, r) { console.log(this === t, p, q, r); });
t.emit('x', 1, 'two', [3]);

// 'error' with no listener throws
try {
  t.emit('error', new Error('boom'));
} catch (err) {
  console.log('caught', err.message);
}
try {
  t.emit('error', 'plain');
} catch (err) {
  console.log('caught', err.code, err.message);
}
t.on(errorMonitor, (err) => console.log('monitor', err.message));
t.on('error', (err) => console.log('handled', err.message));
t.emit('error', new Error('handled one'));

// max listeners
const m = new EventEmitter();
console.log(m.getMaxListeners());
m.setMaxListeners(1);
m.on('x', () => {});
m.on('x', () => {});
console.log(m.getMaxListeners(), m.listenerCount('x'));
try {
  m.setMaxListeners(-1);
} catch (err) {
  console.log(err.code, err.message);
}
try {
  m.on('x', 'not a function');
} catch (err) {
  console.log(err.code, err.message);
}

// removeAllListeners
m.removeAllListeners('x');
console.log(m.eventNames());
m.on('a', () => {}).on('b', () => {});
m.removeAllListeners();
console.log(m.eventNames(), m._eventsCount);

// subclassing
class Sub extends EventEmitter {
  constructor() {
    super();
    this.name = 'sub';
  }
}
const s = new Sub();
s.on('hi', function () { console.log('hi from', this.name); });
s.emit('hi');
console.log(s instanceof EventEmitter, getEventListeners(s, 'hi').length);

// symbols as event names
const sym = Symbol('evt');
s.on(sym, () => console.log('symbol event'));
s.emit(sym);
console.log(s.eventNames());

// listener removed during emit still runs for that emit
const r = new EventEmitter();
function first() { console.log('first'); r.off('z', second); }
function second() { console.log('second'); }
r.on('z', first);
r.on('z', second);
r.emit('z');
r.emit('z');

// static once
const o = new EventEmitter();
setTimeout(() => o.emit('ready', 1, 2), 1);
const vals = await once(o, 'ready');
console.log('once resolved', vals);
setTimeout(() => o.emit('error', new Error('bad')), 1);
try {
  await once(o, 'never');
} catch (err) {
  console.log('once rejected', err.message);
}

// static on (async iterator)
const it = new EventEmitter();
setTimeout(() => {
  it.emit('data', 'a');
  it.emit('data', 'b');
  it.emit('data', 'end');
}, 1);
for await (const [v] of on(it, 'data')) {
  console.log('iter', v);
  if (v === 'end') break;
}
console.log(it.listenerCount('data'));
