'use strict';
// node:stream — Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished.
// Written for Amber after Node's documented semantics: the same state flags, and the same
// points where work is deferred with process.nextTick, so event order matches Node's. The parts
// live in internal/streams/* (modules/js/streams/), one job each; this module is the public
// surface that assembles them.
const {
  ArrayPrototypePop, ObjectDefineProperty, Promise, SymbolFor,
} = primordials;

const { getBuffer, isUint8Array } = require('node:internal/streams/common');
const { Stream } = require('node:internal/streams/legacy');
const {
  addAbortSignal,
  destroyer,
  eos,
  finishedPromise,
  isIterable,
  isNodeStream,
  isReadable,
} = require('node:internal/streams/end_of_stream');
const { Readable } = require('node:internal/streams/readable');
const { Writable } = require('node:internal/streams/writable');
const { Duplex } = require('node:internal/streams/duplex');
const { PassThrough, Transform } = require('node:internal/streams/transform');
const { compose, pipeline, pipelineImpl } = require('node:internal/streams/pipeline');

// ---- exports

const promises = {
  pipeline(...streams) {
    return new Promise((resolve, reject) => {
      let signal;
      let end;
      const lastArg = streams[streams.length - 1];
      if (lastArg && typeof lastArg === 'object' && !isNodeStream(lastArg) && !isIterable(lastArg)) {
        const options = ArrayPrototypePop(streams);
        signal = options.signal;
        end = options.end;
      }
      pipelineImpl(streams, (err, value) => {
        if (err) reject(err);
        else resolve(value);
      }, { signal, end });
    });
  },
  finished: finishedPromise,
};

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = eos;
Stream.addAbortSignal = addAbortSignal;
Stream.destroy = destroyer;
Stream.compose = compose;
Stream.isDisturbed = (s) => !!(s && s._readableState && (s._readableState.dataEmitted || s._readableState.closeEmitted));
Stream.isErrored = (s) => !!(s && ((s._readableState && s._readableState.errored) || (s._writableState && s._writableState.errored)));
Stream.isReadable = (s) => isReadable(s);
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? 16 : 16 * 1024);
Stream.setDefaultHighWaterMark = () => {};
// The WHATWG bridges live in internal/webstreams/adapters, loaded on first use.
const webAdapters = () => require('node:internal/webstreams/adapters');
Readable.fromWeb = (readableStream, options) => webAdapters().newStreamReadableFromReadableStream(readableStream, options);
Readable.toWeb = (streamReadable, options) => webAdapters().newReadableStreamFromStreamReadable(streamReadable, options);
Writable.fromWeb = (writableStream, options) => webAdapters().newStreamWritableFromWritableStream(writableStream, options);
Writable.toWeb = (streamWritable) => webAdapters().newWritableStreamFromStreamWritable(streamWritable);
Duplex.fromWeb = (pair, options) => webAdapters().newStreamDuplexFromReadableWritablePair(pair, options);
Duplex.toWeb = (duplex) => webAdapters().newReadableWritablePairFromDuplex(duplex);
Stream._isUint8Array = isUint8Array;
Stream._uint8ArrayToBuffer = (chunk) => getBuffer().from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
ObjectDefineProperty(Stream, 'promises', { enumerable: true, configurable: true, get() { return promises; } });
ObjectDefineProperty(pipeline, SymbolFor('nodejs.util.promisify.custom'), { enumerable: true, get() { return promises.pipeline; } });
ObjectDefineProperty(eos, SymbolFor('nodejs.util.promisify.custom'), { enumerable: true, get() { return promises.finished; } });

module.exports = Stream;
