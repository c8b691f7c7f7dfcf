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
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(failure(new Error(url.protocol === 'data:' || url.protocol === 'blob:'
        ? `fetching ${url.protocol} URLs is not supported in Amber`
        : 'unknown scheme')));
      return;
    }
    const body = parts.body;
    const send = (bytes) => {
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

module.exports = { fetch };
