// WritableStream and TransformStream: sink callbacks in order, abort/close/error, the
// controller's signal, transformer flush/terminate, and strategies on both sides.
const log = (...a) => console.log(...a);

const events = [];
const ws = new WritableStream({
  start(c) { events.push('start'); },
  write(chunk, c) { events.push(`write ${chunk}`); },
  close() { events.push('close'); },
  abort(r) { events.push(`abort ${r}`); },
});
const w = ws.getWriter();
await Promise.all([w.write('a'), w.write('b'), w.close()]);
log(events, ws.locked);
await w.closed;
log('closed resolved');
await w.close().catch((e) => log('second close:', e.code, e.message));
try { ws.getWriter(); } catch (e) { log(e.code, e.message); }
w.releaseLock();
await w.write('x').catch((e) => log('released write:', e.code, e.message));
try { w.desiredSize; } catch (e) { log('released desiredSize:', e.code, e.message); }

// Abort: the sink's abort gets the reason, pending writes reject, the signal fires.
let sinkController;
const aborting = new WritableStream({
  start(c) {
    sinkController = c;
    c.signal.addEventListener('abort', () => log('signal aborted:', c.signal.reason));
  },
  write() { return new Promise(() => {}); },
  abort(r) { log('sink abort:', r); },
});
const aw = aborting.getWriter();
const pending = aw.write('never finishes');
pending.catch((e) => log('in-flight write rejected:', e));
const queued = aw.write('queued');
queued.catch((e) => log('queued write rejected:', e));
await aw.abort('stop');
log('abort done', sinkController.signal.aborted);
await aw.closed.catch((e) => log('closed rejected:', e));

// controller.error errors the stream.
const erroring = new WritableStream({ start(c) { c.error(new Error('sink broke')); } });
await erroring.getWriter().write(1).catch((e) => log('after controller.error:', e.message));
log(new WritableStream(), new WritableStream().getWriter());

// WritableStream.close and abort on a locked stream.
const lw = new WritableStream();
lw.getWriter();
await lw.close().catch((e) => log(e.code, e.message));
await lw.abort().catch((e) => log(e.code, e.message));

// TransformStream: identity, transform + flush, terminate, errors.
const id = new TransformStream();
const idw = id.writable.getWriter();
idw.write('same');
idw.close();
for await (const v of id.readable) log('identity', v);

const splitter = new TransformStream({
  start() { log('transformer start'); },
  transform(chunk, c) { for (const part of chunk.split(' ')) c.enqueue(part); },
  flush(c) { c.enqueue('<end>'); },
});
const sw = splitter.writable.getWriter();
sw.write('hello big world');
sw.close();
const parts = [];
for await (const v of splitter.readable) parts.push(v);
log(parts);

const term = new TransformStream({
  transform(chunk, c) { c.enqueue(chunk); c.terminate(); },
});
const tw = term.writable.getWriter();
tw.write('only');
const tr = term.readable.getReader();
log(await tr.read(), await tr.read());
await tw.write('more').catch((e) => log('after terminate:', e.code, e.message));

const failing = new TransformStream({ transform() { throw new Error('transform failed'); } });
const fw = failing.writable.getWriter();
fw.write('x').catch((e) => log('write rejected:', e.message));
await failing.readable.getReader().read().catch((e) => log('read rejected:', e.message));

try { new TransformStream({ readableType: 'bytes' }); } catch (e) { log(e.name, e.code, e.message); }
const t2 = new TransformStream({}, { highWaterMark: 4 }, { highWaterMark: 2 });
log(t2.writable.getWriter().desiredSize, t2);
