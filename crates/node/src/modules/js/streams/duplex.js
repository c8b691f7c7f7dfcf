'use strict';
// Duplex: a Readable that also has Writable's methods and state, and Duplex.from.
const {
  FunctionPrototypeCall, ObjectDefineProperties, ObjectKeys, ObjectSetPrototypeOf,
} = primordials;

const { Stream } = require('node:internal/streams/legacy');
const { construct } = require('node:internal/streams/destroy');
const { addAbortSignal, isReadableNodeStream } = require('node:internal/streams/end_of_stream');
const { Readable, ReadableState, from, maybeReadMore } = require('node:internal/streams/readable');
const {
  Writable,
  WritableState,
  clearBuffer,
  finishMaybe,
  writableProps,
} = require('node:internal/streams/writable');

// ---- Duplex

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

module.exports = {
  Duplex,
};
