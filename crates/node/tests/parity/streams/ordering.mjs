// The order of callbacks and promise settlements relative to other microtasks: start, pull,
// read fulfilment, write/close completion, pipe steps and tee, interleaved with a ticker.
const log = [];
let tick = 0;
const ticker = (n) => { for (let i = 0; i < n; i++) Promise.resolve().then(() => log.push(`t${tick++}`)); };

const rs = new ReadableStream({
  start(c) { log.push('start'); c.enqueue('a'); },
  pull(c) { log.push(`pull ${c.desiredSize}`); c.enqueue('p'); if (log.length > 20) c.close(); },
}, { highWaterMark: 2 });
ticker(3);
const reader = rs.getReader();
reader.read().then((r) => log.push(`read1 ${r.value}`));
reader.read().then((r) => log.push(`read2 ${r.value}`));
ticker(3);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(log.join(' '));
log.length = 0;

const ws = new WritableStream({
  start() { log.push('w-start'); },
  write(chunk) { log.push(`w-write ${chunk}`); },
  close() { log.push('w-close'); },
});
const writer = ws.getWriter();
writer.ready.then(() => log.push('ready'));
writer.write('x').then(() => log.push('x written'));
writer.write('y').then(() => log.push('y written'));
writer.close().then(() => log.push('closed'));
ticker(6);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(log.join(' '));
log.length = 0;

const ts = new TransformStream({
  transform(chunk, c) { log.push(`transform ${chunk}`); c.enqueue(chunk + '!'); },
  flush() { log.push('flush'); },
});
const tw = ts.writable.getWriter();
const tr = ts.readable.getReader();
tw.write('1').then(() => log.push('1 written'));
tr.read().then((r) => log.push(`got ${r.value}`));
tw.close().then(() => log.push('t closed'));
tr.read().then((r) => log.push(`done ${r.done}`));
ticker(8);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(log.join(' '));
log.length = 0;

const src = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } });
const sink = new WritableStream({ write(chunk) { log.push(`sink ${chunk}`); }, close() { log.push('sink close'); } });
src.pipeTo(sink).then(() => log.push('piped'));
ticker(12);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(log.join(' '));
log.length = 0;

const [b1, b2] = new ReadableStream({ start(c) { c.enqueue('t'); c.close(); } }).tee();
b1.getReader().read().then((r) => log.push(`b1 ${r.value}`));
b2.getReader().read().then((r) => log.push(`b2 ${r.value}`));
ticker(6);
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(log.join(' '));
