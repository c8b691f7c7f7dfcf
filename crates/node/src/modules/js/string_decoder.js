'use strict';
// node:string_decoder: decodes Buffers to strings across chunk boundaries, holding back the
// bytes of an incomplete character (utf8, utf16le) or base64 group until the next write.
const { StringPrototypeToLowerCase } = primordials;
const { ERR_INVALID_ARG_TYPE, ERR_UNKNOWN_ENCODING } = require('node:internal/errors');

const { Buffer } = require('buffer');

function normalizeEncoding(enc) {
  const lowered = StringPrototypeToLowerCase(`${enc === undefined || enc === null ? 'utf8' : enc}`);
  switch (lowered) {
    case 'utf8': case 'utf-8': case '': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': case 'base64url': case 'hex': case 'ascii': return lowered;
    default: return undefined;
  }
}

// How many bytes a UTF-8 sequence with this lead byte needs (0: not a lead byte).
function utf8Need(byte) {
  if (byte <= 0x7f) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

// Bytes at the end of `buf` that start a valid but unfinished UTF-8 sequence.
function utf8IncompleteTail(buf) {
  const n = buf.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const c = buf[n - k];
    if ((c & 0xc0) === 0x80) continue;
    const need = utf8Need(c);
    if (need > k) {
      // Check the continuation bytes seen so far are acceptable for this lead.
      const second = buf[n - k + 1];
      if (k >= 2) {
        if (c === 0xe0 && second < 0xa0) return 0;
        if (c === 0xed && second > 0x9f) return 0;
        if (c === 0xf0 && second < 0x90) return 0;
        if (c === 0xf4 && second > 0x8f) return 0;
      }
      return k;
    }
    return 0;
  }
  return 0;
}

function toBuffer(buf) {
  if (typeof buf === 'string') return buf;
  if (Buffer.isBuffer(buf)) return buf;
  if (ArrayBuffer.isView(buf)) return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  throw ERR_INVALID_ARG_TYPE('buf', ['Buffer', 'TypedArray', 'DataView'], buf);
}

class StringDecoder {
  constructor(encoding) {
    const normalized = normalizeEncoding(encoding);
    if (normalized === undefined) throw ERR_UNKNOWN_ENCODING(encoding);
    this.encoding = normalized;
    this._pending = Buffer.alloc(0);
  }

  write(buf) {
    buf = toBuffer(buf);
    if (typeof buf === 'string') return buf;
    const enc = this.encoding;
    let bytes = this._pending.length ? Buffer.concat([this._pending, buf]) : buf;
    let keep = 0;
    if (enc === 'utf8') {
      keep = utf8IncompleteTail(bytes);
    } else if (enc === 'utf16le') {
      keep = bytes.length % 2;
      if (keep === 0 && bytes.length >= 2) {
        const last = bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8);
        if (last >= 0xd800 && last <= 0xdbff) keep = 2;
      }
    } else if (enc === 'base64' || enc === 'base64url') {
      keep = bytes.length % 3;
    }
    this._pending = keep ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.alloc(0);
    bytes = bytes.subarray(0, bytes.length - keep);
    return bytes.toString(enc);
  }

  end(buf) {
    let out = '';
    if (buf !== undefined) out = this.write(buf);
    const pending = this._pending;
    this._pending = Buffer.alloc(0);
    if (pending.length) {
      if (this.encoding === 'utf8') out += '\ufffd';
      else out += pending.toString(this.encoding);
    }
    return out;
  }

  text(buf, offset) {
    this._pending = Buffer.alloc(0);
    return this.write(buf.subarray(offset));
  }

  get lastNeed() {
    if (!this._pending.length) return 0;
    if (this.encoding === 'utf8') return utf8Need(this._pending[0]) - this._pending.length;
    if (this.encoding === 'utf16le') return this._pending.length % 2 ? 1 : 2;
    return 3 - this._pending.length;
  }

  get lastTotal() {
    if (this.encoding === 'utf8') return this._pending.length ? utf8Need(this._pending[0]) : 0;
    return this._pending.length + this.lastNeed;
  }

  get lastChar() {
    const out = Buffer.alloc(4);
    this._pending.copy(out);
    return out;
  }
}

module.exports = { StringDecoder };
