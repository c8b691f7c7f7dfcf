'use strict';
const {
  validateInteger, validateFunction, ERR_INVALID_ARG_TYPE, ERR_OUT_OF_RANGE,
} = require('node:internal/errors');
// node:zlib over the codecs in zlib.rs (flate2 and brotli). One-shot functions code their
// whole input; a stream gathers its input and codes it when it ends (its state is plain data
// that rides an image), so a stream's output arrives at the end, not chunk by chunk.

const { Transform } = require('node:stream');
const { Buffer } = require('node:buffer');

const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6, Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1, Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3,
  Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865, DEFLATE: 1, INFLATE: 2, GZIP: 3,
  GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7, BROTLI_DECODE: 8, BROTLI_ENCODE: 9,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64,
  Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384, Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9,
  Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
  BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2,
  BROTLI_OPERATION_EMIT_METADATA: 3, BROTLI_PARAM_MODE: 0, BROTLI_MODE_GENERIC: 0,
  BROTLI_MODE_TEXT: 1, BROTLI_MODE_FONT: 2, BROTLI_DEFAULT_MODE: 0, BROTLI_PARAM_QUALITY: 1,
  BROTLI_MIN_QUALITY: 0, BROTLI_MAX_QUALITY: 11, BROTLI_DEFAULT_QUALITY: 11, BROTLI_PARAM_LGWIN: 2,
  BROTLI_MIN_WINDOW_BITS: 10, BROTLI_MAX_WINDOW_BITS: 24, BROTLI_LARGE_MAX_WINDOW_BITS: 30,
  BROTLI_DEFAULT_WINDOW: 22, BROTLI_PARAM_LGBLOCK: 3, BROTLI_MIN_INPUT_BLOCK_BITS: 16,
  BROTLI_MAX_INPUT_BLOCK_BITS: 24, BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING: 4,
  BROTLI_PARAM_SIZE_HINT: 5, BROTLI_PARAM_LARGE_WINDOW: 6, BROTLI_PARAM_NPOSTFIX: 7,
  BROTLI_PARAM_NDIRECT: 8, BROTLI_DECODER_RESULT_ERROR: 0, BROTLI_DECODER_RESULT_SUCCESS: 1,
  BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: 2, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: 3,
  BROTLI_DECODER_PARAM_DISABLE_RING_BUFFER_REALLOCATION: 0, BROTLI_DECODER_PARAM_LARGE_WINDOW: 1,
  BROTLI_DECODER_NO_ERROR: 0, BROTLI_DECODER_SUCCESS: 1, BROTLI_DECODER_NEEDS_MORE_INPUT: 2,
  BROTLI_DECODER_NEEDS_MORE_OUTPUT: 3, BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_NIBBLE: -1,
  BROTLI_DECODER_ERROR_FORMAT_RESERVED: -2, BROTLI_DECODER_ERROR_FORMAT_PADDING_1: -14,
  BROTLI_DECODER_ERROR_FORMAT_PADDING_2: -15, BROTLI_DECODER_ERROR_UNREACHABLE: -31,
};
Object.freeze(constants);

const codes = {
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
};
for (const key of Object.keys(codes)) codes[codes[key]] = key;

function toBytes(buffer, name = 'buffer') {
  if (typeof buffer === 'string') return Buffer.from(buffer);
  if (buffer instanceof Uint8Array) return buffer;
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
  throw ERR_INVALID_ARG_TYPE(name, ['string', 'Buffer', 'TypedArray', 'DataView', 'ArrayBuffer'], buffer);
}

function levelOf(mode, options) {
  if (mode.startsWith('brotli')) {
    const q = options?.params?.[constants.BROTLI_PARAM_QUALITY];
    return q === undefined ? constants.BROTLI_DEFAULT_QUALITY : q;
  }
  const level = options?.level;
  if (level === undefined || level === -1) return 6;
  if (typeof level !== 'number' || level < -1 || level > 9) {
    throw ERR_OUT_OF_RANGE('options.level', '>= -1 and <= 9', level);
  }
  return level;
}

function run(mode, bytes, options) {
  const out = internal.code(mode, bytes, levelOf(mode, options), options?.windowBits ?? 15);
  if (typeof out === 'string') {
    const [code, errno, message] = out.split('|');
    const e = new Error(message);
    e.errno = Number(errno);
    e.code = code;
    throw e;
  }
  if (options?.info) return { buffer: out, engine: {} };
  return out;
}

class ZlibBase extends Transform {
  constructor(mode, options) {
    super({ ...options, objectMode: false });
    levelOf(mode, options);
    this._mode = mode;
    this._options = options || {};
    this._chunks = [];
    this.bytesWritten = 0;
    this._handle = {};
  }

  get _closed() { return this.destroyed; }

  _transform(chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this._chunks.push(bytes);
    this.bytesWritten += bytes.byteLength;
    callback();
  }

  _flush(callback) {
    let out;
    try {
      out = run(this._mode, Buffer.concat(this._chunks), this._options);
    } catch (e) {
      callback(e);
      return;
    }
    this._chunks = [];
    if (out.length > 0) this.push(out);
    callback();
  }

  // Output comes when the stream ends; a flush point changes nothing here.
  flush(kind, callback) {
    if (typeof kind === 'function') callback = kind;
    if (callback) process.nextTick(callback);
  }

  params(level, strategy, callback) {
    this._options = { ...this._options, level, strategy };
    if (callback) process.nextTick(callback);
  }

  reset() {
    this._chunks = [];
  }

  close(callback) {
    if (callback) this.once('close', callback);
    this.destroy();
  }
}

const modes = {
  Deflate: 'deflate', Inflate: 'inflate', Gzip: 'gzip', Gunzip: 'gunzip', DeflateRaw: 'deflateRaw',
  InflateRaw: 'inflateRaw', Unzip: 'unzip', BrotliCompress: 'brotliCompress',
  BrotliDecompress: 'brotliDecompress',
};

module.exports = { constants, codes };

for (const [name, mode] of Object.entries(modes)) {
  const cls = {
    [name]: class extends ZlibBase {
      constructor(options) {
        super(mode, options);
      }
    },
  }[name];
  module.exports[name] = cls;
  module.exports[`create${name}`] = (options) => new cls(options);
  const sync = (buffer, options) => run(mode, toBytes(buffer), options);
  module.exports[`${mode}Sync`] = sync;
  module.exports[mode] = function (buffer, options, callback) {
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    validateFunction(callback, 'callback');
    const bytes = toBytes(buffer);
    process.nextTick(() => {
      let out;
      try {
        out = run(mode, bytes, options);
      } catch (e) {
        callback(e);
        return;
      }
      callback(null, out);
    });
  };
}

module.exports.crc32 = function crc32(data, value = 0) {
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    throw ERR_INVALID_ARG_TYPE('data', ['Buffer', 'TypedArray', 'DataView', 'string'], data);
  }
  validateInteger(value, 'value', 0, 2 ** 32 - 1);
  return internal.crc32(typeof data === 'string' ? data : toBytes(data), value);
};

// The legacy top-level constants (zlib.Z_OK …).
for (const key of Object.keys(constants)) {
  if (key.startsWith('Z_') && !(key in module.exports)) {
    Object.defineProperty(module.exports, key, { value: constants[key], enumerable: false, writable: false });
  }
}
