// performance (User Timing basics), perf_hooks, global and queueMicrotask. Times are not
// printed (they differ run to run under node); only their types and relations are.
import { performance as hooksPerformance, PerformanceMark, PerformanceEntry } from 'node:perf_hooks';
const log = (...a) => console.log(...a);

log(typeof global, global === globalThis, typeof queueMicrotask, typeof performance);
log(hooksPerformance === performance, Object.prototype.toString.call(performance));
log(typeof performance.timeOrigin, performance.timeOrigin > 1e12, typeof performance.now(), performance.now() >= 0);
const t0 = performance.now();
await new Promise((resolve) => setTimeout(resolve, 20));
// node's timers run on a whole-millisecond loop clock, so performance.now() can show 19.9.
log('elapsed at least 19ms:', performance.now() - t0 >= 19);
log(Math.abs(performance.timeOrigin + performance.now() - Date.now()) < 5);

const a = performance.mark('a', { startTime: 10, detail: { step: 1 } });
const b = performance.mark('b', { startTime: 25 });
log(a, b.detail, a instanceof PerformanceMark, a instanceof PerformanceEntry);
log(a.toJSON());
const m = performance.measure('a to b', 'a', 'b');
log(m.constructor.name, m.name, m.entryType, m.startTime, m.duration, m.detail);
const m2 = performance.measure('opts', { start: 5, end: 'b', detail: 'x' });
log(m2.startTime, m2.duration, m2.detail);
const m3 = performance.measure('dur', { start: 'a', duration: 3 });
log(m3.startTime, m3.duration);
log(performance.getEntriesByType('mark').map((e) => e.name), performance.getEntriesByName('a to b').length);
log(performance.getEntries().map((e) => `${e.entryType}:${e.name}`));
performance.clearMarks('a');
log(performance.getEntriesByType('mark').map((e) => e.name));
performance.clearMarks();
performance.clearMeasures();
log(performance.getEntries().length);
try { performance.measure('bad', 'nope'); } catch (e) { log(e.name, e.code, e.message); }
try { new PerformanceEntry(); } catch (e) { log(e.name, e.code, e.message); }
const mark = new PerformanceMark('standalone', { startTime: 1 });
log(mark.name, mark.startTime, performance.getEntries().length);

const order = [];
queueMicrotask(() => order.push('microtask'));
Promise.resolve().then(() => order.push('promise'));
await null;
await null;
log(order);
