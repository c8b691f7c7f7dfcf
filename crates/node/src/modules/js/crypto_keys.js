
// ---- KeyObject: secret keys (bytes) and asymmetric keys (RSA, EC P-256/P-384, Ed25519,
// X25519) held as DER — PKCS#8 for a private key, SPKI for a public one — which the natives
// parse at each use. Natives report bad input by returning an error name (kKeyErrors).

const kKeyData = Symbol('kKeyData');
const kKeyType = Symbol('kKeyType');
const kAsymmetricKeyType = Symbol('kAsymmetricKeyType');
const kAsymmetricKeyDetails = Symbol('kAsymmetricKeyDetails');
// The key's type, known from its creation; kAsymmetricKeyType is the getter's cache, set on
// first access as Node's is (so util.inspect shows the same symbols Node shows).
const kKind = Symbol('kKind');

function opensslError(code, text, library, reason) {
  const err = new Error(text);
  err.library = library;
  err.reason = reason;
  err.code = code;
  return err;
}

const kKeyErrors = {
  unsupported: () => opensslError('ERR_OSSL_UNSUPPORTED', 'error:1E08010C:DECODER routines::unsupported',
    'DECODER routines', 'unsupported'),
  ed_digest: () => opensslError('ERR_OSSL_INVALID_DIGEST', 'error:1C80007A:Provider routines::invalid digest',
    'Provider routines', 'invalid digest'),
  operation_not_supported: () => opensslError('ERR_OSSL_EVP_OPERATION_NOT_SUPPORTED_FOR_THIS_KEYTYPE',
    'error:03000096:digital envelope routines::operation not supported for this keytype',
    'digital envelope routines', 'operation not supported for this keytype'),
  oaep_decoding_error: () => opensslError('ERR_OSSL_RSA_OAEP_DECODING_ERROR',
    'error:02000079:rsa routines::oaep decoding error', 'rsa routines', 'oaep decoding error'),
  pkcs_decoding_error: () => opensslError('ERR_OSSL_RSA_INVALID_PADDING',
    'error:0200008A:rsa routines::invalid padding', 'rsa routines', 'invalid padding'),
  data_too_large_for_key_size: () => opensslError('ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE',
    'error:0200006E:rsa routines::data too large for key size', 'rsa routines', 'data too large for key size'),
  data_too_large_for_modulus: () => opensslError('ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_MODULUS',
    'error:02000084:rsa routines::data too large for modulus', 'rsa routines', 'data too large for modulus'),
  decrypt_length: () => opensslError('ERR_OSSL_RSA_OAEP_DECODING_ERROR',
    'error:02000079:rsa routines::oaep decoding error', 'rsa routines', 'oaep decoding error'),
  padding: () => opensslError('ERR_OSSL_RSA_UNKNOWN_PADDING_TYPE',
    'error:02000076:rsa routines::unknown padding type', 'rsa routines', 'unknown padding type'),
  sign_padding: () => opensslError('ERR_OSSL_ILLEGAL_OR_UNSUPPORTED_PADDING_MODE',
    'error:1C8000A5:Provider routines::illegal or unsupported padding mode', 'Provider routines',
    'illegal or unsupported padding mode'),
  pss_salt: () => opensslError('ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE',
    'error:0200006E:rsa routines::data too large for key size', 'rsa routines', 'data too large for key size'),
  invalid_salt_length: () => opensslError('ERR_OSSL_INVALID_SALT_LENGTH', 'error:1C800070:Provider routines::invalid salt length',
    'Provider routines', 'invalid salt length'),
  digest_too_big: () => opensslError('ERR_OSSL_RSA_DIGEST_TOO_BIG_FOR_RSA_KEY',
    'error:02000070:rsa routines::digest too big for rsa key', 'rsa routines', 'digest too big for rsa key'),
  rsa_sign: () => opensslError('ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE',
    'error:0200006E:rsa routines::data too large for key size', 'rsa routines', 'data too large for key size'),
  oaep_label: () => makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM',
    'OAEP labels that are not UTF-8 are not supported by Amber'),
  rsa_bits: () => opensslError(undefined, 'error:1C8000AB:Provider routines::key size too small',
    'Provider routines', 'key size too small'),
  rsa_exponent: () => opensslError('ERR_OSSL_RSA_BAD_E_VALUE', 'error:02000065:rsa routines::bad e value',
    'rsa routines', 'bad e value'),
  bad_decrypt: () => opensslError('ERR_OSSL_BAD_DECRYPT', 'error:1C800064:Provider routines::bad decrypt',
    'Provider routines', 'bad decrypt'),
  mismatch: () => opensslError('ERR_OSSL_EVP_DIFFERENT_PARAMETERS',
    'error:03000099:digital envelope routines::different parameters', 'digital envelope routines', 'different parameters'),
};

// The value of a native that returns an error name on bad input, or throws that error.
function keyResult(r, errors = kKeyErrors) {
  if (typeof r !== 'string') return r;
  const make = errors[r] || kKeyErrors[r] || kKeyErrors.unsupported;
  throw make();
}

class KeyObject {
  constructor(type, handle) {
    if (type !== 'secret' && type !== 'public' && type !== 'private') {
      throw ERR_INVALID_ARG_VALUE('type', type);
    }
    this[kKeyType] = type;
    // The key material is not enumerable: inspecting a key does not print it.
    Object.defineProperty(this, kKeyData, { value: handle });
  }

  get type() {
    return this[kKeyType];
  }

  static from(key) {
    if (!(key instanceof CryptoKey)) throw ERR_INVALID_ARG_TYPE('key', 'CryptoKey', key);
    return keyObjectOfCryptoKey(key);
  }

  equals(other) {
    if (!(other instanceof KeyObject)) throw ERR_INVALID_ARG_TYPE('otherKeyObject', 'KeyObject', other);
    return other.type === this.type && this[kKeyData].equals(other[kKeyData]);
  }
}

class SecretKeyObject extends KeyObject {
  constructor(bytes) {
    super('secret', bytes);
  }

  get symmetricKeySize() {
    return this[kKeyData].length;
  }

  export(options) {
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw ERR_INVALID_ARG_TYPE('options', 'object', options);
    }
    if (options && options.format === 'jwk') {
      return { kty: 'oct', k: this[kKeyData].toString('base64url') };
    }
    if (options && options.format !== undefined && options.format !== 'buffer') {
      throw ERR_INVALID_ARG_VALUE('options.format', options.format);
    }
    return Buffer.from(this[kKeyData]);
  }
}

Object.defineProperty(KeyObject.prototype, Symbol.toStringTag, { value: 'KeyObject', configurable: true });

function keyDetailsOf(key) {
  const d = keyResult(internal.keyDetails(key[kKeyData], key.type === 'private'));
  if (d[0] === 'rsa') return { modulusLength: d[1], publicExponent: BigInt('0x' + d[2]) };
  if (d[0] === 'ec') return { namedCurve: d[1] };
  return {};
}

class AsymmetricKeyObject extends KeyObject {
  constructor(type, der, asymmetricKeyType) {
    super(type, der);
    Object.defineProperty(this, kKind, { value: asymmetricKeyType });
  }

  get asymmetricKeyType() {
    if (this[kAsymmetricKeyType] === undefined) this[kAsymmetricKeyType] = this[kKind];
    return this[kAsymmetricKeyType];
  }

  get asymmetricKeyDetails() {
    const kind = this.asymmetricKeyType;
    if (kind !== 'rsa' && kind !== 'ec') return {};
    if (this[kAsymmetricKeyDetails] === undefined) this[kAsymmetricKeyDetails] = keyDetailsOf(this);
    return this[kAsymmetricKeyDetails];
  }

  export(options) {
    if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'object', options);
    const { format, type } = options;
    if (format === 'jwk') return exportJwk(this);
    if (format !== 'pem' && format !== 'der') throw ERR_INVALID_ARG_VALUE('options.format', format);
    const isPrivate = this.type === 'private';
    const allowed = isPrivate ? ['pkcs1', 'pkcs8', 'sec1'] : ['pkcs1', 'spki'];
    if (!allowed.includes(type)) throw ERR_INVALID_ARG_VALUE('options.type', type);
    if (type === 'pkcs1' && this[kKind] !== 'rsa') {
      throw makeError(Error, 'ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS', 'The selected key encoding pkcs1 can only be used for RSA keys.');
    }
    if (type === 'sec1' && this[kKind] !== 'ec') {
      throw makeError(Error, 'ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS', 'The selected key encoding sec1 can only be used for EC keys.');
    }
    let encrypted;
    if (isPrivate && (options.cipher !== undefined || options.passphrase !== undefined)) {
      if (options.cipher === undefined) throw ERR_INVALID_ARG_VALUE('options.cipher', undefined);
      if (options.passphrase === undefined) throw ERR_INVALID_ARG_VALUE('options.passphrase', undefined);
      validateString(options.cipher, 'options.cipher');
      const cipher = options.cipher.toLowerCase();
      if (kCiphers[cipher] === undefined) throw makeError(Error, 'ERR_CRYPTO_UNKNOWN_CIPHER', 'Unknown cipher');
      if (type !== 'pkcs8' || (cipher !== 'aes-128-cbc' && cipher !== 'aes-256-cbc')) {
        throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM',
          'Amber encrypts private keys as PKCS#8 with aes-128-cbc or aes-256-cbc only');
      }
      encrypted = { cipher, passphrase: passphraseBytes(options.passphrase) };
    }
    let der = keyResult(internal.keyExport(this[kKeyData], isPrivate, type));
    if (encrypted !== undefined) {
      // Salt and IV are random: drawn from the entropy hook like randomBytes.
      const seed = Buffer.alloc(24);
      internal.randomFill(seed, 0, 24);
      der = keyResult(internal.keyEncrypt(der, encrypted.passphrase, encrypted.cipher, seed));
      if (format === 'der') return der;
      return toPem('ENCRYPTED PRIVATE KEY', der);
    }
    if (format === 'der') return der;
    const label = { pkcs1: isPrivate ? 'RSA PRIVATE KEY' : 'RSA PUBLIC KEY', pkcs8: 'PRIVATE KEY', sec1: 'EC PRIVATE KEY', spki: 'PUBLIC KEY' }[type];
    return toPem(label, der);
  }
}

class PublicKeyObject extends AsymmetricKeyObject {
  constructor(der, asymmetricKeyType) {
    super('public', der, asymmetricKeyType);
  }
}

class PrivateKeyObject extends AsymmetricKeyObject {
  constructor(der, asymmetricKeyType) {
    super('private', der, asymmetricKeyType);
  }
}

function toPem(label, der) {
  const b64 = der.toString('base64');
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += b64.slice(i, i + 64) + '\n';
  return `-----BEGIN ${label}-----\n${body}-----END ${label}-----\n`;
}

function exportJwk(key) {
  const members = keyResult(internal.keyJwk(key[kKeyData], key.type === 'private'));
  const jwk = {};
  for (let i = 0; i < members.length; i += 2) jwk[members[i]] = members[i + 1];
  return jwk;
}

function makeAsymmetricKey(result) {
  const [type, der, isPrivate] = keyResult(result);
  return isPrivate ? new PrivateKeyObject(der, type) : new PublicKeyObject(der, type);
}

// The KeyObject of a Web Crypto key (KeyObject.from): its secret bytes.
function keyObjectOfCryptoKey(key) {
  const material = key[kKeyMaterial];
  if (material.keyObject !== undefined) return material.keyObject;
  return new SecretKeyObject(Buffer.from(material.bytes));
}

function createSecretKey(key, encoding) {
  return new SecretKeyObject(Buffer.from(toBuf(key, encoding, 'key', true)));
}

const kPemLabels = {
  'PRIVATE KEY': 'pkcs8',
  'PUBLIC KEY': 'spki',
  'RSA PRIVATE KEY': 'pkcs1-private',
  'RSA PUBLIC KEY': 'pkcs1-public',
  'EC PRIVATE KEY': 'sec1',
  'CERTIFICATE': 'x509',
};

// A key from PEM text: its first block that holds a key (OpenSSL skips others, such as the
// EC PARAMETERS block `openssl ecparam -genkey` writes first). A private key is not read from
// a public block, as OpenSSL's decoder for private keys finds none there.
function keyFromPem(text, passphrase, kind) {
  const blocks = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  let m;
  while ((m = blocks.exec(text)) !== null) {
    if (m[1] === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(m[2])) {
      // Node 20 asks OpenSSL, whose password callback then gives up.
      if (passphrase === undefined) {
        throw opensslError('ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED', 'error:07880109:common libcrypto routines::interrupted or cancelled',
          'common libcrypto routines', 'interrupted or cancelled');
      }
      if (m[1] !== 'ENCRYPTED PRIVATE KEY') {
        throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'Traditionally encrypted PEM keys (Proc-Type) are not supported by Amber');
      }
      const der = Buffer.from(m[2].replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
      return makeAsymmetricKey(internal.keyImport('pkcs8', keyResult(internal.keyDecrypt(der, passphraseBytes(passphrase)))));
    }
    const format = kPemLabels[m[1]];
    if (format === undefined) continue;
    if (kind === 'private' && (format === 'spki' || format === 'pkcs1-public' || format === 'x509')) continue;
    return makeAsymmetricKey(internal.keyImport(format, Buffer.from(m[2].replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')));
  }
  throw kKeyErrors.unsupported();
}

function passphraseBytes(passphrase) {
  if (typeof passphrase === 'string') return Buffer.from(passphrase, 'utf8');
  if (isView(passphrase) || isArrayBuffer(passphrase)) return Buffer.from(isArrayBuffer(passphrase) ? new Uint8Array(passphrase) : toBuf(passphrase));
  throw ERR_INVALID_ARG_TYPE('key.passphrase', ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], passphrase);
}

const kJwkCurves = ['P-256', 'secp256k1', 'P-384', 'P-521'];
const kOkpCurves = ['Ed25519', 'Ed448', 'X25519', 'X448'];

function keyFromJwk(jwk, isPrivate) {
  if (jwk === null || typeof jwk !== 'object') throw ERR_INVALID_ARG_TYPE('key.key', 'object', jwk);
  const str = (name) => {
    if (typeof jwk[name] !== 'string') throw ERR_INVALID_ARG_TYPE(`key.${name}`, 'string', jwk[name]);
    return Buffer.from(jwk[name], 'base64url');
  };
  const kty = jwk.kty;
  if (!['RSA', 'EC', 'OKP'].includes(kty)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
      `The property 'key.kty' must be one of: 'RSA', 'EC', 'OKP'. Received ${typeof kty === 'string' ? `'${kty}'` : String(kty)}`);
  }
  let r;
  if (kty === 'RSA') {
    const n = str('n');
    const e = str('e');
    const rest = isPrivate ? ['d', 'p', 'q', 'dp', 'dq', 'qi'].map(str) : [];
    r = internal.keyFromJwk('RSA', '', n, e, ...rest);
  } else if (kty === 'EC') {
    if (!kJwkCurves.includes(jwk.crv)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
        `The property 'key.crv' must be one of: 'P-256', 'secp256k1', 'P-384', 'P-521'. Received ${typeof jwk.crv === 'string' ? `'${jwk.crv}'` : String(jwk.crv)}`);
    }
    const x = str('x');
    const y = str('y');
    const d = isPrivate ? str('d') : undefined;
    r = internal.keyFromJwk('EC', jwk.crv, x, y, d);
  } else {
    if (!kOkpCurves.includes(jwk.crv)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
        `The property 'key.crv' must be one of: 'Ed25519', 'Ed448', 'X25519', 'X448'. Received ${typeof jwk.crv === 'string' ? `'${jwk.crv}'` : String(jwk.crv)}`);
    }
    const x = str('x');
    const d = isPrivate ? str('d') : undefined;
    r = internal.keyFromJwk('OKP', jwk.crv, x, undefined, d);
  }
  const jwkError = () => makeError(TypeError, 'ERR_CRYPTO_INVALID_JWK', kty === 'EC' ? 'Invalid JWK EC key' : 'Invalid JWK data');
  return makeAsymmetricKey(keyResult(r, { jwk: jwkError, jwk_curve: jwkError, unsupported: jwkError }));
}

function keyInputError(key, allowKeyObject) {
  return ERR_INVALID_ARG_TYPE('key', ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView',
    ...(allowKeyObject ? ['KeyObject', 'CryptoKey'] : [])], key);
}

// Node's prepareAsymmetricKey: a KeyObject, a CryptoKey, PEM text or bytes, or
// { key, format, type, passphrase, encoding }. `kind` is 'private' or 'public'; a public key
// made from private material is its public half. Returns a KeyObject.
function prepareAsymmetricKey(key, kind, allowKeyObject) {
  if (key instanceof CryptoKey) key = keyObjectOfCryptoKey(key);
  if (key instanceof KeyObject) {
    if (!allowKeyObject) throw keyInputError(key, false);
    return checkKeyObjectType(key, kind);
  }
  if (typeof key === 'string' || isView(key) || isArrayBuffer(key)) {
    const text = typeof key === 'string' ? key : Buffer.from(isArrayBuffer(key) ? new Uint8Array(key) : toBuf(key)).toString('latin1');
    return derivePublic(keyFromPem(text, undefined, kind), kind);
  }
  if (key === null || typeof key !== 'object') throw keyInputError(key, allowKeyObject);
  const data = key.key;
  if (data instanceof CryptoKey || data instanceof KeyObject) return prepareAsymmetricKey(data, kind, true);
  const format = key.format === undefined ? 'pem' : key.format;
  if (format === 'jwk') return derivePublic(keyFromJwk(data, kind === 'private' || data && data.d !== undefined), kind);
  if (typeof data !== 'string' && !isView(data) && !isArrayBuffer(data)) {
    throw ERR_INVALID_ARG_TYPE('key.key', ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], data);
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, key.encoding || 'utf8') :
    isArrayBuffer(data) ? Buffer.from(data) : toBuf(data);
  if (format === 'pem') return derivePublic(keyFromPem(bytes.toString('latin1'), key.passphrase, kind), kind);
  if (format !== 'der') throw ERR_INVALID_ARG_VALUE('options.format', format);
  const type = key.type;
  let result;
  if (type === 'pkcs8' && kind === 'private' || type === 'pkcs8' && key.passphrase !== undefined) {
    result = internal.keyImport('pkcs8', bytes);
    if (typeof result === 'string') {
      // Perhaps an EncryptedPrivateKeyInfo: a wrong passphrase says bad decrypt, other bytes
      // say unsupported.
      const decrypted = internal.keyDecrypt(bytes, key.passphrase === undefined ? Buffer.alloc(0) : passphraseBytes(key.passphrase));
      if (typeof decrypted !== 'string') result = internal.keyImport('pkcs8', decrypted);
      else if (decrypted === 'bad_decrypt' && key.passphrase === undefined) throw makeError(TypeError, 'ERR_MISSING_PASSPHRASE', 'Passphrase required for encrypted key');
      else if (decrypted === 'bad_decrypt') result = decrypted;
    }
  } else if (kind === 'private') {
    if (type === 'sec1') result = internal.keyImport(type, bytes);
    else if (type === 'pkcs1') result = internal.keyImport('pkcs1-private', bytes);
    else throw ERR_INVALID_ARG_VALUE('options.type', type);
  } else if (type === 'spki') {
    result = internal.keyImport('spki', bytes);
  } else if (type === 'pkcs1') {
    result = internal.keyImport('pkcs1-public', bytes);
    if (typeof result === 'string') result = internal.keyImport('pkcs1-private', bytes);
  } else if (type === 'pkcs8' || type === 'sec1') {
    result = internal.keyImport(type, bytes);
  } else {
    throw ERR_INVALID_ARG_VALUE('options.type', type);
  }
  return derivePublic(makeAsymmetricKey(result), kind);
}

function derivePublic(key, kind) {
  if (kind === 'public' && key.type === 'private') return new PublicKeyObject(keyResult(internal.keyPublic(key[kKeyData])), key[kKind]);
  if (kind === 'private' && key.type !== 'private') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${key.type}, expected private.`);
  }
  return key;
}

// As Node: a private key is accepted where a public one is asked for (verify, encrypt).
function checkKeyObjectType(key, kind) {
  if (kind === 'private' && key.type !== 'private') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${key.type}, expected private.`);
  }
  if (kind === 'public' && key.type === 'secret') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', 'Invalid key object type secret, expected public.');
  }
  return key;
}

function createPrivateKey(key) {
  if (key instanceof KeyObject) throw keyInputError(key, false);
  return prepareAsymmetricKey(key, 'private', false);
}

function createPublicKey(key) {
  if (key instanceof KeyObject && key.type !== 'private') throw keyInputError(key, false);
  if (key instanceof KeyObject) return derivePublic(key, 'public');
  return prepareAsymmetricKey(key, 'public', true);
}

// ---- key generation: a 32-byte seed from the entropy hook (keygen: the CryptoKeygen
// capability, journaled under Captured) expanded by the native, so replay gives the same key.

function keygenSeed() {
  const seed = Buffer.alloc(32);
  internal.randomFill(seed, 0, 32, true);
  return seed;
}

const kEcCurves = { 'P-256': 'P-256', prime256v1: 'P-256', secp256r1: 'P-256', 'P-384': 'P-384', secp384r1: 'P-384' };
const kKeyTypes = ['rsa', 'rsa-pss', 'dsa', 'ec', 'ed25519', 'ed448', 'x25519', 'x448', 'dh'];

function validateUint32(value, name, positive) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!Number.isInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  const min = positive ? 1 : 0;
  if (value < min || value > 4294967295) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= 4294967295`, value);
}

function encodeGenerated(key, encoding, name) {
  if (encoding === undefined) return key;
  if (encoding === null || typeof encoding !== 'object') throw ERR_INVALID_ARG_TYPE(name, 'object', encoding);
  return key.export(encoding);
}

function generateKeyPairSync(type, options) {
  validateString(type, 'type');
  if (options !== undefined && (options === null || typeof options !== 'object')) throw ERR_INVALID_ARG_TYPE('options', 'object', options);
  const opts = options || {};
  let der;
  if (type === 'rsa') {
    validateUint32(opts.modulusLength, 'options.modulusLength');
    let exponent = 0x10001;
    if (opts.publicExponent !== undefined) {
      validateUint32(opts.publicExponent, 'options.publicExponent');
      exponent = opts.publicExponent;
    }
    if (opts.modulusLength < 512) throw kKeyErrors.rsa_bits();
    der = keyResult(internal.keyGenerate('rsa', keygenSeed(), opts.modulusLength, exponent));
  } else if (type === 'ec') {
    validateString(opts.namedCurve, 'options.namedCurve');
    const curve = kEcCurves[opts.namedCurve];
    if (curve === undefined) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_CURVE', 'Invalid EC curve name');
    der = keyResult(internal.keyGenerate('ec', keygenSeed(), curve));
  } else if (type === 'ed25519' || type === 'x25519') {
    der = keyResult(internal.keyGenerate(type, keygenSeed()));
  } else if (kKeyTypes.includes(type)) {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `Key type ${type} is not supported by Amber`);
  } else {
    throw ERR_INVALID_ARG_VALUE('type', type, 'must be a supported key type');
  }
  const privateKey = new PrivateKeyObject(der, type);
  const publicKey = new PublicKeyObject(keyResult(internal.keyPublic(der)), type);
  return {
    publicKey: encodeGenerated(publicKey, opts.publicKeyEncoding, 'options.publicKeyEncoding'),
    privateKey: encodeGenerated(privateKey, opts.privateKeyEncoding, 'options.privateKeyEncoding'),
  };
}

function generateKeyPair(type, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  validateFunction(callback, 'callback');
  const { publicKey, privateKey } = generateKeyPairSync(type, options);
  defer(() => callback(null, publicKey, privateKey));
}

function generateKeySync(type, options) {
  validateString(type, 'type');
  if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'object', options);
  const { length } = options;
  if (type === 'hmac') {
    validateInteger(length, 'options.length', 8, 2 ** 31 - 1);
  } else if (type === 'aes') {
    if (![128, 192, 256].includes(length)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.length' must be one of: 128, 192, 256. Received ${length}`);
    }
  } else {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'type' must be one of: 'aes', 'hmac'. Received '${type}'`);
  }
  const bytes = Buffer.alloc(Math.floor(length / 8));
  internal.randomFill(bytes, 0, bytes.length, true);
  return new SecretKeyObject(bytes);
}

function generateKey(type, options, callback) {
  validateFunction(callback, 'callback');
  const key = generateKeySync(type, options);
  defer(() => callback(null, key));
}

// ---- signatures

const RSA_PKCS1_PADDING = 1;
const RSA_PKCS1_OAEP_PADDING = 4;
const RSA_PKCS1_PSS_PADDING = 6;
const RSA_PSS_SALTLEN_AUTO = -2;

function signDigest(algorithm) {
  if (algorithm === undefined || algorithm === null) return null;
  const name = hashName(algorithm);
  if (name === undefined || name.startsWith('shake')) {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${algorithm}`);
  }
  return name;
}

function signOptions(key) {
  const opts = key !== null && typeof key === 'object' && !(key instanceof KeyObject) && !(key instanceof CryptoKey) && !isView(key) ? key : {};
  let padding = opts.padding;
  if (padding !== undefined && typeof padding !== 'number') throw ERR_INVALID_ARG_VALUE('options.padding', padding);
  let saltLength = opts.saltLength;
  if (saltLength !== undefined && typeof saltLength !== 'number') throw ERR_INVALID_ARG_VALUE('options.saltLength', saltLength);
  const dsaEncoding = opts.dsaEncoding === undefined ? 'der' : opts.dsaEncoding;
  if (dsaEncoding !== 'der' && dsaEncoding !== 'ieee-p1363') throw ERR_INVALID_ARG_VALUE('options.dsaEncoding', dsaEncoding);
  if (padding === undefined) padding = RSA_PKCS1_PADDING;
  if (saltLength === undefined) saltLength = RSA_PSS_SALTLEN_AUTO;
  return { padding, saltLength, p1363: dsaEncoding === 'ieee-p1363' };
}

function signBytes(digest, data, key) {
  const keyObject = prepareAsymmetricKey(key, 'private', true);
  const { padding, saltLength, p1363 } = signOptions(key);
  if (keyObject[kKind] === 'rsa' && padding !== RSA_PKCS1_PADDING && padding !== RSA_PKCS1_PSS_PADDING) {
    throw kKeyErrors.sign_padding();
  }
  // PSS salts are random: drawn from the entropy hook like randomBytes.
  let seed;
  if (padding === RSA_PKCS1_PSS_PADDING && keyObject[kKind] === 'rsa') {
    seed = Buffer.alloc(32);
    internal.randomFill(seed, 0, 32);
  }
  return keyResult(internal.sign(keyObject[kKeyData], digest, data, padding, saltLength, p1363, seed));
}

function verifyBytes(digest, data, key, signature) {
  const keyObject = prepareAsymmetricKey(key, 'public', true);
  const { padding, saltLength, p1363 } = signOptions(key);
  if (keyObject[kKind] === 'rsa' && padding !== RSA_PKCS1_PADDING && padding !== RSA_PKCS1_PSS_PADDING) {
    throw kKeyErrors.sign_padding();
  }
  return keyResult(internal.verify(keyObject[kKeyData], keyObject.type === 'private', digest, data, signature, padding, saltLength, p1363));
}

class Sign extends Writable {
  constructor(algorithm, options) {
    validateString(algorithm, 'algorithm');
    const name = hashName(algorithm);
    if (name === undefined || name.startsWith('shake')) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest');
    super(options);
    this[kState] = { algorithm: name, chunks: [], done: false };
  }

  _write(chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  }

  update(data, encoding) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Not initialised');
    if (typeof data !== 'string' && !isView(data)) {
      throw ERR_INVALID_ARG_TYPE('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
    }
    state.chunks.push(Buffer.from(toBuf(data, encoding)));
    return this;
  }

  sign(privateKey, outputEncoding) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Not initialised');
    if (!privateKey) throw makeError(Error, 'ERR_CRYPTO_SIGN_KEY_REQUIRED', 'No key provided to sign');
    const out = signBytes(state.algorithm, concatChunks(state.chunks.length ? state.chunks : [Buffer.alloc(0)]), privateKey);
    state.done = true;
    state.chunks = [];
    return encodeOutput(out, outputEncoding);
  }
}

class Verify extends Writable {
  constructor(algorithm, options) {
    validateString(algorithm, 'algorithm');
    const name = hashName(algorithm);
    if (name === undefined || name.startsWith('shake')) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest');
    super(options);
    this[kState] = { algorithm: name, chunks: [], done: false };
  }

  verify(object, signature, sigEncoding) {
    const state = this[kState];
    if (state.done) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Not initialised');
    const sig = typeof signature === 'string' ? Buffer.from(signature, sigEncoding || 'utf8') : signature;
    if (!isView(sig)) throw ERR_INVALID_ARG_TYPE('signature', ['string', 'Buffer', 'TypedArray', 'DataView'], signature);
    const ok = verifyBytes(state.algorithm, concatChunks(state.chunks.length ? state.chunks : [Buffer.alloc(0)]), object, toBuf(sig));
    state.done = true;
    state.chunks = [];
    return ok;
  }
}
Verify.prototype._write = Sign.prototype._write;
Verify.prototype.update = Sign.prototype.update;

function createSign(algorithm, options) {
  return new Sign(algorithm, options);
}

function createVerify(algorithm, options) {
  return new Verify(algorithm, options);
}

function oneShotData(data) {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (!isView(data) && !isArrayBuffer(data)) throw ERR_INVALID_ARG_TYPE('data', ['Buffer', 'TypedArray', 'DataView'], data);
  return isArrayBuffer(data) ? Buffer.from(data) : toBuf(data);
}

function sign(algorithm, data, key, callback) {
  if (algorithm !== undefined && algorithm !== null) validateString(algorithm, 'algorithm');
  if (callback !== undefined) validateFunction(callback, 'callback');
  const bytes = oneShotData(data);
  if (!key) throw makeError(Error, 'ERR_CRYPTO_SIGN_KEY_REQUIRED', 'No key provided to sign');
  const out = signBytes(signDigest(algorithm), bytes, key);
  if (callback === undefined) return out;
  defer(() => callback(null, out));
}

function verify(algorithm, data, key, signature, callback) {
  if (algorithm !== undefined && algorithm !== null) validateString(algorithm, 'algorithm');
  if (callback !== undefined) validateFunction(callback, 'callback');
  const bytes = oneShotData(data);
  if (!isView(signature) && !isArrayBuffer(signature)) {
    throw ERR_INVALID_ARG_TYPE('signature', ['Buffer', 'TypedArray', 'DataView'], signature);
  }
  const ok = verifyBytes(signDigest(algorithm), bytes, key, isArrayBuffer(signature) ? Buffer.from(signature) : toBuf(signature));
  if (callback === undefined) return ok;
  defer(() => callback(null, ok));
}

// ---- RSA encryption

function rsaCipher(op, kind, defaultPadding) {
  return function (options, buffer) {
    const key = prepareAsymmetricKey(options, kind, true);
    const opts = options !== null && typeof options === 'object' && !(options instanceof KeyObject) && !isView(options) ? options : {};
    const padding = opts.padding === undefined ? defaultPadding : opts.padding;
    if (op === 'privateDecrypt' && padding === RSA_PKCS1_PADDING) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
        'RSA_PKCS1_PADDING is no longer supported for private decryption, this can be reverted with --security-revert=CVE-2023-46809');
    }
    let oaepHash = opts.oaepHash;
    if (oaepHash !== undefined) {
      validateString(oaepHash, 'key.oaepHash');
      const name = hashName(oaepHash);
      if (name === undefined || name.startsWith('shake')) throw makeError(Error, 'ERR_OSSL_EVP_INVALID_DIGEST', 'Invalid digest used');
      oaepHash = name;
    }
    let label;
    if (opts.oaepLabel !== undefined) label = Buffer.from(toBuf(opts.oaepLabel, 'utf8', 'key.oaepLabel', true));
    const data = typeof buffer === 'string' ? Buffer.from(buffer, opts.encoding || 'utf8') : isArrayBuffer(buffer) ? Buffer.from(buffer) : toBuf(buffer, undefined, 'buffer');
    let seed;
    if (op === 'publicEncrypt') {
      // Encryption padding is random: drawn from the entropy hook like randomBytes.
      seed = Buffer.alloc(32);
      internal.randomFill(seed, 0, 32);
    }
    return keyResult(internal.rsaCrypt(op, key[kKeyData], key.type === 'private', data, padding, oaepHash, label, seed));
  };
}

const publicEncrypt = rsaCipher('publicEncrypt', 'public', RSA_PKCS1_OAEP_PADDING);
const privateDecrypt = rsaCipher('privateDecrypt', 'private', RSA_PKCS1_OAEP_PADDING);
const privateEncrypt = rsaCipher('privateEncrypt', 'private', RSA_PKCS1_PADDING);
const publicDecrypt = rsaCipher('publicDecrypt', 'public', RSA_PKCS1_PADDING);

// ---- key agreement

const kEcdhCurves = { prime256v1: 'P-256', secp256r1: 'P-256', 'P-256': 'P-256', secp384r1: 'P-384', 'P-384': 'P-384' };
const kEcdhErrors = {
  public_key: () => makeError(Error, 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY', 'Public key is not valid for specified curve'),
  private_key: () => makeError(RangeError, 'ERR_CRYPTO_INVALID_KEYTYPE', 'Private key is not valid for specified curve.'),
};

function ecdhFormat(format) {
  if (format === undefined || format === 'uncompressed') return false;
  if (format === 'compressed') return true;
  if (format === 'hybrid') throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'Hybrid point encoding is not supported by Amber');
  throw makeError(TypeError, 'ERR_CRYPTO_ECDH_INVALID_FORMAT', `Invalid ECDH format: ${format}`);
}

class ECDH {
  constructor(curve) {
    validateString(curve, 'curve');
    const name = kEcdhCurves[curve];
    if (name === undefined) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_CURVE', 'Invalid EC curve name');
    this[kState] = { curve: name, privateKey: undefined, publicKey: undefined };
  }

  static convertKey(key, curve, inEnc, outEnc, format) {
    validateString(curve, 'curve');
    const name = kEcdhCurves[curve];
    if (name === undefined) throw makeError(TypeError, 'ERR_CRYPTO_INVALID_CURVE', 'Invalid EC curve name');
    const bytes = toBuf(key, inEnc, 'key');
    const out = internal.ecdhConvert(name, bytes, ecdhFormat(format));
    if (typeof out === 'string') throw makeError(Error, 'ERR_CRYPTO_OPERATION_FAILED', 'Failed to convert Buffer to EC_POINT');
    return encodeOutput(out, outEnc);
  }

  generateKeys(encoding, format) {
    const state = this[kState];
    const seed = keygenSeed();
    state.privateKey = keyResult(internal.ecdhGenerate(state.curve, seed));
    state.publicKey = keyResult(internal.ecdhPublic(state.curve, state.privateKey, false));
    return this.getPublicKey(encoding, format);
  }

  computeSecret(key, inEnc, outEnc) {
    const state = this[kState];
    const bytes = toBuf(key, inEnc, 'key');
    if (state.privateKey === undefined) throw makeError(RangeError, 'ERR_CRYPTO_INVALID_KEYPAIR', 'Invalid key pair');
    return encodeOutput(keyResult(internal.ecdhCompute(state.curve, state.privateKey, bytes), kEcdhErrors), outEnc);
  }

  getPublicKey(encoding, format) {
    const state = this[kState];
    if (state.publicKey === undefined) throw makeError(Error, 'ERR_CRYPTO_OPERATION_FAILED', 'Failed to get ECDH public key');
    const compressed = ecdhFormat(format);
    const out = compressed ? keyResult(internal.ecdhConvert(state.curve, state.publicKey, true)) : Buffer.from(state.publicKey);
    return encodeOutput(out, encoding);
  }

  getPrivateKey(encoding) {
    const state = this[kState];
    if (state.privateKey === undefined) throw makeError(Error, 'ERR_CRYPTO_OPERATION_FAILED', 'Failed to get ECDH private key');
    return encodeOutput(Buffer.from(state.privateKey), encoding);
  }

  setPrivateKey(key, encoding) {
    const state = this[kState];
    const bytes = Buffer.from(toBuf(key, encoding, 'key'));
    const pub = keyResult(internal.ecdhPublic(state.curve, bytes, false), kEcdhErrors);
    state.privateKey = bytes;
    state.publicKey = pub;
    return this;
  }

  setPublicKey(key, encoding) {
    const state = this[kState];
    state.publicKey = keyResult(internal.ecdhConvert(state.curve, toBuf(key, encoding, 'key'), false), kEcdhErrors);
    return this;
  }
}

function createECDH(curve) {
  return new ECDH(curve);
}

function getCurves() {
  return ['prime256v1', 'secp256r1', 'secp384r1'];
}

function diffieHellman(options) {
  if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'object', options);
  const { privateKey, publicKey } = options;
  if (!(privateKey instanceof KeyObject)) throw ERR_INVALID_ARG_TYPE('options.privateKey', 'KeyObject', privateKey);
  if (!(publicKey instanceof KeyObject)) throw ERR_INVALID_ARG_TYPE('options.publicKey', 'KeyObject', publicKey);
  if (privateKey.type !== 'private') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${privateKey.type}, expected private.`);
  }
  if (publicKey.type !== 'public' && publicKey.type !== 'private') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${publicKey.type}, expected private or public.`);
  }
  const a = privateKey[kKind];
  const b = publicKey[kKind];
  if (a !== b || !['ec', 'x25519'].includes(a)) {
    throw makeError(Error, 'ERR_CRYPTO_INCOMPATIBLE_KEY', `Incompatible key types for Diffie-Hellman: ${a} and ${b}`);
  }
  const pub = publicKey.type === 'private' ? keyResult(internal.keyPublic(publicKey[kKeyData])) : publicKey[kKeyData];
  return keyResult(internal.deriveShared(privateKey[kKeyData], pub));
}

// Finite-field Diffie-Hellman over a given prime or a named MODP group (RFC 2409, 3526).
class DiffieHellman {
  constructor(sizeOrKey, keyEncoding, generator, genEncoding) {
    if (typeof sizeOrKey === 'number') {
      throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'Generating Diffie-Hellman primes is not supported by Amber');
    }
    // As Node: (prime, generator[, genEncoding]) when the second argument is no encoding.
    if (keyEncoding !== undefined && typeof keyEncoding !== 'string' && keyEncoding !== 'buffer') {
      genEncoding = generator;
      generator = keyEncoding;
      keyEncoding = undefined;
    }
    const prime = Buffer.from(toBuf(sizeOrKey, keyEncoding, 'sizeOrKey'));
    let g = generator === undefined ? Buffer.from([2]) : generator;
    if (typeof g === 'number') {
      validateInteger(g, 'generator');
      let hex = g.toString(16);
      if (hex.length % 2) hex = `0${hex}`;
      g = Buffer.from(hex, 'hex');
    } else {
      g = Buffer.from(toBuf(g, genEncoding, 'generator'));
    }
    this[kState] = { prime, generator: g, privateKey: undefined, publicKey: undefined, privateBits: undefined };
    this.verifyError = 0;
  }

  generateKeys(encoding) {
    const state = this[kState];
    if (state.privateKey === undefined) {
      const seed = keygenSeed();
      // A private exponent of OpenSSL's size: the named group's recommended length, else one
      // bit less than the prime; from the seed through SHA-512 in counter mode.
      const primeBits = stripZeros(state.prime).length * 8 - Math.clz32(stripZeros(state.prime)[0]) + 24;
      const bits = state.privateBits || primeBits - 1;
      const bytes = [];
      for (let i = 0; bytes.length * 64 < Math.ceil(bits / 8); i++) {
        bytes.push(internal.hash('sha512', Buffer.concat([seed, Buffer.from([i])])));
      }
      const priv = Buffer.concat(bytes).subarray(0, Math.ceil(bits / 8));
      if (bits % 8) priv[0] &= 0xff >> (8 - (bits % 8));
      state.privateKey = Buffer.from(stripZeros(priv));
    }
    state.publicKey = stripZeros(keyResult(internal.modPow(state.generator, state.privateKey, state.prime), kDhErrors));
    return encodeOutput(Buffer.from(state.publicKey), encoding);
  }

  computeSecret(otherPublicKey, inEnc, outEnc) {
    const state = this[kState];
    const other = toBuf(otherPublicKey, inEnc, 'key');
    if (state.privateKey === undefined) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'No private key - did you forget to generate one?');
    return encodeOutput(keyResult(internal.modPow(other, state.privateKey, state.prime), kDhErrors), outEnc);
  }

  getPrime(encoding) {
    return encodeOutput(Buffer.from(this[kState].prime), encoding);
  }

  getGenerator(encoding) {
    return encodeOutput(Buffer.from(this[kState].generator), encoding);
  }

  getPublicKey(encoding) {
    const key = this[kState].publicKey;
    if (key === undefined) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'No public key - did you forget to generate one?');
    return encodeOutput(Buffer.from(key), encoding);
  }

  getPrivateKey(encoding) {
    const key = this[kState].privateKey;
    if (key === undefined) throw makeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'No private key - did you forget to generate one?');
    return encodeOutput(Buffer.from(key), encoding);
  }

  setPublicKey(key, encoding) {
    this[kState].publicKey = Buffer.from(toBuf(key, encoding, 'key'));
    return this;
  }

  setPrivateKey(key, encoding) {
    this[kState].privateKey = Buffer.from(toBuf(key, encoding, 'key'));
    return this;
  }
}

const kDhErrors = {
  modulus: () => makeError(Error, 'ERR_OSSL_BN_DIV_BY_ZERO', 'error:0280006B:bignum routines::div by zero'),
};

function stripZeros(buf) {
  let i = 0;
  while (i < buf.length - 1 && buf[i] === 0) i++;
  return buf.subarray(i);
}

// OpenSSL's private key lengths for the RFC 3526 groups (bits); modp1 and modp2 have none.
const kModpPrivateBits = { modp5: 200, modp14: 225, modp15: 275, modp16: 325, modp17: 375, modp18: 400 };

class DiffieHellmanGroup {
  constructor(name) {
    validateString(name, 'name');
    const prime = kModpGroups[name];
    if (prime === undefined) throw makeError(Error, 'ERR_CRYPTO_UNKNOWN_DH_GROUP', 'Unknown DH group');
    const dh = new DiffieHellman(Buffer.from(prime, 'hex'));
    this[kState] = dh[kState];
    this[kState].privateBits = kModpPrivateBits[name];
    this.verifyError = 0;
  }
}
for (const name of ['generateKeys', 'computeSecret', 'getPrime', 'getGenerator', 'getPublicKey', 'getPrivateKey']) {
  DiffieHellmanGroup.prototype[name] = DiffieHellman.prototype[name];
}

function createDiffieHellman(sizeOrKey, keyEncoding, generator, genEncoding) {
  return new DiffieHellman(sizeOrKey, keyEncoding, generator, genEncoding);
}

function getDiffieHellman(name) {
  return new DiffieHellmanGroup(name);
}
// ---- Web Crypto: asymmetric keys (RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP, ECDSA, ECDH,
// Ed25519, X25519). A CryptoKey's material holds the KeyObject; the operations are the
// node:crypto ones above.

const kWebAsymmetric = {
  'RSASSA-PKCS1-V1_5': { name: 'RSASSA-PKCS1-v1_5', kind: 'rsa', public: ['verify'], private: ['sign'] },
  'RSA-PSS': { name: 'RSA-PSS', kind: 'rsa', public: ['verify'], private: ['sign'] },
  'RSA-OAEP': { name: 'RSA-OAEP', kind: 'rsa', public: ['encrypt', 'wrapKey'], private: ['decrypt', 'unwrapKey'] },
  'ECDSA': { name: 'ECDSA', kind: 'ec', public: ['verify'], private: ['sign'] },
  'ECDH': { name: 'ECDH', kind: 'ec', public: [], private: ['deriveKey', 'deriveBits'] },
  'ED25519': { name: 'Ed25519', kind: 'ed25519', public: ['verify'], private: ['sign'] },
  'X25519': { name: 'X25519', kind: 'x25519', public: [], private: ['deriveKey', 'deriveBits'] },
};
const kWebCurves = { 'P-256': 'P-256', 'P-384': 'P-384' };
const kWebCurveOfOpenssl = { prime256v1: 'P-256', secp384r1: 'P-384' };

function webAsymmetric(algorithm) {
  const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
  return typeof name === 'string' ? kWebAsymmetric[name.toUpperCase()] : undefined;
}

function isAsymmetricCryptoKey(key) {
  return key instanceof CryptoKey && key[kKeyMaterial].keyObject !== undefined;
}

function webUsages(info, type, usages) {
  const allowed = info[type];
  // In the order Node lists them, not the caller's.
  return allowed.filter((u) => usages.includes(u));
}

// Node words it "for an ECDSA key" in generateKey and "for a ECDSA key" in importKey.
function checkWebUsages(info, usages, allowed, importing) {
  if (!Array.isArray(usages)) throw ERR_INVALID_ARG_TYPE('keyUsages', 'Array', usages);
  for (const u of usages) {
    if (!allowed.includes(u)) {
      const article = !importing && /^[AEIOU]/.test(info.name) ? 'an' : 'a';
      throw domError(`Unsupported key usage for ${article} ${info.name} key`, 'SyntaxError');
    }
  }
}

function makeAsymmetricCryptoKey(keyObject, algorithm, extractable, usages) {
  const key = Object.create(CryptoKey.prototype);
  key[kKeyMaterial] = { type: keyObject.type, extractable: Boolean(extractable), algorithm, usages, keyObject };
  return key;
}

function webRsaAlgorithm(info, keyObject, hash) {
  const details = keyDetailsOf(keyObject);
  let e = details.publicExponent.toString(16);
  if (e.length % 2) e = `0${e}`;
  return { name: info.name, modulusLength: details.modulusLength, publicExponent: new Uint8Array(Buffer.from(e, 'hex')), hash: { name: kWebHashName[hash] } };
}

function webKeyAlgorithm(info, keyObject, algorithm) {
  if (info.kind === 'rsa') {
    const hash = webHashName(algorithm.hash);
    if (hash === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    return webRsaAlgorithm(info, keyObject, hash);
  }
  if (info.kind === 'ec') return { name: info.name, namedCurve: kWebCurveOfOpenssl[keyDetailsOf(keyObject).namedCurve] };
  return { name: info.name };
}

async function webGenerateKeyPair(info, algorithm, extractable, keyUsages) {
  checkWebUsages(info, keyUsages, [...info.public, ...info.private]);
  let der;
  let hash;
  if (info.kind === 'rsa') {
    hash = webHashName(algorithm.hash);
    if (hash === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    const bits = algorithm.modulusLength;
    const exponentBytes = algorithm.publicExponent;
    if (!isView(exponentBytes)) throw ERR_INVALID_ARG_TYPE('algorithm.publicExponent', 'Uint8Array', exponentBytes);
    const exponent = Number('0x' + (Buffer.from(toBuf(exponentBytes)).toString('hex') || '0'));
    if (typeof bits !== 'number' || bits < 512) throw domError('Invalid key length', 'OperationError');
    if (exponent < 3 || exponent % 2 === 0 || exponent > 4294967295) throw domError('Bad public exponent', 'OperationError');
    await keygenGate(info.name);
    der = keyResult(internal.keyGenerate('rsa', keygenSeed(), bits, exponent));
  } else if (info.kind === 'ec') {
    const curve = kWebCurves[algorithm.namedCurve];
    if (curve === undefined) throw domError('Unrecognized namedCurve', 'NotSupportedError');
    await keygenGate(info.name);
    der = keyResult(internal.keyGenerate('ec', keygenSeed(), curve));
  } else {
    await keygenGate(info.name);
    der = keyResult(internal.keyGenerate(info.kind, keygenSeed()));
  }
  const privateObject = new PrivateKeyObject(der, info.kind);
  const publicObject = new PublicKeyObject(keyResult(internal.keyPublic(der)), info.kind);
  const keyAlgorithm = info.kind === 'rsa' ? webRsaAlgorithm(info, publicObject, hash) : webKeyAlgorithm(info, publicObject, algorithm);
  const privateUsages = webUsages(info, 'private', keyUsages);
  if (privateUsages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
  return {
    publicKey: makeAsymmetricCryptoKey(publicObject, keyAlgorithm, true, webUsages(info, 'public', keyUsages)),
    privateKey: makeAsymmetricCryptoKey(privateObject, { ...keyAlgorithm }, extractable, privateUsages),
  };
}

async function keygenGate(name) {
  // The first key generation may wait for a human's approval (approve_capabilities).
  const wait = require('node:internal/net').gate('CryptoKeygen', name, 'subtle.generateKey');
  if (wait !== undefined) await wait;
}

function webImportKey(info, format, keyData, algorithm, extractable, keyUsages) {
  const invalid = () => domError('Invalid keyData', 'DataError');
  let keyObject;
  try {
    if (format === 'spki') {
      keyObject = makeAsymmetricKey(internal.keyImport('spki', webBytes(keyData, 'keyData')));
    } else if (format === 'pkcs8') {
      keyObject = makeAsymmetricKey(internal.keyImport('pkcs8', webBytes(keyData, 'keyData')));
    } else if (format === 'jwk') {
      if (keyData === null || typeof keyData !== 'object') throw invalid();
      keyObject = keyFromJwk(keyData, keyData.d !== undefined);
    } else if (format === 'raw' && info.kind === 'ec') {
      const curve = kWebCurves[algorithm.namedCurve];
      if (curve === undefined) throw domError('Unrecognized namedCurve', 'NotSupportedError');
      const point = keyResult(internal.ecdhConvert(curve, webBytes(keyData, 'keyData'), false));
      const size = (point.length - 1) / 2;
      keyObject = makeAsymmetricKey(internal.keyFromJwk('EC', curve, point.subarray(1, 1 + size), point.subarray(1 + size), undefined));
    } else if (format === 'raw' && (info.kind === 'ed25519' || info.kind === 'x25519')) {
      keyObject = makeAsymmetricKey(internal.keyFromJwk('OKP', info.name, webBytes(keyData, 'keyData'), undefined, undefined));
    } else {
      throw domError(`Unable to import ${info.name} key with format ${format}`, 'NotSupportedError');
    }
  } catch (e) {
    if (e && (e.name === 'NotSupportedError' || e.name === 'DataError')) throw e;
    throw invalid();
  }
  if (keyObject[kKind] !== info.kind) throw domError('Invalid key type', 'DataError');
  if (info.kind === 'ec' && kWebCurveOfOpenssl[keyDetailsOf(keyObject).namedCurve] !== algorithm.namedCurve) {
    throw domError('Named curve mismatch', 'DataError');
  }
  checkWebUsages(info, keyUsages, info[keyObject.type], true);
  const usages = webUsages(info, keyObject.type, keyUsages);
  if (keyObject.type === 'private' && usages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
  return makeAsymmetricCryptoKey(keyObject, webKeyAlgorithm(info, keyObject, algorithm), extractable, usages);
}

function webJwkAlg(algorithm) {
  const hash = algorithm.hash && algorithm.hash.name;
  const bits = hash && hash.slice(4);
  switch (algorithm.name) {
    case 'RSASSA-PKCS1-v1_5': return `RS${bits}`;
    case 'RSA-PSS': return `PS${bits}`;
    case 'RSA-OAEP': return hash === 'SHA-1' ? 'RSA-OAEP' : `RSA-OAEP-${bits}`;
    case 'Ed25519': return 'Ed25519';
    default: return undefined;
  }
}

function webExportKey(format, material) {
  const keyObject = material.keyObject;
  const isPrivate = keyObject.type === 'private';
  if (format === 'spki' && !isPrivate) return toArrayBuffer(keyObject.export({ format: 'der', type: 'spki' }));
  if (format === 'pkcs8' && isPrivate) return toArrayBuffer(keyObject.export({ format: 'der', type: 'pkcs8' }));
  if (format === 'jwk') {
    const jwk = { key_ops: [...material.usages], ext: material.extractable, ...exportJwk(keyObject) };
    const alg = webJwkAlg(material.algorithm);
    if (alg !== undefined) jwk.alg = alg;
    return jwk;
  }
  if (format === 'raw' && !isPrivate) {
    const jwk = exportJwk(keyObject);
    if (jwk.kty === 'EC') return toArrayBuffer(Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]));
    if (jwk.kty === 'OKP') return toArrayBuffer(Buffer.from(jwk.x, 'base64url'));
  }
  throw domError(`Unable to export a ${format} ${material.algorithm.name} ${material.type} key`, 'InvalidAccessError');
}

function webCheckAsymmetric(key, algorithm, usage) {
  const material = key[kKeyMaterial];
  const info = webAsymmetric(algorithm);
  if (info === undefined || info.name !== material.algorithm.name) {
    throw domError('The requested operation is not valid for the provided key', 'InvalidAccessError');
  }
  if (!material.usages.includes(usage)) throw domError(`Unable to use this key to ${usage}`, 'InvalidAccessError');
  return material;
}

function webSignParams(material, algorithm) {
  const name = material.algorithm.name;
  if (name === 'ECDSA') {
    const hash = webHashName(algorithm.hash);
    if (hash === undefined) throw domError('Unrecognized algorithm name', 'NotSupportedError');
    return { hash, padding: RSA_PKCS1_PADDING, saltLength: 0, p1363: true };
  }
  if (name === 'Ed25519') return { hash: null, padding: RSA_PKCS1_PADDING, saltLength: 0, p1363: false };
  const hash = webHashName(material.algorithm.hash);
  if (name === 'RSA-PSS') {
    const saltLength = algorithm.saltLength;
    if (typeof saltLength !== 'number' || saltLength < 0) throw ERR_INVALID_ARG_TYPE('algorithm.saltLength', 'number', saltLength);
    return { hash, padding: RSA_PKCS1_PSS_PADDING, saltLength, p1363: false };
  }
  return { hash, padding: RSA_PKCS1_PADDING, saltLength: 0, p1363: false };
}

function webSign(algorithm, key, data) {
  const material = webCheckAsymmetric(key, algorithm, 'sign');
  const { hash, padding, saltLength, p1363 } = webSignParams(material, normalizeAlgorithm(algorithm));
  let seed;
  if (padding === RSA_PKCS1_PSS_PADDING) {
    seed = Buffer.alloc(32);
    internal.randomFill(seed, 0, 32);
  }
  const sig = internal.sign(material.keyObject[kKeyData], hash, webBytes(data), padding, saltLength, p1363, seed);
  if (typeof sig === 'string') throw domError('The operation failed for an operation-specific reason', 'OperationError');
  return toArrayBuffer(sig);
}

function webVerify(algorithm, key, signature, data) {
  const material = webCheckAsymmetric(key, algorithm, 'verify');
  const { hash, padding, saltLength, p1363 } = webSignParams(material, normalizeAlgorithm(algorithm));
  const ok = internal.verify(material.keyObject[kKeyData], false, hash, webBytes(data), webBytes(signature, 'signature'), padding, saltLength, p1363);
  return ok === true;
}

function webRsaOaep(op, algorithm, key, data) {
  const material = webCheckAsymmetric(key, algorithm, op === 'publicEncrypt' ? 'encrypt' : 'decrypt');
  const alg = normalizeAlgorithm(algorithm);
  const label = alg.label === undefined ? undefined : webBytes(alg.label, 'algorithm.label');
  let seed;
  if (op === 'publicEncrypt') {
    seed = Buffer.alloc(32);
    internal.randomFill(seed, 0, 32);
  }
  const out = internal.rsaCrypt(op, material.keyObject[kKeyData], op !== 'publicEncrypt', webBytes(data), RSA_PKCS1_OAEP_PADDING,
    webHashName(material.algorithm.hash), label, seed);
  if (typeof out === 'string') throw domError('The operation failed for an operation-specific reason', 'OperationError');
  return toArrayBuffer(out);
}

function webDeriveBits(algorithm, baseKey, length) {
  const material = webCheckAsymmetric(baseKey, algorithm, 'deriveBits');
  const publicKey = algorithm.public;
  if (!isAsymmetricCryptoKey(publicKey) || publicKey.type !== 'public') {
    throw domError('algorithm.public must be a public key', 'InvalidAccessError');
  }
  if (publicKey[kKeyMaterial].algorithm.name !== material.algorithm.name) {
    throw domError('The public and private keys must be of the same type', 'InvalidAccessError');
  }
  const secret = internal.deriveShared(material.keyObject[kKeyData], publicKey[kKeyMaterial].keyObject[kKeyData]);
  if (typeof secret === 'string') throw domError('The operation failed for an operation-specific reason', 'OperationError');
  if (length === undefined || length === null) return toArrayBuffer(secret);
  if (length > secret.length * 8) throw domError('derived bit length is too small', 'OperationError');
  const out = Buffer.from(secret.subarray(0, Math.ceil(length / 8)));
  if (length % 8) out[out.length - 1] &= 0xff << (8 - (length % 8));
  return toArrayBuffer(out);
}

const kModpGroups = {
  modp1: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a63a3620ffffffffffffffff',
  modp2: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece65381ffffffffffffffff',
  modp5: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca237327ffffffffffffffff',
  modp14: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3be39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aacaa68ffffffffffffffff',
  modp15: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3be39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864d87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a93ad2caffffffffffffffff',
  modp16: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3be39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864d87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a92108011a723c12a787e6d788719a10bdba5b2699c327186af4e23c1a946834b6150bda2583e9ca2ad44ce8dbbbc2db04de8ef92e8efc141fbecaa6287c59474e6bc05d99b2964fa090c3a2233ba186515be7ed1f612970cee2d7afb81bdd762170481cd0069127d5b05aa993b4ea988d8fddc186ffb7dc90a6c08f4df435c934063199ffffffffffffffff',
  modp17: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3be39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864d87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a92108011a723c12a787e6d788719a10bdba5b2699c327186af4e23c1a946834b6150bda2583e9ca2ad44ce8dbbbc2db04de8ef92e8efc141fbecaa6287c59474e6bc05d99b2964fa090c3a2233ba186515be7ed1f612970cee2d7afb81bdd762170481cd0069127d5b05aa993b4ea988d8fddc186ffb7dc90a6c08f4df435c93402849236c3fab4d27c7026c1d4dcb2602646dec9751e763dba37bdf8ff9406ad9e530ee5db382f413001aeb06a53ed9027d831179727b0865a8918da3edbebcf9b14ed44ce6cbaced4bb1bdb7f1447e6cc254b332051512bd7af426fb8f401378cd2bf5983ca01c64b92ecf032ea15d1721d03f482d7ce6e74fef6d55e702f46980c82b5a84031900b1c9e59e7c97fbec7e8f323a97a7e36cc88be0f1d45b7ff585ac54bd407b22b4154aacc8f6d7ebf48e1d814cc5ed20f8037e0a79715eef29be32806a1d58bb7c5da76f550aa3d8a1fbff0eb19ccb1a313d55cda56c9ec2ef29632387fe8d76e3c0468043e8f663f4860ee12bf2d5b0b7474d6e694f91e6dcc4024ffffffffffffffff',
  modp18: 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3be39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864d87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a92108011a723c12a787e6d788719a10bdba5b2699c327186af4e23c1a946834b6150bda2583e9ca2ad44ce8dbbbc2db04de8ef92e8efc141fbecaa6287c59474e6bc05d99b2964fa090c3a2233ba186515be7ed1f612970cee2d7afb81bdd762170481cd0069127d5b05aa993b4ea988d8fddc186ffb7dc90a6c08f4df435c93402849236c3fab4d27c7026c1d4dcb2602646dec9751e763dba37bdf8ff9406ad9e530ee5db382f413001aeb06a53ed9027d831179727b0865a8918da3edbebcf9b14ed44ce6cbaced4bb1bdb7f1447e6cc254b332051512bd7af426fb8f401378cd2bf5983ca01c64b92ecf032ea15d1721d03f482d7ce6e74fef6d55e702f46980c82b5a84031900b1c9e59e7c97fbec7e8f323a97a7e36cc88be0f1d45b7ff585ac54bd407b22b4154aacc8f6d7ebf48e1d814cc5ed20f8037e0a79715eef29be32806a1d58bb7c5da76f550aa3d8a1fbff0eb19ccb1a313d55cda56c9ec2ef29632387fe8d76e3c0468043e8f663f4860ee12bf2d5b0b7474d6e694f91e6dbe115974a3926f12fee5e438777cb6a932df8cd8bec4d073b931ba3bc832b68d9dd300741fa7bf8afc47ed2576f6936ba424663aab639c5ae4f5683423b4742bf1c978238f16cbe39d652de3fdb8befc848ad922222e04a4037c0713eb57a81a23f0c73473fc646cea306b4bcbc8862f8385ddfa9d4b7fa2c087e879683303ed5bdd3a062b3cf5b3a278a66d2a13f83f44f82ddf310ee074ab6a364597e899a0255dc164f31cc50846851df9ab48195ded7ea1b1d510bd7ee74d73faf36bc31ecfa268359046f4eb879f924009438b481c6cd7889a002ed5ee382bc9190da6fc026e479558e4475677e9aa9e3050e2765694dfc81f56e880b96e7160c980dd98edd3dfffffffffffffffff',
};
// util.types.isKeyObject / isCryptoKey answer through node:internal/crypto_types.
{
  const types = require('node:internal/crypto_types');
  types.isKeyObject = (value) => value instanceof KeyObject;
  types.isCryptoKey = (value) => value instanceof CryptoKey;
  Object.defineProperty(generateKeyPair, types.customPromisifyArgs, { value: ['publicKey', 'privateKey'] });
}

module.exports = {
  createHash,
  createHmac,
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  getHashes,
  getCiphers,
  getCipherInfo,
  hash,
  hkdf,
  hkdfSync,
  scrypt,
  scryptSync,
  pbkdf2,
  pbkdf2Sync,
  randomBytes,
  randomFill,
  randomFillSync,
  randomInt,
  randomUUID,
  timingSafeEqual,
  getFips: () => 0,
  setFips(value) {
    if (value) throw makeError(Error, 'ERR_CRYPTO_FIPS_FORCED', 'Cannot set FIPS mode in a non-FIPS build.');
  },
  Hash,
  Hmac,
  Cipheriv,
  Decipheriv,
  KeyObject,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  generateKeyPairSync,
  generateKey,
  generateKeySync,
  createSign,
  createVerify,
  Sign,
  Verify,
  sign,
  verify,
  publicEncrypt,
  privateDecrypt,
  privateEncrypt,
  publicDecrypt,
  createECDH,
  ECDH,
  getCurves,
  diffieHellman,
  createDiffieHellman,
  getDiffieHellman,
  createDiffieHellmanGroup: getDiffieHellman,
  DiffieHellman,
  DiffieHellmanGroup,
  constants: cryptoConstants,
  webcrypto,
  subtle,
  getRandomValues,
  pseudoRandomBytes: randomBytes,
  prng: randomBytes,
  rng: randomBytes,
};
Object.defineProperty(module.exports, 'CryptoKey', { value: CryptoKey, enumerable: false });
