'use strict';
// What every part of node:stream shares: the stream error constructors (E), the high-water-mark
// option, deferral with process.nextTick, and Buffer (required on first use: buffer requires
// modules that require stream).
const {
  Error, MathFloor, NumberIsInteger, TypeError, Uint8Array,
} = primordials;

const { makeError, ERR_INVALID_ARG_VALUE } = require('node:internal/errors');

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

module.exports = {
  E, getBuffer, getHighWaterMark, isUint8Array, nextTick, nop,
};
