'use strict';
// node:stream — Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished.
// Written for Amber after Node's documented semantics: the same state flags, and the same
// points where work is deferred with process.nextTick, so event order matches Node's.
const {
  ArrayIsArray, ArrayPrototypeForEach, ArrayPrototypeIncludes, ArrayPrototypeIndexOf,
  ArrayPrototypeJoin, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift,
  ArrayPrototypeSlice, ArrayPrototypeSplice, ArrayPrototypeUnshift, FunctionPrototypeCall,
  MathFloor, MathMin, NumberIsInteger, NumberIsNaN, NumberParseInt, ObjectDefineProperties,
  ObjectDefineProperty, ObjectKeys, ObjectSetPrototypeOf, ReflectApply, StringPrototypeSlice,
  StringPrototypeToLowerCase, SymbolAsyncIterator, SymbolFor, SymbolHasInstance, SymbolIterator,
} = primordials;

const EE = require('events');
const { makeError, ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE } = require('node:internal/errors');

const nextTick = (fn, ...args) => process.nextTick(fn, ...args);
const nop = () => {};
let BufferCtor = null;
const getBuffer = () => BufferCtor || (BufferCtor = require('buffer').Buffer);

const E = {
  PUSH_AFTER_EOF: () => makeError(Error, 'ERR_STREAM_PUSH_AFTER_EOF', 'stream.push() after EOF'),
  UNSHIFT_AFTER_END: () => makeError(Error, 'ERR_STREAM_UNSHIFT_AFTER_END_EVENT', 'stream.unshift() after end event'),
  WRITE_AFTER_END: () => makeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end'),
  DESTROYED: (m) => makeError(Error, 'ERR_STREAM_DESTROYED', `Cannot call ${m} after a stream was destroyed`),
  NULL_VALUES: () => makeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream'),
  ALREADY_FINISHED: (m) => makeError(Error, 'ERR_STREAM_ALREADY_FINISHED', `Cannot call ${m} after a stream was finished`),
  PREMATURE_CLOSE: () => makeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'),
  MULTIPLE_CALLBACK: () => makeError(Error, 'ERR_MULTIPLE_CALLBACK', 'Callback called multiple times'),
  NOT_IMPL: (m) => makeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', `The ${m} method is not implemented`),
  MISSING_ARGS: (n) => makeError(TypeError, 'ERR_MISSING_ARGS', `The "${n}" argument must be specified`),
  UNKNOWN_ENCODING: (e) => makeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${e}`),
  INVALID_RETURN: (n, v) => makeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
    `Expected ${n} to be returned from the "${v}" function but got ${'type undefined'}.`),
  ABORT: (cause) => {
    const e = new Error('The operation was aborted');
    e.name = 'AbortError';
    e.code = 'ABORT_ERR';
    if (cause !== undefined) e.cause = cause;
    return e;
  },
};

function getHighWaterMark(options, key, objectMode, isDuplex) {
  let hwm = options[key];
  if (hwm == null && !isDuplex) hwm = options.highWaterMark;
  else if (hwm == null) hwm = options.highWaterMark;
  if (hwm != null) {
    if (!NumberIsInteger(hwm) || hwm < 0) {
      const name = isDuplex ? `options.${key}` : 'options.highWaterMark';
      throw ERR_INVALID_ARG_VALUE(name, hwm);
    }
    return MathFloor(hwm);
  }
  return objectMode ? 16 : 16 * 1024;
}

function isUint8Array(v) { return v instanceof Uint8Array; }

// ---------------------------------------------------------------- Stream (legacy base)

function Stream(opts) {
  FunctionPrototypeCall(EE, this, opts);
}
ObjectSetPrototypeOf(Stream.prototype, EE.prototype);
ObjectSetPrototypeOf(Stream, EE);

Stream.prototype.pipe = function pipe(dest, options) {
  const source = this;
  function ondata(chunk) {
    if (dest.writable && dest.write(chunk) === false && source.pause) source.pause();
  }
  source.on('data', ondata);
  function ondrain() { if (source.readable && source.resume) source.resume(); }
  dest.on('drain', ondrain);
  let didOnEnd = false;
  function onend() { if (didOnEnd) return; didOnEnd = true; dest.end(); }
  function onclose() { if (didOnEnd) return; didOnEnd = true; if (typeof dest.destroy === 'function') dest.destroy(); }
  if (!dest._isStdio && (!options || options.end !== false)) {
    source.on('end', onend);
    source.on('close', onclose);
  }
  function onerror(er) { cleanup(); if (EE.listenerCount(this, 'error') === 0) this.emit('error', er); }
  source.prependListener('error', onerror);
  dest.prependListener('error', onerror);
  function cleanup() {
    source.removeListener('data', ondata);
    dest.removeListener('drain', ondrain);
    source.removeListener('end', onend);
    source.removeListener('close', onclose);
    source.removeListener('error', onerror);
    dest.removeListener('error', onerror);
    source.removeListener('end', cleanup);
    source.removeListener('close', cleanup);
    dest.removeListener('close', cleanup);
  }
  source.on('end', cleanup);
  source.on('close', cleanup);
  dest.on('close', cleanup);
  dest.emit('pipe', source);
  return dest;
};

// ---------------------------------------------------------------- destroy helpers

function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const s = w || r;
  if ((w && w.destroyed) || (r && r.destroyed)) {
    if (typeof cb === 'function') cb();
    return this;
  }
  checkError(err, w, r);
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  if (!s.constructed) {
    this.once('__amber_destroy', (er) => _destroy(this, err || er, cb));
  } else {
    _destroy(this, err, cb);
  }
  return this;
}

function checkError(err, w, r) {
  if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
  }
}

function _destroy(self, err, cb) {
  let called = false;
  function onDestroy(err) {
    if (called) return;
    called = true;
    const r = self._readableState;
    const w = self._writableState;
    checkError(err, w, r);
    if (w) w.closed = true;
    if (r) r.closed = true;
    if (typeof cb === 'function') cb(err);
    if (err) nextTick(emitErrorCloseNT, self, err);
    else nextTick(emitCloseNT, self);
  }
  try {
    self._destroy(err || null, onDestroy);
  } catch (e) {
    onDestroy(e);
  }
}

function emitErrorCloseNT(self, err) {
  emitErrorNT(self, err);
  emitCloseNT(self);
}

function emitCloseNT(self) {
  const r = self._readableState;
  const w = self._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if ((w && w.emitClose) || (r && r.emitClose)) self.emit('close');
}

function emitErrorNT(self, err) {
  const r = self._readableState;
  const w = self._writableState;
  if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  self.emit('error', err);
}

function errorOrDestroy(stream, err, sync) {
  const r = stream._readableState;
  const w = stream._writableState;
  if ((w && w.destroyed) || (r && r.destroyed)) return;
  if ((r && r.autoDestroy) || (w && w.autoDestroy)) {
    stream.destroy(err);
  } else if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
    if (sync) nextTick(emitErrorNT, stream, err);
    else emitErrorNT(stream, err);
  }
}

function construct(stream, cb) {
  if (typeof stream._construct !== 'function') return;
  const r = stream._readableState;
  const w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  stream.once('__amber_construct', cb);
  nextTick(() => {
    let called = false;
    function onConstruct(err) {
      if (called) { errorOrDestroy(stream, err ?? E.MULTIPLE_CALLBACK()); return; }
      called = true;
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      const s = w || r;
      if (s.destroyed) stream.emit('__amber_destroy', err);
      else if (err) errorOrDestroy(stream, err, true);
      else nextTick(() => stream.emit('__amber_construct'));
    }
    try {
      stream._construct((err) => nextTick(onConstruct, err));
    } catch (err) {
      nextTick(onConstruct, err);
    }
  });
}

// ---------------------------------------------------------------- Readable

function ReadableState(options, stream, isDuplex) {
  options = options || {};
  if (typeof isDuplex !== 'boolean') isDuplex = stream instanceof Duplex;
  this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
  this.highWaterMark = getHighWaterMark(options, 'readableHighWaterMark', this.objectMode, isDuplex);
  this.buffer = [];
  this.length = 0;
  this.pipes = [];
  this.flowing = null;
  this.ended = false;
  this.endEmitted = false;
  this.reading = false;
  this.constructed = true;
  this.sync = true;
  this.needReadable = false;
  this.emittedReadable = false;
  this.readableListening = false;
  this.resumeScheduled = false;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.destroyed = false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.awaitDrainWriters = null;
  this.multiAwaitDrain = false;
  this.readingMore = false;
  this.dataEmitted = false;
  this.decoder = null;
  this.encoding = null;
  if (options.encoding) {
    const { StringDecoder } = require('string_decoder');
    this.decoder = new StringDecoder(options.encoding);
    this.encoding = options.encoding;
  }
}

function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof Duplex;
  this._readableState = new ReadableState(options, this, isDuplex);
  if (options) {
    if (typeof options.read === 'function') this._read = options.read;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal && !isDuplex) addAbortSignal(options.signal, this);
  }
  FunctionPrototypeCall(Stream, this, options);
  construct(this, () => {
    if (this._readableState.needReadable) maybeReadMore(this, this._readableState);
  });
}
ObjectSetPrototypeOf(Readable.prototype, Stream.prototype);
ObjectSetPrototypeOf(Readable, Stream);

Readable.prototype.destroy = destroy;
Readable.prototype._undestroy = function () {
  const r = this._readableState;
  r.constructed = true; r.closed = false; r.closeEmitted = false; r.destroyed = false; r.errored = null;
  r.errorEmitted = false; r.reading = false; r.ended = r.readable === false; r.endEmitted = r.readable === false;
};
Readable.prototype._destroy = function (err, cb) { cb(err); };
Readable.prototype[EE.captureRejectionSymbol || Symbol('captureRejection')] = function (err) { this.destroy(err); };

Readable.prototype.push = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, false);
};
Readable.prototype.unshift = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, true);
};

function readableAddChunk(stream, chunk, encoding, addToFront) {
  const state = stream._readableState;
  let err;
  if (!state.objectMode) {
    if (typeof chunk === 'string') {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        if (addToFront && state.encoding) chunk = getBuffer().from(chunk, encoding).toString(state.encoding);
        else { chunk = getBuffer().from(chunk, encoding); encoding = ''; }
      }
    } else if (chunk instanceof getBuffer()) {
      encoding = '';
    } else if (isUint8Array(chunk)) {
      chunk = getBuffer().from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      encoding = '';
    } else if (chunk != null) {
      err = ERR_INVALID_ARG_TYPE('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
    }
  }
  if (err) {
    errorOrDestroy(stream, err);
  } else if (chunk === null) {
    state.reading = false;
    onEofChunk(stream, state);
  } else if (state.objectMode || (chunk && chunk.length > 0)) {
    if (addToFront) {
      if (state.endEmitted) errorOrDestroy(stream, E.UNSHIFT_AFTER_END());
      else if (state.destroyed || state.errored) return false;
      else addChunk(stream, state, chunk, true);
    } else if (state.ended) {
      errorOrDestroy(stream, E.PUSH_AFTER_EOF());
    } else if (state.destroyed || state.errored) {
      return false;
    } else {
      state.reading = false;
      if (state.decoder && !encoding) {
        chunk = state.decoder.write(chunk);
        if (state.objectMode || chunk.length !== 0) addChunk(stream, state, chunk, false);
        else maybeReadMore(stream, state);
      } else {
        addChunk(stream, state, chunk, false);
      }
    }
  } else if (!addToFront) {
    state.reading = false;
    maybeReadMore(stream, state);
  }
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

function addChunk(stream, state, chunk, addToFront) {
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount('data') > 0) {
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
    state.dataEmitted = true;
    stream.emit('data', chunk);
  } else {
    state.length += state.objectMode ? 1 : chunk.length;
    if (addToFront) ArrayPrototypeUnshift(state.buffer, chunk);
    else ArrayPrototypePush(state.buffer, chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
}

Readable.prototype.isPaused = function () {
  const s = this._readableState;
  return s.paused === true || s.flowing === false;
};

Readable.prototype.setEncoding = function (enc) {
  const { StringDecoder } = require('string_decoder');
  const decoder = new StringDecoder(enc);
  const state = this._readableState;
  state.decoder = decoder;
  state.encoding = decoder.encoding;
  let content = '';
  for (const data of state.buffer) content += decoder.write(data);
  state.buffer = [];
  if (content !== '') ArrayPrototypePush(state.buffer, content);
  state.length = content.length;
  return this;
};

function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (NumberIsNaN(n)) {
    if (state.flowing && state.length) return state.objectMode ? 1 : state.buffer[0].length;
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

Readable.prototype.read = function (n) {
  if (n === undefined) n = NaN;
  else if (!NumberIsInteger(n)) n = NumberParseInt(n, 10);
  const state = this._readableState;
  const nOrig = n;
  if (n > state.highWaterMark) {
    let h = n;
    h--; h |= h >>> 1; h |= h >>> 2; h |= h >>> 4; h |= h >>> 8; h |= h >>> 16; h++;
    state.highWaterMark = h;
  }
  if (n !== 0) state.emittedReadable = false;
  if (n === 0 && state.needReadable &&
      ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }
  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }
  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) {
    doRead = false;
  } else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (err) {
      errorOrDestroy(this, err);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(nOrig, state);
  }
  let ret = n > 0 ? fromList(n, state) : null;
  if (ret === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= n;
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (nOrig !== n && state.ended) endReadable(this);
  }
  if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit('data', ret);
  }
  return ret;
};

function fromList(n, state) {
  if (state.length === 0) return null;
  const buf = state.buffer;
  if (state.objectMode) return ArrayPrototypeShift(buf);
  if (!n || n >= state.length) {
    let ret;
    if (state.decoder) ret = ArrayPrototypeJoin(buf, '');
    else if (buf.length === 1) ret = buf[0];
    else ret = getBuffer().concat(buf, state.length);
    state.buffer = [];
    return ret;
  }
  const first = buf[0];
  if (n < first.length) {
    buf[0] = first.slice(n);
    return first.slice(0, n);
  }
  if (n === first.length) return ArrayPrototypeShift(buf);
  if (state.decoder) {
    let ret = '';
    while (ret.length < n) {
      const str = buf[0];
      const take = MathMin(n - ret.length, str.length);
      ret += StringPrototypeSlice(str, 0, take);
      if (take === str.length) ArrayPrototypeShift(buf);
      else buf[0] = StringPrototypeSlice(str, take);
    }
    return ret;
  }
  const ret = getBuffer().allocUnsafe(n);
  let off = 0;
  while (off < n) {
    const data = buf[0];
    const take = MathMin(n - off, data.length);
    ret.set(take === data.length ? data : data.subarray(0, take), off);
    off += take;
    if (take === data.length) ArrayPrototypeShift(buf);
    else buf[0] = data.slice(take);
  }
  return ret;
}

function onEofChunk(stream, state) {
  if (state.ended) return;
  if (state.decoder) {
    const chunk = state.decoder.end();
    if (chunk && chunk.length) {
      ArrayPrototypePush(state.buffer, chunk);
      state.length += state.objectMode ? 1 : chunk.length;
    }
  }
  state.ended = true;
  if (state.sync) {
    emitReadable(stream);
  } else {
    state.needReadable = false;
    state.emittedReadable = true;
    emitReadable_(stream);
  }
}

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadable_, stream);
  }
}

function emitReadable_(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit('readable');
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed) {
    state.readingMore = true;
    nextTick(maybeReadMore_, stream, state);
  }
}

function maybeReadMore_(stream, state) {
  while (!state.reading && !state.ended &&
         (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
    const len = state.length;
    stream.read(0);
    if (len === state.length) break;
  }
  state.readingMore = false;
}

Readable.prototype._read = function () {
  throw E.NOT_IMPL('_read()');
};

Readable.prototype.pipe = function (dest, pipeOpts) {
  const src = this;
  const state = this._readableState;
  if (state.pipes.length === 1 && !state.multiAwaitDrain) {
    state.multiAwaitDrain = true;
    state.awaitDrainWriters = new Set(state.awaitDrainWriters ? [state.awaitDrainWriters] : []);
  }
  ArrayPrototypePush(state.pipes, dest);
  const doEnd = (!pipeOpts || pipeOpts.end !== false) && dest !== process.stdout && dest !== process.stderr;
  const endFn = doEnd ? onend : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else src.once('end', endFn);
  dest.on('unpipe', onunpipe);
  function onunpipe(readable, unpipeInfo) {
    if (readable === src && unpipeInfo && unpipeInfo.hasUnpiped === false) {
      unpipeInfo.hasUnpiped = true;
      cleanup();
    }
  }
  function onend() { dest.end(); }
  let ondrain;
  let cleanedUp = false;
  function cleanup() {
    dest.removeListener('close', onclose);
    dest.removeListener('finish', onfinish);
    if (ondrain) dest.removeListener('drain', ondrain);
    dest.removeListener('error', onerror);
    dest.removeListener('unpipe', onunpipe);
    src.removeListener('end', onend);
    src.removeListener('end', unpipe);
    src.removeListener('data', ondata);
    cleanedUp = true;
    if (ondrain && state.awaitDrainWriters &&
        (!dest._writableState || dest._writableState.needDrain)) ondrain();
  }
  function pause() {
    if (!cleanedUp) {
      if (state.pipes.length === 1 && state.pipes[0] === dest) {
        state.awaitDrainWriters = dest;
        state.multiAwaitDrain = false;
      } else if (state.pipes.length > 1 && ArrayPrototypeIncludes(state.pipes, dest)) {
        state.awaitDrainWriters.add(dest);
      }
      src.pause();
    }
    if (!ondrain) {
      ondrain = pipeOnDrain(src, dest);
      dest.on('drain', ondrain);
    }
  }
  src.on('data', ondata);
  function ondata(chunk) {
    const ret = dest.write(chunk);
    if (ret === false) pause();
  }
  function onerror(er) {
    unpipe();
    dest.removeListener('error', onerror);
    if (dest.listenerCount('error') === 0) {
      const s = dest._writableState || dest._readableState;
      if (s && !s.errorEmitted) errorOrDestroy(dest, er);
      else dest.emit('error', er);
    }
  }
  dest.prependListener('error', onerror);
  function onclose() {
    dest.removeListener('finish', onfinish);
    unpipe();
  }
  dest.once('close', onclose);
  function onfinish() {
    dest.removeListener('close', onclose);
    unpipe();
  }
  dest.once('finish', onfinish);
  function unpipe() { src.unpipe(dest); }
  dest.emit('pipe', src);
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) src.resume();
  return dest;
};

function pipeOnDrain(src, dest) {
  return function () {
    const state = src._readableState;
    if (state.awaitDrainWriters === dest) state.awaitDrainWriters = null;
    else if (state.multiAwaitDrain) state.awaitDrainWriters.delete(dest);
    if ((!state.awaitDrainWriters || state.awaitDrainWriters.size === 0) && src.listenerCount('data')) {
      src.resume();
    }
  };
}

Readable.prototype.unpipe = function (dest) {
  const state = this._readableState;
  const unpipeInfo = { hasUnpiped: false };
  if (state.pipes.length === 0) return this;
  if (!dest) {
    const dests = state.pipes;
    state.pipes = [];
    this.pause();
    for (const d of dests) d.emit('unpipe', this, { hasUnpiped: false });
    return this;
  }
  const index = ArrayPrototypeIndexOf(state.pipes, dest);
  if (index === -1) return this;
  ArrayPrototypeSplice(state.pipes, index, 1);
  if (state.pipes.length === 0) this.pause();
  dest.emit('unpipe', this, unpipeInfo);
  return this;
};

Readable.prototype.on = function (ev, fn) {
  const res = FunctionPrototypeCall(Stream.prototype.on, this, ev, fn);
  const state = this._readableState;
  if (ev === 'data') {
    state.readableListening = this.listenerCount('readable') > 0;
    if (state.flowing !== false) this.resume();
  } else if (ev === 'readable') {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) nextTick(nReadingNextTick, this);
    }
  }
  return res;
};
Readable.prototype.addListener = Readable.prototype.on;

Readable.prototype.removeListener = function (ev, fn) {
  const res = FunctionPrototypeCall(Stream.prototype.removeListener, this, ev, fn);
  if (ev === 'readable') nextTick(updateReadableListening, this);
  return res;
};
Readable.prototype.off = Readable.prototype.removeListener;

Readable.prototype.removeAllListeners = function (ev) {
  const res = ReflectApply(Stream.prototype.removeAllListeners, this, arguments);
  if (ev === 'readable' || ev === undefined) nextTick(updateReadableListening, this);
  return res;
};

function updateReadableListening(self) {
  const state = self._readableState;
  state.readableListening = self.listenerCount('readable') > 0;
  if (state.resumeScheduled && state.paused === false) state.flowing = true;
  else if (self.listenerCount('data') > 0) self.resume();
  else if (!state.readableListening) state.flowing = null;
}

function nReadingNextTick(self) {
  self.read(0);
}

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      nextTick(resume_, this, state);
    }
  }
  state.paused = false;
  return this;
};

function resume_(stream, state) {
  if (!state.reading) stream.read(0);
  state.resumeScheduled = false;
  stream.emit('resume');
  flow(stream);
  if (state.flowing && !state.reading) stream.read(0);
}

Readable.prototype.pause = function () {
  const state = this._readableState;
  if (state.flowing !== false) {
    state.flowing = false;
    this.emit('pause');
  }
  state.paused = true;
  return this;
};

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

Readable.prototype.wrap = function (stream) {
  let paused = false;
  stream.on('data', (chunk) => {
    if (!this.push(chunk) && stream.pause) {
      paused = true;
      stream.pause();
    }
  });
  stream.on('end', () => this.push(null));
  stream.on('error', (err) => errorOrDestroy(this, err));
  stream.on('close', () => this.destroy());
  stream.on('destroy', () => this.destroy());
  this._read = () => {
    if (paused && stream.resume) {
      paused = false;
      stream.resume();
    }
  };
  return this;
};

Readable.prototype[SymbolAsyncIterator] = function () {
  return createAsyncIterator(this);
};

Readable.prototype.iterator = function (options) {
  return createAsyncIterator(this, options);
};

async function* createAsyncIterator(stream, options) {
  let callback = nop;
  function next(resolve) {
    if (this === stream) {
      callback();
      callback = nop;
    } else {
      callback = resolve;
    }
  }
  stream.on('readable', next);
  let error;
  const cleanup = eos(stream, { writable: false }, (err) => {
    error = err ? (error || err) : null;
    callback();
    callback = nop;
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise(next);
    }
  } catch (err) {
    error = error || err;
    throw error;
  } finally {
    if ((error || (options && options.destroyOnReturn) !== false) &&
        (error === undefined || stream._readableState.autoDestroy)) {
      destroyer(stream, null);
    } else {
      stream.off('readable', next);
      cleanup();
    }
  }
}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(endReadableNT, state, stream);
  }
}

function endReadableNT(state, stream) {
  if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
    state.endEmitted = true;
    stream.emit('end');
    if (stream.writable && stream.allowHalfOpen === false) {
      nextTick(endWritableNT, stream);
    } else if (state.autoDestroy) {
      const w = stream._writableState;
      const autoDestroy = !w || (w.autoDestroy && (w.finished || w.writable === false));
      if (autoDestroy) stream.destroy();
    }
  }
}

function endWritableNT(stream) {
  const writable = stream.writable && !stream.writableEnded && !stream.destroyed;
  if (writable) stream.end();
}

const readableProps = {
  readable: {
    get() {
      const r = this._readableState;
      return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
    },
    set(val) {
      if (this._readableState) this._readableState.readable = !!val;
    },
  },
  readableDidRead: { get() { return this._readableState.dataEmitted; } },
  readableAborted: {
    get() {
      const r = this._readableState;
      return !!(r.readable !== false && (r.destroyed || r.errored) && !r.endEmitted);
    },
  },
  readableHighWaterMark: { get() { return this._readableState.highWaterMark; } },
  readableBuffer: { get() { return this._readableState && this._readableState.buffer; } },
  readableFlowing: {
    get() { return this._readableState.flowing; },
    set(v) { if (this._readableState) this._readableState.flowing = v; },
  },
  readableLength: { get() { return this._readableState.length; } },
  readableObjectMode: { get() { return this._readableState ? this._readableState.objectMode : false; } },
  readableEncoding: { get() { return this._readableState ? this._readableState.encoding : null; } },
  errored: { get() { return this._readableState ? this._readableState.errored : null; } },
  closed: { get() { return this._readableState ? this._readableState.closed : false; } },
  destroyed: {
    get() { return this._readableState ? this._readableState.destroyed : false; },
    set(v) { if (this._readableState) this._readableState.destroyed = v; },
  },
  readableEnded: { get() { return this._readableState ? this._readableState.endEmitted : false; } },
};
ObjectDefineProperties(Readable.prototype, readableProps);

Readable.from = function (iterable, opts) {
  return from(Readable, iterable, opts);
};

function from(Ctor, iterable, opts) {
  let iterator;
  if (typeof iterable === 'string' || iterable instanceof getBuffer()) {
    return new Ctor({
      objectMode: true,
      ...opts,
      read() {
        this.push(iterable);
        this.push(null);
      },
    });
  }
  let isAsync;
  if (iterable && typeof iterable[SymbolAsyncIterator] === 'function') {
    isAsync = true;
    iterator = iterable[SymbolAsyncIterator]();
  } else if (iterable && typeof iterable[SymbolIterator] === 'function') {
    isAsync = false;
    iterator = iterable[SymbolIterator]();
  } else {
    throw ERR_INVALID_ARG_TYPE('iterable', ['Iterable'], iterable);
  }
  const readable = new Ctor({ objectMode: true, highWaterMark: 1, ...opts });
  let reading = false;
  readable._read = function () {
    if (!reading) {
      reading = true;
      next();
    }
  };
  readable._destroy = function (error, cb) {
    close(error).then(() => nextTick(cb, error), (e) => nextTick(cb, e || error));
  };
  async function close(error) {
    const hadError = error !== undefined && error !== null;
    const hasThrow = typeof iterator.throw === 'function';
    if (hadError && hasThrow) {
      const { value, done } = await iterator.throw(error);
      await value;
      if (done) return;
    }
    if (typeof iterator.return === 'function') {
      const { value } = await iterator.return();
      await value;
    }
  }
  async function next() {
    for (;;) {
      try {
        const { value, done } = isAsync ? await iterator.next() : iterator.next();
        if (done) {
          readable.push(null);
        } else {
          const res = value && typeof value.then === 'function' ? await value : value;
          if (res === null) {
            reading = false;
            throw E.NULL_VALUES();
          } else if (readable.push(res)) {
            continue;
          } else {
            reading = false;
          }
        }
      } catch (err) {
        readable.destroy(err);
      }
      break;
    }
  }
  return readable;
}

// ---------------------------------------------------------------- Writable

function WritableState(options, stream, isDuplex) {
  options = options || {};
  if (typeof isDuplex !== 'boolean') isDuplex = stream instanceof Duplex;
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
  const isDuplex = this instanceof Duplex;
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

// ---------------------------------------------------------------- Duplex

function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  this._readableState = new ReadableState(options, this, true);
  this._writableState = new WritableState(options, this, true);
  if (options) {
    this.allowHalfOpen = options.allowHalfOpen !== false;
    if (options.readable === false) {
      this._readableState.readable = false;
      this._readableState.ended = true;
      this._readableState.endEmitted = true;
    }
    if (options.writable === false) {
      this._writableState.writable = false;
      this._writableState.ending = true;
      this._writableState.ended = true;
      this._writableState.finished = true;
    }
    if (typeof options.read === 'function') this._read = options.read;
    if (typeof options.write === 'function') this._write = options.write;
    if (typeof options.writev === 'function') this._writev = options.writev;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.final === 'function') this._final = options.final;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal) addAbortSignal(options.signal, this);
  } else {
    this.allowHalfOpen = true;
  }
  FunctionPrototypeCall(Stream, this, options);
  construct(this, () => {
    const r = this._readableState;
    const w = this._writableState;
    if (r.needReadable) maybeReadMore(this, r);
    if (!w.writing) clearBuffer(this, w);
    finishMaybe(this, w);
  });
}
ObjectSetPrototypeOf(Duplex.prototype, Readable.prototype);
ObjectSetPrototypeOf(Duplex, Readable);
for (const method of ObjectKeys(Writable.prototype)) {
  if (!Duplex.prototype[method]) Duplex.prototype[method] = Writable.prototype[method];
}
for (const m of ['write', 'cork', 'uncork', 'setDefaultEncoding', 'end', '_write']) {
  Duplex.prototype[m] = Writable.prototype[m];
}
Duplex.prototype._writev = null;
{
  const props = {};
  for (const k of ObjectKeys(writableProps)) {
    if (k !== 'destroyed' && k !== 'errored' && k !== 'closed') props[k] = writableProps[k];
  }
  props.destroyed = {
    get() {
      if (this._readableState === undefined || this._writableState === undefined) return false;
      return this._readableState.destroyed && this._writableState.destroyed;
    },
    set(v) {
      if (this._readableState && this._writableState) {
        this._readableState.destroyed = v;
        this._writableState.destroyed = v;
      }
    },
  };
  ObjectDefineProperties(Duplex.prototype, props);
}
Duplex.prototype.destroy = Writable.prototype.destroy;
Duplex.from = function (body) {
  if (body instanceof Duplex) return body;
  if (isReadableNodeStream(body)) return body;
  return from(Duplex, body, { objectMode: true, writable: false });
};

// ---------------------------------------------------------------- Transform / PassThrough

const kCallback = Symbol('kCallback');

function Transform(options) {
  if (!(this instanceof Transform)) return new Transform(options);
  const rHwm = options ? getHighWaterMark(options, 'readableHighWaterMark', !!(options.objectMode || options.readableObjectMode), true) : null;
  if (rHwm === 0) {
    options = {
      ...options,
      highWaterMark: null,
      readableHighWaterMark: rHwm,
      writableHighWaterMark: options.writableHighWaterMark || 0,
    };
  }
  FunctionPrototypeCall(Duplex, this, options);
  this._readableState.sync = false;
  this[kCallback] = null;
  if (options) {
    if (typeof options.transform === 'function') this._transform = options.transform;
    if (typeof options.flush === 'function') this._flush = options.flush;
  }
  this.on('prefinish', transformPrefinish);
}
ObjectSetPrototypeOf(Transform.prototype, Duplex.prototype);
ObjectSetPrototypeOf(Transform, Duplex);

function transformFinal(cb) {
  if (typeof this._flush === 'function' && !this.destroyed) {
    this._flush((er, data) => {
      if (er) {
        if (cb) cb(er);
        else this.destroy(er);
        return;
      }
      if (data != null) this.push(data);
      this.push(null);
      if (cb) cb();
    });
  } else {
    this.push(null);
    if (cb) cb();
  }
}

function transformPrefinish() {
  if (this._final !== transformFinal) FunctionPrototypeCall(transformFinal, this);
}

Transform.prototype._final = transformFinal;

Transform.prototype._transform = function () {
  throw E.NOT_IMPL('_transform()');
};

Transform.prototype._write = function (chunk, encoding, callback) {
  const rState = this._readableState;
  const wState = this._writableState;
  const length = rState.length;
  this._transform(chunk, encoding, (err, val) => {
    if (err) {
      callback(err);
      return;
    }
    if (val != null) this.push(val);
    if (wState.ended || length === rState.length || rState.length < rState.highWaterMark) {
      callback();
    } else {
      this[kCallback] = callback;
    }
  });
};

Transform.prototype._read = function () {
  if (this[kCallback]) {
    const callback = this[kCallback];
    this[kCallback] = null;
    callback();
  }
};

function PassThrough(options) {
  if (!(this instanceof PassThrough)) return new PassThrough(options);
  FunctionPrototypeCall(Transform, this, options);
}
ObjectSetPrototypeOf(PassThrough.prototype, Transform.prototype);
ObjectSetPrototypeOf(PassThrough, Transform);
PassThrough.prototype._transform = function (chunk, encoding, cb) {
  cb(null, chunk);
};

// ---------------------------------------------------------------- utilities

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

// ---------------------------------------------------------------- pipeline

function popCallback(streams) {
  const cb = streams[streams.length - 1];
  if (typeof cb !== 'function') throw ERR_INVALID_ARG_TYPE('streams[stream.length - 1]', 'Function', cb);
  return ArrayPrototypePop(streams);
}

function pipeline(...streams) {
  return pipelineImpl(streams, popCallback(streams));
}

function makeAsyncIterable(val) {
  if (isIterable(val)) return val;
  if (isReadableNodeStream(val)) return fromReadable(val);
  throw ERR_INVALID_ARG_TYPE('val', ['Readable', 'Iterable', 'AsyncIterable'], val);
}

async function* fromReadable(val) {
  yield* FunctionPrototypeCall(Readable.prototype[SymbolAsyncIterator], val);
}

async function pumpToNode(iterable, writable, finish, opts) {
  let error;
  let onresolve = null;
  const resume = (err) => {
    if (err) error = err;
    if (onresolve) {
      const cb = onresolve;
      onresolve = null;
      cb();
    }
  };
  const wait = () => new Promise((resolve, reject) => {
    if (error) reject(error);
    else onresolve = () => { if (error) reject(error); else resolve(); };
  });
  writable.on('drain', resume);
  const cleanup = eos(writable, { readable: false }, resume);
  try {
    if (writable.writableNeedDrain) await wait();
    for await (const chunk of iterable) {
      if (!writable.write(chunk)) await wait();
    }
    if (opts.end) writable.end();
    await wait();
    finish();
  } catch (err) {
    finish(error !== err ? (error || err) : err);
  } finally {
    cleanup();
    writable.off('drain', resume);
  }
}

function pipelineImpl(streams, callback, opts) {
  if (streams.length === 1 && ArrayIsArray(streams[0])) streams = streams[0];
  if (streams.length < 2) throw E.MISSING_ARGS('streams');
  const outerSignal = opts && opts.signal;
  const lastStreamCleanup = [];
  function abort() { finishImpl(E.ABORT(outerSignal && outerSignal.reason)); }
  if (outerSignal) {
    if (outerSignal.aborted) nextTick(abort);
    else outerSignal.addEventListener('abort', abort);
  }
  let error;
  let value;
  const destroys = [];
  let finishCount = 0;
  function finish(err) { finishImpl(err, --finishCount === 0); }
  function finishImpl(err, final) {
    if (err && (!error || error.code === 'ERR_STREAM_PREMATURE_CLOSE')) error = err;
    if (!error && !final) return;
    while (destroys.length) ArrayPrototypeShift(destroys)(error);
    if (outerSignal) outerSignal.removeEventListener('abort', abort);
    if (final) {
      if (!error) ArrayPrototypeForEach(lastStreamCleanup, (fn) => fn());
      nextTick(callback, error, value);
    }
  }
  let ret;
  for (let i = 0; i < streams.length; i++) {
    const stream = streams[i];
    const reading = i < streams.length - 1;
    const writing = i > 0;
    const end = reading || !opts || opts.end !== false;
    const isLastStream = i === streams.length - 1;
    if (isNodeStream(stream)) {
      let finished = false;
      stream.on('close', () => { finished = true; });
      eos(stream, { readable: reading, writable: writing }, (err) => { finished = !err; });
      ArrayPrototypePush(destroys, (err) => {
        if (finished) return;
        finished = true;
        destroyer(stream, err || E.DESTROYED('pipe'));
      });
      const onError = (err) => {
        if (err && err.name !== 'AbortError' && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') finish(err);
      };
      stream.on('error', onError);
      if (isLastStream) ArrayPrototypePush(lastStreamCleanup, () => stream.removeListener('error', onError));
    }
    if (i === 0) {
      if (typeof stream === 'function') {
        ret = stream({ signal: undefined });
        if (!isIterable(ret)) throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE', 'Expected Iterable, AsyncIterable or Stream to be returned from the "source" function.');
      } else if (isIterable(stream) || isReadableNodeStream(stream)) {
        ret = stream;
      } else {
        ret = Duplex.from(stream);
      }
    } else if (typeof stream === 'function') {
      ret = makeAsyncIterable(ret);
      ret = stream(ret, { signal: undefined });
      if (reading) {
        if (!isIterable(ret, true)) throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE', 'Expected AsyncIterable to be returned from the "transform" function.');
      } else {
        const pt = new PassThrough({ objectMode: true });
        const then = ret && ret.then;
        if (typeof then === 'function') {
          finishCount++;
          FunctionPrototypeCall(then, ret, (val) => {
            value = val;
            if (val != null) pt.write(val);
            if (end) pt.end();
            nextTick(finish);
          }, (err) => {
            pt.destroy(err);
            nextTick(finish, err);
          });
        } else if (isIterable(ret, true)) {
          finishCount++;
          pumpToNode(ret, pt, finish, { end });
        } else {
          throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE', 'Expected AsyncIterable or Promise to be returned from the "destination" function.');
        }
        ret = pt;
        let finished = false;
        pt.on('close', () => { finished = true; });
        eos(pt, { readable: false, writable: true }, (err) => { finished = !err; });
        ArrayPrototypePush(destroys, (err) => { if (!finished) { finished = true; destroyer(pt, err || E.DESTROYED('pipe')); } });
      }
    } else if (isNodeStream(stream)) {
      if (isReadableNodeStream(ret)) {
        finishCount += 2;
        const cleanup = pipe(ret, stream, finish, { end });
        if (isReadable(stream) && isLastStream) ArrayPrototypePush(lastStreamCleanup, cleanup);
      } else if (isIterable(ret)) {
        finishCount++;
        pumpToNode(ret, stream, finish, { end });
      } else {
        throw ERR_INVALID_ARG_TYPE('val', ['Readable', 'Iterable', 'AsyncIterable'], ret);
      }
      ret = stream;
    } else {
      ret = Duplex.from(stream);
    }
  }
  return ret;
}

function pipe(src, dst, finish, { end }) {
  let ended = false;
  dst.on('close', () => {
    if (!ended) finish(E.PREMATURE_CLOSE());
  });
  src.pipe(dst, { end: false });
  if (end) {
    function endFn() {
      ended = true;
      dst.end();
    }
    if (isReadableFinished(src)) nextTick(endFn);
    else src.once('end', endFn);
    eos(src, { readable: true, writable: false }, (err) => {
      const rState = src._readableState;
      if (err && err.code === 'ERR_STREAM_PREMATURE_CLOSE' && rState && rState.ended && !rState.errored && !rState.errorEmitted) {
        src.once('end', finish).once('error', finish);
      } else {
        finish(err);
      }
    });
  } else {
    finish();
  }
  return eos(dst, { readable: false, writable: true }, finish);
}

function compose() {
  throw makeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The compose method is not implemented');
}

// ---------------------------------------------------------------- exports

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
