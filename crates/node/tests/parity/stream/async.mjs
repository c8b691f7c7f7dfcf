import { Readable, Writable, Transform, PassThrough, Duplex } from 'node:stream';
import { pipeline, finished } from 'node:stream/promises';
import stream from 'node:stream';

const log = (...a) => console.log(...a);

// async iteration over a Readable.from of an async generator
async function* gen() {
  for (let i = 0; i < 3; i++) { await null; yield `g${i}`; }
}
const got = [];
for await (const c of Readable.from(gen())) got.push(c);
log('async gen', got.join(','));

// async iteration over a byte stream with highWaterMark
let n = 0;
const bytes = new Readable({ highWaterMark: 4, read() { this.push(n < 3 ? Buffer.from('abcdef'.slice(n * 2, n * 2 + 2)) : null); n++; } });
const parts = [];
for await (const c of bytes) parts.push(c.toString());
log('bytes', parts.join('|'), bytes.destroyed, bytes.readableEnded);

// break out of the loop destroys the stream
const big = Readable.from([1, 2, 3, 4, 5]);
const it = big[Symbol.asyncIterator]();
log('first', (await it.next()).value);
await it.return();
log('after return destroyed', big.destroyed);

// promises pipeline with transform generator and async destination
const collected = [];
await pipeline(
  Readable.from(['one', 'two', 'three']),
  async function* (source) { for await (const c of source) yield c.length; },
  new Writable({ objectMode: true, write(c, e, cb) { collected.push(c); cb(); } }),
);
log('pipeline lengths', collected.join(','));

const total = await pipeline(
  Readable.from([1, 2, 3]),
  async function (source) { let s = 0; for await (const c of source) s += c; return s; },
);
log('pipeline value', total);

try {
  await pipeline(
    Readable.from(['a']),
    new Transform({ objectMode: true, transform(c, e, cb) { cb(new Error('nope')); } }),
    new PassThrough({ objectMode: true }),
  );
} catch (e) { log('pipeline rejected', e.message); }

// finished promise
const w = new Writable({ write(c, e, cb) { setTimeout(cb, 1); } });
w.write('x');
w.end();
await finished(w);
log('finished writable', w.writableFinished, w.destroyed);

const r = new Readable({ read() {} });
const p = finished(r);
r.destroy(new Error('gone'));
try { await p; } catch (e) { log('finished rejected', e.message); }

// error in the middle of iteration
const bad = new Readable({ read() { this.destroy(new Error('mid')); } });
try { for await (const c of bad) log(c); } catch (e) { log('iter error', e.message); }

// Duplex
const d = new Duplex({
  read() {},
  write(chunk, enc, cb) { this.push(chunk.toString().toUpperCase()); cb(); },
  final(cb) { this.push(null); cb(); },
});
const dout = [];
d.on('data', (c) => dout.push(c.toString()));
d.on('end', () => log('duplex end', dout.join('')));
d.write('ab');
d.end('cd');
await finished(d);
log('duplex finished');

log('exports', typeof stream, stream === stream.Stream, typeof stream.Readable.from, stream.Readable.prototype instanceof stream);
log('instance', new PassThrough() instanceof Writable, new Duplex() instanceof Writable, new Readable() instanceof Writable);
