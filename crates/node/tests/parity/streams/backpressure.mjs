// Backpressure: desiredSize with count and byte-length strategies, pull only when wanted,
// and a WritableStream writer's ready promise and desiredSize.
const log = (...a) => console.log(...a);

let pulls = 0;
let ctrl;
const rs = new ReadableStream({
  start(c) { ctrl = c; log('start desiredSize', c.desiredSize); },
  pull(c) { pulls++; log('pull', pulls, 'desiredSize', c.desiredSize); },
}, new CountQueuingStrategy({ highWaterMark: 3 }));
await null;
await null;
ctrl.enqueue('a');
log('after a', ctrl.desiredSize);
ctrl.enqueue('b');
ctrl.enqueue('c');
log('after c', ctrl.desiredSize);
ctrl.enqueue('d');
log('after d (over)', ctrl.desiredSize);
await new Promise((r) => setTimeout(r, 0));
log('pulls so far', pulls);
const reader = rs.getReader();
log((await reader.read()).value, ctrl.desiredSize);
log((await reader.read()).value, ctrl.desiredSize);
await new Promise((r) => setTimeout(r, 0));
log('pulls after reads', pulls);

const sized = new ReadableStream({
  start(c) {
    c.enqueue(new Uint8Array(4));
    log('bytes desiredSize', c.desiredSize);
    c.enqueue(new Uint8Array(10));
    log('bytes desiredSize', c.desiredSize);
  },
}, new ByteLengthQueuingStrategy({ highWaterMark: 8 }));
void sized;

const custom = new ReadableStream({
  start(c) { c.enqueue('hello'); log('custom size desiredSize', c.desiredSize); },
}, { highWaterMark: 10, size: (chunk) => chunk.length });
void custom;

// A bad size result errors the stream.
new ReadableStream({
  start(c) {
    try { c.enqueue('x'); } catch (e) { log('bad size:', e.name, e.code); }
  },
}, { size: () => -1 });

// WritableStream: ready and desiredSize follow the queue.
const written = [];
let release;
const ws = new WritableStream({
  write(chunk) {
    written.push(chunk);
    return new Promise((r) => { release = r; });
  },
  close() { log('sink close'); },
}, new CountQueuingStrategy({ highWaterMark: 2 }));
const writer = ws.getWriter();
log('writer desiredSize', writer.desiredSize);
const w1 = writer.write(1);
log('after write 1', writer.desiredSize);
writer.write(2);
writer.write(3);
log('after write 3', writer.desiredSize);
let ready = false;
writer.ready.then(() => { ready = true; });
await new Promise((r) => setTimeout(r, 0));
log('ready while full:', ready, 'written', written);
release();
await w1;
await new Promise((r) => setTimeout(r, 0));
log('after release', writer.desiredSize, written);
release();
await new Promise((r) => setTimeout(r, 0));
release();
await new Promise((r) => setTimeout(r, 0));
log('ready now:', ready, writer.desiredSize);
await writer.close();
log('closed, desiredSize', writer.desiredSize);
