// ReadableStream basics: start/pull/cancel, readers, locking, errors, async iteration, from.
const log = (...a) => console.log(...a);

const rs = new ReadableStream({
  start(c) { c.enqueue('a'); c.enqueue('b'); },
  pull(c) { log('pull, desiredSize', c.desiredSize); c.enqueue('c'); c.close(); },
});
log(rs.locked, String(rs), Object.prototype.toString.call(rs));
const reader = rs.getReader();
log(rs.locked);
for (;;) {
  const { value, done } = await reader.read();
  log('read', value, done);
  if (done) break;
}
await reader.closed;
log('closed');
reader.releaseLock();
log(rs.locked);

// Locking errors.
const locked = new ReadableStream();
locked.getReader();
try { locked.getReader(); } catch (e) { log(e.name, e.code, e.message); }
await locked.cancel().catch((e) => log('cancel locked:', e.code, e.message));

// Cancel reaches the source with the reason.
const cancelled = new ReadableStream({ cancel(reason) { log('source cancel:', reason); } });
await cancelled.cancel('why');
log('cancelled stream read:', await cancelled.getReader().read());

// Errors from start, pull and controller.error.
const failing = new ReadableStream({ pull() { throw new Error('pull failed'); } });
await failing.getReader().read().catch((e) => log('pull error:', e.message));
const errored = new ReadableStream({ start(c) { c.error(new TypeError('bad')); } });
const er = errored.getReader();
await er.read().catch((e) => log('errored read:', e.name, e.message));
await er.closed.catch((e) => log('errored closed:', e.message));
const startFail = new ReadableStream({ start() { return Promise.reject(new RangeError('start')); } });
await startFail.getReader().read().catch((e) => log('start rejection:', e.name));

// Controller misuse.
new ReadableStream({
  start(c) {
    c.close();
    try { c.enqueue(1); } catch (e) { log(e.code, e.message); }
    try { c.close(); } catch (e) { log(e.code, e.message); }
  },
});

// A released reader rejects reads and its closed promise.
const rel = new ReadableStream().getReader();
rel.releaseLock();
await rel.read().catch((e) => log('released read:', e.code, e.message));
await rel.closed.catch((e) => log('released closed:', e.code, e.message));

// Constructor validation.
for (const args of [[1], [{ type: 'foo' }], [{}, { highWaterMark: -1 }], [{}, { highWaterMark: NaN }],
  [{ type: 'bytes' }, { size() { return 1; } }]]) {
  try { new ReadableStream(...args); log('constructed'); } catch (e) { log(e.name, e.code, e.message); }
}

// Async iteration, early exit cancels, preventCancel keeps the stream.
const counted = () => {
  let i = 0;
  return new ReadableStream({
    pull(c) { i++; if (i > 5) c.close(); else c.enqueue(i); },
    cancel(r) { log('iteration cancel', r); },
  });
};
for await (const v of counted()) log('iter', v);
const early = counted();
for await (const v of early) { log('early', v); if (v === 2) break; }
log('after break locked:', early.locked);
const kept = counted();
for await (const v of kept.values({ preventCancel: true })) { if (v === 2) break; }
const rest = [];
for await (const v of kept) rest.push(v);
log('rest after preventCancel:', rest);

// ReadableStream.from: arrays, generators, async generators, non-iterables.
const fromArray = [];
for await (const v of ReadableStream.from([1, Promise.resolve(2), 3])) fromArray.push(v);
log('from array', fromArray);
async function* gen() { yield 'x'; yield 'y'; }
const fromGen = [];
for await (const v of ReadableStream.from(gen())) fromGen.push(v);
log('from async generator', fromGen);
try { ReadableStream.from(1); } catch (e) { log(e.name, e.code, e.message); }
log(new ReadableStream(), new ReadableStream({ type: 'bytes' }));
log(new ReadableStream().getReader());
log(new CountQueuingStrategy({ highWaterMark: 3 }), new ByteLengthQueuingStrategy({ highWaterMark: 7 }));
try { new CountQueuingStrategy(); } catch (e) { log(e.name, e.code, e.message); }
log(new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size(new Uint8Array(9)), new CountQueuingStrategy({ highWaterMark: 1 }).size());
