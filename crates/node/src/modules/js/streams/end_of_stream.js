'use strict';
// When a stream is done: the state predicates (isReadable, isWritableFinished, …), eos /
// stream.finished and its promise form, and ending a stream from outside (destroyer,
// addAbortSignal).
const {
  FunctionPrototypeCall, Promise, ReflectApply, SymbolAsyncIterator, SymbolIterator,
} = primordials;

const { ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { E, nextTick, nop } = require('node:internal/streams/common');

// ---- utilities

function isReadableNodeStream(obj, strict) {
  return !!(obj && typeof obj.pipe === 'function' && typeof obj.on === 'function' &&
    (!strict || (typeof obj.pause === 'function' && typeof obj.resume === 'function')) &&
    (!obj._writableState || (obj._readableState && obj._readableState.readable !== false)) &&
    (!obj._writableState || obj._readableState));
}

function isWritableNodeStream(obj) {
  return !!(obj && typeof obj.write === 'function' && typeof obj.on === 'function' &&
    (!obj._readableState || (obj._writableState && obj._writableState.writable !== false)));
}

function isNodeStream(obj) {
  return !!(obj && (obj._readableState || obj._writableState ||
    (typeof obj.write === 'function' && typeof obj.on === 'function') ||
    (typeof obj.pipe === 'function' && typeof obj.on === 'function')));
}

function isIterable(obj, isAsync) {
  if (obj == null) return false;
  if (isAsync === true) return typeof obj[SymbolAsyncIterator] === 'function';
  if (isAsync === false) return typeof obj[SymbolIterator] === 'function';
  return typeof obj[SymbolAsyncIterator] === 'function' || typeof obj[SymbolIterator] === 'function';
}

function isDestroyed(stream) {
  if (!isNodeStream(stream)) return null;
  const w = stream._writableState;
  const r = stream._readableState;
  const state = w || r;
  return !!(stream.destroyed || (state && state.destroyed));
}

function isWritableFinished(stream, strict) {
  const w = stream._writableState;
  if (!w) return null;
  if (w.errored) return false;
  return !!(w.finished || (strict === false && w.ended === true && w.length === 0));
}

function isReadableFinished(stream, strict) {
  const r = stream._readableState;
  if (!r) return null;
  if (r.errored) return false;
  return !!(r.endEmitted || (strict === false && r.ended === true && r.length === 0));
}

function isReadable(stream) {
  if (stream && stream.readable !== undefined && typeof stream.readable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isReadableNodeStream(stream) && stream.readable && !isReadableFinished(stream);
}

function isWritable(stream) {
  if (stream && stream.writable !== undefined && typeof stream.writable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isWritableNodeStream(stream) && stream.writable && !isWritableEnded(stream);
}

function isWritableEnded(stream) {
  const w = stream._writableState;
  if (!w) return null;
  if (w.writableEnded === true) return true;
  if (w.errored) return false;
  return !!w.ending;
}

function isClosed(stream) {
  const w = stream._writableState;
  const r = stream._readableState;
  if (typeof (w && w.closed) === 'boolean' || typeof (r && r.closed) === 'boolean') {
    return (w && w.closed) || (r && r.closed);
  }
  if (typeof stream.closed === 'boolean') return stream.closed;
  return null;
}

function willEmitClose(stream) {
  const w = stream._writableState;
  const r = stream._readableState;
  const state = w || r;
  return (!state && stream.listenerCount && false) ||
    !!(state && state.autoDestroy && state.emitClose && state.closed === false);
}

function eos(stream, options, callback) {
  if (arguments.length === 2) {
    callback = options;
    options = {};
  } else if (options == null) {
    options = {};
  } else if (typeof options !== 'object') {
    throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
  }
  if (typeof callback !== 'function') throw ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
  let called = false;
  const userCb = callback;
  callback = function (...args) {
    if (called) return;
    called = true;
    ReflectApply(userCb, this, args);
  };
  if (!isNodeStream(stream)) {
    throw ERR_INVALID_ARG_TYPE('stream', ['ReadableStream', 'WritableStream', 'Stream'], stream);
  }
  const readable = options.readable ?? isReadableNodeStream(stream);
  const writable = options.writable ?? isWritableNodeStream(stream);
  const wState = stream._writableState;
  const rState = stream._readableState;
  const onlegacyfinish = () => {
    if (!stream.writable) onfinish();
  };
  let wEmitClose = willEmitClose(stream) && isReadableNodeStream(stream) === readable &&
    isWritableNodeStream(stream) === writable;
  let writableFinished = isWritableFinished(stream, false);
  const onfinish = () => {
    writableFinished = true;
    if (stream.destroyed) wEmitClose = false;
    if (wEmitClose && (!stream.readable || readable)) return;
    if (!readable || readableFinished) FunctionPrototypeCall(callback, stream);
  };
  let readableFinished = isReadableFinished(stream, false);
  const onend = () => {
    readableFinished = true;
    if (stream.destroyed) wEmitClose = false;
    if (wEmitClose && (!stream.writable || writable)) return;
    if (!writable || writableFinished) FunctionPrototypeCall(callback, stream);
  };
  const onerror = (err) => {
    FunctionPrototypeCall(callback, stream, err);
  };
  let closed = isClosed(stream);
  const onclose = () => {
    closed = true;
    const errored = (wState && wState.errored) || (rState && rState.errored);
    if (errored && typeof errored !== 'boolean') return FunctionPrototypeCall(callback, stream, errored);
    if (readable && !readableFinished && isReadableNodeStream(stream, true)) {
      if (!isReadableFinished(stream, false)) return FunctionPrototypeCall(callback, stream, E.PREMATURE_CLOSE());
    }
    if (writable && !writableFinished) {
      if (!isWritableFinished(stream, false)) return FunctionPrototypeCall(callback, stream, E.PREMATURE_CLOSE());
    }
    FunctionPrototypeCall(callback, stream);
  };
  const onclosed = () => {
    closed = true;
    const errored = (wState && wState.errored) || (rState && rState.errored);
    if (errored && typeof errored !== 'boolean') return FunctionPrototypeCall(callback, stream, errored);
    FunctionPrototypeCall(callback, stream);
  };
  if (writable && !wState) {
    stream.on('end', onlegacyfinish);
    stream.on('close', onlegacyfinish);
  }
  stream.on('end', onend);
  stream.on('finish', onfinish);
  if (options.error !== false) stream.on('error', onerror);
  stream.on('close', onclose);
  if (closed) {
    nextTick(onclose);
  } else if ((wState && wState.errorEmitted) || (rState && rState.errorEmitted)) {
    if (!wEmitClose) nextTick(onclosed);
  } else if (!readable && (!wEmitClose || isReadable(stream)) && (writableFinished || isWritable(stream) === false)) {
    nextTick(onclosed);
  } else if (!writable && (!wEmitClose || isWritable(stream)) && (readableFinished || isReadable(stream) === false)) {
    nextTick(onclosed);
  }
  const cleanup = () => {
    callback = nop;
    stream.removeListener('end', onlegacyfinish);
    stream.removeListener('close', onlegacyfinish);
    stream.removeListener('end', onend);
    stream.removeListener('finish', onfinish);
    stream.removeListener('error', onerror);
    stream.removeListener('close', onclose);
  };
  if (options.signal && !closed) {
    const abort = () => {
      const endCallback = callback;
      cleanup();
      FunctionPrototypeCall(endCallback, stream, E.ABORT(options.signal.reason));
    };
    if (options.signal.aborted) nextTick(abort);
    else {
      options.signal.addEventListener('abort', abort, { once: true });
      const orig = callback;
      callback = function (...args) {
        options.signal.removeEventListener('abort', abort);
        ReflectApply(orig, stream, args);
      };
    }
  }
  return cleanup;
}

function finishedPromise(stream, opts) {
  return new Promise((resolve, reject) => {
    eos(stream, opts, (err) => {
      if (err) reject(err);
      else resolve();
    });
  });
}
eos.finished = eos;

function destroyer(stream, err) {
  if (!stream || isDestroyed(stream)) return;
  if (typeof stream.destroy === 'function') stream.destroy(err);
  else if (typeof stream.close === 'function') stream.close();
}

function addAbortSignal(signal, stream) {
  if (!signal || typeof signal !== 'object' || !('aborted' in signal)) {
    throw ERR_INVALID_ARG_TYPE('signal', 'AbortSignal', signal);
  }
  if (!isNodeStream(stream)) throw ERR_INVALID_ARG_TYPE('stream', ['ReadableStream', 'WritableStream', 'Stream'], stream);
  const onAbort = () => stream.destroy(E.ABORT(signal.reason));
  if (signal.aborted) onAbort();
  else {
    signal.addEventListener('abort', onAbort, { once: true });
    eos(stream, () => signal.removeEventListener('abort', onAbort));
  }
  return stream;
}

module.exports = {
  addAbortSignal, destroyer, eos, finishedPromise, isIterable, isNodeStream, isReadable,
  isReadableFinished, isReadableNodeStream,
};
