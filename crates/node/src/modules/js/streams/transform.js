'use strict';
// Transform and PassThrough: Duplexes whose readable side is what _transform / _flush push.
const {
  FunctionPrototypeCall, ObjectSetPrototypeOf, Symbol,
} = primordials;

const { E, getHighWaterMark } = require('node:internal/streams/common');
const { Duplex } = require('node:internal/streams/duplex');

// ---- Transform / PassThrough

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

module.exports = {
  PassThrough, Transform,
};
