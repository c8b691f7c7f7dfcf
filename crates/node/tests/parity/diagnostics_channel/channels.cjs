// Named channels, subscribers (a throwing one does not stop the others), store binding and
// tracing channels.
const dc = require('diagnostics_channel');
const { AsyncLocalStorage } = require('async_hooks');
const ch = dc.channel('amber:test');
console.log(ch === dc.channel('amber:test'), ch.name, ch.hasSubscribers, dc.hasSubscribers('amber:test'));
const seen = [];
const a = (msg, name) => seen.push(`a ${JSON.stringify(msg)} ${name}`);
ch.subscribe(a);
dc.subscribe('amber:test', (msg) => seen.push(`b ${msg.n}`));
console.log(ch.hasSubscribers, dc.hasSubscribers('amber:test'), dc.hasSubscribers('nobody'));
ch.publish({ n: 1 });
console.log(ch.unsubscribe(a), ch.unsubscribe(a), dc.unsubscribe('amber:test', () => {}));
ch.publish({ n: 2 });
console.log(seen);
console.log(ch instanceof dc.Channel, {} instanceof dc.Channel);
const sym = Symbol('sym');
console.log(dc.channel(sym).name === sym);
try {
  dc.channel(1);
} catch (e) {
  console.log(e.code);
}
const store = new AsyncLocalStorage();
const bound = dc.channel('amber:store');
bound.bindStore(store, (data) => ({ wrapped: data }));
bound.runStores({ id: 7 }, function (x) {
  console.log('runStores', JSON.stringify(store.getStore()), this.t, x);
}, { t: 'this' }, 'arg');
console.log(bound.unbindStore(store), bound.unbindStore(store));
const tc = dc.tracingChannel('amber:trace');
const events = [];
tc.subscribe({
  start: (ctx) => events.push(`start ${ctx.n}`),
  end: (ctx) => events.push(`end ${ctx.n} ${ctx.result}`),
  asyncStart: (ctx) => events.push(`asyncStart ${ctx.n} ${ctx.result}`),
  asyncEnd: (ctx) => events.push(`asyncEnd ${ctx.n}`),
  error: (ctx) => events.push(`error ${ctx.n} ${ctx.error.message}`),
});
console.log(tc.hasSubscribers, tc.start.name);
console.log(tc.traceSync((x) => x * 2, { n: 1 }, null, 21));
try {
  tc.traceSync(() => {
    throw new Error('boom');
  }, { n: 2 });
} catch (e) {
  console.log('caught', e.message);
}
tc.tracePromise(async (x) => x + 1, { n: 3 }, null, 1).then((v) => {
  console.log('promise', v);
  tc.traceCallback((cb) => cb(null, 'cb-result'), 0, { n: 4 }, null, (err, res) => {
    console.log('callback', err, res);
    console.log(events.join('\n'));
  });
});
