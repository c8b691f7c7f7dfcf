import { Readable, addAbortSignal, finished } from 'node:stream';
import { pipeline } from 'node:stream/promises';
const ac = new AbortController();
const r = addAbortSignal(ac.signal, new Readable({ read() {} }));
r.on('error', (e) => console.log('err', e.name, e.code));
r.on('close', () => console.log('close'));
ac.abort();
const ac2 = new AbortController();
const p = pipeline(new Readable({ read() {} }), async function (src) { for await (const c of src); }, { signal: ac2.signal });
ac2.abort();
try { await p; } catch (e) { console.log('pipeline', e.name, e.code); }
