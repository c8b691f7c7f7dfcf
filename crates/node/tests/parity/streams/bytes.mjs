// Byte streams: BYOB readers, byobRequest, respond/respondWithNewView, autoAllocateChunkSize,
// transfer of enqueued chunks, default readers over byte streams.
const log = (...a) => console.log(...a);

const data = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
let offset = 0;
const rs = new ReadableStream({
  type: 'bytes',
  pull(c) {
    const req = c.byobRequest;
    if (offset >= data.length) {
      c.close();
      if (req) req.respond(0);
      return;
    }
    if (req) {
      const n = Math.min(req.view.byteLength, 3, data.length - offset);
      req.view.set(data.subarray(offset, offset + n));
      offset += n;
      req.respond(n);
    } else {
      c.enqueue(data.slice(offset, offset + 3));
      offset += 3;
    }
  },
});
const reader = rs.getReader({ mode: 'byob' });
log(Object.prototype.toString.call(reader));
let buf = new ArrayBuffer(8);
for (;;) {
  const { value, done } = await reader.read(new Uint8Array(buf, 0, 8));
  if (done) { log('done', value.byteLength); break; }
  log('byob read', Array.from(value), value.byteOffset, value.buffer.byteLength);
  buf = value.buffer;
}

// Enqueued chunks are transferred: the producer's view is detached.
const chunk = new Uint8Array([9, 9, 9]);
const queued = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(chunk); c.close(); } });
log('producer view after enqueue', chunk.byteLength, chunk.buffer.byteLength);
const dr = queued.getReader();
const first = await dr.read();
log('default read of byte stream', first.value.constructor.name, Array.from(first.value));
log('then', await dr.read());

// A BYOB read into a Uint16Array from queued bytes.
const words = new ReadableStream({
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array([1, 0, 2, 0, 3])); c.close(); },
});
const wr = words.getReader({ mode: 'byob' });
const r16 = await wr.read(new Uint16Array(4));
log('uint16', r16.value.constructor.name, Array.from(r16.value), r16.done);
await wr.read(new Uint16Array(4)).then((r) => log('partial', r), (e) => log('partial read error:', e.code, e.message));

// autoAllocateChunkSize gives a default reader a byobRequest.
const auto = new ReadableStream({
  type: 'bytes',
  autoAllocateChunkSize: 4,
  pull(c) {
    const v = c.byobRequest.view;
    log('auto view', v.constructor.name, v.byteLength);
    v[0] = 42;
    c.byobRequest.respond(1);
    c.close();
  },
});
const ar = auto.getReader();
log('auto read', Array.from((await ar.read()).value));

// respondWithNewView.
const nv = new ReadableStream({
  type: 'bytes',
  pull(c) {
    const v = c.byobRequest.view;
    const view = new Uint8Array(v.buffer, v.byteOffset, 2);
    view.set([7, 8]);
    c.byobRequest.respondWithNewView(view);
  },
});
const nr = nv.getReader({ mode: 'byob' });
log('new view', Array.from((await nr.read(new Uint8Array(5))).value));

// Errors.
const plain = new ReadableStream();
try { plain.getReader({ mode: 'byob' }); } catch (e) { log(e.name, e.code); }
try { plain.getReader({ mode: 'x' }); } catch (e) { log(e.name, e.code, e.message); }
const br = new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' });
await br.read(new Uint8Array(0)).catch((e) => log(e.code, e.message));
await br.read().catch((e) => log(e.code, e.message));
new ReadableStream({
  type: 'bytes',
  start(c) {
    try { c.enqueue('str'); } catch (e) { log(e.code); }
    try { c.enqueue(new Uint8Array(0)); } catch (e) { log(e.code); }
  },
});

// tee of a byte stream: branches are byte streams with independent copies.
const [t1, t2] = new ReadableStream({
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array([1, 2])); c.close(); },
}).tee();
const x1 = (await t1.getReader().read()).value;
const x2 = (await t2.getReader().read()).value;
x1[0] = 99;
log('tee bytes', Array.from(x1), Array.from(x2), x1.buffer === x2.buffer);
