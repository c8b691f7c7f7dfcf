'use strict';
// node:http and node:https, the client side (ClientRequest, IncomingMessage, Agent), over
// Amber's network binding (node:internal/net): every request is a journaled host operation
// and body bytes arrive as the program reads them (docs/node-compat.md, "Network").
// Servers would listen on the host network and stay refused.

const EventEmitter = require('node:events');
const { Readable, Writable } = require('node:stream');
const { Buffer } = require('node:buffer');
const { URL } = require('node:url');
const net = require('node:internal/net');
const { makeError, AbortError } = require('node:internal/errors');

const METHODS = [
  'ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK',
  'M-SEARCH', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS',
  'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY', 'REBIND', 'REPORT',
  'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE',
];

const STATUS_CODES = {
  100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints',
  200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information',
  204: 'No Content', 205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status',
  208: 'Already Reported', 226: 'IM Used', 300: 'Multiple Choices', 301: 'Moved Permanently',
  302: 'Found', 303: 'See Other', 304: 'Not Modified', 305: 'Use Proxy',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request',
  401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 407: 'Proxy Authentication Required',
  408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 411: 'Length Required',
  412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long',
  415: 'Unsupported Media Type', 416: 'Range Not Satisfiable', 417: 'Expectation Failed',
  418: "I'm a Teapot", 421: 'Misdirected Request', 422: 'Unprocessable Entity',
  423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required',
  428: 'Precondition Required', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates', 507: 'Insufficient Storage', 508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded', 510: 'Not Extended', 511: 'Network Authentication Required',
};

const tokenRe = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const invalidValueRe = /[^\t\x20-\x7e\x80-\xff]/;

function validateHeaderName(name, label = 'Header name') {
  if (typeof name !== 'string' || !name || !tokenRe.test(name)) {
    throw makeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `${label} must be a valid HTTP token ["${name}"]`);
  }
}

function validateHeaderValue(name, value) {
  if (value === undefined) {
    throw makeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "${value}" for header "${name}"`);
  }
  if (invalidValueRe.test(String(value))) {
    throw makeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
  }
}

class Agent extends EventEmitter {
  constructor(options = {}) {
    super();
    this.defaultPort = 80;
    this.protocol = 'http:';
    this.options = { __proto__: null, ...options, path: null };
    this.requests = { __proto__: null };
    this.sockets = { __proto__: null };
    this.freeSockets = { __proto__: null };
    this.keepAliveMsecs = options.keepAliveMsecs || 1000;
    this.keepAlive = options.keepAlive || false;
    this.maxSockets = options.maxSockets || Infinity;
    this.maxFreeSockets = options.maxFreeSockets || 256;
    this.maxTotalSockets = options.maxTotalSockets || Infinity;
    this.totalSocketCount = 0;
    this.scheduling = options.scheduling || 'lifo';
  }

  getName(options = {}) {
    let name = options.host || 'localhost';
    name += ':';
    if (options.port) name += options.port;
    name += ':';
    if (options.localAddress) name += options.localAddress;
    if (options.family === 4 || options.family === 6) name += `:${options.family}`;
    return name;
  }

  destroy() {}
}

const globalAgent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });

// What a request's 'socket' event hands out: the connection lives in the host, so this only
// answers the calls clients make on it.
class RequestSocket extends EventEmitter {
  constructor(req, host, port, encrypted) {
    super();
    this._req = req;
    this._timer = undefined;
    this.remoteAddress = host;
    this.remotePort = port;
    this.encrypted = encrypted;
    this.connecting = false;
    this.destroyed = false;
    this.readable = true;
    this.writable = true;
  }

  setKeepAlive() { return this; }
  setNoDelay() { return this; }

  // An idle timeout on the logical clock: 'timeout' fires once `ms` pass without the
  // exchange finishing (what clients arm to give up on a hung server).
  setTimeout(ms, callback) {
    if (callback) this.once('timeout', callback);
    clearTimeout(this._timer);
    this._timer = undefined;
    if (ms > 0 && !this.destroyed) {
      this._timer = setTimeout(() => this.emit('timeout'), ms);
      this._timer.unref();
    }
    return this;
  }

  ref() { return this; }
  unref() { return this; }
  address() { return {}; }

  // Destroying the connection ends the exchange it carries.
  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    clearTimeout(this._timer);
    if (!this._req.destroyed && !(this._req.res && this._req.res.complete)) this._req.destroy(error);
    process.nextTick(() => this.emit('close', !!error));
    return this;
  }

  _done() {
    clearTimeout(this._timer);
    this._timer = undefined;
  }
}

function netError(error, host, port) {
  const code = error.code || 'UND_ERR_SOCKET';
  let e;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT') {
    e = new Error(`${code === 'ECONNRESET' ? 'socket hang up' : `connect ${code} ${host}:${port}`}`);
    e.errno = code === 'ECONNREFUSED' ? -111 : code === 'ECONNRESET' ? -104 : -110;
    e.syscall = code === 'ECONNRESET' ? undefined : 'connect';
    e.address = host;
    e.port = port;
  } else if (code === 'ENOTFOUND') {
    e = new Error(`getaddrinfo ENOTFOUND ${host}`);
    e.errno = -3008;
    e.syscall = 'getaddrinfo';
    e.hostname = host;
  } else {
    e = new Error(error.message || code);
  }
  e.code = code;
  return e;
}

function toBuffer(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding || 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
    'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array.');
}

class IncomingMessage extends Readable {
  constructor(req, head) {
    super();
    this.req = req;
    this.socket = req.socket;
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.httpVersion = '1.1';
    this.complete = false;
    this.aborted = false;
    this.statusCode = head.status;
    this.statusMessage = head.statusText || STATUS_CODES[head.status] || '';
    this.url = '';
    this.method = null;
    this.rawHeaders = [];
    this.headers = {};
    this.headersDistinct = {};
    this.trailers = {};
    this.rawTrailers = [];
    for (const [name, value] of head.headers) {
      this.rawHeaders.push(name, value);
      const key = name.toLowerCase();
      (this.headersDistinct[key] ??= []).push(value);
      if (key === 'set-cookie') (this.headers[key] ??= []).push(value);
      else if (key in this.headers) this.headers[key] += `, ${value}`;
      else this.headers[key] = value;
    }
    this._exchange = head.seq;
    this._offset = 0;
    this._reading = false;
  }

  _read() {
    if (this._reading) return;
    this._reading = true;
    net.read(this._exchange, this._offset).then((chunk) => {
      this._reading = false;
      if (this.destroyed) return;
      if (chunk === null) {
        this.complete = true;
        this.push(null);
      } else if (chunk instanceof Uint8Array) {
        this._offset += chunk.byteLength;
        if (this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) this._read();
      } else {
        this.aborted = !this.complete;
        this.destroy(netError(chunk.error, this.req.host, this.req._port));
      }
    }, (e) => {
      this._reading = false;
      this.destroy(e);
    });
  }

  _destroy(error, callback) {
    if (!this.complete) {
      this.aborted = true;
      net.cancel(this._exchange);
      this.emit('aborted');
    }
    // As Node keeps it: an error is emitted only if there is a listener for it.
    process.nextTick(() => callback(this.listenerCount('error') === 0 ? null : error));
  }

  setTimeout(ms, callback) {
    this.req.setTimeout(ms, callback);
    return this;
  }
}

function urlOf(input, options, defaults) {
  if (typeof input === 'string') input = new URL(input);
  if (input instanceof URL || (input && typeof input === 'object' && typeof input.href === 'string' && input.searchParams)) {
    const fromUrl = {
      protocol: input.protocol,
      hostname: input.hostname.startsWith('[') ? input.hostname.slice(1, -1) : input.hostname,
      port: input.port,
      path: `${input.pathname || ''}${input.search || ''}`,
    };
    if (input.username || input.password) {
      fromUrl.auth = `${decodeURIComponent(input.username)}:${decodeURIComponent(input.password)}`;
    }
    return { ...fromUrl, ...options };
  }
  return { ...(input || {}), ...options, ...defaults.keep };
}

class ClientRequest extends Writable {
  constructor(input, options, callback, defaults) {
    super({ decodeStrings: false, autoDestroy: false, emitClose: false });
    if (typeof options === 'function') {
      callback = options;
      options = undefined;
    }
    const opts = urlOf(input, options, defaults);
    const agent = opts.agent === false ? new defaults.Agent() : (opts.agent || defaults.globalAgent);
    const protocol = opts.protocol || agent.protocol || defaults.protocol;
    if (protocol !== defaults.protocol) {
      throw makeError(TypeError, 'ERR_INVALID_PROTOCOL', `Protocol "${protocol}" not supported. Expected "${defaults.protocol}"`);
    }
    let host = opts.hostname || opts.host || 'localhost';
    if (!opts.hostname && typeof opts.host === 'string' && /^[^[]*:\d+$/.test(opts.host)) host = opts.host.replace(/:\d+$/, '');
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    const port = Number(opts.port || opts.defaultPort || agent.defaultPort || defaults.port);
    const method = (opts.method || 'GET').toUpperCase();
    if (!tokenRe.test(method)) throw makeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Method must be a valid HTTP token ["${opts.method}"]`);
    const path = opts.path || '/';
    if (/[\u0000-\u0020]/.test(path)) throw makeError(TypeError, 'ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
    this.agent = agent;
    this.method = method;
    this.path = path;
    this.host = host;
    this.protocol = protocol;
    this._port = port;
    this.headersSent = false;
    this.aborted = false;
    this.reusedSocket = false;
    this.maxHeadersCount = null;
    this.timeout = opts.timeout;
    this._headers = new Map();
    this._chunks = [];
    this._exchange = undefined;
    this._settled = false;
    this.socket = null;
    this.res = null;
    const headers = opts.headers;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) this.appendHeader(headers[i], headers[i + 1]);
    } else if (headers) {
      for (const name of Object.keys(headers)) if (headers[name] !== undefined) this.setHeader(name, headers[name]);
    }
    if (opts.auth && !this.hasHeader('authorization')) {
      this.setHeader('Authorization', `Basic ${Buffer.from(opts.auth).toString('base64')}`);
    }
    if (callback) this.once('response', callback);
    if (opts.timeout !== undefined) this.setTimeout(opts.timeout);
    const signal = opts.signal;
    if (signal) {
      const onAbort = () => this.destroy(new AbortError(undefined, { cause: signal.reason }));
      if (signal.aborted) process.nextTick(onAbort);
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    const hostForUrl = host.includes(':') ? `[${host}]` : host;
    const defaultPort = defaults.port;
    this._url = `${protocol}//${hostForUrl}${port === defaultPort ? '' : `:${port}`}${path.startsWith('/') ? path : `/${path}`}`;
    process.nextTick(() => {
      if (this.destroyed) return;
      this.socket = new RequestSocket(this, host, port, protocol === 'https:');
      this.emit('socket', this.socket);
    });
  }

  setHeader(name, value) {
    if (this.headersSent) throw makeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot set headers after they are sent to the client');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    this._headers.set(name.toLowerCase(), [name, value]);
    return this;
  }

  appendHeader(name, value) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const key = name.toLowerCase();
    const existing = this._headers.get(key);
    if (!existing) this._headers.set(key, [name, value]);
    else existing[1] = [].concat(existing[1], value);
    return this;
  }

  getHeader(name) { return this._headers.get(String(name).toLowerCase())?.[1]; }
  hasHeader(name) { return this._headers.has(String(name).toLowerCase()); }
  removeHeader(name) {
    if (this.headersSent) throw makeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot remove headers after they are sent to the client');
    this._headers.delete(String(name).toLowerCase());
  }
  getHeaderNames() { return [...this._headers.keys()]; }
  getRawHeaderNames() { return [...this._headers.values()].map(([n]) => n); }
  getHeaders() {
    const out = { __proto__: null };
    for (const [key, [, value]] of this._headers) out[key] = value;
    return out;
  }

  flushHeaders() {}
  setNoDelay() {}
  setSocketKeepAlive() {}

  setTimeout(ms, callback) {
    if (callback) this.once('timeout', callback);
    clearTimeout(this._timer);
    if (ms > 0) {
      this._timer = setTimeout(() => {
        this.emit('timeout');
        this.socket?.emit('timeout');
      }, ms);
      this._timer.unref?.();
    }
    return this;
  }

  _write(chunk, encoding, callback) {
    this._chunks.push(toBuffer(chunk, encoding));
    callback();
  }

  _final(callback) {
    this.headersSent = true;
    const pairs = [];
    for (const [, [name, value]] of this._headers) {
      if (Array.isArray(value)) for (const v of value) pairs.push([name, String(v)]);
      else pairs.push([name, String(value)]);
    }
    const hasBody = this._chunks.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'].includes(this.method);
    const body = hasBody ? Buffer.concat(this._chunks) : null;
    this._chunks = [];
    // A host whose first use the program manifest gates waits for its approval here.
    const wait = net.gate('Net', this.host.toLowerCase(), 'http.request');
    if (wait === undefined) this._send(pairs, body, callback);
    else {
      wait.then(() => this._send(pairs, body, callback), (e) => {
        callback();
        process.nextTick(() => this.destroy(e));
      });
    }
  }

  _send(pairs, body, callback) {
    let exchange;
    try {
      exchange = net.request({
        method: this.method,
        url: this._url,
        protocol: this.protocol,
        hostname: this.host.includes(':') ? `[${this.host}]` : this.host,
        port: this._port,
        headers: pairs,
        redirect: 'manual',
        decode: false,
      }, body);
    } catch (e) {
      callback();
      process.nextTick(() => this.destroy(e));
      return;
    }
    callback();
    this._exchange = exchange.seq;
    exchange.response.then((head) => {
      if (this.destroyed) {
        net.cancel(head.seq);
        return;
      }
      if (head.error) {
        this.destroy(netError(head.error, this.host, this._port));
        return;
      }
      clearTimeout(this._timer);
      const res = new IncomingMessage(this, head);
      this.res = res;
      this._settled = true;
      res.once('end', () => process.nextTick(() => { res.emit('close'); this._close(); }));
      if (!this.emit('response', res)) res.resume();
    }, (e) => this.destroy(e));
  }

  _close() {
    if (this._closed) return;
    this._closed = true;
    clearTimeout(this._timer);
    this.socket?._done();
    this.emit('close');
  }

  abort() {
    if (this.aborted) return;
    this.aborted = true;
    process.nextTick(() => this.emit('abort'));
    this.destroy();
  }

  _destroy(error, callback) {
    clearTimeout(this._timer);
    if (this._exchange !== undefined && !(this.res && this.res.complete)) net.cancel(this._exchange);
    if (this.res && !this.res.destroyed && !this.res.complete) this.res.destroy(error || new Error('aborted'));
    if (!this._settled && !error && !this.res) error = makeError(Error, 'ECONNRESET', 'socket hang up');
    callback(error);
    process.nextTick(() => this._close());
  }
}

function refuseServer() {
  throw makeError(Error, 'ERR_AMBER_REFUSED',
    'http.createServer is not available in Amber: a server would listen on the host network; use amber.call() with a host tool');
}

function define(defaults) {
  defaults.globalAgent = defaults.globalAgent || globalAgent;
  defaults.Agent = defaults.Agent || Agent;
  function request(input, options, callback) {
    return new ClientRequest(input, options, callback, defaults);
  }
  function get(input, options, callback) {
    const req = request(input, options, callback);
    req.end();
    return req;
  }
  return { request, get };
}

module.exports = {
  Agent, ClientRequest, IncomingMessage, METHODS, STATUS_CODES, globalAgent,
  validateHeaderName, validateHeaderValue, define, refuseServer,
  maxHeaderSize: 16384,
  createServer: refuseServer, Server: refuseServer, OutgoingMessage: Writable, ServerResponse: refuseServer,
  ...define({ protocol: 'http:', port: 80, keep: {} }),
};
