// node:stream/web, Readable.fromWeb/toWeb, Writable.fromWeb/toWeb, TextEncoderStream and
// TextDecoderStream.
import { Readable, Writable } from 'node:stream';
import * as web from 'node:stream/web';
const log = (...a) => console.log(...a);

log(Object.keys(web).sort().join(','));
log(web.ReadableStream === ReadableStream, web.TextDecoderStream === TextDecoderStream);

// Readable.fromWeb: chunks come through in order; encoding makes strings.
const fromWeb = Readable.fromWeb(new ReadableStream({
  start(c) { c.enqueue(new TextEncoder().encode('he')); c.enqueue(new TextEncoder().encode('llo')); c.close(); },
}), { encoding: 'utf8' });
const got = [];
for await (const chunk of fromWeb) got.push(chunk);
log('fromWeb', got);
const objects = Readable.fromWeb(ReadableStream.from([{ a: 1 }, { b: 2 }]), { objectMode: true });
objects.on('data', (d) => log('object', d));
await new Promise((r) => objects.on('end', r));

// Readable.toWeb: a Node readable as a web stream.
const nodeReadable = Readable.from(['x', 'y', 'z']);
const asWeb = Readable.toWeb(nodeReadable);
const webGot = [];
for await (const chunk of asWeb) webGot.push(chunk);
log('toWeb', webGot);
const bytes = Readable.toWeb(Readable.from([Buffer.from('ab'), Buffer.from('cd')], { objectMode: false }));
const r = bytes.getReader();
for (;;) {
  const { value, done } = await r.read();
  if (done) break;
  log('toWeb bytes', value.constructor.name, Array.from(value));
}

// Writable.toWeb and Writable.fromWeb.
const sunk = [];
const nodeWritable = new Writable({
  write(chunk, enc, cb) { sunk.push(chunk.toString()); cb(); },
});
const webWritable = Writable.toWeb(nodeWritable);
const ww = webWritable.getWriter();
await ww.write('one');
await ww.write(new TextEncoder().encode('two'));
await ww.close();
log('toWeb writable', sunk, nodeWritable.writableFinished);

const webSunk = [];
const fromWebWritable = Writable.fromWeb(new WritableStream({
  write(chunk) { webSunk.push(new TextDecoder().decode(chunk)); },
  close() { webSunk.push('<closed>'); },
}));
fromWebWritable.write('alpha');
fromWebWritable.end('beta');
await new Promise((resolve) => fromWebWritable.on('finish', resolve));
await new Promise((resolve) => setTimeout(resolve, 0));
log('fromWeb writable', webSunk);

// An error on the web side destroys the Node stream.
const broken = Readable.fromWeb(new ReadableStream({ start(c) { c.error(new Error('web failure')); } }));
broken.on('error', (e) => log('node side error:', e.message));
broken.resume();
await new Promise((resolve) => broken.on('close', resolve));

try { Readable.fromWeb({}); } catch (e) { log(e.code, e.message); }

// TextEncoderStream / TextDecoderStream, with a character split across chunks.
const enc = new TextEncoderStream();
const encoded = [];
const ew = enc.writable.getWriter();
ew.write('h\u00e9');
ew.write('\ud83d');
ew.write('\ude00!');
ew.close();
for await (const chunk of enc.readable) encoded.push(Array.from(chunk));
log('encoded', encoded, enc.encoding);

const dec = new TextDecoderStream();
const dw = dec.writable.getWriter();
const euro = new TextEncoder().encode('\u20ac and \u00e9');
dw.write(euro.subarray(0, 2));
dw.write(euro.subarray(2, 6));
dw.write(euro.subarray(6));
dw.close();
const decoded = [];
for await (const chunk of dec.readable) decoded.push(chunk);
log('decoded', decoded);
const fatal = new TextDecoderStream('utf-8', { fatal: true });
log(fatal.encoding, fatal.fatal, fatal.ignoreBOM);
const fw = fatal.writable.getWriter();
fw.write(new Uint8Array([0xff])).catch(() => {});
await fatal.readable.getReader().read().catch((e) => log('fatal decode:', e.name, e.code));
log(new TextEncoderStream(), new TextDecoderStream('latin1'));
