// ---- ReadableStream (§4): the stream, its default controller and its readers.
// The byte controller and the BYOB reader are in readable_bytes.js; pipeTo/tee in pipe.js.

class ReadableStream {
  constructor(underlyingSource = undefined, strategy = undefined) {
    if (underlyingSource !== undefined && underlyingSource !== null && typeof underlyingSource !== 'object') {
      throw ERR_INVALID_ARG_TYPE('source', 'object', underlyingSource);
    }
    validateDictionary(strategy, 'strategy');
    initializeReadableStream(this);
    const source = underlyingSource ?? {};
    const type = source.type;
    if (type !== undefined && `${type}` === 'bytes') {
      if (strategy != null && strategy.size !== undefined) {
        throw invalidArgValue(RangeError, 'strategy.size', strategy.size);
      }
      const hwm = extractHighWaterMark(strategy, 0);
      setUpReadableByteStreamControllerFromUnderlyingSource(this, source, hwm);
    } else {
      if (type !== undefined) throw invalidArgValue(TypeError, 'source.type', type);
      const sizeAlgorithm = extractSizeAlgorithm(strategy);
      const hwm = extractHighWaterMark(strategy, 1);
      setUpReadableStreamDefaultControllerFromUnderlyingSource(this, source, hwm, sizeAlgorithm);
    }
  }

  get locked() {
    if (!isReadableStream(this)) throw invalidThis('ReadableStream');
    return isReadableStreamLocked(this);
  }

  cancel(reason = undefined) {
    if (!isReadableStream(this)) return promiseRejectedWith(invalidThis('ReadableStream'));
    if (isReadableStreamLocked(this)) return promiseRejectedWith(invalidState('ReadableStream is locked'));
    return readableStreamCancel(this, reason);
  }

  getReader(options = undefined) {
    if (!isReadableStream(this)) throw invalidThis('ReadableStream');
    validateDictionary(options, 'options');
    const mode = options?.mode;
    if (mode === undefined) return new ReadableStreamDefaultReader(this);
    if (`${mode}` !== 'byob') throw invalidArgValue(TypeError, 'options.mode', mode);
    return new ReadableStreamBYOBReader(this);
  }

  pipeThrough(transform, options = {}) {
    if (!isReadableStream(this)) throw invalidThis('ReadableStream');
    const readable = transform?.readable;
    if (!isReadableStream(readable)) {
      throw ERR_INVALID_ARG_TYPE('transform.readable', 'ReadableStream', readable);
    }
    const writable = transform?.writable;
    if (!isWritableStream(writable)) {
      throw ERR_INVALID_ARG_TYPE('transform.writable', 'WritableStream', writable);
    }
    const { preventClose, preventAbort, preventCancel, signal } = pipeOptions(options);
    if (isReadableStreamLocked(this)) throw invalidState('The ReadableStream is locked');
    if (isWritableStreamLocked(writable)) throw invalidState('The WritableStream is locked');
    const promise = readableStreamPipeTo(this, writable, preventClose, preventAbort, preventCancel, signal);
    setPromiseIsHandled(promise);
    return readable;
  }

  pipeTo(destination, options = {}) {
    try {
      if (!isReadableStream(this)) throw invalidThis('ReadableStream');
      if (!isWritableStream(destination)) {
        throw ERR_INVALID_ARG_TYPE('transform.writable', 'WritableStream', destination);
      }
      const { preventClose, preventAbort, preventCancel, signal } = pipeOptions(options);
      if (isReadableStreamLocked(this)) throw invalidState('The ReadableStream is locked');
      if (isWritableStreamLocked(destination)) throw invalidState('The WritableStream is locked');
      return readableStreamPipeTo(this, destination, preventClose, preventAbort, preventCancel, signal);
    } catch (e) {
      return promiseRejectedWith(e);
    }
  }

  tee() {
    if (!isReadableStream(this)) throw invalidThis('ReadableStream');
    return readableStreamTee(this, false);
  }

  values(options = undefined) {
    if (!isReadableStream(this)) throw invalidThis('ReadableStream');
    validateDictionary(options, 'options');
    const preventCancel = !!options?.preventCancel;
    const reader = acquireReadableStreamDefaultReader(this);
    return createAsyncIterator(reader, preventCancel);
  }

  static from(asyncIterable) {
    return readableStreamFromIterable(asyncIterable);
  }

  [kInspect](depth, options) {
    const s = this[kState];
    return customInspect(this, 'ReadableStream', {
      locked: this.locked,
      state: s.state,
      supportsBYOB: isReadableByteStreamController(s.controller),
    }, depth, options);
  }
}
ObjectDefineProperty(ReadableStream.prototype, SymbolAsyncIterator, {
  value: ReadableStream.prototype.values, writable: true, enumerable: false, configurable: true,
});
ObjectDefineProperty(ReadableStream.prototype, SymbolToStringTag, { value: 'ReadableStream', configurable: true });

function pipeOptions(options) {
  validateDictionary(options, 'options');
  const signal = options?.signal;
  if (signal !== undefined && !(signal instanceof AbortSignalCtor())) {
    throw ERR_INVALID_ARG_TYPE('options.signal', 'AbortSignal', signal);
  }
  return {
    preventClose: !!options?.preventClose,
    preventAbort: !!options?.preventAbort,
    preventCancel: !!options?.preventCancel,
    signal,
  };
}

function AbortSignalCtor() {
  return require('node:internal/web').AbortSignal;
}

function isReadableStream(v) {
  return hasBrand(v, 'ReadableStream');
}

function initializeReadableStream(stream) {
  setSlots(stream, {
    brand: 'ReadableStream',
    state: 'readable',
    reader: undefined,
    storedError: undefined,
    disturbed: false,
    controller: undefined,
  });
}

function isReadableStreamLocked(stream) {
  return stream[kState].reader !== undefined;
}

// CreateReadableStream (§4.9.1), for Node-side producers (Readable.toWeb, Blob.stream).
function createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark = 1, sizeAlgorithm = () => 1) {
  const stream = ObjectCreate(ReadableStream.prototype);
  initializeReadableStream(stream);
  const controller = ObjectCreate(ReadableStreamDefaultController.prototype);
  setUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

// CreateReadableByteStream (§4.9.2).
function createReadableByteStream(startAlgorithm, pullAlgorithm, cancelAlgorithm) {
  const stream = ObjectCreate(ReadableStream.prototype);
  initializeReadableStream(stream);
  const controller = ObjectCreate(ReadableByteStreamController.prototype);
  setUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, 0, undefined);
  return stream;
}

// ReadableStreamCancel (§4.9.4)
function readableStreamCancel(stream, reason) {
  const s = stream[kState];
  // 1. Set stream.[[disturbed]] to true.
  s.disturbed = true;
  // 2–3. A closed stream resolves; an errored one rejects with its error.
  if (s.state === 'closed') return promiseResolvedWith(undefined);
  if (s.state === 'errored') return promiseRejectedWith(s.storedError);
  // 4. ReadableStreamClose(stream).
  readableStreamClose(stream);
  // 5–6. A BYOB reader's pending read-into requests resolve as closed.
  const reader = s.reader;
  if (reader !== undefined && isReadableStreamBYOBReader(reader)) {
    const requests = reader[kState].readIntoRequests;
    reader[kState].readIntoRequests = [];
    for (const request of requests) request.close(undefined);
  }
  // 7–8. The controller's [[CancelSteps]], then fulfil with undefined.
  const sourceCancelPromise = s.controller[kState].cancelSteps(reason);
  return uponPromise(sourceCancelPromise, () => undefined);
}

// ReadableStreamClose (§4.9.5)
function readableStreamClose(stream) {
  const s = stream[kState];
  s.state = 'closed';
  const reader = s.reader;
  if (reader === undefined) return;
  reader[kState].closedPromise.resolve(undefined);
  if (isReadableStreamDefaultReader(reader)) {
    const requests = reader[kState].readRequests;
    reader[kState].readRequests = [];
    for (const request of requests) request.close();
  }
}

// ReadableStreamError (§4.9.6)
function readableStreamError(stream, e) {
  const s = stream[kState];
  s.state = 'errored';
  s.storedError = e;
  const reader = s.reader;
  if (reader === undefined) return;
  reader[kState].closedPromise.reject(e);
  setPromiseIsHandled(reader[kState].closedPromise.promise);
  if (isReadableStreamDefaultReader(reader)) {
    readableStreamDefaultReaderErrorReadRequests(reader, e);
  } else {
    readableStreamBYOBReaderErrorReadIntoRequests(reader, e);
  }
}

function readableStreamAddReadRequest(stream, readRequest) {
  ArrayPrototypePush(stream[kState].reader[kState].readRequests, readRequest);
}

function readableStreamFulfillReadRequest(stream, chunk, done) {
  const reader = stream[kState].reader;
  const readRequest = ArrayPrototypeShift(reader[kState].readRequests);
  if (done) readRequest.close();
  else readRequest.chunk(chunk);
}

function readableStreamGetNumReadRequests(stream) {
  return stream[kState].reader[kState].readRequests.length;
}

function readableStreamHasDefaultReader(stream) {
  const reader = stream[kState].reader;
  return reader !== undefined && isReadableStreamDefaultReader(reader);
}

// ---- readers (§4.3, the generic reader mixin)

function readableStreamReaderGenericInitialize(reader, stream) {
  const r = reader[kState];
  const s = stream[kState];
  r.stream = stream;
  s.reader = reader;
  if (s.state === 'readable') {
    r.closedPromise = newPromiseCapability();
  } else if (s.state === 'closed') {
    r.closedPromise = newPromiseCapability();
    r.closedPromise.resolve(undefined);
  } else {
    r.closedPromise = newPromiseCapability();
    r.closedPromise.reject(s.storedError);
    setPromiseIsHandled(r.closedPromise.promise);
  }
}

function readableStreamReaderGenericCancel(reader, reason) {
  return readableStreamCancel(reader[kState].stream, reason);
}

// ReadableStreamReaderGenericRelease (§4.9.10)
function readableStreamReaderGenericRelease(reader) {
  const r = reader[kState];
  const stream = r.stream;
  const error = invalidState('Reader released');
  if (stream[kState].state === 'readable') {
    r.closedPromise.reject(error);
  } else {
    r.closedPromise = newPromiseCapability();
    r.closedPromise.reject(error);
  }
  setPromiseIsHandled(r.closedPromise.promise);
  stream[kState].controller[kState].releaseSteps();
  stream[kState].reader = undefined;
  r.stream = undefined;
}

class ReadableStreamDefaultReader {
  constructor(stream) {
    if (!isReadableStream(stream)) throw ERR_INVALID_ARG_TYPE('stream', 'ReadableStream', stream);
    if (isReadableStreamLocked(stream)) throw invalidState('ReadableStream is locked');
    setSlots(this, { brand: 'ReadableStreamDefaultReader', stream: undefined, closedPromise: undefined, readRequests: [] });
    readableStreamReaderGenericInitialize(this, stream);
  }

  read() {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamDefaultReader'));
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    const cap = newPromiseCapability();
    readableStreamDefaultReaderRead(this, {
      chunk: (value) => cap.resolve({ value, done: false }),
      close: () => cap.resolve({ value: undefined, done: true }),
      error: (e) => cap.reject(e),
    });
    return cap.promise;
  }

  releaseLock() {
    if (!isReadableStreamDefaultReader(this)) throw invalidThis('ReadableStreamDefaultReader');
    if (this[kState].stream === undefined) return;
    readableStreamDefaultReaderRelease(this);
  }

  get closed() {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamDefaultReader'));
    return this[kState].closedPromise.promise;
  }

  cancel(reason = undefined) {
    if (!isReadableStreamDefaultReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamDefaultReader'));
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    return readableStreamReaderGenericCancel(this, reason);
  }

  [kInspect](depth, options) {
    const r = this[kState];
    return customInspect(this, 'ReadableStreamDefaultReader', {
      stream: r.stream,
      readRequests: r.readRequests.length,
      close: r.closedPromise.promise,
    }, depth, options);
  }
}
ObjectDefineProperty(ReadableStreamDefaultReader.prototype, SymbolToStringTag, {
  value: 'ReadableStreamDefaultReader', configurable: true,
});

function isReadableStreamDefaultReader(v) {
  return hasBrand(v, 'ReadableStreamDefaultReader');
}

function acquireReadableStreamDefaultReader(stream) {
  return new ReadableStreamDefaultReader(stream);
}

// ReadableStreamDefaultReaderRead (§4.9.17)
function readableStreamDefaultReaderRead(reader, readRequest) {
  const stream = reader[kState].stream;
  const s = stream[kState];
  s.disturbed = true;
  if (s.state === 'closed') readRequest.close();
  else if (s.state === 'errored') readRequest.error(s.storedError);
  else s.controller[kState].pullSteps(readRequest);
}

function readableStreamDefaultReaderRelease(reader) {
  readableStreamReaderGenericRelease(reader);
  readableStreamDefaultReaderErrorReadRequests(reader, invalidState('Releasing reader'));
}

function readableStreamDefaultReaderErrorReadRequests(reader, e) {
  const requests = reader[kState].readRequests;
  reader[kState].readRequests = [];
  for (const request of requests) request.error(e);
}

// ---- ReadableStreamDefaultController (§4.6)

class ReadableStreamDefaultController {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get desiredSize() {
    if (!isReadableStreamDefaultController(this)) throw invalidThis('ReadableStreamDefaultController');
    return readableStreamDefaultControllerGetDesiredSize(this);
  }

  close() {
    if (!isReadableStreamDefaultController(this)) throw invalidThis('ReadableStreamDefaultController');
    if (!readableStreamDefaultControllerCanCloseOrEnqueue(this)) throw invalidState('Controller is already closed');
    readableStreamDefaultControllerClose(this);
  }

  enqueue(chunk = undefined) {
    if (!isReadableStreamDefaultController(this)) throw invalidThis('ReadableStreamDefaultController');
    if (!readableStreamDefaultControllerCanCloseOrEnqueue(this)) throw invalidState('Controller is already closed');
    readableStreamDefaultControllerEnqueue(this, chunk);
  }

  error(e = undefined) {
    if (!isReadableStreamDefaultController(this)) throw invalidThis('ReadableStreamDefaultController');
    readableStreamDefaultControllerError(this, e);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'ReadableStreamDefaultController', {}, depth, options);
  }
}
ObjectDefineProperty(ReadableStreamDefaultController.prototype, SymbolToStringTag, {
  value: 'ReadableStreamDefaultController', configurable: true,
});

function isReadableStreamDefaultController(v) {
  return hasBrand(v, 'ReadableStreamDefaultController');
}

function readableStreamDefaultControllerCallPullIfNeeded(controller) {
  const c = controller[kState];
  if (!readableStreamDefaultControllerShouldCallPull(controller)) return;
  if (c.pulling) {
    c.pullAgain = true;
    return;
  }
  c.pulling = true;
  uponPromise(c.pullAlgorithm(), () => {
    c.pulling = false;
    if (c.pullAgain) {
      c.pullAgain = false;
      readableStreamDefaultControllerCallPullIfNeeded(controller);
    }
  }, (e) => readableStreamDefaultControllerError(controller, e));
}

function readableStreamDefaultControllerShouldCallPull(controller) {
  const c = controller[kState];
  const stream = c.stream;
  if (!readableStreamDefaultControllerCanCloseOrEnqueue(controller)) return false;
  if (!c.started) return false;
  if (isReadableStreamLocked(stream) && readableStreamGetNumReadRequests(stream) > 0) return true;
  return readableStreamDefaultControllerGetDesiredSize(controller) > 0;
}

function readableStreamDefaultControllerClearAlgorithms(controller) {
  const c = controller[kState];
  c.pullAlgorithm = undefined;
  c.cancelAlgorithm = undefined;
  c.strategySizeAlgorithm = undefined;
}

function readableStreamDefaultControllerClose(controller) {
  const c = controller[kState];
  if (!readableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  c.closeRequested = true;
  if (c.queue.length === 0) {
    readableStreamDefaultControllerClearAlgorithms(controller);
    readableStreamClose(c.stream);
  }
}

// ReadableStreamDefaultControllerEnqueue (§4.9.26)
function readableStreamDefaultControllerEnqueue(controller, chunk) {
  const c = controller[kState];
  if (!readableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  const stream = c.stream;
  // 3. A waiting read takes the chunk directly, skipping the queue.
  if (isReadableStreamLocked(stream) && readableStreamGetNumReadRequests(stream) > 0) {
    readableStreamFulfillReadRequest(stream, chunk, false);
  } else {
    // 4. Otherwise queue it with the size the strategy gives it.
    let chunkSize;
    try {
      chunkSize = c.strategySizeAlgorithm(chunk);
    } catch (e) {
      readableStreamDefaultControllerError(controller, e);
      throw e;
    }
    try {
      enqueueValueWithSize(c, chunk, chunkSize);
    } catch (e) {
      readableStreamDefaultControllerError(controller, e);
      throw e;
    }
  }
  readableStreamDefaultControllerCallPullIfNeeded(controller);
}

function readableStreamDefaultControllerError(controller, e) {
  const c = controller[kState];
  const stream = c.stream;
  if (stream[kState].state !== 'readable') return;
  resetQueue(c);
  readableStreamDefaultControllerClearAlgorithms(controller);
  readableStreamError(stream, e);
}

function readableStreamDefaultControllerGetDesiredSize(controller) {
  const c = controller[kState];
  const state = c.stream[kState].state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return c.strategyHWM - c.queueTotalSize;
}

function readableStreamDefaultControllerHasBackpressure(controller) {
  return !readableStreamDefaultControllerShouldCallPull(controller);
}

function readableStreamDefaultControllerCanCloseOrEnqueue(controller) {
  const c = controller[kState];
  return !c.closeRequested && c.stream[kState].state === 'readable';
}

// SetUpReadableStreamDefaultController (§4.9.33)
function setUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  const c = {
    brand: 'ReadableStreamDefaultController',
    stream,
    queue: [],
    queueTotalSize: 0,
    started: false,
    closeRequested: false,
    pullAgain: false,
    pulling: false,
    strategySizeAlgorithm: sizeAlgorithm,
    strategyHWM: highWaterMark,
    pullAlgorithm,
    cancelAlgorithm,
    // [[CancelSteps]] (§4.6.4)
    cancelSteps(reason) {
      resetQueue(c);
      const result = c.cancelAlgorithm(reason);
      readableStreamDefaultControllerClearAlgorithms(controller);
      return result;
    },
    // [[PullSteps]] (§4.6.4)
    pullSteps(readRequest) {
      if (c.queue.length > 0) {
        const chunk = dequeueValue(c);
        if (c.closeRequested && c.queue.length === 0) {
          readableStreamDefaultControllerClearAlgorithms(controller);
          readableStreamClose(stream);
        } else {
          readableStreamDefaultControllerCallPullIfNeeded(controller);
        }
        readRequest.chunk(chunk);
      } else {
        readableStreamAddReadRequest(stream, readRequest);
        readableStreamDefaultControllerCallPullIfNeeded(controller);
      }
    },
    releaseSteps() {},
  };
  setSlots(controller, c);
  stream[kState].controller = controller;
  const startResult = startAlgorithm();
  uponPromise(promiseResolvedWith(startResult), () => {
    c.started = true;
    readableStreamDefaultControllerCallPullIfNeeded(controller);
  }, (r) => readableStreamDefaultControllerError(controller, r));
}

function setUpReadableStreamDefaultControllerFromUnderlyingSource(stream, source, highWaterMark, sizeAlgorithm) {
  const controller = ObjectCreate(ReadableStreamDefaultController.prototype);
  const start = getMethod(source, 'start', 'source');
  const pull = getMethod(source, 'pull', 'source');
  const cancel = getMethod(source, 'cancel', 'source');
  const startAlgorithm = start ? () => ReflectApply(start, source, [controller]) : () => undefined;
  const pullAlgorithm = pull ? () => promiseCall(pull, source, [controller]) : noopPromise;
  const cancelAlgorithm = cancel ? (reason) => promiseCall(cancel, source, [reason]) : noopPromise;
  setUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
}

// ---- async iteration (§4.2.5)

const asyncIteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype);

function createAsyncIterator(reader, preventCancel) {
  const state = { reader, preventCancel, ongoing: undefined, finished: false };
  const iterator = ObjectCreate(readableStreamAsyncIteratorPrototype);
  setSlots(iterator, state);
  return iterator;
}

function asyncIteratorNextSteps(state) {
  if (state.finished) return promiseResolvedWith({ value: undefined, done: true });
  const reader = state.reader;
  if (reader[kState].stream === undefined) {
    return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
  }
  const cap = newPromiseCapability();
  readableStreamDefaultReaderRead(reader, {
    chunk: (value) => cap.resolve({ value, done: false }),
    close: () => {
      state.finished = true;
      readableStreamDefaultReaderRelease(reader);
      cap.resolve({ value: undefined, done: true });
    },
    error: (e) => {
      state.finished = true;
      readableStreamDefaultReaderRelease(reader);
      cap.reject(e);
    },
  });
  return cap.promise;
}

function asyncIteratorReturnSteps(state, value) {
  if (state.finished) return promiseResolvedWith({ value, done: true });
  state.finished = true;
  const reader = state.reader;
  if (reader[kState].stream === undefined) return promiseResolvedWith({ value, done: true });
  if (!state.preventCancel) {
    const result = readableStreamReaderGenericCancel(reader, value);
    readableStreamDefaultReaderRelease(reader);
    return uponPromise(result, () => ({ value, done: true }));
  }
  readableStreamDefaultReaderRelease(reader);
  return promiseResolvedWith({ value, done: true });
}

const readableStreamAsyncIteratorPrototype = ObjectCreate(asyncIteratorPrototype, {
  next: {
    value: function next() {
      const state = slotsOf(this);
      if (state === undefined || state.reader === undefined) {
        return promiseRejectedWith(invalidThis('ReadableStreamAsyncIterator'));
      }
      // Each next() waits for the one before it, so reads never run concurrently.
      const nextSteps = () => asyncIteratorNextSteps(state);
      state.ongoing = state.ongoing ? uponPromise(state.ongoing, nextSteps, nextSteps) : nextSteps();
      return state.ongoing;
    },
    writable: true, enumerable: true, configurable: true,
  },
  return: {
    value: function (value = undefined) {
      const state = slotsOf(this);
      if (state === undefined || state.reader === undefined) {
        return promiseRejectedWith(invalidThis('ReadableStreamAsyncIterator'));
      }
      const returnSteps = () => asyncIteratorReturnSteps(state, value);
      state.ongoing = state.ongoing ? uponPromise(state.ongoing, returnSteps, returnSteps) : returnSteps();
      return state.ongoing;
    },
    writable: true, enumerable: true, configurable: true,
  },
  [SymbolToStringTag]: { value: 'ReadableStreamAsyncIterator', configurable: true },
});

// ReadableStreamFromIterable (§4.9.3)
function readableStreamFromIterable(asyncIterable) {
  let iteratorRecord;
  const asyncMethod = asyncIterable == null ? undefined : asyncIterable[SymbolAsyncIterator];
  if (asyncMethod != null) {
    if (typeof asyncMethod !== 'function') throw makeError(TypeError, 'ERR_ARG_NOT_ITERABLE', `${String(asyncIterable)} must be iterable`);
    const iterator = ReflectApply(asyncMethod, asyncIterable, []);
    if (iterator === null || typeof iterator !== 'object') throw new TypeError('The iterator method must return an object');
    iteratorRecord = { iterator, next: iterator.next };
  } else {
    const syncMethod = asyncIterable == null ? undefined : asyncIterable[SymbolIterator];
    if (typeof syncMethod !== 'function') {
      throw makeError(TypeError, 'ERR_ARG_NOT_ITERABLE', `${String(asyncIterable)} must be iterable`);
    }
    const syncIterator = ReflectApply(syncMethod, asyncIterable, []);
    // CreateAsyncFromSyncIterator: each step's value is awaited.
    const wrapped = {
      next() {
        const r = syncIterator.next();
        return promiseResolvedWith(r.value).then((value) => ({ value, done: !!r.done }));
      },
      return(v) {
        const ret = syncIterator.return;
        if (ret === undefined) return promiseResolvedWith({ value: v, done: true });
        return promiseResolvedWith(ReflectApply(ret, syncIterator, [v]));
      },
    };
    iteratorRecord = { iterator: wrapped, next: wrapped.next };
  }
  let stream;
  const pullAlgorithm = () => {
    let nextResult;
    try {
      nextResult = ReflectApply(iteratorRecord.next, iteratorRecord.iterator, []);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    return uponPromise(promiseResolvedWith(nextResult), (iterResult) => {
      if (iterResult === null || typeof iterResult !== 'object') {
        throw new TypeError('The promise returned by the iterator.next() method must fulfill with an object');
      }
      if (iterResult.done) {
        readableStreamDefaultControllerClose(stream[kState].controller);
      } else {
        readableStreamDefaultControllerEnqueue(stream[kState].controller, iterResult.value);
      }
    });
  };
  const cancelAlgorithm = (reason) => {
    const iterator = iteratorRecord.iterator;
    let returnMethod;
    try {
      returnMethod = iterator.return;
    } catch (e) {
      return promiseRejectedWith(e);
    }
    if (returnMethod == null) return promiseResolvedWith(undefined);
    let returnResult;
    try {
      returnResult = ReflectApply(returnMethod, iterator, [reason]);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    return uponPromise(promiseResolvedWith(returnResult), (r) => {
      if (r === null || typeof r !== 'object') {
        throw new TypeError('The promise returned by the iterator.return() method must fulfill with an object');
      }
    });
  };
  stream = createReadableStream(() => undefined, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}
