// ---- CompressionStream and DecompressionStream (WHATWG Compression §5, §6), as Node
// builds them: a node:zlib stream seen through Duplex.toWeb.

function compressionPair(format, factories) {
  const f = `${format}`;
  if (format === undefined || !ObjectPrototypeHasOwnProperty(factories, f)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' is invalid. Received ${inspect(format)}`);
  }
  const zlib = require('zlib');
  const { newReadableWritablePairFromDuplex } = require('node:internal/webstreams/adapters');
  return newReadableWritablePairFromDuplex(zlib[factories[f]]());
}

class CompressionStream {
  constructor(format) {
    const pair = compressionPair(format, { deflate: 'createDeflate', 'deflate-raw': 'createDeflateRaw', gzip: 'createGzip' });
    setSlots(this, { brand: 'CompressionStream', pair });
  }

  get readable() {
    if (!hasBrand(this, 'CompressionStream')) throw invalidThis('CompressionStream');
    return this[kState].pair.readable;
  }

  get writable() {
    if (!hasBrand(this, 'CompressionStream')) throw invalidThis('CompressionStream');
    return this[kState].pair.writable;
  }

  [kInspect](depth, options) {
    return customInspect(this, 'CompressionStream', { readable: this.readable, writable: this.writable }, depth, options);
  }
}
ObjectDefineProperty(CompressionStream.prototype, SymbolToStringTag, { value: 'CompressionStream', configurable: true });

class DecompressionStream {
  constructor(format) {
    const pair = compressionPair(format, { deflate: 'createInflate', 'deflate-raw': 'createInflateRaw', gzip: 'createGunzip' });
    setSlots(this, { brand: 'DecompressionStream', pair });
  }

  get readable() {
    if (!hasBrand(this, 'DecompressionStream')) throw invalidThis('DecompressionStream');
    return this[kState].pair.readable;
  }

  get writable() {
    if (!hasBrand(this, 'DecompressionStream')) throw invalidThis('DecompressionStream');
    return this[kState].pair.writable;
  }

  [kInspect](depth, options) {
    return customInspect(this, 'DecompressionStream', { readable: this.readable, writable: this.writable }, depth, options);
  }
}
ObjectDefineProperty(DecompressionStream.prototype, SymbolToStringTag, { value: 'DecompressionStream', configurable: true });
