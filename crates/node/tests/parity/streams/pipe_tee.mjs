// tee, pipeTo (close/error/abort propagation, preventClose, signal), pipeThrough.
const log = (...a) => console.log(...a);
const collect = async (stream) => {
  const out = [];
  for await (const v of stream) out.push(v);
  return out;
};
const source = (items, onCancel) => new ReadableStream({
  start(c) { for (const i of items) c.enqueue(i); c.close(); },
  cancel: onCancel,
});

// tee: both branches see every chunk; the same object for default streams.
const [a, b] = source([{ n: 1 }, { n: 2 }]).tee();
const [ra, rb] = await Promise.all([collect(a), collect(b)]);
log('tee', ra, rb, ra[0] === rb[0]);

// Cancelling both branches cancels the source with both reasons.
const [c1, c2] = new ReadableStream({ cancel(r) { log('source cancelled with', r); } }).tee();
c1.cancel('one');
await c2.cancel('two');

// An error reaches both branches.
let errorIt;
const [e1, e2] = new ReadableStream({ start(c) { errorIt = (e) => c.error(e); } }).tee();
errorIt(new Error('boom'));
await e1.getReader().read().catch((e) => log('branch 1:', e.message));
await e2.getReader().read().catch((e) => log('branch 2:', e.message));

// pipeTo: chunks in order, then close.
const sink = [];
await source(['x', 'y', 'z']).pipeTo(new WritableStream({
  write(chunk) { sink.push(chunk); },
  close() { sink.push('<closed>'); },
}));
log('pipeTo', sink);

// preventClose leaves the destination open.
const ws = new WritableStream({ write(ch) { log('write', ch); }, close() { log('never closed'); } });
await source([1]).pipeTo(ws, { preventClose: true });
log('dest locked after pipe:', ws.locked);
const w = ws.getWriter();
await w.write(2);
w.releaseLock();

// A source error aborts the destination.
await new ReadableStream({ start(c) { c.error(new Error('src err')); } })
  .pipeTo(new WritableStream({ abort(r) { log('dest aborted:', r.message); } }))
  .catch((e) => log('pipe rejected:', e.message));

// A destination error cancels the source.
await source(['a', 'b'], (r) => log('source cancel:', r.message))
  .pipeTo(new WritableStream({ write() { throw new Error('sink err'); } }))
  .catch((e) => log('pipe rejected:', e.message));

// An AbortSignal stops the pipe.
const ac = new AbortController();
let slowCancelled = false;
const slow = new ReadableStream({
  pull(c) { return new Promise((r) => setTimeout(() => { if (!slowCancelled) c.enqueue('tick'); r(); }, 5)); },
  cancel(r) { slowCancelled = true; log('slow source cancelled:', r.name); },
});
const got = [];
const piping = slow.pipeTo(new WritableStream({
  write(ch) { got.push(ch); if (got.length === 3) ac.abort(); },
  abort(r) { log('dest abort:', r.name); },
}), { signal: ac.signal });
await piping.catch((e) => log('aborted pipe:', e.name, e.message, got.length));

// pipeThrough a TransformStream.
const upper = new TransformStream({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()); } });
log('pipeThrough', await collect(source(['ab', 'cd']).pipeThrough(upper)));

// Locked streams are refused.
const lockedSrc = source([]);
lockedSrc.getReader();
try { lockedSrc.pipeThrough(new TransformStream()); } catch (e) { log(e.code, e.message); }
await lockedSrc.pipeTo(new WritableStream()).catch((e) => log(e.code, e.message));
try { source([]).pipeThrough({}); } catch (e) { log(e.code, e.message); }
