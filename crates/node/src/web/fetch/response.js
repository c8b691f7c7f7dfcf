// ---- Response (Fetch §5.5), and the two functions the host side of fetch() uses.

const kResponse = Symbol('kResponse');
const nullBodyStatus = [101, 103, 204, 205, 304];
const redirectStatus = [301, 302, 303, 307, 308];

function responseSlots(response) {
  const s = response !== null && typeof response === 'object' && Object.prototype.hasOwnProperty.call(response, kResponse)
    ? response[kResponse] : undefined;
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function makeResponse(s) {
  const response = Object.create(Response.prototype);
  s.headers = headersWithGuard(s.headersList, s.guard);
  Object.defineProperty(response, kResponse, { value: s });
  return response;
}

// "initialize a response" (Fetch §5.5): status, statusText, headers, then the body.
function initializeResponse(s, init, body) {
  if (init.status !== undefined) {
    const status = Number(init.status);
    if (!(status >= 200 && status <= 599)) {
      throw new RangeError('init["status"] must be in the range of 200 to 599, inclusive.');
    }
    s.status = Math.trunc(status);
  }
  if (init.statusText !== undefined) {
    const text = toByteString(init.statusText, 'Response constructor');
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(text)) throw new TypeError('Invalid statusText');
    s.statusText = text;
  }
  if (init.headers !== undefined) {
    const fill = { list: s.headersList, guard: 'response' };
    headersFill(fill, init.headers);
  }
  if (body !== null) {
    if (nullBodyStatus.includes(s.status)) {
      throw new TypeError(`Response constructor: Invalid response status code ${s.status}`);
    }
    s.body = body.body;
    if (body.type !== null && !s.headersList.map.has('content-type')) {
      headerListAppend(s.headersList, 'content-type', body.type);
    }
  }
}

function newResponseSlots() {
  return {
    type: 'default', status: 200, statusText: '', headersList: newHeaderList(), guard: 'response',
    body: null, url: '', redirected: false,
  };
}

class Response {
  constructor(body = null, init = undefined) {
    if (init !== undefined && init !== null && typeof init !== 'object') {
      throw new TypeError('Response constructor: Expected init ("Argument 2") to be an instance of ResponseInit.');
    }
    const s = newResponseSlots();
    const extracted = body === null || body === undefined ? null : extractBody(body);
    initializeResponse(s, init ?? {}, extracted);
    s.headers = headersWithGuard(s.headersList, 'response');
    Object.defineProperty(this, kResponse, { value: s });
  }

  static error() {
    const s = newResponseSlots();
    s.type = 'error';
    s.status = 0;
    s.guard = 'immutable';
    return makeResponse(s);
  }

  static json(data, init = {}) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    const s = newResponseSlots();
    const body = extractBody(text);
    body.type = 'application/json';
    initializeResponse(s, init ?? {}, body);
    return makeResponse(s);
  }

  static redirect(url, status = 302) {
    let parsed;
    try {
      parsed = new URL(`${url}`);
    } catch (err) {
      throw new TypeError(`Failed to parse URL from ${url}`, { cause: err });
    }
    const code = Number(status);
    if (!redirectStatus.includes(code)) throw new RangeError(`Invalid status code ${status}`);
    const s = newResponseSlots();
    s.status = code;
    s.guard = 'immutable';
    headerListAppend(s.headersList, 'location', parsed.href);
    return makeResponse(s);
  }

  get type() { return responseSlots(this).type; }
  get url() { return responseSlots(this).url; }
  get redirected() { return responseSlots(this).redirected; }
  get status() { return responseSlots(this).status; }
  get ok() {
    const { status } = responseSlots(this);
    return status >= 200 && status <= 299;
  }
  get statusText() { return responseSlots(this).statusText; }
  get headers() { return responseSlots(this).headers; }

  clone() {
    const s = responseSlots(this);
    if (bodyUnusable(s.body)) throw new TypeError('Response.clone: Body has already been consumed.');
    const copy = { ...s, headersList: headerListCopy(s.headersList) };
    copy.body = s.body === null ? null : cloneBody(s.body);
    return makeResponse(copy);
  }

  [kInspect](depth, options) {
    const s = responseSlots(this);
    return inspectAs('Response', {
      status: s.status, statusText: s.statusText, headers: s.headers, body: this.body, bodyUsed: this.bodyUsed,
      ok: this.ok, redirected: s.redirected, type: s.type, url: s.url,
    }, depth, options);
  }
}
Object.defineProperty(Response.prototype, Symbol.toStringTag, { value: 'Response', configurable: true });
installBodyMixin(Response, responseSlots);

// ---- the interface the host side of fetch() uses
//
// responseFromHost({ status, statusText, headers, url, redirected }, body) → Response
//   `headers` is [[name, value], …] in wire order (repeated names allowed; each is
//   appended, so set-cookie lines stay apart for getSetCookie()); `body` is a
//   ReadableStream of Uint8Array chunks, or null. The Response's type is "basic", its
//   headers are immutable, and `url`/`redirected` carry what the host saw (they cannot be
//   set on a Response a program builds).
//
// requestParts(input, init) → { method, url, headers, body, signal, redirect }
//   Runs the `new Request(input, init)` algorithm (so it throws what the constructor
//   throws) and returns what goes on the wire: `headers` as [[lower-case name, value], …]
//   in sorted-and-combined order (set-cookie values apart), including the Content-Type a
//   string/Blob/FormData/URLSearchParams body implies; `body` is null, a Uint8Array (the
//   bytes, for every body whose bytes are known) or a ReadableStream (a stream body);
//   `signal` is the request's AbortSignal; `redirect` is "follow" | "error" | "manual".
function responseFromHost(meta, body) {
  const s = newResponseSlots();
  s.type = 'basic';
  s.status = Number(meta.status);
  s.statusText = meta.statusText === undefined ? '' : `${meta.statusText}`;
  for (const [name, value] of meta.headers ?? []) headerListAppend(s.headersList, `${name}`, `${value}`);
  s.url = meta.url === undefined ? '' : `${meta.url}`;
  s.redirected = !!meta.redirected;
  s.guard = 'immutable';
  if (body !== null && body !== undefined) {
    if (!streamInternals.isReadableStream(body)) throw new TypeError('responseFromHost: body must be a ReadableStream or null');
    s.body = { stream: body, source: null, length: null };
  }
  return makeResponse(s);
}

function requestParts(input, init) {
  const s = requestSlotsFrom(input, init);
  let body = null;
  if (s.body !== null) body = s.body.source !== null ? s.body.source : s.body.stream;
  return {
    method: s.method,
    url: s.url,
    headers: headerListSortAndCombine(s.headersList),
    body,
    signal: s.signal,
    redirect: s.redirect,
  };
}

module.exports = { Headers, FormData, Request, Response };
Object.defineProperty(module.exports, 'responseFromHost', { value: responseFromHost, enumerable: false });
Object.defineProperty(module.exports, 'requestParts', { value: requestParts, enumerable: false });
Object.defineProperty(module.exports, 'fullyReadBody', { value: fullyReadBody, enumerable: false });
