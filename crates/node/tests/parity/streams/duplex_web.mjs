// Duplex.fromWeb and Duplex.toWeb.
import { Duplex, PassThrough } from 'node:stream';
const log = (...a) => console.log(...a);

// A TransformStream as a Node duplex: write in, read out.
const upper = new TransformStream({ transform(chunk, c) { c.enqueue(new TextDecoder().decode(chunk).toUpperCase()); } });
const duplex = Duplex.fromWeb(upper, { encoding: 'utf8' });
const out = [];
duplex.on('data', (d) => out.push(d));
duplex.write('hello ');
duplex.end('world');
await new Promise((resolve) => duplex.on('end', resolve));
log('fromWeb', out.join(''));

// A PassThrough as a web pair.
const pass = new PassThrough();
const { readable, writable } = Duplex.toWeb(pass);
const writer = writable.getWriter();
writer.write(new TextEncoder().encode('through '));
writer.write(new TextEncoder().encode('the pair'));
writer.close();
let text = '';
for await (const chunk of readable) text += new TextDecoder().decode(chunk);
log('toWeb', JSON.stringify(text));

try { Duplex.fromWeb({}); } catch (e) { log(e.code, e.message); }
try { Duplex.toWeb({}); } catch (e) { log(e.code, e.message); }
const destroyed = new PassThrough();
destroyed.destroy();
const pair = Duplex.toWeb(destroyed);
log(Object.keys(pair).sort(), pair.readable.locked, pair.writable.locked);
