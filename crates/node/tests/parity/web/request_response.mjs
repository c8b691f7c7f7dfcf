// Request and Response: constructors and their validation, body mixin, clone, bodyUsed,
// Response.json/error/redirect, signals, method normalisation, duplex.
const log = (...a) => console.log(...a);
const show = async (f) => {
  try { log('ok', await f()); } catch (e) { log(e.name, e.message); }
};

await show(() => new Request('/relative').url);
await show(() => new Request('http://x/', { method: 'GET', body: 'x' }));
await show(() => new Request('http://x/', { method: 'HEAD', body: '' }));
await show(() => new Request('http://x/', { method: 'CONNECT' }));
await show(() => new Request('http://x/', { method: 'bad method' }));
await show(() => new Request('http://u:p@x/'));
await show(() => new Request('http://x/', { mode: 'navigate' }));
await show(() => new Request('http://x/', { redirect: 'sometimes' }));
await show(() => new Request('http://x/', { body: new ReadableStream(), method: 'POST' }));
await show(() => new Request('http://x/', { body: new ReadableStream(), method: 'POST', duplex: 'half' }).duplex);
await show(() => new Request());
await show(() => new Response('x', { status: 99 }));
await show(() => new Response('x', { status: 204 }));
await show(() => new Response(null, { status: 204 }).status);
await show(() => new Response('x', { statusText: 'a\nb' }));
await show(() => Response.redirect('http://x/', 200));
await show(() => Response.redirect('/rel'));
await show(() => Response.json(1n));
await show(() => Response.json(undefined));

const req = new Request('http://example.com/p?q=1', { method: 'post', body: 'hello', headers: { 'X-A': '1' } });
log(req.method, req.url, [...req.headers], req.bodyUsed, req.duplex, req.redirect, req.mode, req.credentials);
log(req);
const req2 = new Request(req, { method: 'PUT' });
log(req2.method, await req2.text(), req.bodyUsed);
await show(() => req.text());
await show(() => new Request(req));
for (const m of ['get', 'Post', 'delete', 'OPTIONS', 'put', 'head', 'MKCOL']) {
  log(m, '->', new Request('http://x/', { method: m }).method);
}
const ac = new AbortController();
const rq = new Request('http://x/', { signal: ac.signal });
log(rq.signal.aborted, rq.signal === ac.signal);
ac.abort('reason');
log(rq.signal.aborted, rq.signal.reason);
const pre = new Request('http://x/', { signal: AbortSignal.abort('early') });
log(pre.signal.aborted, pre.signal.reason);
const cloned = new Request('http://x/', { method: 'POST', body: 'twice' }).clone();
log(await cloned.text(), new Request('http://x/a b').url, new Request(new URL('http://x/u')).url);

// Response bodies of every BodyInit kind, and the content-type each implies.
const kinds = {
  string: 'text',
  bytes: new Uint8Array([104, 105]),
  buffer: new Uint8Array([104, 105]).buffer,
  dataview: new DataView(new Uint8Array([104, 105]).buffer),
  blob: new Blob(['blob'], { type: 'application/x-thing' }),
  params: new URLSearchParams({ a: '1', b: 'two words' }),
  stream: ReadableStream.from([new Uint8Array([115]), new Uint8Array([116])]),
  number: 42,
};
for (const [kind, body] of Object.entries(kinds)) {
  const r = new Response(body);
  log(kind, r.headers.get('content-type'), JSON.stringify(await r.text()), r.bodyUsed);
}
log(new Response(null).body, await new Response(null).text(), new Response().bodyUsed);

const r = new Response('abc');
log(await r.text());
await show(() => r.text());
await show(() => r.clone());
const r2 = new Response('abc');
r2.body.getReader();
await show(() => r2.text());
const r3 = new Response('{"a":[1,2]}', { status: 201, statusText: 'Created', headers: { 'X-Y': 'z' } });
const r4 = r3.clone();
log(await r3.json(), await r4.arrayBuffer().then((b) => b.byteLength), r3.status, r3.statusText, r3.ok, r3.type, r3.url);
log(Array.from(await new Response('xy').bytes()), await new Response('xyz', { headers: { 'content-type': 'Text/Weird; A=b' } }).blob());
await show(() => new Response('{bad').json());
await show(() => new Response(new ReadableStream({ start(c) { c.enqueue('str'); c.close(); } })).text());
const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
log(JSON.stringify(await new Response(bom).text()));

const e = Response.error();
log(e.type, e.status, e.ok, e.body, e.statusText, e.headers);
const red = Response.redirect('http://x/a', 301);
log(red.status, red.headers.get('location'), [...red.headers], red.type);
const j = Response.json({ a: 1 }, { status: 201, headers: { 'x-a': 'b' } });
log(j.status, [...j.headers], await j.json());
log(new Response('a', { status: 404, statusText: 'Nope' }));
log(Object.prototype.toString.call(new Response()), Object.prototype.toString.call(new Request('http://x/')));

// formData() from urlencoded, from multipart, and a content-type it cannot parse.
const fromParams = await new Response(new URLSearchParams('a=1&b=2&a=3')).formData();
log(fromParams.getAll('a'), fromParams.get('b'));
const form = new FormData();
form.append('field', 'value\nline');
form.append('upload', new Blob(['file body'], { type: 'text/x-custom' }), 'up.txt');
const multipart = new Response(form);
const parsed = await multipart.formData();
const upload = parsed.get('upload');
log(parsed.get('field'), upload.name, upload.type, await upload.text());
await show(() => new Response('x').formData());
const streamed = await new Response(ReadableStream.from(['a', 'b']).pipeThrough(new TextEncoderStream())).text();
log('piped', streamed);
