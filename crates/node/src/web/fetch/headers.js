'use strict';
// The Fetch standard's classes (https://fetch.spec.whatwg.org/) as Node 20's undici has
// them: Headers (this file), FormData, the body mixin, Request and Response. The builtin
// `internal/web/fetch` is the concatenation of headers.js, formdata.js, body.js,
// request.js and response.js, in that order; the lead's fetch() uses the two host-facing
// functions at the end of response.js. Messages match undici's, which Node prints.

const { makeError } = require('node:internal/errors');
const { Blob, File, internals: blobInternals } = require('node:internal/blob');
const webstreams = require('node:internal/webstreams');
const { ReadableStream, TransformStream } = webstreams;
const streamInternals = webstreams.internals;
const { URL, URLSearchParams } = require('url');
const { AbortController, AbortSignal } = require('node:internal/web');
const { TextEncoder, TextDecoder } = require('node:internal/encoding');

const kInspect = Symbol.for('nodejs.util.inspect.custom');
const kHeaders = Symbol('kHeaders');
const utf8Encoder = new TextEncoder();

function lazyInspect() {
  return require('node:util').inspect;
}

function inspectAs(name, fields, depth, options) {
  const inspect = lazyInspect();
  return `${name} ${inspect(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
}

function requireArgs(count, needed, context) {
  if (count < needed) {
    throw new TypeError(`${context}: ${needed} argument${needed === 1 ? '' : 's'} required, but${count ? ' only' : ''} ${count} found.`);
  }
}

// ByteString conversion (Web IDL): a code unit above U+00FF is a TypeError.
function toByteString(value, context) {
  const s = `${value}`;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 255) {
      throw new TypeError(`${context}: Cannot convert argument to a ByteString because the character at index ${i} has a value of ${s.charCodeAt(i)} which is greater than 255.`);
    }
  }
  return s;
}

// RFC 9110 token characters (header names and methods).
const tokenChars = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isValidHeaderName(name) {
  return tokenChars.test(name);
}

// Strip leading and trailing HTTP whitespace (tab, LF, CR, space).
function normalizeHeaderValue(value) {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

function isValidHeaderValue(value) {
  return !/[\0\r\n]/.test(value);
}

// The header list: one entry per lower-cased name (first spelling kept, values combined
// with ", " as they are appended), plus every set-cookie value on its own, as undici's
// HeadersList does. A Map keeps insertion order, so nothing depends on hashing.
function newHeaderList() {
  return { map: new Map(), cookies: [] };
}

function headerListAppend(list, name, value) {
  const lower = name.toLowerCase();
  const existing = list.map.get(lower);
  if (existing) existing.value = `${existing.value}, ${value}`;
  else list.map.set(lower, { name, value });
  if (lower === 'set-cookie') list.cookies.push(value);
}

function headerListSet(list, name, value) {
  const lower = name.toLowerCase();
  if (lower === 'set-cookie') list.cookies = [value];
  const existing = list.map.get(lower);
  if (existing) existing.value = value;
  else list.map.set(lower, { name, value });
}

function headerListDelete(list, name) {
  const lower = name.toLowerCase();
  if (lower === 'set-cookie') list.cookies = [];
  list.map.delete(lower);
}

function headerListGet(list, name) {
  const entry = list.map.get(name.toLowerCase());
  return entry === undefined ? null : entry.value;
}

// "sort and combine" (Fetch §2.2.2): lower-cased names in order, set-cookie values apart.
function headerListSortAndCombine(list) {
  const names = [...list.map.keys()].sort();
  const out = [];
  for (const name of names) {
    if (name === 'set-cookie') {
      for (const value of list.cookies) out.push([name, value]);
    } else {
      out.push([name, list.map.get(name).value]);
    }
  }
  return out;
}

function headerListCopy(list) {
  const copy = newHeaderList();
  for (const [lower, entry] of list.map) copy.map.set(lower, { name: entry.name, value: entry.value });
  copy.cookies = list.cookies.slice();
  return copy;
}

function headersSlots(headers, context) {
  const s = headers !== null && typeof headers === 'object' && Object.prototype.hasOwnProperty.call(headers, kHeaders)
    ? headers[kHeaders] : undefined;
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function validatedName(name, context) {
  const n = toByteString(name, context);
  if (!isValidHeaderName(n)) throw new TypeError(`${context}: "${n}" is an invalid header name.`);
  return n;
}

// Headers "append" (Fetch §5.1): validate, normalize, honour the guard.
function headersAppend(s, name, value) {
  const v = normalizeHeaderValue(toByteString(value, 'Headers.append'));
  if (!isValidHeaderName(name)) throw new TypeError(`Headers.append: "${name}" is an invalid header name.`);
  if (!isValidHeaderValue(v)) throw new TypeError(`Headers.append: "${v}" is an invalid header value.`);
  if (s.guard === 'immutable') throw new TypeError('immutable');
  headerListAppend(s.list, name, v);
}

// Headers "fill" (Fetch §5.1) from a Headers, a sequence of pairs or a record.
function headersFill(s, init) {
  if (init instanceof Headers) {
    for (const [name, value] of headerListSortAndCombine(headersSlots(init).list)) headersAppend(s, name, value);
    return;
  }
  if (init === null || (typeof init !== 'object' && typeof init !== 'function')) {
    throw new TypeError('Headers constructor: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.');
  }
  if (typeof init[Symbol.iterator] === 'function') {
    for (const pair of init) {
      if (pair === null || typeof pair !== 'object' || typeof pair[Symbol.iterator] !== 'function') {
        throw new TypeError('Headers constructor: expected name/value pair to be length 2, found undefined.');
      }
      const items = [...pair];
      if (items.length !== 2) {
        throw new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${items.length}.`);
      }
      headersAppend(s, toByteString(items[0], 'Headers constructor'), items[1]);
    }
    return;
  }
  for (const key of Reflect.ownKeys(init)) {
    const desc = Reflect.getOwnPropertyDescriptor(init, key);
    if (desc === undefined || !desc.enumerable || typeof key === 'symbol') continue;
    headersAppend(s, toByteString(key, 'Headers constructor'), init[key]);
  }
}

class Headers {
  constructor(init = undefined) {
    Object.defineProperty(this, kHeaders, { value: { list: newHeaderList(), guard: 'none' } });
    if (init !== undefined) headersFill(this[kHeaders], init);
  }

  append(name, value) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 2, 'Headers.append');
    headersAppend(s, toByteString(name, 'Headers.append'), value);
  }

  delete(name) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 1, 'Headers.delete');
    const n = validatedName(name, 'Headers.delete');
    if (s.guard === 'immutable') throw new TypeError('immutable');
    headerListDelete(s.list, n);
  }

  get(name) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 1, 'Headers.get');
    return headerListGet(s.list, validatedName(name, 'Headers.get'));
  }

  getSetCookie() {
    return headersSlots(this).list.cookies.slice();
  }

  has(name) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 1, 'Headers.has');
    return s.list.map.has(validatedName(name, 'Headers.has').toLowerCase());
  }

  set(name, value) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 2, 'Headers.set');
    const n = toByteString(name, 'Headers.set');
    const v = normalizeHeaderValue(toByteString(value, 'Headers.set'));
    if (!isValidHeaderName(n)) throw new TypeError(`Headers.set: "${n}" is an invalid header name.`);
    if (!isValidHeaderValue(v)) throw new TypeError(`Headers.set: "${v}" is an invalid header value.`);
    if (s.guard === 'immutable') throw new TypeError('immutable');
    headerListSet(s.list, n, v);
  }

  forEach(callback, thisArg = undefined) {
    const s = headersSlots(this);
    requireArgs(arguments.length, 1, 'Headers.forEach');
    if (typeof callback !== 'function') {
      throw new TypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.");
    }
    for (const [name, value] of headerListSortAndCombine(s.list)) Reflect.apply(callback, thisArg, [value, name, this]);
  }

  keys() {
    return makeHeadersIterator(headersSlots(this), 'key');
  }

  values() {
    return makeHeadersIterator(headersSlots(this), 'value');
  }

  entries() {
    return makeHeadersIterator(headersSlots(this), 'key+value');
  }

  [kInspect](depth, options) {
    const fields = {};
    for (const { name, value } of headersSlots(this).list.map.values()) fields[name] = value;
    return inspectAs('Headers', fields, depth, options);
  }
}
Object.defineProperty(Headers.prototype, Symbol.iterator, {
  value: Headers.prototype.entries, writable: true, enumerable: false, configurable: true,
});
Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: 'Headers', configurable: true });

// Iterators walk the sorted list as it is when each next() runs (a live view, as WebIDL's
// pair iterators are).
const headersIteratorPrototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), {
  next: {
    value: function next() {
      const it = this && this[kHeaders];
      if (it === undefined || it.list === undefined) {
        throw new TypeError("'next' called on an object that does not implement interface Headers Iterator.");
      }
      const entries = headerListSortAndCombine(it.list);
      if (it.index >= entries.length) return { value: undefined, done: true };
      const [name, value] = entries[it.index++];
      const result = it.kind === 'key' ? name : it.kind === 'value' ? value : [name, value];
      return { value: result, done: false };
    },
    writable: true, enumerable: true, configurable: true,
  },
  [Symbol.toStringTag]: { value: 'Headers Iterator', configurable: true },
});

function makeHeadersIterator(s, kind) {
  const it = Object.create(headersIteratorPrototype);
  Object.defineProperty(it, kHeaders, { value: { list: s.list, kind, index: 0 } });
  return it;
}

// A Headers object over `list` with `guard` ('none', 'request', 'response', 'immutable').
function headersWithGuard(list, guard) {
  const h = Object.create(Headers.prototype);
  Object.defineProperty(h, kHeaders, { value: { list, guard } });
  return h;
}
