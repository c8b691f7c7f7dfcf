'use strict';
// node:buffer, after Node's lib/buffer.js: Buffer is a Uint8Array subclass (FastBuffer) whose
// prototype methods are here; encoding and decoding strings are Rust natives (`internal`).
const {
  ArrayBufferIsView, ArrayIsArray, BigIntAsIntN, BigIntAsUintN, FunctionPrototypeCall, MathFloor,
  MathMin, MathTrunc, NumberIsInteger, NumberIsNaN, NumberMAX_SAFE_INTEGER, NumberMIN_SAFE_INTEGER,
  ObjectDefineProperty, ObjectKeys, ObjectPrototypeToString, ObjectSetPrototypeOf,
  StringPrototypeCharCodeAt, StringPrototypeIncludes, StringPrototypeReplace,
  StringPrototypeToLowerCase, SymbolFor, SymbolSpecies, SymbolToPrimitive, TypedArrayPrototypeFill,
} = primordials;
const {
  makeError, validateNumber, validateInteger, validateString, domException, ERR_INVALID_ARG_TYPE,
  ERR_INVALID_ARG_VALUE, ERR_OUT_OF_RANGE, ERR_UNKNOWN_ENCODING, ERR_BUFFER_OUT_OF_BOUNDS, ERR_MISSING_ARGS,
} = require('node:internal/errors');

const kMaxLength = 2 ** 32;
const kStringMaxLength = 2 ** 29 - 24;
const INSPECT_MAX_BYTES = 50;

// Encoding indices the natives take.
const UTF8 = 0, UTF16LE = 1, LATIN1 = 2, ASCII = 3, BASE64 = 4, BASE64URL = 5, HEX = 6;
const encodingIndex = {
  utf8: UTF8, utf16le: UTF16LE, latin1: LATIN1, ascii: ASCII, base64: BASE64, base64url: BASE64URL, hex: HEX,
};

function normalizeEncoding(enc) {
  if (enc == null || enc === 'utf8' || enc === 'utf-8') return 'utf8';
  switch (StringPrototypeToLowerCase(`${enc}`)) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': return 'base64';
    case 'base64url': return 'base64url';
    case 'hex': return 'hex';
    case 'ascii': return 'ascii';
    case '': return 'utf8';
    default: return undefined;
  }
}

function encodingOf(enc) {
  const normalized = normalizeEncoding(enc);
  if (normalized === undefined) throw ERR_UNKNOWN_ENCODING(enc);
  return encodingIndex[normalized];
}

class FastBuffer extends Uint8Array {
  // eslint-disable-next-line no-useless-constructor
  constructor(bufferOrLength, byteOffset, length) {
    super(bufferOrLength, byteOffset, length);
  }
}

function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === 'number') {
    if (typeof encodingOrOffset === 'string') {
      throw ERR_INVALID_ARG_TYPE('string', 'string', arg);
    }
    return Buffer.alloc(arg);
  }
  return Buffer.from(arg, encodingOrOffset, length);
}

ObjectDefineProperty(Buffer, SymbolSpecies, { get() { return FastBuffer; }, configurable: true });
FastBuffer.prototype.constructor = Buffer;
Buffer.prototype = FastBuffer.prototype;
ObjectSetPrototypeOf(Buffer, Uint8Array);
internal.setPrototype(FastBuffer.prototype);

function isUint8Array(v) {
  return ArrayBufferIsView(v) && ObjectPrototypeToString(v) === '[object Uint8Array]';
}

function isAnyArrayBuffer(v) {
  if (v === null || typeof v !== 'object') return false;
  const tag = ObjectPrototypeToString(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

function fromString(string, encoding) {
  let index;
  if (typeof encoding !== 'string' || encoding.length === 0) {
    index = UTF8;
  } else {
    const normalized = normalizeEncoding(encoding);
    if (normalized === undefined) throw ERR_UNKNOWN_ENCODING(encoding);
    index = encodingIndex[normalized];
  }
  return internal.fromString(string, index);
}

function fromArrayBuffer(obj, byteOffset, length) {
  if (byteOffset === undefined) {
    byteOffset = 0;
  } else {
    byteOffset = +byteOffset;
    if (NumberIsNaN(byteOffset)) byteOffset = 0;
  }
  const maxLength = obj.byteLength - byteOffset;
  if (maxLength < 0) throw ERR_BUFFER_OUT_OF_BOUNDS('offset');
  if (length === undefined) {
    length = maxLength;
  } else {
    length = +length;
    if (length > 0) {
      if (length > maxLength) throw ERR_BUFFER_OUT_OF_BOUNDS('length');
    } else {
      length = 0;
    }
  }
  return new FastBuffer(obj, byteOffset, length);
}

function fromArrayLike(obj) {
  if (obj.length <= 0) return new FastBuffer();
  const b = new FastBuffer(obj.length);
  b.set(obj, 0);
  return b;
}

function fromObject(obj) {
  if (obj.length !== undefined || isAnyArrayBuffer(obj.buffer)) {
    if (typeof obj.length !== 'number') return new FastBuffer();
    return fromArrayLike(obj);
  }
  if (obj.type === 'Buffer' && ArrayIsArray(obj.data)) return fromArrayLike(obj.data);
  return undefined;
}

// Static properties are made in Node's order (Object.keys(Buffer) shows it).
Buffer.poolSize = 8 * 1024;

Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === 'string') return fromString(value, encodingOrOffset);
  if (typeof value === 'object' && value !== null) {
    if (isAnyArrayBuffer(value)) return fromArrayBuffer(value, encodingOrOffset, length);
    const valueOf = value.valueOf && value.valueOf();
    if (valueOf != null && valueOf !== value && (typeof valueOf === 'string' || typeof valueOf === 'object')) {
      return Buffer.from(valueOf, encodingOrOffset, length);
    }
    const b = fromObject(value);
    if (b) return b;
    if (typeof value[SymbolToPrimitive] === 'function') {
      const primitive = value[SymbolToPrimitive]('string');
      if (typeof primitive === 'string') return fromString(primitive, encodingOrOffset);
    }
  }
  throw ERR_INVALID_ARG_TYPE('first argument', ['string', 'Buffer', 'ArrayBuffer', 'Array', 'Array-like Object'], value);
};

Buffer.copyBytesFrom = function copyBytesFrom(view, offset, length) {
  if (!ArrayBufferIsView(view) || ObjectPrototypeToString(view) === '[object DataView]') {
    throw ERR_INVALID_ARG_TYPE('view', ['TypedArray'], view);
  }
  const viewLength = view.length;
  if (viewLength === 0) return Buffer.alloc(0);
  if (offset !== undefined || length !== undefined) {
    if (offset !== undefined) {
      validateInteger(offset, 'offset', 0);
      if (offset >= viewLength) return new FastBuffer();
    } else {
      offset = 0;
    }
    let end;
    if (length !== undefined) {
      validateInteger(length, 'length', 0);
      end = offset + length;
    } else {
      end = viewLength;
    }
    view = view.subarray(offset, end);
  }
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  return Buffer.from(bytes.slice());
};

Buffer.of = function of(...items) {
  const b = new FastBuffer(items.length);
  for (let k = 0; k < items.length; k++) b[k] = items[k];
  return b;
};

function assertSize(size) {
  validateNumber(size, 'size', 0, kMaxLength);
}

Buffer.alloc = function alloc(size, fill, encoding) {
  assertSize(size);
  const buf = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && size > 0) {
    return _fill(buf, fill, 0, buf.length, encoding);
  }
  return buf;
};

Buffer.allocUnsafe = function allocUnsafe(size) {
  assertSize(size);
  return new FastBuffer(size);
};

Buffer.allocUnsafeSlow = function allocUnsafeSlow(size) {
  assertSize(size);
  return new FastBuffer(size);
};

function SlowBuffer(size) {
  assertSize(size);
  return new FastBuffer(size);
}
ObjectSetPrototypeOf(SlowBuffer.prototype, Uint8Array.prototype);
ObjectSetPrototypeOf(SlowBuffer, Uint8Array);

Buffer.isBuffer = function isBuffer(b) {
  return b instanceof Buffer;
};

Buffer.compare = function compare(buf1, buf2) {
  if (!isUint8Array(buf1)) throw ERR_INVALID_ARG_TYPE('buf1', ['Buffer', 'Uint8Array'], buf1);
  if (!isUint8Array(buf2)) throw ERR_INVALID_ARG_TYPE('buf2', ['Buffer', 'Uint8Array'], buf2);
  if (buf1 === buf2) return 0;
  return internal.compare(buf1, buf2);
};

Buffer.isEncoding = function isEncoding(encoding) {
  return typeof encoding === 'string' && encoding.length !== 0 && normalizeEncoding(encoding) !== undefined;
};
Buffer[SymbolFor('kIsEncodingSymbol')] = Buffer.isEncoding;

Buffer.concat = function concat(list, length) {
  if (!ArrayIsArray(list)) throw ERR_INVALID_ARG_TYPE('list', 'Array', list);
  if (list.length === 0) return new FastBuffer();
  if (length === undefined) {
    length = 0;
    for (let i = 0; i < list.length; i++) {
      if (list[i].length) length += list[i].length;
    }
  } else {
    validateInteger(length, 'length', 0);
  }
  const buffer = Buffer.allocUnsafe(length);
  let pos = 0;
  for (let i = 0; i < list.length; i++) {
    const buf = list[i];
    if (!isUint8Array(buf)) throw ERR_INVALID_ARG_TYPE(`list[${i}]`, ['Buffer', 'Uint8Array'], list[i]);
    pos += internal.copyBytes(buf, buffer, pos, 0, buf.length);
  }
  if (pos < length) buffer.fill(0, pos, length);
  return buffer;
};

function byteLength(string, encoding) {
  if (typeof string !== 'string') {
    if (ArrayBufferIsView(string) || isAnyArrayBuffer(string)) return string.byteLength;
    throw ERR_INVALID_ARG_TYPE('string', ['string', 'Buffer', 'ArrayBuffer'], string);
  }
  const len = string.length;
  if (len === 0) return 0;
  const normalized = normalizeEncoding(encoding);
  return internal.byteLength(string, normalized === undefined ? UTF8 : encodingIndex[normalized]);
}
Buffer.byteLength = byteLength;

ObjectDefineProperty(Buffer.prototype, 'parent', {
  enumerable: true,
  configurable: true,
  get() {
    if (!(this instanceof Buffer)) return undefined;
    return this.buffer;
  },
});
ObjectDefineProperty(Buffer.prototype, 'offset', {
  enumerable: true,
  configurable: true,
  get() {
    if (!(this instanceof Buffer)) return undefined;
    return this.byteOffset;
  },
});

Buffer.prototype.copy = function copy(target, targetStart, sourceStart, sourceEnd) {
  if (!isUint8Array(this)) throw ERR_INVALID_ARG_TYPE('source', ['Buffer', 'Uint8Array'], this);
  if (!ArrayBufferIsView(target)) throw ERR_INVALID_ARG_TYPE('target', ['Buffer', 'Uint8Array'], target);
  targetStart = toInteger(targetStart, 0);
  if (targetStart < 0) throw ERR_OUT_OF_RANGE('targetStart', '>= 0', targetStart);
  sourceStart = toInteger(sourceStart, 0);
  if (sourceStart < 0 || sourceStart > this.length) {
    throw ERR_OUT_OF_RANGE('sourceStart', `>= 0 && <= ${this.length}`, sourceStart);
  }
  sourceEnd = sourceEnd === undefined ? this.length : toInteger(sourceEnd, 0);
  if (sourceEnd < 0) throw ERR_OUT_OF_RANGE('sourceEnd', '>= 0', sourceEnd);
  if (targetStart >= target.byteLength || sourceStart >= sourceEnd) return 0;
  return internal.copyBytes(this, target, targetStart, sourceStart, MathMin(sourceEnd, this.length));
};

function toInteger(n, defaultVal) {
  n = +n;
  if (!NumberIsNaN(n) && n >= NumberMIN_SAFE_INTEGER && n <= NumberMAX_SAFE_INTEGER) {
    return ((n % 1) === 0 ? n : MathFloor(n));
  }
  return defaultVal;
}

Buffer.prototype.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return internal.toString(this, UTF8, 0, this.length);
  const len = this.length;
  if (start <= 0) start = 0;
  else if (start >= len) return '';
  else start = MathTrunc(start) || 0;
  if (end === undefined || end > len) end = len;
  else end = MathTrunc(end) || 0;
  if (end <= start) return '';
  if (encoding === undefined) return internal.toString(this, UTF8, start, end);
  return internal.toString(this, encodingOf(encoding), start, end);
};

Buffer.prototype.equals = function equals(otherBuffer) {
  if (!isUint8Array(otherBuffer)) throw ERR_INVALID_ARG_TYPE('otherBuffer', ['Buffer', 'Uint8Array'], otherBuffer);
  if (this === otherBuffer) return true;
  if (this.byteLength !== otherBuffer.byteLength) return false;
  return this.byteLength === 0 || internal.compare(this, otherBuffer) === 0;
};

Buffer.prototype.inspect = function inspect() {
  let str = '';
  const max = INSPECT_MAX_BYTES;
  str = this.toString('hex', 0, max).replace(/(.{2})/g, '$1 ').trim();
  const remaining = this.length - max;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return `<${this.constructor.name} ${str}>`;
};
Buffer.prototype[SymbolFor('nodejs.util.inspect.custom')] = Buffer.prototype.inspect;

function validateOffsetArg(value, name, min = 0, max = kMaxLength) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!NumberIsInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
}

Buffer.prototype.compare = function compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
  if (!isUint8Array(target)) throw ERR_INVALID_ARG_TYPE('target', ['Buffer', 'Uint8Array'], target);
  if (arguments.length === 1) return internal.compare(this, target);
  if (targetStart === undefined) targetStart = 0;
  else validateOffsetArg(targetStart, 'targetStart');
  if (targetEnd === undefined) targetEnd = target.length;
  else validateOffsetArg(targetEnd, 'targetEnd', 0, target.length);
  if (sourceStart === undefined) sourceStart = 0;
  else validateOffsetArg(sourceStart, 'sourceStart');
  if (sourceEnd === undefined) sourceEnd = this.length;
  else validateOffsetArg(sourceEnd, 'sourceEnd', 0, this.length);
  if (sourceStart >= sourceEnd) return (targetStart >= targetEnd ? 0 : -1);
  if (targetStart >= targetEnd) return 1;
  return internal.compare(this.subarray(sourceStart, sourceEnd), target.subarray(targetStart, targetEnd));
};

function bidirectionalIndexOf(buffer, val, byteOffset, encoding, dir) {
  if (typeof byteOffset === 'string') {
    encoding = byteOffset;
    byteOffset = undefined;
  } else if (byteOffset > 0x7fffffff) {
    byteOffset = 0x7fffffff;
  } else if (byteOffset < -0x80000000) {
    byteOffset = -0x80000000;
  }
  byteOffset = +byteOffset;
  if (NumberIsNaN(byteOffset)) byteOffset = dir ? 0 : (buffer.length || buffer.byteLength);
  let needle;
  if (typeof val === 'number') {
    needle = new FastBuffer(1);
    needle[0] = (val >>> 0) & 255;
  } else if (typeof val === 'string') {
    let index = UTF8;
    if (encoding !== undefined) {
      const normalized = normalizeEncoding(encoding);
      if (normalized === undefined) throw ERR_UNKNOWN_ENCODING(encoding);
      index = encodingIndex[normalized];
    }
    needle = internal.fromString(val, index);
  } else if (isUint8Array(val)) {
    needle = val;
  } else {
    throw ERR_INVALID_ARG_TYPE('value', ['number', 'string', 'Buffer', 'Uint8Array'], val);
  }
  const len = buffer.length;
  if (byteOffset < 0) byteOffset += len;
  if (byteOffset < 0) {
    if (dir) byteOffset = 0;
    else return -1;
  }
  if (dir && byteOffset >= len && needle.length > 0) return -1;
  return internal.indexOf(buffer, needle, byteOffset, dir);
}

Buffer.prototype.indexOf = function indexOf(val, byteOffset, encoding) {
  return bidirectionalIndexOf(this, val, byteOffset, encoding, true);
};

Buffer.prototype.lastIndexOf = function lastIndexOf(val, byteOffset, encoding) {
  return bidirectionalIndexOf(this, val, byteOffset, encoding, false);
};

Buffer.prototype.includes = function includes(val, byteOffset, encoding) {
  return this.indexOf(val, byteOffset, encoding) !== -1;
};

function _fill(buf, value, offset, end, encoding) {
  if (typeof value === 'string') {
    if (offset === undefined || typeof offset === 'string') {
      encoding = offset;
      offset = 0;
      end = buf.length;
    } else if (typeof end === 'string') {
      encoding = end;
      end = buf.length;
    }
    const normalized = normalizeEncoding(encoding);
    if (normalized === undefined) {
      validateString(encoding, 'encoding');
      throw ERR_UNKNOWN_ENCODING(encoding);
    }
    if (value.length === 0) {
      value = 0;
    } else if (value.length === 1) {
      if (normalized === 'utf8') {
        const code = StringPrototypeCharCodeAt(value, 0);
        if (code < 128) value = code;
      } else if (normalized === 'latin1') {
        value = StringPrototypeCharCodeAt(value, 0);
      }
    }
    encoding = normalized;
  } else {
    encoding = undefined;
  }
  if (offset === undefined) {
    offset = 0;
    end = buf.length;
  } else {
    validateOffsetArg(offset, 'offset');
    if (end === undefined) end = buf.length;
    else validateOffsetArg(end, 'end', 0, buf.length);
    if (offset >= end) return buf;
  }
  if (typeof value === 'number') {
    TypedArrayPrototypeFill(buf, value & 255, offset, end);
    return buf;
  }
  let pattern;
  if (typeof value === 'string') {
    pattern = internal.fromString(value, encodingIndex[encoding]);
    if (pattern.length === 0) throw ERR_INVALID_ARG_VALUE('value', value);
  } else if (ArrayBufferIsView(value)) {
    pattern = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (pattern.length === 0) throw ERR_INVALID_ARG_VALUE('value', value);
  } else {
    TypedArrayPrototypeFill(buf, Number(value) & 255, offset, end);
    return buf;
  }
  internal.fillPattern(buf, pattern, offset, end);
  return buf;
}

Buffer.prototype.fill = function fill(value, offset, end, encoding) {
  return _fill(this, value, offset, end, encoding);
};

Buffer.prototype.write = function write(string, offset, length, encoding) {
  if (typeof string !== 'string') throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'argument must be a string');
  if (offset === undefined) return internal.write(this, string, 0, this.length, UTF8);
  if (length === undefined && typeof offset === 'string') {
    encoding = offset;
    length = this.length;
    offset = 0;
  } else {
    validateOffsetArg(offset, 'offset', 0, this.length);
    const remaining = this.length - offset;
    if (length === undefined) {
      length = remaining;
    } else if (typeof length === 'string') {
      encoding = length;
      length = remaining;
    } else {
      validateOffsetArg(length, 'length', 0, this.length);
      if (length > remaining) length = remaining;
    }
  }
  if (!encoding) return internal.write(this, string, offset, length, UTF8);
  return internal.write(this, string, offset, length, encodingOf(encoding));
};

Buffer.prototype.toJSON = function toJSON() {
  if (this.length > 0) {
    const data = new Array(this.length);
    for (let i = 0; i < this.length; ++i) data[i] = this[i];
    return { type: 'Buffer', data };
  }
  return { type: 'Buffer', data: [] };
};

function adjustOffset(offset, length) {
  offset = MathTrunc(offset);
  if (offset === 0 || NumberIsNaN(offset)) return 0;
  if (offset < 0) {
    offset += length;
    return offset > 0 ? offset : 0;
  }
  if (offset < length) return offset;
  return length;
}

Buffer.prototype.subarray = function subarray(start, end) {
  const srcLength = this.length;
  start = adjustOffset(start, srcLength);
  end = end !== undefined ? adjustOffset(end, srcLength) : srcLength;
  const newLength = end > start ? end - start : 0;
  return new FastBuffer(this.buffer, this.byteOffset + start, newLength);
};

Buffer.prototype.slice = function slice(start, end) {
  return this.subarray(start, end);
};

function swap(b, n, m) {
  const i = b[n];
  b[n] = b[m];
  b[m] = i;
}

Buffer.prototype.swap16 = function swap16() {
  const len = this.length;
  if (len % 2 !== 0) throw makeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 16-bits');
  for (let i = 0; i < len; i += 2) swap(this, i, i + 1);
  return this;
};

Buffer.prototype.swap32 = function swap32() {
  const len = this.length;
  if (len % 4 !== 0) throw makeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 32-bits');
  for (let i = 0; i < len; i += 4) {
    swap(this, i, i + 3);
    swap(this, i + 1, i + 2);
  }
  return this;
};

Buffer.prototype.swap64 = function swap64() {
  const len = this.length;
  if (len % 8 !== 0) throw makeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of 64-bits');
  for (let i = 0; i < len; i += 8) {
    swap(this, i, i + 7);
    swap(this, i + 1, i + 6);
    swap(this, i + 2, i + 5);
    swap(this, i + 3, i + 4);
  }
  return this;
};

Buffer.prototype.toLocaleString = Buffer.prototype.toString;

for (const [name, index] of [['utf8', UTF8], ['ucs2', UTF16LE], ['utf16le', UTF16LE], ['latin1', LATIN1],
  ['ascii', ASCII], ['base64', BASE64], ['base64url', BASE64URL], ['hex', HEX]]) {
  Buffer.prototype[`${name}Slice`] = function (start, end) {
    return internal.toString(this, index, start, end);
  };
  Buffer.prototype[`${name}Write`] = function (string, offset = 0, length = this.length - offset) {
    return internal.write(this, string, offset, length, index);
  };
}

// ---- numbers (lib/internal/buffer.js)

function checkBounds(buf, offset, byteLength) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== 'number') throw ERR_INVALID_ARG_TYPE('offset', 'number', offset);
  if (!NumberIsInteger(offset)) throw ERR_OUT_OF_RANGE('offset', 'an integer', offset);
  const max = buf.length - byteLength;
  if (offset < 0 || offset > max) {
    if (max < 0) throw ERR_BUFFER_OUT_OF_BOUNDS();
    throw ERR_OUT_OF_RANGE('offset', `>= 0 and <= ${max}`, offset);
  }
  return offset;
}

function checkInt(value, min, max, byteLength) {
  if (value > max || value < min) {
    const n = typeof min === 'bigint' ? 'n' : '';
    let range;
    if (byteLength > 3) {
      if (min === 0 || min === 0n) {
        range = `>= 0${n} and < 2${n} ** ${(byteLength + 1) * 8}${n}`;
      } else {
        range = `>= -(2${n} ** ${(byteLength + 1) * 8 - 1}${n}) and < 2${n} ** ${(byteLength + 1) * 8 - 1}${n}`;
      }
    } else {
      range = `>= ${min}${n} and <= ${max}${n}`;
    }
    throw ERR_OUT_OF_RANGE('value', range, value);
  }
}

function checkByteLength(byteLength) {
  if (byteLength === undefined) throw ERR_INVALID_ARG_TYPE('byteLength', 'number', byteLength);
  if (typeof byteLength !== 'number') throw ERR_INVALID_ARG_TYPE('byteLength', 'number', byteLength);
  if (!NumberIsInteger(byteLength)) throw ERR_OUT_OF_RANGE('byteLength', 'an integer', byteLength);
  if (byteLength < 1 || byteLength > 6) throw ERR_OUT_OF_RANGE('byteLength', '>= 1 and <= 6', byteLength);
}

function readUnsigned(buf, offset, size, little) {
  offset = checkBounds(buf, offset, size);
  let v = 0;
  let mul = 1;
  for (let i = 0; i < size; i++) {
    v += buf[offset + (little ? i : size - 1 - i)] * mul;
    mul *= 256;
  }
  return v;
}

function readSigned(buf, offset, size, little) {
  const v = readUnsigned(buf, offset, size, little);
  const limit = 2 ** (size * 8 - 1);
  return v >= limit ? v - limit * 2 : v;
}

function writeInteger(buf, value, offset, size, little, min, max) {
  value = +value;
  checkInt(value, min, max, size - 1);
  offset = checkBounds(buf, offset, size);
  let v = value < 0 ? value + 2 ** (size * 8) : value;
  v = MathFloor(v);
  for (let i = 0; i < size; i++) {
    buf[offset + (little ? i : size - 1 - i)] = v % 256;
    v = MathFloor(v / 256);
  }
  return offset + size;
}

// The fixed-width integers as Node writes them (lib/internal/buffer.js): each reads or
// writes its bytes directly, checks bounds by reading the first and last byte, and stores
// the value's low bits (ToUint8 of each shifted part), so fractions truncate toward zero.
function validateOffset(offset) {
  if (typeof offset !== 'number') throw ERR_INVALID_ARG_TYPE('offset', 'number', offset);
}

function boundsError(value, length) {
  if (MathFloor(value) !== value) throw ERR_OUT_OF_RANGE('offset', 'an integer', value);
  if (length < 0) throw ERR_BUFFER_OUT_OF_BOUNDS();
  throw ERR_OUT_OF_RANGE('offset', `>= 0 and <= ${length}`, value);
}

function checkFixedBounds(buf, offset, byteLength) {
  validateOffset(offset);
  if (buf[offset] === undefined || buf[offset + byteLength] === undefined) {
    boundsError(offset, buf.length - (byteLength + 1));
  }
}

function checkFixedInt(value, min, max, buf, offset, byteLength) {
  checkInt(value, min, max, byteLength);
  checkFixedBounds(buf, offset, byteLength);
}

function readUInt8(offset = 0) {
  validateOffset(offset);
  const val = this[offset];
  if (val === undefined) boundsError(offset, this.length - 1);
  return val;
}

function readInt8(offset = 0) {
  validateOffset(offset);
  const val = this[offset];
  if (val === undefined) boundsError(offset, this.length - 1);
  return val | (val & 2 ** 7) * 0x1fffffe;
}

function readUInt16LE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 1];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 2);
  return first + last * 2 ** 8;
}

function readUInt16BE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 1];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 2);
  return first * 2 ** 8 + last;
}

function readInt16LE(offset = 0) {
  const val = FunctionPrototypeCall(readUInt16LE, this, offset);
  return val | (val & 2 ** 15) * 0x1fffe;
}

function readInt16BE(offset = 0) {
  const val = FunctionPrototypeCall(readUInt16BE, this, offset);
  return val | (val & 2 ** 15) * 0x1fffe;
}

function readUInt32LE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 3];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 4);
  return first + this[++offset] * 2 ** 8 + this[++offset] * 2 ** 16 + last * 2 ** 24;
}

function readUInt32BE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 3];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 4);
  return first * 2 ** 24 + this[++offset] * 2 ** 16 + this[++offset] * 2 ** 8 + last;
}

function readInt32LE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 3];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 4);
  return first + this[++offset] * 2 ** 8 + this[++offset] * 2 ** 16 + (last << 24);
}

function readInt32BE(offset = 0) {
  validateOffset(offset);
  const first = this[offset];
  const last = this[offset + 3];
  if (first === undefined || last === undefined) boundsError(offset, this.length - 4);
  return (first << 24) + this[++offset] * 2 ** 16 + this[++offset] * 2 ** 8 + last;
}

function writeU_Int8(buf, value, offset, min, max) {
  value = +value;
  validateOffset(offset);
  if (value > max || value < min) throw ERR_OUT_OF_RANGE('value', `>= ${min} and <= ${max}`, value);
  if (buf[offset] === undefined) boundsError(offset, buf.length - 1);
  buf[offset] = value;
  return offset + 1;
}

function writeU_Int16LE(buf, value, offset, min, max) {
  value = +value;
  checkFixedInt(value, min, max, buf, offset, 1);
  buf[offset++] = value;
  buf[offset++] = value >>> 8;
  return offset;
}

function writeU_Int16BE(buf, value, offset, min, max) {
  value = +value;
  checkFixedInt(value, min, max, buf, offset, 1);
  buf[offset++] = value >>> 8;
  buf[offset++] = value;
  return offset;
}

function writeU_Int32LE(buf, value, offset, min, max) {
  value = +value;
  checkFixedInt(value, min, max, buf, offset, 3);
  buf[offset++] = value;
  value = value >>> 8;
  buf[offset++] = value;
  value = value >>> 8;
  buf[offset++] = value;
  value = value >>> 8;
  buf[offset++] = value;
  return offset;
}

function writeU_Int32BE(buf, value, offset, min, max) {
  value = +value;
  checkFixedInt(value, min, max, buf, offset, 3);
  buf[offset + 3] = value;
  value = value >>> 8;
  buf[offset + 2] = value;
  value = value >>> 8;
  buf[offset + 1] = value;
  value = value >>> 8;
  buf[offset] = value;
  return offset + 4;
}

const fixedWidth = {
  readUInt8, readInt8, readUInt16LE, readUInt16BE, readInt16LE, readInt16BE,
  readUInt32LE, readUInt32BE, readInt32LE, readInt32BE,
  writeUInt8(value, offset = 0) { return writeU_Int8(this, value, offset, 0, 0xff); },
  writeInt8(value, offset = 0) { return writeU_Int8(this, value, offset, -0x80, 0x7f); },
  writeUInt16LE(value, offset = 0) { return writeU_Int16LE(this, value, offset, 0, 0xffff); },
  writeUInt16BE(value, offset = 0) { return writeU_Int16BE(this, value, offset, 0, 0xffff); },
  writeInt16LE(value, offset = 0) { return writeU_Int16LE(this, value, offset, -0x8000, 0x7fff); },
  writeInt16BE(value, offset = 0) { return writeU_Int16BE(this, value, offset, -0x8000, 0x7fff); },
  writeUInt32LE(value, offset = 0) { return writeU_Int32LE(this, value, offset, 0, 0xffffffff); },
  writeUInt32BE(value, offset = 0) { return writeU_Int32BE(this, value, offset, 0, 0xffffffff); },
  writeInt32LE(value, offset = 0) { return writeU_Int32LE(this, value, offset, -0x80000000, 0x7fffffff); },
  writeInt32BE(value, offset = 0) { return writeU_Int32BE(this, value, offset, -0x80000000, 0x7fffffff); },
};
for (const name of ObjectKeys(fixedWidth)) {
  Buffer.prototype[name] = fixedWidth[name];
  if (StringPrototypeIncludes(name, 'UInt')) Buffer.prototype[StringPrototypeReplace(name, 'UInt', 'Uint')] = fixedWidth[name];
}

for (const [end, little] of [['LE', true], ['BE', false]]) {
  Buffer.prototype[`readUInt${end}`] = function (offset, byteLength) {
    checkByteLength(byteLength);
    return readUnsigned(this, offset, byteLength, little);
  };
  Buffer.prototype[`readInt${end}`] = function (offset, byteLength) {
    checkByteLength(byteLength);
    return readSigned(this, offset, byteLength, little);
  };
  Buffer.prototype[`writeUInt${end}`] = function (value, offset, byteLength) {
    checkByteLength(byteLength);
    return writeInteger(this, value, offset, byteLength, little, 0, 2 ** (byteLength * 8) - 1);
  };
  Buffer.prototype[`writeInt${end}`] = function (value, offset, byteLength) {
    checkByteLength(byteLength);
    const smax = 2 ** (byteLength * 8 - 1) - 1;
    return writeInteger(this, value, offset, byteLength, little, -smax - 1, smax);
  };
  Buffer.prototype[`readUint${end}`] = Buffer.prototype[`readUInt${end}`];
  Buffer.prototype[`writeUint${end}`] = Buffer.prototype[`writeUInt${end}`];

  Buffer.prototype[`readBigUInt64${end}`] = function (offset) {
    offset = checkBounds(this, offset, 8);
    let v = 0n;
    for (let i = 0; i < 8; i++) {
      v = (v << 8n) | BigInt(this[offset + (little ? 7 - i : i)]);
    }
    return v;
  };
  Buffer.prototype[`readBigInt64${end}`] = function (offset) {
    return BigIntAsIntN(64, this[`readBigUInt64${end}`](offset));
  };
  const writeBig = function (buf, value, offset, min, max) {
    if (typeof value !== 'bigint') throw new TypeError('Cannot mix BigInt and other types, use explicit conversions');
    checkInt(value, min, max, 7);
    offset = checkBounds(buf, offset, 8);
    let v = BigIntAsUintN(64, value);
    for (let i = 0; i < 8; i++) {
      buf[offset + (little ? i : 7 - i)] = Number(v & 0xffn);
      v >>= 8n;
    }
    return offset + 8;
  };
  Buffer.prototype[`writeBigUInt64${end}`] = function (value, offset) {
    return writeBig(this, value, offset, 0n, 0xffffffffffffffffn);
  };
  Buffer.prototype[`writeBigInt64${end}`] = function (value, offset) {
    return writeBig(this, value, offset, -(2n ** 63n), 2n ** 63n - 1n);
  };
  Buffer.prototype[`readBigUint64${end}`] = Buffer.prototype[`readBigUInt64${end}`];
  Buffer.prototype[`writeBigUint64${end}`] = Buffer.prototype[`writeBigUInt64${end}`];

  for (const [name, size, Array] of [['Float', 4, Float32Array], ['Double', 8, Float64Array]]) {
    const scratch = new Array(1);
    const bytes = new Uint8Array(scratch.buffer);
    Buffer.prototype[`read${name}${end}`] = function (offset) {
      offset = checkBounds(this, offset, size);
      for (let i = 0; i < size; i++) bytes[little ? i : size - 1 - i] = this[offset + i];
      return scratch[0];
    };
    Buffer.prototype[`write${name}${end}`] = function (value, offset) {
      value = +value;
      offset = checkBounds(this, offset, size);
      scratch[0] = value;
      for (let i = 0; i < size; i++) this[offset + i] = bytes[little ? i : size - 1 - i];
      return offset + size;
    };
  }
}

// ---- atob / btoa (lib/buffer.js)

const kBase64Chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function btoa(input) {
  if (arguments.length === 0) throw ERR_MISSING_ARGS('input');
  input = `${input}`;
  for (let n = 0; n < input.length; n++) {
    if (StringPrototypeCharCodeAt(input, n) > 0xff) throw domException('Invalid character', 'InvalidCharacterError');
  }
  return internal.toString(internal.fromString(input, LATIN1), BASE64, 0, undefined);
}

function atob(input) {
  if (arguments.length === 0) throw ERR_MISSING_ARGS('input');
  input = `${input}`;
  let nonWhitespace = 0;
  let equals = 0;
  for (let n = 0; n < input.length; n++) {
    const c = input[n];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r') continue;
    nonWhitespace++;
    if (c === '=') {
      equals++;
    } else if (StringPrototypeIncludes(kBase64Chars, c)) {
      if (equals) throw domException('Invalid character', 'InvalidCharacterError');
    } else {
      throw domException('Invalid character', 'InvalidCharacterError');
    }
    if (equals > 2) throw domException('Invalid character', 'InvalidCharacterError');
  }
  let reminder = nonWhitespace % 4;
  if (!reminder) {
    reminder = (nonWhitespace - equals) % 4;
  } else if (equals) {
    throw domException('Invalid character', 'InvalidCharacterError');
  }
  if (reminder === 1) {
    throw domException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  }
  const bytes = internal.fromString(input, BASE64);
  return internal.toString(bytes, LATIN1, 0, undefined);
}

function isUtf8(input) {
  if (!ArrayBufferIsView(input) && !isAnyArrayBuffer(input)) {
    throw ERR_INVALID_ARG_TYPE('input', ['ArrayBuffer', 'Buffer', 'TypedArray'], input);
  }
  const bytes = internal.toString(input, UTF8, 0, undefined);
  return !StringPrototypeIncludes(bytes, '\ufffd') || internal.compare(internal.fromString(bytes, UTF8), input) === 0;
}

function isAscii(input) {
  if (!ArrayBufferIsView(input) && !isAnyArrayBuffer(input)) {
    throw ERR_INVALID_ARG_TYPE('input', ['ArrayBuffer', 'Buffer', 'TypedArray'], input);
  }
  const view = isAnyArrayBuffer(input) ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  for (let i = 0; i < view.length; i++) if (view[i] > 127) return false;
  return true;
}

function transcode(source, fromEnc, toEnc) {
  if (!isUint8Array(source)) throw ERR_INVALID_ARG_TYPE('source', ['Buffer', 'Uint8Array'], source);
  const from = encodingOf(fromEnc);
  const to = encodingOf(toEnc);
  return internal.fromString(internal.toString(source, from, 0, undefined), to);
}

module.exports = {
  Buffer,
  SlowBuffer,
  transcode,
  isUtf8,
  isAscii,
  kMaxLength,
  kStringMaxLength,
  btoa,
  atob,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
  INSPECT_MAX_BYTES,
};
ObjectDefineProperty(module.exports, 'FastBuffer', { value: FastBuffer, enumerable: false });
// Blob and File are the web classes (the globals are the same objects); loaded when first
// read, and never from internal/blob itself, which needs no Buffer. Node's key order puts
// resolveObjectURL between them.
function lazyBlobExport(name) {
  ObjectDefineProperty(module.exports, name, {
    get() { return require('node:internal/blob')[name]; },
    set(value) { ObjectDefineProperty(module.exports, name, { value, writable: true, enumerable: true, configurable: true }); },
    enumerable: true,
    configurable: true,
  });
}
lazyBlobExport('Blob');
// The Blob a `URL.createObjectURL` URL names (a new Blob over the same bytes), or undefined.
module.exports.resolveObjectURL = function resolveObjectURL(url) {
  return require('node:internal/blob').internals.resolveObjectURL(url);
};
lazyBlobExport('File');
