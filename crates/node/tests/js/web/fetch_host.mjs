// The interface the host side of fetch() uses (node:internal/web/fetch): requestParts runs
// the Request constructor's algorithm and returns the wire parts; responseFromHost builds a
// "basic" Response from what the host received. Amber-only: the expected output is Amber's.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { requestParts, responseFromHost, Request } = require('node:internal/web/fetch');
const log = (...a) => console.log(...a);
const describe = (parts) => {
  const body = parts.body === null ? null
    : parts.body instanceof Uint8Array ? `bytes ${JSON.stringify(new TextDecoder().decode(parts.body))}`
      : Object.prototype.toString.call(parts.body);
  return JSON.stringify({ ...parts, body, signal: parts.signal.aborted });
};

log(describe(requestParts('http://example.com/a?b=1')));
log(describe(requestParts('http://example.com/', { method: 'post', body: 'text', headers: { 'X-B': '2', 'x-a': '1' } })));
log(describe(requestParts('http://example.com/', { method: 'PUT', body: new URLSearchParams({ q: 'a b' }) })));
log(describe(requestParts('http://example.com/', { method: 'POST', body: new Blob(['blob'], { type: 'a/b' }) })));
log(describe(requestParts('http://example.com/', { method: 'POST', body: new Uint8Array([104, 105]), headers: { 'content-type': 'x/y' } })));
const form = new FormData();
form.append('k', 'v');
const formParts = requestParts('http://example.com/', { method: 'POST', body: form });
log(formParts.headers[0][0], formParts.headers[0][1].replace(/boundary=.*/, 'boundary=…'),
  new TextDecoder().decode(formParts.body).split('\r\n').length);
const streamed = requestParts('http://example.com/', { method: 'POST', body: ReadableStream.from([]), duplex: 'half' });
log(describe(streamed));
log(describe(requestParts(new Request('http://example.com/r', { method: 'DELETE', redirect: 'manual' }))));
const ac = new AbortController();
const withSignal = requestParts('http://example.com/', { signal: ac.signal });
ac.abort('stop');
log(withSignal.signal.aborted, withSignal.signal.reason);
for (const bad of [['/relative'], ['http://x/', { method: 'GET', body: 'no' }], ['http://x/', { method: 'TRACE' }]]) {
  try { requestParts(...bad); } catch (e) { log(e.name, e.message); }
}

let push;
const body = new ReadableStream({ start(c) { push = c; } });
const response = responseFromHost({
  status: 201,
  statusText: 'Created',
  headers: [['Content-Type', 'application/json'], ['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['X-Dup', '1'], ['x-dup', '2']],
  url: 'https://api.example.com/v1/items',
  redirected: true,
}, body);
log(response.type, response.status, response.statusText, response.ok, response.url, response.redirected);
log(JSON.stringify([...response.headers]), response.headers.getSetCookie(), response.headers.get('x-dup'));
try { response.headers.set('x', 'y'); } catch (e) { log(e.name, e.message); }
const reading = response.json();
push.enqueue(new TextEncoder().encode('{"id":'));
push.enqueue(new TextEncoder().encode('7}'));
push.close();
log(await reading, response.bodyUsed);
const empty = responseFromHost({ status: 204, headers: [] }, null);
log(empty.body, empty.type, empty.url, await empty.text());
const cloned = responseFromHost({ status: 200, headers: [] }, ReadableStream.from([new Uint8Array([111, 107])])).clone();
log(await cloned.text(), cloned.type);
try { responseFromHost({ status: 200, headers: [] }, 'not a stream'); } catch (e) { log(e.name, e.message); }
