'use strict';
// TextEncoder and TextDecoder (WHATWG Encoding) as Node provides them: utf-8, utf-16le and
// windows-1252 (latin1); fatal, ignoreBOM and streaming decode.
const { makeError, validateString, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

const kLabels = {
  'unicode-1-1-utf-8': 'utf-8', 'unicode11utf8': 'utf-8', 'unicode20utf8': 'utf-8', 'utf8': 'utf-8',
  'utf-8': 'utf-8', 'x-unicode20utf8': 'utf-8',
  'csunicode': 'utf-16le', 'iso-10646-ucs-2': 'utf-16le', 'ucs-2': 'utf-16le', 'unicode': 'utf-16le',
  'unicodefeff': 'utf-16le', 'utf-16': 'utf-16le', 'utf-16le': 'utf-16le',
  'ansi_x3.4-1968': 'windows-1252', 'ascii': 'windows-1252', 'cp1252': 'windows-1252', 'cp819': 'windows-1252',
  'csisolatin1': 'windows-1252', 'ibm819': 'windows-1252', 'iso-8859-1': 'windows-1252', 'iso-ir-100': 'windows-1252',
  'iso8859-1': 'windows-1252', 'iso88591': 'windows-1252', 'iso_8859-1': 'windows-1252',
  'iso_8859-1:1987': 'windows-1252', 'l1': 'windows-1252', 'latin1': 'windows-1252', 'us-ascii': 'windows-1252',
  'windows-1252': 'windows-1252', 'x-cp1252': 'windows-1252',
};

function utf8Need(byte) {
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 1;
}

function utf8IncompleteTail(bytes) {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const c = bytes[n - k];
    if ((c & 0xc0) === 0x80) continue;
    if (utf8Need(c) > k) {
      if (k >= 2) {
        const second = bytes[n - k + 1];
        if ((c === 0xe0 && second < 0xa0) || (c === 0xed && second > 0x9f) ||
            (c === 0xf0 && second < 0x90) || (c === 0xf4 && second > 0x8f)) return 0;
      }
      return k;
    }
    return 0;
  }
  return 0;
}

function asBytes(input) {
  if (input === undefined) return new Uint8Array(0);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const tag = Object.prototype.toString.call(input);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(input);
  throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
    'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
}

function concatBytes(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const kState = Symbol('kState');

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }

  encode(input = '') {
    return internal.encodeUtf8(`${input}`);
  }

  encodeInto(src, dest) {
    validateString(src, 'src');
    if (!ArrayBuffer.isView(dest) || Object.prototype.toString.call(dest) !== '[object Uint8Array]') {
      throw ERR_INVALID_ARG_TYPE('dest', 'Uint8Array', dest);
    }
    const [read, written] = internal.encodeInto(src, dest);
    return { read, written };
  }
}
Object.defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true });

class TextDecoder {
  constructor(encoding = 'utf-8', options = {}) {
    encoding = `${encoding}`;
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw ERR_INVALID_ARG_TYPE('options', 'object', options);
    }
    const enc = kLabels[encoding.trim().toLowerCase()];
    if (enc === undefined) {
      throw makeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${encoding}" encoding is not supported`);
    }
    this[kState] = {
      encoding: enc,
      fatal: Boolean(options && options.fatal),
      ignoreBOM: Boolean(options && options.ignoreBOM),
      pending: new Uint8Array(0),
      bomSeen: false,
    };
  }

  get encoding() {
    return this[kState].encoding;
  }

  get fatal() {
    return this[kState].fatal;
  }

  get ignoreBOM() {
    return this[kState].ignoreBOM;
  }

  decode(input = undefined, options = {}) {
    const state = this[kState];
    let bytes = asBytes(input);
    const stream = Boolean(options && options.stream);
    if (state.pending.length) bytes = concatBytes(state.pending, bytes);
    state.pending = new Uint8Array(0);
    let keep = 0;
    if (stream) {
      if (state.encoding === 'utf-8') {
        keep = utf8IncompleteTail(bytes);
      } else if (state.encoding === 'utf-16le') {
        keep = bytes.length % 2;
        if (!keep && bytes.length >= 2) {
          const last = bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8);
          if (last >= 0xd800 && last <= 0xdbff) keep = 2;
        }
      }
      if (keep) {
        state.pending = bytes.slice(bytes.length - keep);
        bytes = bytes.subarray(0, bytes.length - keep);
      }
    }
    if (!state.bomSeen && !state.ignoreBOM && bytes.length) {
      if (state.encoding === 'utf-8' && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
      } else if (state.encoding === 'utf-16le' && bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
        bytes = bytes.subarray(2);
      }
    }
    if (bytes.length || !stream) state.bomSeen = stream;
    const which = state.encoding === 'windows-1252' ? 'latin1' : state.encoding;
    const out = internal.decode(bytes, which, state.fatal);
    if (out === null) {
      state.bomSeen = false;
      throw makeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA',
        `The encoded data was not valid for encoding ${state.encoding}`);
    }
    return out;
  }
}
Object.defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true });

module.exports = { TextEncoder, TextDecoder };
