// ---- TextEncoderStream and TextDecoderStream (WHATWG Encoding §7.4, §7.5): a
// TransformStream around the encoder/decoder of `internal/encoding`.

class TextEncoderStream {
  constructor() {
    const { TextEncoder } = require('node:internal/encoding');
    const encoder = new TextEncoder();
    // A high surrogate that ended the last chunk waits for its pair (§7.5 "encode and enqueue").
    let pendingHighSurrogate = null;
    const transform = new TransformStream({
      transform(chunk, controller) {
        let text = pendingHighSurrogate === null ? `${chunk}` : pendingHighSurrogate + `${chunk}`;
        pendingHighSurrogate = null;
        const last = StringPrototypeCharCodeAt(text, text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pendingHighSurrogate = text[text.length - 1];
          text = StringPrototypeSlice(text, 0, -1);
        }
        if (text.length > 0) controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        if (pendingHighSurrogate !== null) controller.enqueue(new Uint8Array([0xef, 0xbf, 0xbd]));
      },
    });
    setSlots(this, { brand: 'TextEncoderStream', transform });
  }

  get encoding() {
    if (!hasBrand(this, 'TextEncoderStream')) throw invalidThis('TextEncoderStream');
    return 'utf-8';
  }

  get readable() {
    if (!hasBrand(this, 'TextEncoderStream')) throw invalidThis('TextEncoderStream');
    return this[kState].transform.readable;
  }

  get writable() {
    if (!hasBrand(this, 'TextEncoderStream')) throw invalidThis('TextEncoderStream');
    return this[kState].transform.writable;
  }

  [kInspect](depth, options) {
    return customInspect(this, 'TextEncoderStream', {
      encoding: 'utf-8', readable: this.readable, writable: this.writable,
    }, depth, options);
  }
}
ObjectDefineProperty(TextEncoderStream.prototype, SymbolToStringTag, { value: 'TextEncoderStream', configurable: true });

class TextDecoderStream {
  constructor(encoding = 'utf-8', options = {}) {
    const { TextDecoder } = require('node:internal/encoding');
    const decoder = new TextDecoder(encoding, options);
    const transform = new TransformStream({
      transform(chunk, controller) {
        const value = decoder.decode(chunk, { stream: true });
        if (value) controller.enqueue(value);
      },
      flush(controller) {
        const value = decoder.decode();
        if (value) controller.enqueue(value);
        controller.terminate();
      },
    });
    setSlots(this, { brand: 'TextDecoderStream', transform, decoder });
  }

  get encoding() {
    if (!hasBrand(this, 'TextDecoderStream')) throw invalidThis('TextDecoderStream');
    return this[kState].decoder.encoding;
  }

  get fatal() {
    if (!hasBrand(this, 'TextDecoderStream')) throw invalidThis('TextDecoderStream');
    return this[kState].decoder.fatal;
  }

  get ignoreBOM() {
    if (!hasBrand(this, 'TextDecoderStream')) throw invalidThis('TextDecoderStream');
    return this[kState].decoder.ignoreBOM;
  }

  get readable() {
    if (!hasBrand(this, 'TextDecoderStream')) throw invalidThis('TextDecoderStream');
    return this[kState].transform.readable;
  }

  get writable() {
    if (!hasBrand(this, 'TextDecoderStream')) throw invalidThis('TextDecoderStream');
    return this[kState].transform.writable;
  }

  [kInspect](depth, options) {
    return customInspect(this, 'TextDecoderStream', {
      encoding: this.encoding, fatal: this.fatal, ignoreBOM: this.ignoreBOM,
      readable: this.readable, writable: this.writable,
    }, depth, options);
  }
}
ObjectDefineProperty(TextDecoderStream.prototype, SymbolToStringTag, { value: 'TextDecoderStream', configurable: true });

module.exports = {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableByteStreamController,
  ReadableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  TextEncoderStream,
  TextDecoderStream,
  CompressionStream,
  DecompressionStream,
};

// For Node-side producers and consumers (node:stream's fromWeb/toWeb, Blob, fetch):
// not enumerable, so `node:stream/web` does not list them.
ObjectDefineProperty(module.exports, 'internals', {
  enumerable: false,
  value: {
    isReadableStream,
    isWritableStream,
    isReadableStreamLocked,
    isWritableStreamLocked,
    isDisturbed: (stream) => stream[kState].disturbed,
    stateOf: (stream) => stream[kState].state,
    storedErrorOf: (stream) => stream[kState].storedError,
    createReadableStream,
    createReadableByteStream,
    createWritableStream,
    readableStreamDefaultControllerEnqueue,
    readableStreamDefaultControllerClose,
    readableStreamDefaultControllerError,
    readableStreamDefaultControllerGetDesiredSize,
    readableStreamCancel,
    readableStreamTee,
    controllerOf: (stream) => stream[kState].controller,
  },
});
