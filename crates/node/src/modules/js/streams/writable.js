'use strict';
// Writable: WritableState, write/end/cork and the buffered writes (writev), the finish
// sequence (final, prefinish, finish) and destroy.
const {
  ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSplice, Error, Function,
  FunctionPrototypeCall, ObjectDefineProperties, ObjectDefineProperty, ObjectSetPrototypeOf,
  StringPrototypeToLowerCase, Symbol, SymbolHasInstance,
} = primordials;

const EE = require('events');
const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { E, getBuffer, getHighWaterMark, isUint8Array, nextTick, nop } = require('node:internal/streams/common');
const { Stream } = require('node:internal/streams/legacy');
const { construct, destroy, errorOrDestroy } = require('node:internal/streams/destroy');
const { addAbortSignal } = require('node:internal/streams/end_of_stream');
// Duplex inherits from Writable's methods, so it is required on first use rather than at load.
let Duplex;
const lazyDuplex = () => Duplex || (Duplex = require('node:internal/streams/duplex').Duplex);

// ---- Writable

function WritableState(options, stream, isDuplex) {
  options = options || {};
  if (typeof isDuplex !== 'boolean') isDuplex = stream instanceof lazyDuplex();
  this.objectMode = !!(options.objectMode || (isDuplex && options.writableObjectMode));
  this.highWaterMark = getHighWaterMark(options, 'writableHighWaterMark', this.objectMode, isDuplex);
  this.finalCalled = false;
  this.needDrain = false;
  this.ending = false;
  this.ended = false;
  this.finished = false;
  this.destroyed = false;
  this.decodeStrings = options.decodeStrings !== false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.length = 0;
  this.writing = false;
  this.corked = 0;
  this.sync = true;
  this.bufferProcessing = false;
  this.writecb = null;
  this.writelen = 0;
  this.afterWriteTickInfo = null;
  this.buffered = [];
  this.bufferedIndex = 0;
  this.allBuffers = true;
  this.allNoop = true;
  this.pendingcb = 0;
  this.constructed = true;
  this.prefinished = false;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.onFinished = [];
}

WritableState.prototype.getBuffer = function () {
  return ArrayPrototypeSlice(this.buffered, this.bufferedIndex);
};
ObjectDefineProperty(WritableState.prototype, 'bufferedRequestCount', {
  get() { return this.buffered.length - this.bufferedIndex; },
});

function Writable(options) {
  const isDuplex = this instanceof lazyDuplex();
  if (!isDuplex && !(this instanceof Writable)) return new Writable(options);
  this._writableState = new WritableState(options, this, isDuplex);
  if (options) {
    if (typeof options.write === 'function') this._write = options.write;
    if (typeof options.writev === 'function') this._writev = options.writev;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.final === 'function') this._final = options.final;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal) addAbortSignal(options.signal, this);
  }
  FunctionPrototypeCall(Stream, this, options);
  construct(this, () => {
    const state = this._writableState;
    if (!state.writing) clearBuffer(this, state);
    finishMaybe(this, state);
  });
}
ObjectSetPrototypeOf(Writable.prototype, Stream.prototype);
ObjectSetPrototypeOf(Writable, Stream);

ObjectDefineProperty(Writable, SymbolHasInstance, {
  value(object) {
    if (FunctionPrototypeCall(Function.prototype[SymbolHasInstance], this, object)) return true;
    if (this !== Writable) return false;
    return !!(object && object._writableState instanceof WritableState);
  },
});

Writable.prototype.pipe = function () {
  errorOrDestroy(this, makeError(Error, 'ERR_STREAM_CANNOT_PIPE', 'Cannot pipe, not readable'));
};

function _write(stream, chunk, encoding, cb) {
  const state = stream._writableState;
  if (typeof encoding === 'function') {
    cb = encoding;
    encoding = state.defaultEncoding;
  } else {
    if (!encoding) encoding = state.defaultEncoding;
    else if (encoding !== 'buffer' && !getBuffer().isEncoding(encoding)) throw E.UNKNOWN_ENCODING(encoding);
    if (typeof cb !== 'function') cb = nop;
  }
  if (chunk === null) throw E.NULL_VALUES();
  if (!state.objectMode) {
    if (typeof chunk === 'string') {
      if (state.decodeStrings !== false) {
        chunk = getBuffer().from(chunk, encoding);
        encoding = 'buffer';
      }
    } else if (chunk instanceof getBuffer()) {
      encoding = 'buffer';
    } else if (isUint8Array(chunk)) {
      chunk = getBuffer().from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      encoding = 'buffer';
    } else {
      throw ERR_INVALID_ARG_TYPE('chunk', ['string', 'Buffer', 'TypedArray', 'DataView'], chunk);
    }
  }
  let err;
  if (state.ending) err = E.WRITE_AFTER_END();
  else if (state.destroyed) err = E.DESTROYED('write');
  if (err) {
    nextTick(cb, err);
    errorOrDestroy(stream, err, true);
    return err;
  }
  state.pendingcb++;
  return writeOrBuffer(stream, state, chunk, encoding, cb);
}

Writable.prototype.write = function (chunk, encoding, cb) {
  return _write(this, chunk, encoding, cb) === true;
};

Writable.prototype.cork = function () {
  this._writableState.corked++;
};

Writable.prototype.uncork = function () {
  const state = this._writableState;
  if (state.corked) {
    state.corked--;
    if (!state.writing) clearBuffer(this, state);
  }
};

Writable.prototype.setDefaultEncoding = function (encoding) {
  if (typeof encoding === 'string') encoding = StringPrototypeToLowerCase(encoding);
  if (!getBuffer().isEncoding(encoding)) throw E.UNKNOWN_ENCODING(encoding);
  this._writableState.defaultEncoding = encoding;
  return this;
};

function writeOrBuffer(stream, state, chunk, encoding, callback) {
  const len = state.objectMode ? 1 : chunk.length;
  state.length += len;
  const ret = state.length < state.highWaterMark;
  if (!ret) state.needDrain = true;
  if (state.writing || state.corked || state.errored || !state.constructed) {
    ArrayPrototypePush(state.buffered, { chunk, encoding, callback });
    if (state.allBuffers && encoding !== 'buffer') state.allBuffers = false;
    if (state.allNoop && callback !== nop) state.allNoop = false;
  } else {
    state.writelen = len;
    state.writecb = callback;
    state.writing = true;
    state.sync = true;
    stream._write(chunk, encoding, (er) => onwrite(stream, er));
    state.sync = false;
  }
  return ret && !state.errored && !state.destroyed;
}

function doWrite(stream, state, writev, len, chunk, encoding, cb) {
  state.writelen = len;
  state.writecb = cb;
  state.writing = true;
  state.sync = true;
  const onw = (er) => onwrite(stream, er);
  if (state.destroyed) onw(E.DESTROYED('write'));
  else if (writev) stream._writev(chunk, onw);
  else stream._write(chunk, encoding, onw);
  state.sync = false;
}

function onwriteError(stream, state, er, cb) {
  --state.pendingcb;
  cb(er);
  errorBuffer(state);
  errorOrDestroy(stream, er);
}

function onwrite(stream, er) {
  const state = stream._writableState;
  const sync = state.sync;
  const cb = state.writecb;
  if (typeof cb !== 'function') {
    errorOrDestroy(stream, E.MULTIPLE_CALLBACK());
    return;
  }
  state.writing = false;
  state.writecb = null;
  state.length -= state.writelen;
  state.writelen = 0;
  if (er) {
    if (!state.errored) state.errored = er;
    if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = er;
    if (sync) nextTick(onwriteError, stream, state, er, cb);
    else onwriteError(stream, state, er, cb);
  } else {
    if (state.buffered.length > state.bufferedIndex) clearBuffer(stream, state);
    if (sync) {
      if (state.afterWriteTickInfo !== null && state.afterWriteTickInfo.cb === cb) {
        state.afterWriteTickInfo.count++;
      } else {
        state.afterWriteTickInfo = { count: 1, cb, stream, state };
        nextTick(afterWriteTick, state.afterWriteTickInfo);
      }
    } else {
      afterWrite(stream, state, 1, cb);
    }
  }
}

function afterWriteTick({ stream, state, count, cb }) {
  state.afterWriteTickInfo = null;
  return afterWrite(stream, state, count, cb);
}

function afterWrite(stream, state, count, cb) {
  const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
  if (needDrain) {
    state.needDrain = false;
    stream.emit('drain');
  }
  while (count-- > 0) {
    state.pendingcb--;
    cb();
  }
  if (state.destroyed) errorBuffer(state);
  finishMaybe(stream, state);
}

function errorBuffer(state) {
  if (state.writing) return;
  for (let n = state.bufferedIndex; n < state.buffered.length; ++n) {
    const { chunk, callback } = state.buffered[n];
    const len = state.objectMode ? 1 : chunk.length;
    state.length -= len;
    callback(state.errored || E.DESTROYED('write'));
  }
  for (const cb of ArrayPrototypeSplice(state.onFinished, 0)) cb(state.errored || E.DESTROYED('end'));
  state.buffered = [];
  state.bufferedIndex = 0;
  state.allBuffers = true;
  state.allNoop = true;
}

function clearBuffer(stream, state) {
  if (state.corked || state.bufferProcessing || state.destroyed || !state.constructed) return;
  const { buffered, bufferedIndex, objectMode } = state;
  const bufferedLength = buffered.length - bufferedIndex;
  if (!bufferedLength) return;
  let i = bufferedIndex;
  state.bufferProcessing = true;
  if (bufferedLength > 1 && stream._writev) {
    state.pendingcb -= bufferedLength - 1;
    const callback = state.allNoop ? nop : (err) => {
      for (let n = i; n < buffered.length; ++n) buffered[n].callback(err);
    };
    const chunks = state.allNoop && i === 0 ? buffered : ArrayPrototypeSlice(buffered, i);
    chunks.allBuffers = state.allBuffers;
    doWrite(stream, state, true, state.length, chunks, '', callback);
    state.buffered = [];
    state.bufferedIndex = 0;
    state.allBuffers = true;
    state.allNoop = true;
  } else {
    do {
      const { chunk, encoding, callback } = buffered[i];
      buffered[i++] = null;
      const len = objectMode ? 1 : chunk.length;
      doWrite(stream, state, false, len, chunk, encoding, callback);
    } while (i < buffered.length && !state.writing);
    if (i === buffered.length) {
      state.buffered = [];
      state.bufferedIndex = 0;
      state.allBuffers = true;
      state.allNoop = true;
    } else if (i > 256) {
      ArrayPrototypeSplice(state.buffered, 0, i);
      state.bufferedIndex = 0;
    } else {
      state.bufferedIndex = i;
    }
  }
  state.bufferProcessing = false;
}

Writable.prototype._write = function (chunk, encoding, cb) {
  if (this._writev) this._writev([{ chunk, encoding }], cb);
  else throw E.NOT_IMPL('_write()');
};
Writable.prototype._writev = null;

Writable.prototype.end = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof chunk === 'function') {
    cb = chunk;
    chunk = null;
    encoding = null;
  } else if (typeof encoding === 'function') {
    cb = encoding;
    encoding = null;
  }
  let err;
  if (chunk !== null && chunk !== undefined) {
    const ret = _write(this, chunk, encoding);
    if (ret instanceof Error) err = ret;
  }
  if (state.corked) {
    state.corked = 1;
    this.uncork();
  }
  if (err) {
    // already reported by write
  } else if (!state.errored && !state.ending) {
    state.ending = true;
    finishMaybe(this, state, true);
    state.ended = true;
  } else if (state.finished) {
    err = E.ALREADY_FINISHED('end');
  } else if (state.destroyed) {
    err = E.DESTROYED('end');
  }
  if (typeof cb === 'function') {
    if (err || state.finished) nextTick(cb, err);
    else ArrayPrototypePush(state.onFinished, cb);
  }
  return this;
};

function needFinish(state) {
  return state.ending && !state.destroyed && state.constructed && state.length === 0 && !state.errored &&
    state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
}

function callFinal(stream, state) {
  let called = false;
  function onFinish(err) {
    if (called) {
      errorOrDestroy(stream, err ?? E.MULTIPLE_CALLBACK());
      return;
    }
    called = true;
    state.pendingcb--;
    if (err) {
      for (const cb of ArrayPrototypeSplice(state.onFinished, 0)) cb(err);
      errorOrDestroy(stream, err, state.sync);
    } else if (needFinish(state)) {
      state.prefinished = true;
      stream.emit('prefinish');
      state.pendingcb++;
      nextTick(finish, stream, state);
    }
  }
  state.sync = true;
  state.pendingcb++;
  try {
    stream._final(onFinish);
  } catch (err) {
    onFinish(err);
  }
  state.sync = false;
}

function prefinish(stream, state) {
  if (!state.prefinished && !state.finalCalled) {
    if (typeof stream._final === 'function' && !state.destroyed) {
      state.finalCalled = true;
      callFinal(stream, state);
    } else {
      state.prefinished = true;
      stream.emit('prefinish');
    }
  }
}

function finishMaybe(stream, state, sync) {
  if (needFinish(state)) {
    prefinish(stream, state);
    if (state.pendingcb === 0) {
      if (sync) {
        state.pendingcb++;
        nextTick(() => {
          if (needFinish(state)) finish(stream, state);
          else state.pendingcb--;
        });
      } else if (needFinish(state)) {
        state.pendingcb++;
        finish(stream, state);
      }
    }
  }
}

function finish(stream, state) {
  state.pendingcb--;
  state.finished = true;
  for (const cb of ArrayPrototypeSplice(state.onFinished, 0)) cb();
  stream.emit('finish');
  if (state.autoDestroy) {
    const r = stream._readableState;
    const autoDestroy = !r || (r.autoDestroy && (r.endEmitted || r.readable === false));
    if (autoDestroy) stream.destroy();
  }
}

const writableProps = {
  closed: { get() { return this._writableState ? this._writableState.closed : false; } },
  destroyed: {
    get() { return this._writableState ? this._writableState.destroyed : false; },
    set(v) { if (this._writableState) this._writableState.destroyed = v; },
  },
  writable: {
    get() {
      const w = this._writableState;
      return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended;
    },
    set(val) { if (this._writableState) this._writableState.writable = !!val; },
  },
  writableFinished: { get() { return this._writableState ? this._writableState.finished : false; } },
  writableObjectMode: { get() { return this._writableState ? this._writableState.objectMode : false; } },
  writableBuffer: { get() { return this._writableState && this._writableState.getBuffer(); } },
  writableEnded: { get() { return this._writableState ? this._writableState.ending : false; } },
  writableNeedDrain: {
    get() {
      const w = this._writableState;
      if (!w) return false;
      return !w.destroyed && !w.ending && w.needDrain;
    },
  },
  writableHighWaterMark: { get() { return this._writableState && this._writableState.highWaterMark; } },
  writableCorked: { get() { return this._writableState ? this._writableState.corked : 0; } },
  writableLength: { get() { return this._writableState && this._writableState.length; } },
  errored: { get() { return this._writableState ? this._writableState.errored : null; } },
  writableAborted: {
    get() {
      const w = this._writableState;
      return !!(w.writable !== false && (w.destroyed || w.errored) && !w.finished);
    },
  },
};
ObjectDefineProperties(Writable.prototype, writableProps);

Writable.prototype.destroy = function (err, cb) {
  const state = this._writableState;
  if (!state.destroyed && (state.bufferedIndex < state.buffered.length || state.onFinished.length)) {
    nextTick(errorBuffer, state);
  }
  FunctionPrototypeCall(destroy, this, err, cb);
  return this;
};
Writable.prototype._undestroy = function () {
  const w = this._writableState;
  w.constructed = true; w.destroyed = false; w.closed = false; w.closeEmitted = false; w.errored = null;
  w.errorEmitted = false; w.finalCalled = false; w.prefinished = false; w.ended = w.writable === false;
  w.ending = w.writable === false; w.finished = w.writable === false;
};
Writable.prototype._destroy = function (err, cb) { cb(err); };
Writable.prototype[EE.captureRejectionSymbol || Symbol('captureRejection')] = function (err) { this.destroy(err); };

module.exports = {
  Writable, WritableState, clearBuffer, finishMaybe, writableProps,
};
