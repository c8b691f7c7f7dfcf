'use strict';
// The global fetch (WHATWG Fetch, as Node 20's undici behaves) over Amber's network binding
// (node:internal/net): the request is a journaled host operation, the response head its
// completion, and each body read one more, made only when the program reads the body
// (docs/node-compat.md, "Network"). Request and Response themselves are in
// node:internal/web/fetch.

const net = require('node:internal/net');
const { requestParts, responseFromHost, fullyReadBody } = require('node:internal/web/fetch');
const { ReadableStream } = require('node:stream/web');

// Statuses whose response has no body (the exchange is released at once).
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);

function failure(cause) {
  return new TypeError('fetch failed', { cause });
}

function causeOf(error) {
  const e = new Error(error.message || error.code);
  e.code = error.code;
  return e;
}

function fetch(input, init = undefined) {
  return new Promise((resolve, reject) => {
    let parts;
    try {
      parts = requestParts(input, init);
    } catch (e) {
      reject(e);
      return;
    }
    const { signal } = parts;
    if (signal && signal.aborted) {
      reject(signal.reason);
      return;
    }
    let url;
    try {
      url = new URL(parts.url);
    } catch (e) {
      reject(new TypeError('Failed to parse URL from ' + parts.url, { cause: e }));
      return;
    }
    if (url.protocol === 'data:') {
      // Answered here, from the URL alone: nothing leaves the process, nothing is journaled.
      const parsed = processDataURL(url);
      if (parsed === null) reject(failure(new Error('invalid data: URL')));
      else {
        resolve(responseFromHost({ status: 200, statusText: 'OK', headers: [['content-type', parsed.mimeType]], url: url.href.replace(/#.*$/s, '') },
          new ReadableStream({ start(c) { if (parsed.body.byteLength) c.enqueue(parsed.body); c.close(); } })));
      }
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(failure(new Error(url.protocol === 'blob:' ? 'fetching blob: URLs is not supported in Amber' : 'unknown scheme')));
      return;
    }
    const body = parts.body;
    // A host whose first use the program manifest gates waits for its approval here.
    const send = (bytes) => {
      const wait = net.gate('Net', url.hostname.toLowerCase(), 'fetch');
      if (wait === undefined) dispatch(bytes);
      else wait.then(() => dispatch(bytes), (e) => reject(failure(e)));
    };
    const dispatch = (bytes) => {
      // Aborted while it waited for an approval: nothing is sent.
      if (signal && signal.aborted) {
        reject(signal.reason);
        return;
      }
      let exchange;
      try {
        exchange = net.request({
          method: parts.method,
          url: url.href,
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          headers: parts.headers,
          redirect: parts.redirect || 'follow',
          decode: true,
        }, bytes);
      } catch (e) {
        reject(failure(e));
        return;
      }
      const seq = exchange.seq;
      let settled = false;
      let aborted = false;
      let controllerError;
      const onAbort = () => {
        aborted = true;
        net.cancel(seq);
        if (!settled) {
          settled = true;
          reject(signal.reason);
        } else if (controllerError) {
          controllerError(signal.reason);
        }
      };
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        if (signal) signal.removeEventListener('abort', onAbort);
      };
      exchange.response.then((head) => {
        if (settled) return;
        settled = true;
        if (head.error) {
          done();
          reject(failure(causeOf(head.error)));
          return;
        }
        let stream = null;
        if (parts.method === 'HEAD' || nullBodyStatus.has(head.status)) {
          net.cancel(seq);
          done();
        } else {
          let offset = 0;
          stream = new ReadableStream({
            start(controller) {
              controllerError = (reason) => controller.error(reason);
            },
            async pull(controller) {
              const chunk = await net.read(seq, offset);
              if (chunk === null) {
                done();
                controller.close();
              } else if (chunk instanceof Uint8Array) {
                offset += chunk.byteLength;
                controller.enqueue(chunk);
              } else if (!aborted) {
                done();
                controller.error(new TypeError('terminated', { cause: causeOf(chunk.error) }));
              }
            },
            cancel() {
              done();
              net.cancel(seq);
            },
          }, { highWaterMark: 0 });
        }
        resolve(responseFromHost({
          status: head.status,
          statusText: head.statusText,
          headers: head.headers,
          url: head.url,
          redirected: head.redirected,
        }, stream));
      }, (e) => {
        if (settled) return;
        settled = true;
        done();
        reject(e);
      });
    };
    if (body instanceof ReadableStream) fullyReadBody({ stream: body }).then(send, (e) => reject(failure(e)));
    else send(body ?? null);
  });
}

// ---- data: URLs (WHATWG Fetch, "data: URL processor"; MIME Sniffing, "parse a MIME type")

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const QUOTED_OK = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

// The bytes of `text` with %XX sequences decoded (percent-decode over the UTF-8 bytes).
function percentDecode(text) {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  const hex = (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length && hex(bytes[i + 1]) && hex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16);
      i += 2;
    } else out[n++] = b;
  }
  return out.subarray(0, n);
}

// forgiving-base64 decode of `text`, or null.
function forgivingBase64(text) {
  let data = text.replace(/[\t\n\f\r ]+/g, '');
  if (data.length % 4 === 0) data = data.replace(/==?$/, '');
  if (data.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(data)) return null;
  return Uint8Array.from(Buffer.from(data, 'base64'));
}

// The serialization of the parsed MIME type `input`, or null when it does not parse.
function parseMimeType(input) {
  const s = input.replace(HTTP_WHITESPACE, '');
  const slash = s.indexOf('/');
  if (slash <= 0) return null;
  const type = s.slice(0, slash);
  let rest = s.slice(slash + 1);
  const semi = rest.indexOf(';');
  const subtype = (semi === -1 ? rest : rest.slice(0, semi)).replace(/[\t\n\r ]+$/, '');
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  let out = `${type.toLowerCase()}/${subtype.toLowerCase()}`;
  const seen = new Set();
  rest = semi === -1 ? '' : rest.slice(semi + 1);
  while (rest.length > 0) {
    rest = rest.replace(/^[\t\n\r ]+/, '');
    let end = 0;
    while (end < rest.length && rest[end] !== ';' && rest[end] !== '=') end++;
    const name = rest.slice(0, end).toLowerCase();
    rest = rest.slice(end);
    if (rest[0] === ';') { rest = rest.slice(1); continue; }
    if (rest.length === 0) break;
    rest = rest.slice(1);
    let value;
    if (rest[0] === '"') {
      value = '';
      let i = 1;
      for (; i < rest.length; i++) {
        if (rest[i] === '\\' && i + 1 < rest.length) value += rest[++i];
        else if (rest[i] === '"') break;
        else value += rest[i];
      }
      rest = rest.slice(i + 1);
      const next = rest.indexOf(';');
      rest = next === -1 ? '' : rest.slice(next + 1);
    } else {
      const next = rest.indexOf(';');
      value = (next === -1 ? rest : rest.slice(0, next)).replace(/[\t\n\r ]+$/, '');
      rest = next === -1 ? '' : rest.slice(next + 1);
      if (value === '') continue;
    }
    if (name && TOKEN.test(name) && QUOTED_OK.test(value) && !seen.has(name)) {
      seen.add(name);
      const quoted = value === '' || !TOKEN.test(value) ? `"${value.replace(/(["\\])/g, '\\$1')}"` : value;
      out += `;${name}=${quoted}`;
    }
  }
  return out;
}

// { mimeType, body } of a data: URL, or null (a network error).
function processDataURL(url) {
  let input = url.href;
  const hash = input.indexOf('#');
  if (hash !== -1) input = input.slice(0, hash);
  input = input.slice('data:'.length);
  const comma = input.indexOf(',');
  if (comma === -1) return null;
  let mimeType = input.slice(0, comma).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  let body = percentDecode(input.slice(comma + 1));
  const base64 = /;[\u0020]*base64$/i.exec(mimeType);
  if (base64) {
    mimeType = mimeType.slice(0, base64.index);
    body = forgivingBase64(Buffer.from(body).toString('latin1'));
    if (body === null) return null;
  }
  if (mimeType.startsWith(';')) mimeType = 'text/plain' + mimeType;
  return { mimeType: parseMimeType(mimeType) ?? 'text/plain;charset=US-ASCII', body };
}

module.exports = { fetch };
