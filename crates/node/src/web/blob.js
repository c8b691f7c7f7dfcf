'use strict';
// Blob and File (W3C File API, https://w3c.github.io/FileAPI/) as Node 20 ships them
// (`buffer.Blob`, `buffer.File` and the globals are these classes). A Blob's bytes are one
// immutable Uint8Array in its internal slots: slices copy, so nothing a program holds can
// change a Blob's contents, and the bytes ride an image as plain heap data.

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

const kBlob = Symbol('kBlob');
const kInspect = Symbol.for('nodejs.util.inspect.custom');
const utf8 = new (require('node:internal/encoding').TextEncoder)();
const utf8Decoder = new (require('node:internal/encoding').TextDecoder)();

function blobSlots(blob) {
  return blob !== null && typeof blob === 'object' && Object.prototype.hasOwnProperty.call(blob, kBlob)
    ? blob[kBlob] : undefined;
}

function invalidThis(type) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type}`);
}

function isBlob(v) {
  return blobSlots(v) !== undefined;
}

// The type attribute: lowercased, or empty if it has a character outside U+0020–U+007E.
function normalizeType(type) {
  const s = `${type}`;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return '';
  }
  return s.toLowerCase();
}

// "process blob parts" (File API §3.1.1): each part's bytes, in order. Node's "native"
// line endings turn CRLF into LF and leave a lone CR alone.
function processBlobParts(parts, endings) {
  const chunks = [];
  let length = 0;
  for (const element of parts) {
    let bytes;
    if (typeof element === 'string') {
      bytes = utf8.encode(endings === 'native' ? element.replace(/\r\n/g, '\n') : element);
    } else if (isBlob(element)) {
      bytes = blobSlots(element).bytes;
    } else if (ArrayBuffer.isView(element)) {
      bytes = new Uint8Array(element.buffer, element.byteOffset, element.byteLength).slice();
    } else if (Object.prototype.toString.call(element) === '[object ArrayBuffer]' ||
      Object.prototype.toString.call(element) === '[object SharedArrayBuffer]') {
      bytes = new Uint8Array(element).slice();
    } else {
      const s = `${element}`;
      bytes = utf8.encode(endings === 'native' ? s.replace(/\r\n/g, '\n') : s);
    }
    chunks.push(bytes);
    length += bytes.byteLength;
  }
  return concatBytes(chunks, length);
}

// The bytes of `chunks` (Uint8Arrays) in one Uint8Array of `length` bytes.
function concatBytes(chunks, length = chunks.reduce((n, c) => n + c.byteLength, 0)) {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function toBlobParts(sources) {
  if (sources === undefined) return [];
  if (sources === null || typeof sources !== 'object' || typeof sources[Symbol.iterator] !== 'function') {
    throw ERR_INVALID_ARG_TYPE('sources', 'a sequence', sources);
  }
  return Array.from(sources);
}

function blobOptions(options) {
  if (options !== undefined && options !== null && typeof options !== 'object') {
    throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
  }
  const endings = options?.endings === undefined ? 'transparent' : `${options.endings}`;
  if (endings !== 'transparent' && endings !== 'native') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.endings' is invalid. Received '${endings}'`);
  }
  const type = options?.type === undefined ? '' : normalizeType(options.type);
  return { endings, type };
}

// Makes a Blob (or File) with these bytes, for slice() and for the fetch body mixin.
function createBlob(bytes, type, proto = Blob.prototype) {
  const blob = Object.create(proto);
  Object.defineProperty(blob, kBlob, { value: { bytes, type } });
  return blob;
}

// Clamp a slice index as "slice blob" (§3.3.1) does.
function relativeIndex(value, size, fallback) {
  if (value === undefined) return fallback;
  const n = Math.trunc(Number(value)) || 0;
  return n < 0 ? Math.max(size + n, 0) : Math.min(n, size);
}

class Blob {
  constructor(sources = undefined, options = undefined) {
    const parts = toBlobParts(sources);
    const { endings, type } = blobOptions(options);
    Object.defineProperty(this, kBlob, { value: { bytes: processBlobParts(parts, endings), type } });
  }

  get size() {
    const s = blobSlots(this);
    if (s === undefined) throw invalidThis('Blob');
    return s.bytes.byteLength;
  }

  get type() {
    const s = blobSlots(this);
    if (s === undefined) throw invalidThis('Blob');
    return s.type;
  }

  slice(start = undefined, end = undefined, contentType = '') {
    const s = blobSlots(this);
    if (s === undefined) throw invalidThis('Blob');
    const size = s.bytes.byteLength;
    const from = relativeIndex(start, size, 0);
    const to = relativeIndex(end, size, size);
    const span = Math.max(to - from, 0);
    return createBlob(s.bytes.slice(from, from + span), normalizeType(contentType));
  }

  text() {
    const s = blobSlots(this);
    if (s === undefined) return Promise.reject(invalidThis('Blob'));
    return Promise.resolve(utf8Decoder.decode(s.bytes));
  }

  arrayBuffer() {
    const s = blobSlots(this);
    if (s === undefined) return Promise.reject(invalidThis('Blob'));
    return Promise.resolve(s.bytes.slice().buffer);
  }

  bytes() {
    const s = blobSlots(this);
    if (s === undefined) return Promise.reject(invalidThis('Blob'));
    return Promise.resolve(s.bytes.slice());
  }

  // A byte stream that hands out the bytes in chunks of at most 64 KiB, each a copy.
  stream() {
    const s = blobSlots(this);
    if (s === undefined) throw invalidThis('Blob');
    const bytes = s.bytes;
    let offset = 0;
    const { ReadableStream } = require('node:internal/webstreams');
    return new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (offset >= bytes.byteLength) {
          controller.close();
          if (controller.byobRequest) controller.byobRequest.respond(0);
          return;
        }
        const end = Math.min(offset + 65536, bytes.byteLength);
        controller.enqueue(bytes.slice(offset, end));
        offset = end;
      },
    });
  }

  [kInspect](depth, options) {
    if (depth < 0) return this;
    const { inspect } = require('node:util');
    const fields = { size: this.size, type: this.type };
    return `Blob ${inspect(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });

class File extends Blob {
  #name;
  #lastModified;
  constructor(fileBits, fileName, options = undefined) {
    if (arguments.length < 2) {
      throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "fileBits" and "fileName" arguments must be specified');
    }
    super(fileBits, options);
    this.#name = `${fileName}`;
    const lastModified = options?.lastModified;
    // The default is the logical clock, as Date.now() reads it.
    this.#lastModified = lastModified === undefined ? Date.now() : Math.trunc(Number(lastModified)) || 0;
  }

  get name() {
    if (!(#name in this)) throw invalidThis('File');
    return this.#name;
  }

  get lastModified() {
    if (!(#name in this)) throw invalidThis('File');
    return this.#lastModified;
  }

  [kInspect](depth, options) {
    if (depth < 0) return this;
    const { inspect } = require('node:util');
    const fields = { size: this.size, type: this.type, name: this.#name, lastModified: this.#lastModified };
    return `File ${inspect(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

// Object URLs (`blob:nodedata:<id>`): the Blob data `URL.createObjectURL` stored under each
// id until `URL.revokeObjectURL`, as Node's blob binding keeps it. `buffer.resolveObjectURL`
// makes a new Blob over the stored bytes (File name and date are not kept, as in Node).
const objectURLs = new Map();

// The pathname of `url` split at ':' (Node matches `nodedata:<id>` there without looking at
// the scheme), or undefined when `url` does not parse.
function objectURLPath(url) {
  try {
    return new (require('node:url').URL)(url).pathname.split(':');
  } catch {
    return undefined;
  }
}

function storeObjectURL(id, blob) {
  objectURLs.set(id, blobSlots(blob));
}

function revokeObjectURL(url) {
  const split = objectURLPath(`${url}`);
  if (split !== undefined && split.length === 2) objectURLs.delete(split[1]);
}

function resolveObjectURL(url) {
  const split = objectURLPath(`${url}`);
  if (split === undefined || split.length !== 2 || split[0] !== 'nodedata') return undefined;
  const slots = objectURLs.get(split[1]);
  return slots === undefined ? undefined : createBlob(slots.bytes, slots.type);
}

module.exports = { Blob, File };
Object.defineProperty(module.exports, 'internals', {
  enumerable: false,
  value: {
    isBlob,
    createBlob,
    bytesOf: (blob) => blobSlots(blob).bytes,
    normalizeType,
    concatBytes,
    storeObjectURL,
    revokeObjectURL,
    resolveObjectURL,
  },
});
