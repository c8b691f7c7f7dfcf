// ---- Request (Fetch §5.4)

const kRequest = Symbol('kRequest');

function requestSlots(request) {
  const s = request !== null && typeof request === 'object' && Object.prototype.hasOwnProperty.call(request, kRequest)
    ? request[kRequest] : undefined;
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

const normalizedMethods = { delete: 'DELETE', get: 'GET', head: 'HEAD', options: 'OPTIONS', post: 'POST', put: 'PUT' };
const forbiddenMethods = new Set(['connect', 'trace', 'track']);
const requestModes = ['navigate', 'same-origin', 'no-cors', 'cors'];
const requestCredentials = ['omit', 'same-origin', 'include'];
const requestCaches = ['default', 'no-store', 'reload', 'no-cache', 'force-cache', 'only-if-cached'];
const requestRedirects = ['follow', 'manual', 'error'];
const referrerPolicies = ['', 'no-referrer', 'no-referrer-when-downgrade', 'same-origin', 'origin',
  'strict-origin', 'origin-when-cross-origin', 'strict-origin-when-cross-origin', 'unsafe-url'];

function parseRequestURL(input) {
  let parsed;
  try {
    parsed = new URL(input);
  } catch (err) {
    throw new TypeError(`Failed to parse URL from ${input}`, { cause: err });
  }
  if (parsed.username || parsed.password) {
    throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${input}`);
  }
  return parsed;
}

function enumOption(value, allowed, message) {
  if (value === undefined) return undefined;
  const v = `${value}`;
  if (!allowed.includes(v)) throw new TypeError(message(v));
  return v;
}

// A signal that follows `source` (the request's own, as "signal follows" does it).
function followingSignal(source) {
  const controller = new AbortController();
  if (source != null) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener('abort', () => controller.abort(source.reason), { once: true });
  }
  return controller.signal;
}

// The Request constructor's algorithm (Fetch §5.4 "new Request(input, init)"), returning
// the slots a Request holds. requestParts() runs it too, without making a Request.
function requestSlotsFrom(input, init) {
  if (init !== undefined && init !== null && typeof init !== 'object') {
    throw new TypeError("Request constructor: Expected init (\"Argument 2\") to be an instance of RequestInit.");
  }
  init = init ?? {};
  let base;
  let inputBody = null;
  let inputRequest = null;
  if (typeof input === 'string' || !(input instanceof Request)) {
    const url = parseRequestURL(`${input}`);
    base = {
      method: 'GET', url: url.href, headersList: newHeaderList(), mode: 'cors', credentials: 'same-origin',
      cache: 'default', redirect: 'follow', referrer: 'about:client', referrerPolicy: '', integrity: '',
      keepalive: false, signal: null, duplex: 'half',
    };
  } else {
    inputRequest = requestSlots(input);
    inputBody = inputRequest.body;
    base = { ...inputRequest, headersList: headerListCopy(inputRequest.headersList), signal: inputRequest.signal };
  }
  const s = { ...base };
  if (init.referrer !== undefined) {
    const r = `${init.referrer}`;
    if (r === '') s.referrer = 'no-referrer';
    else {
      let parsed;
      try {
        parsed = new URL(r);
      } catch (err) {
        throw new TypeError(`Referrer "${r}" is not a valid URL.`, { cause: err });
      }
      s.referrer = parsed.href;
    }
  }
  const referrerPolicy = enumOption(init.referrerPolicy, referrerPolicies,
    (v) => `Request constructor: ${v} is not an accepted type. Expected one of ${referrerPolicies.join(', ')}.`);
  if (referrerPolicy !== undefined) s.referrerPolicy = referrerPolicy;
  const mode = enumOption(init.mode, requestModes, (v) => `Request constructor: ${v} is not an accepted type. Expected one of ${requestModes.join(', ')}.`);
  if (mode === 'navigate') throw new TypeError('Request constructor: invalid request mode navigate.');
  if (mode !== undefined) s.mode = mode;
  const credentials = enumOption(init.credentials, requestCredentials,
    (v) => `Request constructor: ${v} is not an accepted type. Expected one of ${requestCredentials.join(', ')}.`);
  if (credentials !== undefined) s.credentials = credentials;
  const cache = enumOption(init.cache, requestCaches, (v) => `Request constructor: ${v} is not an accepted type. Expected one of ${requestCaches.join(', ')}.`);
  if (cache !== undefined) s.cache = cache;
  if (s.cache === 'only-if-cached' && s.mode !== 'same-origin') {
    throw new TypeError("'only-if-cached' can be set only with 'same-origin' mode");
  }
  const redirect = enumOption(init.redirect, requestRedirects,
    (v) => `Request constructor: ${v} is not an accepted type. Expected one of ${requestRedirects.join(', ')}.`);
  if (redirect !== undefined) s.redirect = redirect;
  if (init.integrity !== undefined) s.integrity = `${init.integrity}`;
  if (init.keepalive !== undefined) s.keepalive = !!init.keepalive;
  if (init.method !== undefined) {
    const method = `${init.method}`;
    if (!tokenChars.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
    const lower = method.toLowerCase();
    if (forbiddenMethods.has(lower)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
    s.method = normalizedMethods[lower] ?? method;
  }
  let signal = s.signal;
  if (init.signal !== undefined) {
    if (init.signal !== null && !(init.signal instanceof AbortSignal)) {
      throw new TypeError("Failed to construct 'Request': member signal is not of type AbortSignal.");
    }
    signal = init.signal;
  }
  s.signal = followingSignal(signal);
  // Headers: init's replace the input's.
  if (init.headers !== undefined) {
    const fresh = { list: newHeaderList(), guard: 'request' };
    headersFill(fresh, init.headers);
    s.headersList = fresh.list;
  }
  const initBody = init.body;
  if ((initBody != null || inputBody != null) && (s.method === 'GET' || s.method === 'HEAD')) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  let body = null;
  if (initBody != null) {
    const extracted = extractBody(initBody, s.keepalive);
    body = extracted.body;
    if (extracted.type !== null && !s.headersList.map.has('content-type')) {
      headerListAppend(s.headersList, 'content-type', extracted.type);
    }
  }
  const inputOrInitBody = body ?? inputBody;
  if (inputOrInitBody !== null && inputOrInitBody !== undefined && inputOrInitBody.source === null) {
    if (init.duplex === undefined && initBody != null) {
      throw new TypeError('RequestInit: duplex option is required when sending a body.');
    }
    if (init.duplex !== undefined && `${init.duplex}` !== 'half') {
      throw new TypeError(`Request constructor: ${init.duplex} is not an accepted type. Expected one of half.`);
    }
  }
  // A body taken from the input Request moves: the input's stream is piped into a new one,
  // which leaves the input disturbed and locked (Fetch §5.4 step 41).
  if (body === null && inputBody !== null && inputBody !== undefined) {
    if (bodyUnusable(inputBody)) throw new TypeError('Cannot construct a Request with a Request object that has already been used.');
    body = { stream: inputBody.stream.pipeThrough(new TransformStream()), source: inputBody.source, length: inputBody.length };
  }
  s.body = body ?? null;
  return s;
}

class Request {
  constructor(input, init = undefined) {
    requireArgs(arguments.length, 1, 'Request constructor');
    const s = requestSlotsFrom(input, init);
    s.headers = headersWithGuard(s.headersList, 'request');
    Object.defineProperty(this, kRequest, { value: s });
  }

  get method() { return requestSlots(this).method; }
  get url() { return requestSlots(this).url; }
  get headers() { return requestSlots(this).headers; }
  get destination() { requestSlots(this); return ''; }
  get referrer() {
    const r = requestSlots(this).referrer;
    return r === 'no-referrer' ? '' : r;
  }
  get referrerPolicy() { return requestSlots(this).referrerPolicy; }
  get mode() { return requestSlots(this).mode; }
  get credentials() { return requestSlots(this).credentials; }
  get cache() { return requestSlots(this).cache; }
  get redirect() { return requestSlots(this).redirect; }
  get integrity() { return requestSlots(this).integrity; }
  get keepalive() { return requestSlots(this).keepalive; }
  get isReloadNavigation() { requestSlots(this); return false; }
  get isHistoryNavigation() { requestSlots(this); return false; }
  get signal() { return requestSlots(this).signal; }
  get duplex() { requestSlots(this); return 'half'; }

  clone() {
    const s = requestSlots(this);
    if (bodyUnusable(s.body)) throw new TypeError('Request.clone: Body has already been consumed.');
    const copy = { ...s, headersList: headerListCopy(s.headersList) };
    copy.body = s.body === null ? null : cloneBody(s.body);
    copy.headers = headersWithGuard(copy.headersList, 'request');
    copy.signal = followingSignal(s.signal);
    const request = Object.create(Request.prototype);
    Object.defineProperty(request, kRequest, { value: copy });
    return request;
  }

  [kInspect](depth, options) {
    const s = requestSlots(this);
    return inspectAs('Request', {
      method: s.method, url: s.url, headers: s.headers, destination: '', referrer: this.referrer,
      referrerPolicy: s.referrerPolicy, mode: s.mode, credentials: s.credentials, cache: s.cache,
      redirect: s.redirect, integrity: s.integrity, keepalive: s.keepalive, isReloadNavigation: false,
      isHistoryNavigation: false, signal: s.signal,
    }, depth, options);
  }
}
Object.defineProperty(Request.prototype, Symbol.toStringTag, { value: 'Request', configurable: true });
installBodyMixin(Request, requestSlots);
