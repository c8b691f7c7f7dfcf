// node:stream/consumers over Node streams, web streams and async generators.
import { arrayBuffer, blob, buffer, json, text } from 'node:stream/consumers';
import { Readable } from 'node:stream';

console.log(await text(Readable.from(['h', 'é', 'llo'])));
console.log(await text(Readable.from([Buffer.from([0xe2, 0x82]), Buffer.from([0xac])])));
console.log(await json(Readable.from(['{"a":', '[1,2]}'])));
const b = await buffer(Readable.from([Buffer.from('ab'), 'cd']));
console.log(Buffer.isBuffer(b), b.toString());
const ab = await arrayBuffer(Readable.from([Buffer.from('xyz')]));
console.log(ab instanceof ArrayBuffer, ab.byteLength);
const bl = await blob(Readable.from([Buffer.from('blob!')]));
console.log(bl.size, await bl.text());
async function* gen() {
  yield 'gen';
  yield 'erated';
}
console.log(await text(gen()));
console.log(await text(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('web')); c.close(); } })));
