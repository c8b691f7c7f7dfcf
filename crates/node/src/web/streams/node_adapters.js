'use strict';
// Bridges between node:stream and the WHATWG streams, as Node's
// lib/internal/webstreams/adapters.js does them: Readable.fromWeb/toWeb,
// Writable.fromWeb/toWeb and Duplex.fromWeb/toWeb (node:stream calls these lazily, so
// neither module loads the other until a program converts).
const {
  PromiseAll, PromisePrototypeThen, PromiseResolve,
} = primordials;

const { Readable, Writable, Duplex, finished } = require('stream');
const { ReadableStream, WritableStream, CountQueuingStrategy, ByteLengthQueuingStrategy, internals } =
  require('node:internal/webstreams');
const { AbortError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

function destroy(stream, error) {
  if (typeof stream.destroy === 'function') stream.destroy(error);
}

function prematureCloseAsAbort(error) {
  if (error && error.code === 'ERR_STREAM_PREMATURE_CLOSE') return new AbortError(undefined, { cause: error });
  return error;
}

// Readable.toWeb(streamReadable, { strategy })
function newReadableStreamFromStreamReadable(streamReadable, options = {}) {
  if (!streamReadable || typeof streamReadable.pipe !== 'function' || typeof streamReadable.on !== 'function') {
    throw ERR_INVALID_ARG_TYPE('streamReadable', 'stream.Readable', streamReadable);
  }
  const objectMode = streamReadable.readableObjectMode;
  const highWaterMark = streamReadable.readableHighWaterMark;
  const strategy = options?.strategy ?? (objectMode
    ? new CountQueuingStrategy({ highWaterMark })
    : new ByteLengthQueuingStrategy({ highWaterMark }));
  let controller;
  const { Buffer } = require('buffer');
  function onData(chunk) {
    // A Buffer may share a pool: copy it so the web side owns its bytes.
    if (Buffer.isBuffer(chunk) && !objectMode) chunk = new Uint8Array(chunk);
    controller.enqueue(chunk);
    if (controller.desiredSize <= 0) streamReadable.pause();
  }
  function onFinished(error) {
    cleanup();
    error = prematureCloseAsAbort(error);
    if (error) {
      controller.error(error);
      return;
    }
    controller.close();
  }
  streamReadable.pause();
  const cleanup = finished(streamReadable, onFinished);
  streamReadable.on('data', onData);
  return new ReadableStream({
    start(c) { controller = c; },
    pull() { streamReadable.resume(); },
    cancel(reason) { destroy(streamReadable, reason); },
  }, strategy);
}

// Readable.fromWeb(readableStream, { highWaterMark, encoding, objectMode, signal })
function newStreamReadableFromReadableStream(readableStream, options = {}) {
  if (!internals.isReadableStream(readableStream)) {
    throw ERR_INVALID_ARG_TYPE('readableStream', 'ReadableStream', readableStream);
  }
  const { highWaterMark, encoding, objectMode = false, signal } = options ?? {};
  const reader = readableStream.getReader();
  let closed = false;
  const readable = new Readable({
    objectMode,
    highWaterMark,
    encoding,
    signal,
    read() {
      reader.read().then((chunk) => {
        if (chunk.done) readable.push(null);
        else readable.push(chunk.value);
      }, (error) => destroy(readable, error));
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => { throw e; });
        }
      };
      if (!closed) {
        reader.cancel(error).then(done, done);
        return;
      }
      done();
    },
  });
  PromisePrototypeThen(reader.closed, () => { closed = true; }, (error) => {
    closed = true;
    destroy(readable, error);
  });
  return readable;
}

// Writable.toWeb(streamWritable)
function newWritableStreamFromStreamWritable(streamWritable) {
  if (!streamWritable || typeof streamWritable.write !== 'function' || typeof streamWritable.on !== 'function') {
    throw ERR_INVALID_ARG_TYPE('streamWritable', 'stream.Writable', streamWritable);
  }
  const highWaterMark = streamWritable.writableHighWaterMark;
  const strategy = streamWritable.writableObjectMode ? new CountQueuingStrategy({ highWaterMark }) : { highWaterMark };
  let controller;
  let backpressurePromise;
  let closed;
  const onDrain = () => {
    if (backpressurePromise !== undefined) backpressurePromise.resolve();
  };
  const cleanup = finished(streamWritable, (error) => {
    error = prematureCloseAsAbort(error);
    cleanup();
    // The web side reports the error from here on; keep the Node side from throwing it again.
    streamWritable.on('error', () => {});
    if (error != null) {
      if (backpressurePromise !== undefined) backpressurePromise.reject(error);
      if (closed !== undefined) {
        closed.reject(error);
        closed = undefined;
      }
      controller.error(error);
      controller = undefined;
      return;
    }
    if (closed !== undefined) {
      closed.resolve();
      closed = undefined;
      return;
    }
    controller.error(new AbortError());
    controller = undefined;
  });
  streamWritable.on('drain', onDrain);
  return new WritableStream({
    start(c) { controller = c; },
    write(chunk) {
      if (streamWritable.writableNeedDrain || !streamWritable.write(chunk)) {
        backpressurePromise = deferred();
        return backpressurePromise.promise.finally(() => { backpressurePromise = undefined; });
      }
      return undefined;
    },
    abort(reason) { destroy(streamWritable, reason); },
    close() {
      if (closed === undefined && !streamWritable.writableEnded) {
        closed = deferred();
        streamWritable.end();
        return closed.promise;
      }
      controller = undefined;
      return PromiseResolve();
    },
  }, strategy);
}

// Writable.fromWeb(writableStream, { highWaterMark, decodeStrings, objectMode, signal })
function newStreamWritableFromWritableStream(writableStream, options = {}) {
  if (!internals.isWritableStream(writableStream)) {
    throw ERR_INVALID_ARG_TYPE('writableStream', 'WritableStream', writableStream);
  }
  const { highWaterMark, decodeStrings = true, objectMode = false, signal } = options ?? {};
  const writer = writableStream.getWriter();
  let closed = false;
  const writable = new Writable({
    highWaterMark,
    objectMode,
    decodeStrings,
    signal,
    write(chunk, encoding, callback) {
      if (typeof chunk === 'string' && decodeStrings && !objectMode) {
        const buf = require('buffer').Buffer.from(chunk, encoding);
        chunk = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      }
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          destroy(writable, e);
        }
      };
      PromisePrototypeThen(writer.ready, () => writer.write(chunk).then(() => done(), done), done);
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => { throw e; });
        }
      };
      if (!closed) {
        if (error != null) writer.abort(error).then(done, done);
        else writer.close().then(done, done);
        return;
      }
      done();
    },
    final(callback) {
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => destroy(writable, e));
        }
      };
      if (!closed) writer.close().then(() => done(), done);
    },
  });
  PromisePrototypeThen(writer.closed, () => { closed = true; }, (error) => {
    closed = true;
    destroy(writable, error);
  });
  return writable;
}

// Duplex.fromWeb({ readable, writable }, { allowHalfOpen, objectMode, encoding, decodeStrings, highWaterMark, signal })
function newStreamDuplexFromReadableWritablePair(pair = {}, options = {}) {
  const readableStream = pair?.readable;
  const writableStream = pair?.writable;
  if (!internals.isReadableStream(readableStream)) {
    throw ERR_INVALID_ARG_TYPE('pair.readable', 'ReadableStream', readableStream);
  }
  if (!internals.isWritableStream(writableStream)) {
    throw ERR_INVALID_ARG_TYPE('pair.writable', 'WritableStream', writableStream);
  }
  const { allowHalfOpen = false, objectMode = false, encoding, decodeStrings = true, highWaterMark, signal } = options ?? {};
  const writer = writableStream.getWriter();
  const reader = readableStream.getReader();
  let writableClosed = false;
  let readableClosed = false;
  const duplex = new Duplex({
    allowHalfOpen,
    highWaterMark,
    objectMode,
    encoding,
    decodeStrings,
    signal,
    write(chunk, enc, callback) {
      if (typeof chunk === 'string' && decodeStrings && !objectMode) {
        const buf = require('buffer').Buffer.from(chunk, enc);
        chunk = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      }
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          destroy(duplex, e);
        }
      };
      PromisePrototypeThen(writer.ready, () => writer.write(chunk).then(() => done(), done), done);
    },
    final(callback) {
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => destroy(duplex, e));
        }
      };
      if (!writableClosed) writer.close().then(() => done(), done);
    },
    read() {
      reader.read().then((chunk) => {
        if (chunk.done) duplex.push(null);
        else duplex.push(chunk.value);
      }, (error) => destroy(duplex, error));
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => { throw e; });
        }
      };
      if (!writableClosed || !readableClosed) {
        const closeWriter = writableClosed ? PromiseResolve() : writer.abort(error);
        const closeReader = readableClosed ? PromiseResolve() : reader.cancel(error);
        PromiseAll([closeWriter, closeReader]).then(done, done);
        return;
      }
      done();
    },
  });
  PromisePrototypeThen(writer.closed, () => {
    writableClosed = true;
    if (!duplex.writableEnded) {
      const { makeError } = require('node:internal/errors');
      destroy(duplex, makeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'));
    }
  }, (error) => {
    writableClosed = true;
    readableClosed = true;
    destroy(duplex, error);
  });
  PromisePrototypeThen(reader.closed, () => { readableClosed = true; }, (error) => {
    writableClosed = true;
    readableClosed = true;
    destroy(duplex, error);
  });
  return duplex;
}

// Duplex.toWeb(duplex) → { readable, writable }
function newReadableWritablePairFromDuplex(duplex) {
  if (typeof duplex?._writableState !== 'object' || typeof duplex?._readableState !== 'object') {
    throw ERR_INVALID_ARG_TYPE('duplex', 'stream.Duplex', duplex);
  }
  if (duplex.destroyed) {
    const writable = new WritableStream();
    const readable = new ReadableStream();
    writable.close();
    readable.cancel();
    return { readable, writable };
  }
  let writable;
  if (duplex.writable) {
    writable = newWritableStreamFromStreamWritable(duplex);
  } else {
    writable = new WritableStream();
    writable.close();
  }
  let readable;
  if (duplex.readable) {
    readable = newReadableStreamFromStreamReadable(duplex);
  } else {
    readable = new ReadableStream();
    readable.cancel();
  }
  return { writable, readable };
}

module.exports = {
  newStreamDuplexFromReadableWritablePair,
  newReadableWritablePairFromDuplex,
  newReadableStreamFromStreamReadable,
  newStreamReadableFromReadableStream,
  newWritableStreamFromStreamWritable,
  newStreamWritableFromWritableStream,
};
