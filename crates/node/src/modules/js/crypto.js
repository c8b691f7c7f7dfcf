'use strict';
// node:crypto and Web Crypto over RustCrypto natives (`internal`). Hashes keep the chunks fed
// so far (plain data that rides an image) and hash them at digest(); randomness comes from
// the engine's entropy hook, which follows the run's policy (Captured: every byte journaled).
const {
  makeError, validateNumber, validateInteger, validateString, validateFunction, domException,
  ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE, ERR_OUT_OF_RANGE,
} = require('node:internal/errors');

if (!internal.enabled()) {
  throw makeError(Error, 'ERR_AMBER_POLICY',
    'node:crypto is disabled by the run\'s policy (crypto: disabled)');
}

const { Buffer } = require('buffer');
const { Transform, Writable } = require('stream');

const kHashes = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512',
  'shake128', 'shake256'];
const kHashAliases = {
  'md5': 'md5', 'rsa-md5': 'md5',
  'sha1': 'sha1', 'sha-1': 'sha1', 'rsa-sha1': 'sha1', 'sha1withrsaencryption': 'sha1',
  'sha224': 'sha224', 'sha-224': 'sha224', 'rsa-sha224': 'sha224', 'sha224withrsaencryption': 'sha224',
  'sha256': 'sha256', 'sha-256': 'sha256', 'rsa-sha256': 'sha256', 'sha256withrsaencryption': 'sha256',
  'sha384': 'sha384', 'sha-384': 'sha384', 'rsa-sha384': 'sha384', 'sha384withrsaencryption': 'sha384',
  'sha512': 'sha512', 'sha-512': 'sha512', 'rsa-sha512': 'sha512', 'sha512withrsaencryption': 'sha512',
  'sha3-224': 'sha3-224', 'sha3-256': 'sha3-256', 'sha3-384': 'sha3-384', 'sha3-512': 'sha3-512',
  'shake128': 'shake128', 'shake256': 'shake256',
};
const kHashLength = { md5: 16, sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64,
  'sha3-224': 28, 'sha3-256': 32, 'sha3-384': 48, 'sha3-512': 64, shake128: 16, shake256: 32 };
const kBlockSize = { md5: 64, sha1: 64, sha224: 64, sha256: 64, sha384: 128, sha512: 128,
  'sha3-224': 144, 'sha3-256': 136, 'sha3-384': 104, 'sha3-512': 72, shake128: 168, shake256: 136 };

function hashName(algorithm) {
  if (typeof algorithm !== 'string') return undefined;
  return kHashAliases[algorithm.toLowerCase()];
}

function isView(v) {
  return ArrayBuffer.isView(v);
}

function isArrayBuffer(v) {
  const tag = Object.prototype.toString.call(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

// Bytes of data (string in `encoding`, Buffer, TypedArray, DataView), as a Buffer view.
function toBuf(data, encoding, name = 'data', allowArrayBuffer = false) {
  if (typeof data === 'string') {
    return Buffer.from(data, encoding === 'buffer' || !encoding ? 'utf8' : encoding);
  }
  if (isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (allowArrayBuffer && isArrayBuffer(data)) return Buffer.from(data);
  if (data instanceof KeyObject) return data[kKeyData];
  throw ERR_INVALID_ARG_TYPE(name, allowArrayBuffer ?
    ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView', ...(name === 'key' ? ['KeyObject', 'CryptoKey'] : [])] :
    ['string', 'Buffer', 'TypedArray', 'DataView'], data);
}

function encodeOutput(buf, encoding) {
  if (encoding === undefined || encoding === 'buffer') return buf;
  return buf.toString(encoding);
}

function concatChunks(chunks) {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

function defer(fn) {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else Promise.resolve().then(fn);
}

// ---- streams

// As Node's LazyTransform: Hash, Hmac, Cipher and Decipher are Transform streams whose stream
// state is made on first use, so the common update()/digest() path pays nothing for it.
function LazyTransform(options) {
  this._options = options;
}
Object.setPrototypeOf(LazyTransform.prototype, Transform.prototype);
Object.setPrototypeOf(LazyTransform, Transform);

function makeLazyGetter(name) {
  return function () {
    Transform.call(this, this._options);
    this._writableState.decodeStrings = false;
    return this[name];
  };
}

function makeLazySetter(name) {
  return function (val) {
    Object.defineProperty(this, name, { value: val, enumerable: true, configurable: true, writable: true });
  };
}

for (const name of ['_readableState', '_writableState', '_transformState']) {
  Object.defineProperty(LazyTransform.prototype, name, {
    get: makeLazyGetter(name),
    set: makeLazySetter(name),
    configurable: true,
    enumerable: true,
  });
}

// ---- hashing

const kState = Symbol('kState');

// Hash and Hmac update(): the bytes fed so far are kept as plain data (they ride images).
function appendChunk(state, data, encoding) {
  if (state.done) throw makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  if (typeof data !== 'string' && !isView(data)) {
    throw ERR_INVALID_ARG_TYPE('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
  }
  // Copied: a caller may reuse its buffer after update().
  state.chunks.push(Buffer.from(toBuf(data, encoding)));
}

function hashOutputLength(name, options) {
  const length = options && options.outputLength;
  if (length === undefined) return kHashLength[name];
  if (typeof length !== 'number') throw ERR_INVALID_ARG_TYPE('options.outputLength', 'number', length);
  if (!Number.isInteger(length)) throw ERR_OUT_OF_RANGE('options.outputLength', 'an integer', length);
  if (length < 0 || length > 4294967295) throw ERR_OUT_OF_RANGE('options.outputLength', '>= 0 && <= 4294967295', length);
  if (length !== kHashLength[name] && !name.startsWith('shake')) {
    throw osslError('ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH',
      'error:030000B2:digital envelope routines::not XOF or invalid length', 'not XOF or invalid length',
      'digital envelope routines');
  }
  return length;
}

class Hash extends LazyTransform {
  constructor(algorithm, options) {
    super(options);
    if (algorithm instanceof Hash) {
      const from = algorithm[kState];
      this[kState] = { algorithm: from.algorithm, chunks: from.chunks.slice(), done: false,
        outputLength: options && options.outputLength !== undefined ? hashOutputLength(from.algorithm, options) : from.outputLength };
      return;
    }
    validateString(algorithm, 'algorithm');
    const name = hashName(algorithm);
    if (name === undefined) throw new Error('Digest method not supported');
    this[kState] = { algorithm: name, chunks: [], done: false, outputLength: hashOutputLength(name, options) };
  }

  _transform(chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  }

  _flush(callback) {
    this.push(this.digest());
    callback();
  }

  copy(options) {
    if (this[kState].done) throw makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    return new Hash(this, options);
  }

  update(data, encoding) {
    appendChunk(this[kState], data, encoding);
    return this;
  }

  digest(outputEncoding) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    state.done = true;
    const out = internal.hash(state.algorithm, concatChunks(state.chunks.length ? state.chunks : [Buffer.alloc(0)]), state.outputLength);
    state.chunks = [];
    return encodeOutput(out, outputEncoding);
  }
}

class Hmac extends LazyTransform {
  constructor(hmac, key, options) {
    super(options);
    validateString(hmac, 'hmac');
    const name = hashName(hmac);
    if (name === undefined || name.startsWith('shake')) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${hmac}`);
    const encoding = options && options.encoding;
    const keyBytes = Buffer.from(toBuf(key, encoding, 'key', true));
    this[kState] = { algorithm: name, key: keyBytes, chunks: [], done: false };
  }

  update(data, encoding) {
    appendChunk(this[kState], data, encoding);
    return this;
  }

  digest(outputEncoding) {
    const state = this[kState];
    if (state.done) return encodeOutput(Buffer.alloc(0), outputEncoding);
    state.done = true;
    const out = internal.hmac(state.algorithm, state.key, concatChunks(state.chunks.length ? state.chunks : [Buffer.alloc(0)]));
    state.chunks = [];
    return encodeOutput(out, outputEncoding);
  }
}
Hmac.prototype._transform = Hash.prototype._transform;
Hmac.prototype._flush = Hash.prototype._flush;

function createHash(algorithm, options) {
  return new Hash(algorithm, options);
}

function createHmac(hmac, key, options) {
  return new Hmac(hmac, key, options);
}

function hash(algorithm, input, outputEncoding = 'hex') {
  validateString(algorithm, 'algorithm');
  if (typeof input !== 'string' && !isView(input)) {
    throw ERR_INVALID_ARG_TYPE('input', ['Buffer', 'TypedArray', 'DataView', 'string'], input);
  }
  const name = hashName(algorithm);
  if (name === undefined) throw new Error('Digest method not supported');
  return encodeOutput(internal.hash(name, toBuf(input), kHashLength[name]), outputEncoding);
}

function getHashes() {
  return ['RSA-MD5', 'RSA-SHA1', 'RSA-SHA224', 'RSA-SHA256', 'RSA-SHA3-224', 'RSA-SHA3-256', 'RSA-SHA3-384',
    'RSA-SHA3-512', 'RSA-SHA384', 'RSA-SHA512', ...kHashes].sort();
}

function timingSafeEqual(buf1, buf2) {
  for (const [name, value] of [['buf1', buf1], ['buf2', buf2]]) {
    if (!isView(value) && !isArrayBuffer(value)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "${name}" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.`);
    }
  }
  const a = isArrayBuffer(buf1) ? Buffer.from(buf1) : toBuf(buf1);
  const b = isArrayBuffer(buf2) ? Buffer.from(buf2) : toBuf(buf2);
  if (a.length !== b.length) {
    throw makeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
  }
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

// ---- key derivation

function checkDigest(digest) {
  validateString(digest, 'digest');
  const name = hashName(digest);
  if (name === undefined || name.startsWith('shake')) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  return name;
}

function pbkdf2Args(password, salt, iterations, keylen, digest) {
  const pw = toBuf(password, 'utf8', 'password', true);
  const s = toBuf(salt, 'utf8', 'salt', true);
  validateInteger(iterations, 'iterations', 1, 2147483647);
  validateInteger(keylen, 'keylen', 0, 2147483647);
  const name = checkDigest(digest);
  return [name, pw, s, iterations, keylen];
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const [name, pw, s, it, len] = pbkdf2Args(password, salt, iterations, keylen, digest);
  return internal.pbkdf2(name, pw, s, it, len);
}

function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  if (typeof digest === 'function') {
    callback = digest;
    digest = undefined;
  }
  const args = pbkdf2Args(password, salt, iterations, keylen, digest);
  validateFunction(callback, 'callback');
  const out = internal.pbkdf2(...args);
  defer(() => callback(null, out));
}

function hkdfArgs(digest, ikm, salt, info, keylen) {
  const name = checkDigest(digest);
  const k = toBuf(ikm, 'utf8', 'ikm', true);
  const s = toBuf(salt, 'utf8', 'salt', true);
  const i = toBuf(info, 'utf8', 'info', true);
  validateInteger(keylen, 'length', 0, 2147483647);
  if (i.length > 1024) throw ERR_OUT_OF_RANGE('info', 'must not contain more than 1024 bytes', i.length);
  if (keylen > 255 * kHashLength[name]) {
    throw makeError(RangeError, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
  }
  return [name, k, s, i, keylen];
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const out = internal.hkdf(...hkdfArgs(digest, ikm, salt, info, keylen));
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

function hkdf(digest, ikm, salt, info, keylen, callback) {
  const args = hkdfArgs(digest, ikm, salt, info, keylen);
  validateFunction(callback, 'callback');
  const out = internal.hkdf(...args);
  defer(() => callback(null, out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)));
}

// scrypt: Node's defaults and checks (N a power of two above 1, 128·N·r bytes within maxmem).
const kScryptDefaults = { N: 16384, r: 8, p: 1, maxmem: 32 << 20 };

function scryptArgs(password, salt, keylen, options) {
  const pw = toBuf(password, 'utf8', 'password', true);
  const s = toBuf(salt, 'utf8', 'salt', true);
  validateInteger(keylen, 'keylen', 0, 2147483647);
  let { N, r, p, maxmem } = kScryptDefaults;
  if (options && options !== kScryptDefaults) {
    const has = (v) => v !== undefined;
    const pick = (a, b, name) => {
      if (has(a) && has(b)) throw makeError(Error, 'ERR_CRYPTO_SCRYPT_INVALID_PARAMETER', 'Invalid scrypt parameter');
      const v = has(a) ? a : b;
      return v;
    };
    const n = pick(options.N, options.cost);
    const rr = pick(options.r, options.blockSize);
    const pp = pick(options.p, options.parallelization);
    if (has(n)) { validateInteger(n, 'N', 0, 4294967295); N = n; }
    if (has(rr)) { validateInteger(rr, 'r', 0, 4294967295); r = rr; }
    if (has(pp)) { validateInteger(pp, 'p', 0, 4294967295); p = pp; }
    if (has(options.maxmem)) { validateInteger(options.maxmem, 'maxmem', 0); maxmem = options.maxmem; }
    if (N === 0) N = kScryptDefaults.N;
    if (r === 0) r = kScryptDefaults.r;
    if (p === 0) p = kScryptDefaults.p;
    if (maxmem === 0) maxmem = kScryptDefaults.maxmem;
  }
  if (N < 2 || (N & (N - 1)) !== 0 || N > 2 ** 32) {
    throw makeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', 'Invalid scrypt params');
  }
  // OpenSSL: N < 2^(16r); p·r ≤ (2^30 - 1); the memory is 128·N·r + 128·r·p (plus a block).
  const memory = 128 * N * r + 128 * r * p + 64 * r * 2;
  if (r * p >= 2 ** 30 || memory > maxmem) {
    throw makeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS',
      'Invalid scrypt params: error:030000AC:digital envelope routines::memory limit exceeded');
  }
  if (Math.log2(N) >= 16 * r) {
    throw makeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', 'Invalid scrypt params');
  }
  return [pw, s, N, r, p, keylen];
}

function scryptSync(password, salt, keylen, options) {
  return internal.scrypt(...scryptArgs(password, salt, keylen, options));
}

function scrypt(password, salt, keylen, options, callback = kScryptDefaults) {
  if (callback === kScryptDefaults) {
    callback = options;
    options = kScryptDefaults;
  }
  const args = scryptArgs(password, salt, keylen, options);
  validateFunction(callback, 'callback');
  const out = internal.scrypt(...args);
  defer(() => callback(null, out));
}

// ---- randomness (through the entropy hook)

const kMaxPossibleLength = 2147483647;

function randomBytes(size, callback) {
  validateNumber(size, 'size', 0, kMaxPossibleLength);
  if (callback !== undefined) validateFunction(callback, 'callback');
  const buf = Buffer.alloc(size);
  internal.randomFill(buf, 0, size);
  if (callback === undefined) return buf;
  defer(() => callback(null, buf));
}

function randomFillArgs(buf, offset, size) {
  if (!isView(buf) && !isArrayBuffer(buf)) {
    throw ERR_INVALID_ARG_TYPE('buf', ['ArrayBuffer', 'ArrayBufferView'], buf);
  }
  const elementSize = buf.BYTES_PER_ELEMENT || 1;
  const byteLength = buf.byteLength;
  offset = offset === undefined ? 0 : offset;
  validateNumber(offset, 'offset', 0, kMaxPossibleLength);
  offset *= elementSize;
  if (offset > byteLength) throw ERR_OUT_OF_RANGE('offset', `>= 0 && <= ${byteLength}`, offset);
  if (size === undefined) {
    size = byteLength - offset;
  } else {
    validateNumber(size, 'size', 0, kMaxPossibleLength);
    size *= elementSize;
  }
  if (size + offset > byteLength) throw ERR_OUT_OF_RANGE('size + offset', `<= ${byteLength}`, size + offset);
  return [offset, size];
}

function randomFillSync(buf, offset, size) {
  const [o, s] = randomFillArgs(buf, offset, size);
  internal.randomFill(buf, o, s);
  return buf;
}

function randomFill(buf, offset, size, callback) {
  if (typeof offset === 'function') {
    callback = offset;
    offset = undefined;
    size = undefined;
  } else if (typeof size === 'function') {
    callback = size;
    size = undefined;
  }
  validateFunction(callback, 'callback');
  const [o, s] = randomFillArgs(buf, offset, size);
  internal.randomFill(buf, o, s);
  defer(() => callback(null, buf));
}

const RAND_MAX = 0xFFFF_FFFF_FFFF;

function randomInt(min, max, callback) {
  const minNotSpecified = typeof max === 'undefined' || typeof max === 'function';
  if (minNotSpecified) {
    callback = max;
    max = min;
    min = 0;
  }
  const isSync = typeof callback === 'undefined';
  if (!isSync) validateFunction(callback, 'callback');
  if (!Number.isSafeInteger(min)) throw ERR_INVALID_ARG_TYPE('min', 'a safe integer', min);
  if (!Number.isSafeInteger(max)) throw ERR_INVALID_ARG_TYPE('max', 'a safe integer', max);
  if (max <= min) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE',
      `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
  }
  const range = max - min;
  if (!(range <= RAND_MAX)) {
    throw ERR_OUT_OF_RANGE(`max${minNotSpecified ? '' : ' - min'}`, `<= ${RAND_MAX}`, range);
  }
  const randLimit = RAND_MAX - (RAND_MAX % range);
  const bytes = Buffer.alloc(6);
  for (;;) {
    internal.randomFill(bytes, 0, 6);
    const x = bytes.readUIntBE(0, 6);
    if (x < randLimit) {
      const n = (x % range) + min;
      if (isSync) return n;
      if (globalThis.process && typeof process.nextTick === 'function') process.nextTick(callback, undefined, n);
      else queueMicrotask(() => callback(undefined, n));
      return undefined;
    }
  }
}

function randomUUID(options) {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw ERR_INVALID_ARG_TYPE('options', 'object', options);
  }
  const b = Buffer.alloc(16);
  internal.randomFill(b, 0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function getRandomValues(data) {
  if (!isView(data) || Object.prototype.toString.call(data) === '[object DataView]' ||
      /Float/.test(Object.prototype.toString.call(data))) {
    const err = domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
    throw err;
  }
  if (data.byteLength > 65536) {
    throw domException('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
  }
  internal.randomFill(data, 0, data.byteLength);
  return data;
}

// ---- ciphers

const kCiphers = {
  'aes-128-cbc': { mode: 'cbc', name: 'aes-128-cbc', nid: 419, keyLength: 16, ivLength: 16 },
  'aes-192-cbc': { mode: 'cbc', name: 'aes-192-cbc', nid: 423, keyLength: 24, ivLength: 16 },
  'aes-256-cbc': { mode: 'cbc', name: 'aes-256-cbc', nid: 427, keyLength: 32, ivLength: 16 },
  'aes-128-gcm': { mode: 'gcm', name: 'id-aes128-gcm', nid: 895, keyLength: 16, ivLength: 12 },
  'aes-192-gcm': { mode: 'gcm', name: 'id-aes192-gcm', nid: 898, keyLength: 24, ivLength: 12 },
  'aes-256-gcm': { mode: 'gcm', name: 'id-aes256-gcm', nid: 901, keyLength: 32, ivLength: 12 },
  'aes-128-ctr': { mode: 'ctr', name: 'aes-128-ctr', nid: 904, keyLength: 16, ivLength: 16 },
  'aes-192-ctr': { mode: 'ctr', name: 'aes-192-ctr', nid: 905, keyLength: 24, ivLength: 16 },
  'aes-256-ctr': { mode: 'ctr', name: 'aes-256-ctr', nid: 906, keyLength: 32, ivLength: 16 },
  'chacha20-poly1305': { mode: 'stream', aead: true, name: 'chacha20-poly1305', nid: 1018, keyLength: 32, ivLength: 12 },
};
// DES and 3DES (internal.des; block 8, ivLength 0 for ECB). Single DES is known to
// getCipherInfo but, as in Node 20 (OpenSSL 3 keeps it in the legacy provider, which Node
// does not load), creating one throws ERR_OSSL_EVP_UNSUPPORTED.
kCiphers['des-ecb'] = { mode: 'ecb', name: 'des-ecb', nid: 29, keyLength: 8, ivLength: 0, block: 8, unsupported: true };
kCiphers['des-cbc'] = { mode: 'cbc', name: 'des-cbc', nid: 31, keyLength: 8, ivLength: 8, block: 8, unsupported: true };
kCiphers['des-ede'] = { mode: 'ecb', name: 'des-ede', nid: 32, keyLength: 16, ivLength: 0, block: 8 };
kCiphers['des-ede-cbc'] = { mode: 'cbc', name: 'des-ede-cbc', nid: 43, keyLength: 16, ivLength: 8, block: 8 };
kCiphers['des-ede3'] = { mode: 'ecb', name: 'des-ede3', nid: 33, keyLength: 24, ivLength: 0, block: 8 };
kCiphers['des-ede3-cbc'] = { mode: 'cbc', name: 'des-ede3-cbc', nid: 44, keyLength: 24, ivLength: 8, block: 8 };
kCiphers.des = kCiphers['des-cbc'];
kCiphers.des3 = kCiphers['des-ede3-cbc'];
kCiphers['des-ede-ecb'] = kCiphers['des-ede'];
kCiphers['des-ede3-ecb'] = kCiphers['des-ede3'];
kCiphers['id-aes128-gcm'] = kCiphers['aes-128-gcm'];
kCiphers['id-aes192-gcm'] = kCiphers['aes-192-gcm'];
kCiphers['id-aes256-gcm'] = kCiphers['aes-256-gcm'];
const kCipherNames = ['aes-128-cbc', 'aes-128-ctr', 'aes-128-gcm', 'aes-192-cbc', 'aes-192-ctr', 'aes-192-gcm',
  'aes-256-cbc', 'aes-256-ctr', 'aes-256-gcm', 'chacha20-poly1305', 'des-ede', 'des-ede-cbc', 'des-ede-ecb', 'des-ede3', 'des-ede3-cbc', 'des-ede3-ecb', 'des3',
  'id-aes128-GCM', 'id-aes192-GCM', 'id-aes256-GCM'];

// Whole blocks through the cipher: AES-CBC, or DES/3DES in CBC (an IV) or ECB (none).
function runBlocks(state, blocks, encrypt) {
  if (state.block === 8) return internal.des(state.key, state.mode === 'ecb' ? Buffer.alloc(0) : state.chain, blocks, encrypt);
  return internal.cbc(state.key, state.chain, blocks, encrypt);
}

function osslError(code, text, reason, library = 'Provider routines') {
  const err = new Error(text);
  err.library = library;
  err.reason = reason;
  err.code = code;
  return err;
}

class CipherBase extends LazyTransform {
  constructor(decipher, cipher, key, iv, options) {
    validateString(cipher, 'cipher');
    const info = kCiphers[cipher.toLowerCase()];
    if (info === undefined) throw makeError(Error, 'ERR_CRYPTO_UNKNOWN_CIPHER', 'Unknown cipher');
    if (info.unsupported) {
      const err = new Error('error:0308010C:digital envelope routines::unsupported');
      err.library = 'digital envelope routines';
      err.reason = 'unsupported';
      err.code = 'ERR_OSSL_EVP_UNSUPPORTED';
      throw err;
    }
    const keyBytes = Buffer.from(toBuf(key, 'utf8', 'key', true));
    if (iv === null && info.mode === 'cbc') throw makeError(TypeError, 'ERR_CRYPTO_INVALID_IV', 'Invalid initialization vector');
    const ivBytes = iv === null ? Buffer.alloc(0) : Buffer.from(toBuf(iv, 'utf8', 'iv', true));
    if (keyBytes.length !== info.keyLength) throw makeError(RangeError, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
    if (ivBytes.length !== info.ivLength) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_IV', 'Invalid initialization vector');
    let authTagLength = 16;
    if (options && options.authTagLength !== undefined) {
      authTagLength = options.authTagLength;
      if (info.mode === 'gcm' && (!Number.isInteger(authTagLength) || ![4, 8, 12, 13, 14, 15, 16].includes(authTagLength))) {
        throw makeError(TypeError, 'ERR_CRYPTO_INVALID_AUTH_TAG', `Invalid authentication tag length: ${authTagLength}`);
      }
      if (info.aead && (!Number.isInteger(authTagLength) || authTagLength < 1 || authTagLength > 16)) {
        throw makeError(TypeError, 'ERR_CRYPTO_INVALID_AUTH_TAG', `Invalid authentication tag length: ${authTagLength}`);
      }
    }
    super(options);
    this[kState] = {
      decipher,
      mode: info.mode,
      key: keyBytes,
      iv: ivBytes,
      // gcm: bytes processed so far, the plaintext (for the tag), aad, tags
      offset: 0,
      plain: [],
      aad: Buffer.alloc(0),
      authTag: undefined,
      authTagLength,
      // cbc and ecb: the block size, bytes not yet a whole block, the chaining value, padding
      block: info.block || 16,
      pending: Buffer.alloc(0),
      chain: ivBytes,
      autoPadding: true,
      done: false,
      decoder: undefined,
    };
  }

  setAutoPadding(ap = true) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation setAutoPadding');
    state.autoPadding = Boolean(ap);
    return this;
  }

  _transform(chunk, encoding, callback) {
    this.push(this.update(chunk, encoding));
    callback();
  }

  _flush(callback) {
    try {
      this.push(this.final());
    } catch (e) {
      callback(e);
      return;
    }
    callback();
  }

  setAAD(aadbuf, options) {
    const state = this[kState];
    if ((state.mode !== 'gcm' && state.mode !== 'stream') || state.offset > 0 || state.done) {
      throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation setAAD');
    }
    const bytes = toBuf(aadbuf, 'utf8', 'buffer');
    state.aad = Buffer.concat([state.aad, bytes]);
    return this;
  }

  update(data, inputEncoding, outputEncoding) {
    const state = this[kState];
    if (state.done) throw new Error('Trying to add data in unsupported state');
    if (typeof data !== 'string' && !isView(data)) {
      throw ERR_INVALID_ARG_TYPE('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
    }
    // Node's validateEncoding: hex input of odd length is refused.
    if (typeof data === 'string' && typeof inputEncoding === 'string' && inputEncoding.toLowerCase() === 'hex' && data.length % 2 !== 0) {
      throw ERR_INVALID_ARG_VALUE('encoding', inputEncoding, `is invalid for data of length ${data.length}`);
    }
    const input = toBuf(data, inputEncoding);
    let out;
    if (state.mode === 'gcm' || state.mode === 'stream') {
      out = state.mode === 'gcm' ? internal.gcmCtr(state.key, state.iv, state.offset, input) :
        internal.chachaXor(state.key, state.iv, state.offset, input);
      state.offset += input.length;
      state.plain.push(state.decipher ? out : Buffer.from(input));
    } else if (state.mode === 'ctr') {
      out = internal.ctr(state.key, state.iv, state.offset, input);
      state.offset += input.length;
    } else {
      const size = state.block;
      const all = state.pending.length ? Buffer.concat([state.pending, input]) : input;
      let whole = all.length - (all.length % size);
      // A decipher with padding keeps the last block back for final().
      if (state.decipher && state.autoPadding && whole === all.length && whole > 0) whole -= size;
      const blocks = all.subarray(0, whole);
      state.pending = Buffer.from(all.subarray(whole));
      out = whole ? runBlocks(state, blocks, !state.decipher) : Buffer.alloc(0);
      if (whole && state.mode === 'cbc') state.chain = Buffer.from((state.decipher ? blocks : out).subarray(whole - size));
    }
    return this._output(out, outputEncoding, false);
  }

  // As Node's getDecoder: one StringDecoder for the output encoding across update() and
  // final() calls, so a multi-byte character or a base64 group split between chunks is
  // carried over, not padded per chunk.
  _output(buf, encoding, final) {
    if (!encoding || encoding === 'buffer') return buf;
    const state = this[kState];
    const { StringDecoder } = require('string_decoder');
    if (!state.decoder) state.decoder = new StringDecoder(encoding);
    if (state.decoder.encoding !== new StringDecoder(encoding).encoding) {
      // Node 20 checks this with its internal assert, hence the code and the wording.
      throw makeError(Error, 'ERR_INTERNAL_ASSERTION', 'Cannot change encoding\n' +
        'This is caused by either a bug in Node.js or incorrect usage of Node.js internals.\n' +
        'Please open an issue with this stack trace at https://github.com/nodejs/node/issues\n');
    }
    return final ? state.decoder.end(buf) : state.decoder.write(buf);
  }

  final(outputEncoding) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation final');
    state.done = true;
    let out = Buffer.alloc(0);
    if (state.mode === 'ctr') {
      // A stream mode: nothing held back, nothing to pad.
    } else if (state.mode === 'gcm' || state.mode === 'stream') {
      const plain = concatChunks(state.plain.length ? state.plain : [Buffer.alloc(0)]);
      const tag = state.mode === 'gcm' ? internal.gcmTag(state.key, state.iv, state.aad, plain) :
        internal.chachaTag(state.key, state.iv, state.aad, plain);
      if (state.decipher) {
        const expected = state.authTag;
        if (!expected || !timingSafeEqual(tag.subarray(0, expected.length), expected)) {
          throw new Error('Unsupported state or unable to authenticate data');
        }
      } else {
        state.authTag = tag.subarray(0, state.authTagLength);
      }
    } else if (!state.decipher) {
      const size = state.block;
      let last = state.pending;
      if (state.autoPadding) {
        const pad = size - (last.length % size);
        last = Buffer.concat([last, Buffer.alloc(pad, pad)]);
      } else if (last.length % size !== 0) {
        throw osslError('ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH',
          'error:1C80006B:Provider routines::wrong final block length', 'wrong final block length');
      }
      if (last.length) out = runBlocks(state, last, true);
    } else {
      const size = state.block;
      const last = state.pending;
      if (last.length % size !== 0 || (state.autoPadding && last.length === 0)) {
        throw osslError('ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH',
          'error:1C80006B:Provider routines::wrong final block length', 'wrong final block length');
      }
      if (last.length) out = runBlocks(state, last, false);
      if (state.autoPadding) {
        const pad = out[out.length - 1];
        let ok = pad >= 1 && pad <= size;
        for (let i = 0; ok && i < pad; i++) if (out[out.length - 1 - i] !== pad) ok = false;
        if (!ok) {
          throw osslError('ERR_OSSL_BAD_DECRYPT', 'error:1C800064:Provider routines::bad decrypt', 'bad decrypt');
        }
        out = out.subarray(0, out.length - pad);
      }
    }
    state.pending = Buffer.alloc(0);
    state.plain = [];
    return this._output(out, outputEncoding, true);
  }
}

class Cipheriv extends CipherBase {
  constructor(cipher, key, iv, options) {
    super(false, cipher, key, iv, options);
  }

  getAuthTag() {
    const state = this[kState];
    if ((state.mode !== 'gcm' && state.mode !== 'stream') || !state.done || !state.authTag) {
      throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation getAuthTag');
    }
    return Buffer.from(state.authTag);
  }
}

class Decipheriv extends CipherBase {
  constructor(cipher, key, iv, options) {
    super(true, cipher, key, iv, options);
  }

  setAuthTag(tagbuf, encoding) {
    const state = this[kState];
    if ((state.mode !== 'gcm' && state.mode !== 'stream') || state.done) {
      throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation setAuthTag');
    }
    const tag = Buffer.from(toBuf(tagbuf, encoding, 'buffer'));
    const valid = state.mode === 'stream' ? tag.length >= 1 && tag.length <= 16 : [4, 8, 12, 13, 14, 15, 16].includes(tag.length);
    if (!valid) {
      throw makeError(TypeError, 'ERR_CRYPTO_INVALID_AUTH_TAG', `Invalid authentication tag length: ${tag.length}`);
    }
    state.authTag = tag;
    return this;
  }
}

function createCipheriv(cipher, key, iv, options) {
  return new Cipheriv(cipher, key, iv, options);
}

function createDecipheriv(cipher, key, iv, options) {
  return new Decipheriv(cipher, key, iv, options);
}

function getCiphers() {
  return kCipherNames.slice();
}

function getCipherInfo(nameOrNid, options) {
  let info;
  if (typeof nameOrNid === 'string') info = kCiphers[nameOrNid.toLowerCase()];
  else if (typeof nameOrNid === 'number') info = Object.values(kCiphers).find((c) => c.nid === nameOrNid);
  else throw ERR_INVALID_ARG_TYPE('nameOrNid', ['string', 'number'], nameOrNid);
  if (!info) return undefined;
  const result = { mode: info.mode, name: info.name, nid: info.nid };
  if (info.mode !== 'stream') result.blockSize = info.mode === 'gcm' || info.mode === 'ctr' ? 1 : info.block || 16;
  if (info.ivLength) result.ivLength = info.ivLength;
  result.keyLength = info.keyLength;
  if (options && options.keyLength !== undefined && options.keyLength !== info.keyLength) return undefined;
  if (options && options.ivLength !== undefined && options.ivLength !== info.ivLength) return undefined;
  return result;
}

// ---- Web Crypto (crypto.subtle)

function domError(message, name) {
  return domException(message, name);
}

function webHashName(algorithm) {
  const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
  switch (typeof name === 'string' ? name.toUpperCase() : '') {
    case 'SHA-1': return 'sha1';
    case 'SHA-256': return 'sha256';
    case 'SHA-384': return 'sha384';
    case 'SHA-512': return 'sha512';
    default: return undefined;
  }
}

const kWebHashName = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };

function webBytes(data, name = 'data') {
  if (isView(data)) return Buffer.from(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  if (isArrayBuffer(data)) return Buffer.from(Buffer.from(data));
  throw ERR_INVALID_ARG_TYPE(name, ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], data);
}

function toArrayBuffer(buf) {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

function normalizeAlgorithm(algorithm) {
  if (typeof algorithm === 'string') return { name: algorithm };
  if (algorithm === null || typeof algorithm !== 'object') {
    throw domError('Algorithm: Unrecognized name.', 'NotSupportedError');
  }
  return algorithm;
}

function algorithmName(algorithm) {
  const name = normalizeAlgorithm(algorithm).name;
  const upper = typeof name === 'string' ? name.toUpperCase() : '';
  if (upper === 'HMAC') return 'HMAC';
  if (upper === 'AES-GCM') return 'AES-GCM';
  if (upper === 'AES-CTR') return 'AES-CTR';
  throw domError('Unrecognized algorithm name', 'NotSupportedError');
}

const kKeyMaterial = Symbol('kKeyMaterial');

class CryptoKey {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get type() {
    return this[kKeyMaterial].type;
  }

  get extractable() {
    return this[kKeyMaterial].extractable;
  }

  get algorithm() {
    return this[kKeyMaterial].algorithm;
  }

  get usages() {
    return this[kKeyMaterial].usages;
  }
}
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });
CryptoKey.prototype[Symbol.for('nodejs.util.inspect.custom')] = function (depth, options, inspect) {
  const m = this[kKeyMaterial];
  const fields = { type: m.type, extractable: m.extractable, algorithm: m.algorithm, usages: m.usages };
  const shown = typeof inspect === 'function' ? inspect(fields, options) : JSON.stringify(fields);
  return `CryptoKey ${shown}`;
};

function makeKey(algorithm, extractable, usages, bytes) {
  const key = Object.create(CryptoKey.prototype);
  key[kKeyMaterial] = { type: 'secret', extractable: Boolean(extractable), algorithm, usages: [...usages], bytes };
  return key;
}

const kUsages = { 'HMAC': ['sign', 'verify'], 'AES-GCM': ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'],
  'AES-CTR': ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] };

function checkUsages(name, usages) {
  if (!Array.isArray(usages)) throw ERR_INVALID_ARG_TYPE('keyUsages', 'Array', usages);
  for (const u of usages) {
    if (!kUsages[name].includes(u)) throw domError('Unsupported key usage for an ' + name + ' key', 'SyntaxError');
  }
  if (usages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
}

function checkKey(key, name, usage) {
  if (!(key instanceof CryptoKey)) throw ERR_INVALID_ARG_TYPE('key', 'CryptoKey', key);
  const material = key[kKeyMaterial];
  if (material.algorithm.name !== name) {
    throw domError('The requested operation is not valid for the provided key', 'InvalidAccessError');
  }
  if (!material.usages.includes(usage)) {
    throw domError('The requested operation is not valid for the provided key', 'InvalidAccessError');
  }
  return material;
}

function hmacAlgorithm(algorithm, bytesLength) {
  const hashAlg = webHashName(algorithm.hash);
  if (hashAlg === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
  if (bytesLength !== undefined) {
    // importKey reports { name, hash, length }, generateKey { name, length, hash } (as Node).
    const length = algorithm.length !== undefined ? algorithm.length : bytesLength * 8;
    return { name: 'HMAC', hash: { name: kWebHashName[hashAlg] }, length };
  }
  const length = algorithm.length !== undefined ? algorithm.length : kBlockSize[hashAlg] * 8;
  return { name: 'HMAC', length, hash: { name: kWebHashName[hashAlg] } };
}

function aesLengthOk(bits) {
  return bits === 128 || bits === 192 || bits === 256;
}

class SubtleCrypto {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  async digest(algorithm, data) {
    const name = webHashName(normalizeAlgorithm(algorithm));
    if (name === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    return toArrayBuffer(internal.hash(name, webBytes(data)));
  }

  async importKey(format, keyData, algorithm, extractable, keyUsages) {
    const asymmetric = webAsymmetric(algorithm);
    if (asymmetric !== undefined) return webImportKey(asymmetric, format, keyData, normalizeAlgorithm(algorithm), extractable, keyUsages);
    const name = algorithmName(algorithm);
    if (format !== 'raw' && format !== 'jwk') {
      throw domError(`Unable to import ${name} key with format ${format}`, 'NotSupportedError');
    }
    let bytes;
    if (format === 'jwk') {
      if (!keyData || keyData.kty !== 'oct' || typeof keyData.k !== 'string') {
        throw domError('Invalid keyData', 'DataError');
      }
      bytes = Buffer.from(keyData.k, 'base64url');
    } else {
      bytes = webBytes(keyData, 'keyData');
    }
    checkUsages(name, keyUsages);
    const alg = normalizeAlgorithm(algorithm);
    if (name === 'HMAC') {
      if (bytes.length === 0) throw domError('Zero-length key is not supported', 'DataError');
      return makeKey(hmacAlgorithm(alg, bytes.length), extractable, keyUsages, bytes);
    }
    if (!aesLengthOk(bytes.length * 8)) throw domError('Invalid key length', 'DataError');
    return makeKey({ name, length: bytes.length * 8 }, extractable, keyUsages, bytes);
  }

  async exportKey(format, key) {
    if (!(key instanceof CryptoKey)) throw ERR_INVALID_ARG_TYPE('key', 'CryptoKey', key);
    const material = key[kKeyMaterial];
    if (!material.extractable) throw domError('key is not extractable', 'InvalidAccessException');
    if (material.keyObject !== undefined) return webExportKey(format, material);
    if (format === 'raw') return toArrayBuffer(Buffer.from(material.bytes));
    if (format === 'jwk') {
      const alg = material.algorithm.name === 'HMAC' ?
        `HS${material.algorithm.hash.name.slice(4)}` : `A${material.algorithm.length}${material.algorithm.name.slice(4)}`;
      return { key_ops: [...material.usages], ext: true, kty: 'oct', k: material.bytes.toString('base64url'), alg };
    }
    throw domError(`Unable to export a raw ${material.algorithm.name} key with format ${format}`, 'NotSupportedError');
  }

  async generateKey(algorithm, extractable, keyUsages) {
    const asymmetric = webAsymmetric(algorithm);
    if (asymmetric !== undefined) return webGenerateKeyPair(asymmetric, normalizeAlgorithm(algorithm), extractable, keyUsages);
    const name = algorithmName(algorithm);
    const alg = normalizeAlgorithm(algorithm);
    checkUsages(name, keyUsages);
    let bits;
    let keyAlgorithm;
    if (name === 'HMAC') {
      keyAlgorithm = hmacAlgorithm(alg);
      bits = keyAlgorithm.length;
    } else {
      bits = alg.length;
      if (!aesLengthOk(bits)) throw domError('AES key length must be 128, 192, or 256 bits', 'OperationError');
      keyAlgorithm = { name, length: bits };
    }
    // The first key generation may wait for a human's approval (approve_capabilities).
    const wait = require('node:internal/net').gate('CryptoKeygen', keyAlgorithm.name, 'subtle.generateKey');
    if (wait !== undefined) await wait;
    const bytes = Buffer.alloc(Math.ceil(bits / 8));
    internal.randomFill(bytes, 0, bytes.length, true);
    return makeKey(keyAlgorithm, extractable, keyUsages, bytes);
  }

  async sign(algorithm, key, data) {
    if (isAsymmetricCryptoKey(key)) return webSign(algorithm, key, data);
    algorithmName(algorithm);
    const material = checkKey(key, 'HMAC', 'sign');
    const hashAlg = webHashName(material.algorithm.hash);
    return toArrayBuffer(internal.hmac(hashAlg, material.bytes, webBytes(data)));
  }

  async verify(algorithm, key, signature, data) {
    if (isAsymmetricCryptoKey(key)) return webVerify(algorithm, key, signature, data);
    algorithmName(algorithm);
    const material = checkKey(key, 'HMAC', 'verify');
    const hashAlg = webHashName(material.algorithm.hash);
    const expected = internal.hmac(hashAlg, material.bytes, webBytes(data));
    const sig = webBytes(signature, 'signature');
    return sig.length === expected.length && timingSafeEqual(sig, expected);
  }

  async encrypt(algorithm, key, data) {
    if (isAsymmetricCryptoKey(key)) return webRsaOaep('publicEncrypt', algorithm, key, data);
    if (algorithmName(algorithm) === 'AES-CTR') return aesCtr(algorithm, checkKey(key, 'AES-CTR', 'encrypt'), webBytes(data));
    const { iv, aad, tagLength } = gcmParams(algorithm);
    const material = checkKey(key, 'AES-GCM', 'encrypt');
    const plain = webBytes(data);
    const ct = internal.gcmCtr(material.bytes, iv, 0, plain);
    const tag = internal.gcmTag(material.bytes, iv, aad, plain).subarray(0, tagLength / 8);
    return toArrayBuffer(Buffer.concat([ct, tag]));
  }

  async decrypt(algorithm, key, data) {
    if (isAsymmetricCryptoKey(key)) return webRsaOaep('privateDecrypt', algorithm, key, data);
    if (algorithmName(algorithm) === 'AES-CTR') return aesCtr(algorithm, checkKey(key, 'AES-CTR', 'decrypt'), webBytes(data));
    const { iv, aad, tagLength } = gcmParams(algorithm);
    const material = checkKey(key, 'AES-GCM', 'decrypt');
    const bytes = webBytes(data);
    const tagBytes = tagLength / 8;
    if (bytes.length < tagBytes) throw domError('The provided data is too small.', 'OperationError');
    const ct = bytes.subarray(0, bytes.length - tagBytes);
    const tag = bytes.subarray(bytes.length - tagBytes);
    const plain = internal.gcmCtr(material.bytes, iv, 0, ct);
    const expected = internal.gcmTag(material.bytes, iv, aad, plain).subarray(0, tagBytes);
    if (!timingSafeEqual(expected, tag)) throw domError('The operation failed for an operation-specific reason', 'OperationError');
    return toArrayBuffer(plain);
  }
}
// ECDH and X25519 (the only deriveBits algorithms Amber has): a method like the class's own.
Object.defineProperty(SubtleCrypto.prototype, 'deriveBits', {
  value: async function deriveBits(algorithm, baseKey, length) {
    if (!isAsymmetricCryptoKey(baseKey)) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    return webDeriveBits(normalizeAlgorithm(algorithm), baseKey, length);
  },
  writable: true,
  configurable: true,
});
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

// AES-CTR with the rightmost `length` bits of `counter` as the block counter: where the
// message would carry past them, the counter wraps to zero in those bits (as WebCrypto says).
function aesCtr(algorithm, material, data) {
  const counter = webBytes(algorithm.counter, 'algorithm.counter');
  if (counter.length !== 16) throw domError('AlgorithmParameters counter must be 16 bytes', 'OperationError');
  const length = algorithm.length;
  if (typeof length !== 'number' || length < 1 || length > 128) {
    throw domError('AlgorithmParameters length must be between 1 and 128', 'OperationError');
  }
  const full = BigInt('0x' + counter.toString('hex'));
  const mask = (1n << BigInt(length)) - 1n;
  const low = full & mask;
  const blocks = BigInt(Math.ceil(data.length / 16));
  const room = mask - low + 1n;
  if (blocks <= room) return toArrayBuffer(internal.ctr(material.bytes, counter, 0, data));
  const split = Number(room) * 16;
  const wrapped = Buffer.from((full & ~mask).toString(16).padStart(32, '0'), 'hex');
  const first = internal.ctr(material.bytes, counter, 0, data.subarray(0, split));
  const rest = internal.ctr(material.bytes, wrapped, 0, data.subarray(split));
  return toArrayBuffer(Buffer.concat([first, rest]));
}

function gcmParams(algorithm) {
  if (algorithmName(algorithm) !== 'AES-GCM') {
    throw domError('The requested operation is not valid for the provided key', 'InvalidAccessError');
  }
  const iv = webBytes(algorithm.iv, 'algorithm.iv');
  if (iv.length !== 12) throw domError('Amber supports 96-bit AES-GCM initialization vectors only', 'NotSupportedError');
  const aad = algorithm.additionalData === undefined ? Buffer.alloc(0) : webBytes(algorithm.additionalData, 'algorithm.additionalData');
  const tagLength = algorithm.tagLength === undefined ? 128 : algorithm.tagLength;
  if (![32, 64, 96, 104, 112, 120, 128].includes(tagLength)) {
    throw domError(`${tagLength} is not a valid AES-GCM tag length`, 'OperationError');
  }
  return { iv, aad, tagLength };
}

class Crypto {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get subtle() {
    return subtle;
  }

  getRandomValues(data) {
    return getRandomValues(data);
  }

  randomUUID() {
    return randomUUID();
  }
}
Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });

const subtle = Object.create(SubtleCrypto.prototype);
const webcrypto = Object.create(Crypto.prototype);

// OpenSSL's numbers as Node 20 reports them: packages pass them as options (RSA_PKCS1_PADDING)
// and compare against them.
const cryptoConstants = Object.freeze({
  OPENSSL_VERSION_NUMBER: 805306672, SSL_OP_ALL: 2147485776, SSL_OP_ALLOW_NO_DHE_KEX: 1024,
  SSL_OP_ALLOW_UNSAFE_LEGACY_RENEGOTIATION: 262144, SSL_OP_CIPHER_SERVER_PREFERENCE: 4194304,
  SSL_OP_CISCO_ANYCONNECT: 32768, SSL_OP_COOKIE_EXCHANGE: 8192, SSL_OP_CRYPTOPRO_TLSEXT_BUG: 2147483648,
  SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS: 2048, SSL_OP_LEGACY_SERVER_CONNECT: 4, SSL_OP_NO_COMPRESSION: 131072,
  SSL_OP_NO_ENCRYPT_THEN_MAC: 524288, SSL_OP_NO_QUERY_MTU: 4096, SSL_OP_NO_RENEGOTIATION: 1073741824,
  SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION: 65536, SSL_OP_NO_SSLv2: 0, SSL_OP_NO_SSLv3: 33554432,
  SSL_OP_NO_TICKET: 16384, SSL_OP_NO_TLSv1: 67108864, SSL_OP_NO_TLSv1_1: 268435456,
  SSL_OP_NO_TLSv1_2: 134217728, SSL_OP_NO_TLSv1_3: 536870912, SSL_OP_PRIORITIZE_CHACHA: 2097152,
  SSL_OP_TLS_ROLLBACK_BUG: 8388608, ENGINE_METHOD_RSA: 1, ENGINE_METHOD_DSA: 2, ENGINE_METHOD_DH: 4,
  ENGINE_METHOD_RAND: 8, ENGINE_METHOD_EC: 2048, ENGINE_METHOD_CIPHERS: 64, ENGINE_METHOD_DIGESTS: 128,
  ENGINE_METHOD_PKEY_METHS: 512, ENGINE_METHOD_PKEY_ASN1_METHS: 1024, ENGINE_METHOD_ALL: 65535,
  ENGINE_METHOD_NONE: 0, DH_CHECK_P_NOT_SAFE_PRIME: 2, DH_CHECK_P_NOT_PRIME: 1,
  DH_UNABLE_TO_CHECK_GENERATOR: 4, DH_NOT_SUITABLE_GENERATOR: 8, RSA_PKCS1_PADDING: 1, RSA_NO_PADDING: 3,
  RSA_PKCS1_OAEP_PADDING: 4, RSA_X931_PADDING: 5, RSA_PKCS1_PSS_PADDING: 6, RSA_PSS_SALTLEN_DIGEST: -1,
  RSA_PSS_SALTLEN_MAX_SIGN: -2, RSA_PSS_SALTLEN_AUTO: -2,
  defaultCoreCipherList: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384:DHE-RSA-AES256-SHA384:ECDHE-RSA-AES256-SHA256:DHE-RSA-AES256-SHA256:HIGH:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!SRP:!CAMELLIA',
  TLS1_VERSION: 769, TLS1_1_VERSION: 770, TLS1_2_VERSION: 771, TLS1_3_VERSION: 772,
  POINT_CONVERSION_COMPRESSED: 2, POINT_CONVERSION_UNCOMPRESSED: 4, POINT_CONVERSION_HYBRID: 6,
  defaultCipherList: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384:DHE-RSA-AES256-SHA384:ECDHE-RSA-AES256-SHA256:DHE-RSA-AES256-SHA256:HIGH:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!SRP:!CAMELLIA',
});
