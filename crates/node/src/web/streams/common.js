'use strict';
// WHATWG Streams (https://streams.spec.whatwg.org/) as Node 20 ships them
// (lib/internal/webstreams): this file holds what the readable, writable and transform
// halves share — internal slots, promise helpers, queue-with-sizes, the queuing strategies
// and Node's error shapes. The builtin `internal/webstreams` is the concatenation of
// common.js, readable.js, readable_bytes.js, pipe.js, writable.js, transform.js,
// compression.js and text.js, in that order; `node:stream/web` re-exports it.
//
// Internal slots live in one record per object under the non-enumerable symbol `kState`
// (so user code and util.inspect never see them, and the record rides an image as plain
// heap data). Algorithm names follow the spec's, in camelCase. The primordials below serve
// every part of the concatenation.
const {
  ArrayBufferIsView, ArrayBufferPrototypeGetByteLength, ArrayBufferPrototypeGetDetached,
  ArrayBufferPrototypeSlice, ArrayBufferPrototypeTransfer, ArrayPrototypeMap, ArrayPrototypePush,
  ArrayPrototypeShift, MathMin, NumberIsFinite, NumberIsInteger, NumberIsNaN, ObjectCreate,
  ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf,
  ObjectPrototypeHasOwnProperty, ObjectPrototypeToString, Promise, PromisePrototypeThen,
  ReflectApply, StringPrototypeCharCodeAt, StringPrototypeSlice, SymbolAsyncIterator, SymbolFor,
  SymbolIterator, SymbolToStringTag, TypedArrayPrototypeGetSymbolToStringTag,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { inspect } = require('node:util');

const kState = Symbol('kState');
const kInspect = SymbolFor('nodejs.util.inspect.custom');

// The constructor the promise helpers below use (a primordial: see the block above).
const PromiseCtor = Promise;

function setSlots(object, record) {
  ObjectDefineProperty(object, kState, { value: record, writable: false, enumerable: false, configurable: false });
  return object;
}

function slotsOf(object) {
  return object !== null && (typeof object === 'object' || typeof object === 'function') &&
    ObjectPrototypeHasOwnProperty(object, kState) ? object[kState] : undefined;
}

function hasBrand(object, brand) {
  const s = slotsOf(object);
  return s !== undefined && s.brand === brand;
}

function invalidThis(type) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type}`);
}

function invalidState(message) {
  return makeError(TypeError, 'ERR_INVALID_STATE', `Invalid state: ${message}`);
}

function invalidArgValue(Base, name, value, kind = 'property') {
  let shown = inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  return makeError(Base, 'ERR_INVALID_ARG_VALUE', `The ${kind} '${name}' is invalid. Received ${shown}`);
}

function customInspect(self, name, fields, depth, options) {
  if (depth < 0) return self;
  const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
  return `${name} ${inspect(fields, opts)}`;
}

// ---- promises

// A promise with its resolving functions; `settled` stands in for the spec's
// [[PromiseState]] checks ("if writer.[[readyPromise]] is pending").
function newPromiseCapability() {
  const cap = { promise: undefined, resolve: undefined, reject: undefined, settled: false };
  cap.promise = new PromiseCtor((res, rej) => {
    cap.resolve = (v) => { cap.settled = true; res(v); };
    cap.reject = (e) => { cap.settled = true; rej(e); };
  });
  return cap;
}

function promiseResolvedWith(value) {
  return new PromiseCtor((resolve) => resolve(value));
}

function promiseRejectedWith(reason) {
  return new PromiseCtor((_, reject) => reject(reason));
}

function uponPromise(promise, onFulfilled, onRejected) {
  return PromisePrototypeThen(promise, onFulfilled, onRejected);
}

function setPromiseIsHandled(promise) {
  PromisePrototypeThen(promise, undefined, () => {});
}

// A user callback's result as a promise; a synchronous throw becomes a rejection.
function promiseCall(fn, thisArg, args) {
  try {
    return promiseResolvedWith(ReflectApply(fn, thisArg, args));
  } catch (e) {
    return promiseRejectedWith(e);
  }
}

const noopPromise = () => promiseResolvedWith(undefined);

// ---- dictionaries and callbacks

function getMethod(dict, name, ownerName) {
  const fn = dict === undefined || dict === null ? undefined : dict[name];
  if (fn === undefined || fn === null) return undefined;
  if (typeof fn !== 'function') throw ERR_INVALID_ARG_TYPE(`${ownerName}.${name}`, 'Function', fn);
  return fn;
}

function validateDictionary(value, name) {
  if (value !== undefined && value !== null && typeof value !== 'object' && typeof value !== 'function') {
    throw ERR_INVALID_ARG_TYPE(name, 'object', value);
  }
}

// ---- queuing strategies (§7)

function extractHighWaterMark(strategy, defaultHWM) {
  const hwm = strategy === undefined || strategy === null ? undefined : strategy.highWaterMark;
  if (hwm === undefined) return defaultHWM;
  const n = Number(hwm);
  if (NumberIsNaN(n) || n < 0) throw invalidArgValue(RangeError, 'strategy.highWaterMark', hwm);
  return n;
}

function extractSizeAlgorithm(strategy) {
  const size = strategy === undefined || strategy === null ? undefined : strategy.size;
  if (size === undefined) return () => 1;
  if (typeof size !== 'function') throw ERR_INVALID_ARG_TYPE('strategy.size', 'Function', size);
  return (chunk) => size(chunk);
}

function strategyInit(init, className) {
  if (init === null || typeof init !== 'object') throw ERR_INVALID_ARG_TYPE('init', 'object', init);
  if (init.highWaterMark === undefined) {
    throw makeError(TypeError, 'ERR_MISSING_OPTION', 'init.highWaterMark is required');
  }
  return Number(init.highWaterMark);
}

// The size functions are shared by every instance and named `size`, as the spec requires.
const byteLengthSize = { size(chunk) { return chunk.byteLength; } }.size;
const countSize = { size() { return 1; } }.size;

class ByteLengthQueuingStrategy {
  constructor(init) {
    setSlots(this, { brand: 'ByteLengthQueuingStrategy', highWaterMark: strategyInit(init) });
  }
  get highWaterMark() {
    if (!hasBrand(this, 'ByteLengthQueuingStrategy')) throw invalidThis('ByteLengthQueuingStrategy');
    return this[kState].highWaterMark;
  }
  get size() {
    if (!hasBrand(this, 'ByteLengthQueuingStrategy')) throw invalidThis('ByteLengthQueuingStrategy');
    return byteLengthSize;
  }
  [kInspect](depth, options) {
    return customInspect(this, 'ByteLengthQueuingStrategy', { highWaterMark: this.highWaterMark }, depth, options);
  }
}

class CountQueuingStrategy {
  constructor(init) {
    setSlots(this, { brand: 'CountQueuingStrategy', highWaterMark: strategyInit(init) });
  }
  get highWaterMark() {
    if (!hasBrand(this, 'CountQueuingStrategy')) throw invalidThis('CountQueuingStrategy');
    return this[kState].highWaterMark;
  }
  get size() {
    if (!hasBrand(this, 'CountQueuingStrategy')) throw invalidThis('CountQueuingStrategy');
    return countSize;
  }
  [kInspect](depth, options) {
    return customInspect(this, 'CountQueuingStrategy', { highWaterMark: this.highWaterMark }, depth, options);
  }
}

// ---- queue-with-sizes (§8.1): `container.queue` of { value, size }, `container.queueTotalSize`

function isNonNegativeNumber(v) {
  return typeof v === 'number' && !NumberIsNaN(v) && v >= 0;
}

function enqueueValueWithSize(container, value, size) {
  if (!isNonNegativeNumber(size) || size === Infinity) {
    throw invalidArgValue(RangeError, 'size', size, 'argument');
  }
  ArrayPrototypePush(container.queue, { value, size });
  container.queueTotalSize += size;
}

function dequeueValue(container) {
  const pair = ArrayPrototypeShift(container.queue);
  container.queueTotalSize -= pair.size;
  if (container.queueTotalSize < 0) container.queueTotalSize = 0;
  return pair.value;
}

function peekQueueValue(container) {
  return container.queue[0].value;
}

function resetQueue(container) {
  container.queue = [];
  container.queueTotalSize = 0;
}

// ---- ArrayBuffers

function isDetached(buffer) {
  return ArrayBufferPrototypeGetDetached(buffer);
}

function transferArrayBuffer(buffer) {
  return ArrayBufferPrototypeTransfer(buffer);
}

function arrayBufferByteLength(buffer) {
  return ArrayBufferPrototypeGetByteLength(buffer);
}

function cloneArrayBuffer(buffer, offset, length) {
  return ArrayBufferPrototypeSlice(buffer, offset, offset + length);
}

function isArrayBuffer(v) {
  return ObjectPrototypeToString(v) === '[object ArrayBuffer]';
}

function typedArrayName(view) {
  return TypedArrayPrototypeGetSymbolToStringTag(view);
}
