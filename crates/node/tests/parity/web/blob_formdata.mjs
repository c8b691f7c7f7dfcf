// Blob, File and FormData.
import { Blob as BufferBlob, File as BufferFile } from 'node:buffer';
import buffer from 'node:buffer';
const log = (...a) => console.log(...a);
const show = async (f) => {
  try { log('ok', await f()); } catch (e) { log(e.name, e.message); }
};

log(BufferBlob === Blob, BufferFile === File, buffer.Blob === Blob);
const b = new Blob(['ab', new Uint8Array([99, 100]), new Blob(['ef']), new Uint8Array([103, 104]).buffer], { type: 'Text/Plain' });
log(b, b.size, b.type, await b.text(), Object.prototype.toString.call(b));
log(await b.slice(1, 3).text(), await b.slice(-2).text(), await b.slice(5, 2).text(), b.slice(0, 1, 'A/B').type);
log(Array.from(new Uint8Array(await b.arrayBuffer())), Array.from(await b.bytes()), (await b.bytes()).constructor.name);
log(new Blob([], { type: 'bad\u0001type' }).type, new Blob().size, new Blob(['\u00e9']).size);
log(await new Blob(['a\r\nb\rc'], { endings: 'native' }).text() === 'a\nb\nc', await new Blob(['a\r\nb']).text());
await show(() => new Blob('not a sequence'));
await show(() => new Blob([], { endings: 'other' }));
await show(() => Blob.prototype.text.call({}));
const chunks = [];
for await (const chunk of new Blob(['stream me']).stream()) chunks.push(chunk.constructor.name, chunk.byteLength);
log(chunks);
const reader = new Blob(['byob']).stream().getReader({ mode: 'byob' });
const byob = await reader.read(new Uint8Array(2));
log(Array.from(byob.value), byob.done);

const f = new File(['x', 'yz'], 'f.txt', { type: 'text/plain', lastModified: 5 });
log(f, f.name, f.lastModified, f.size, f instanceof Blob, Object.prototype.toString.call(f));
await show(() => new File(['x']));
log(typeof new File([], 'now').lastModified);

const fd = new FormData();
fd.append('a', '1');
fd.append('f', new Blob(['xy'], { type: 'text/plain' }));
fd.append('g', new File(['z'], 'z.txt', { lastModified: 1 }), 'renamed.txt');
fd.append('a', 2);
log([...fd].map(([k, v]) => [k, typeof v === 'string' ? v : [v.constructor.name, v.name, v.type, v.size]]));
log(fd.get('a'), fd.getAll('a'), fd.has('f'), fd.has('nope'), fd.get('nope'));
fd.set('a', 'replaced');
fd.delete('f');
log([...fd.keys()], [...fd.values()].map((v) => (typeof v === 'string' ? v : v.name)));
fd.forEach((value, key) => log('forEach', key, typeof value));
await show(() => new FormData(1));
await show(() => fd.append('x', 'y', 'fn'));
await show(() => fd.append('x'));
log(new FormData(), Object.prototype.toString.call(new FormData()));

// The multipart body: its shape with the boundary masked (the boundary itself differs).
const body = new FormData();
body.append('name', 'va"l\r\nue');
body.append('file', new Blob(['content'], { type: 'application/x-test' }), 'a "quoted" name.bin');
const res = new Response(body);
const type = res.headers.get('content-type');
const boundary = type.slice(type.indexOf('boundary=') + 9);
log(type.replace(boundary, 'BOUNDARY'), boundary.length);
log(JSON.stringify((await res.text()).split(boundary).join('BOUNDARY')));

// structuredClone keeps a Blob's bytes and type; a File comes back as a Blob (as in node 20).
const clonedBlob = structuredClone(new Blob(['ab'], { type: 'x/y' }));
const clonedFile = structuredClone(new File(['cd'], 'n.txt', { type: 'x/z', lastModified: 3 }));
log(clonedBlob, clonedBlob instanceof Blob, await clonedBlob.text(), clonedFile, clonedFile instanceof File);
log(structuredClone({ nested: [new Blob(['z'])] }));
