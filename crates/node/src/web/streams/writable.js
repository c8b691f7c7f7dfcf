// ---- WritableStream (§5): the stream, its writer and its controller.

class WritableStream {
  constructor(underlyingSink = undefined, strategy = undefined) {
    if (underlyingSink !== undefined && underlyingSink !== null && typeof underlyingSink !== 'object') {
      throw ERR_INVALID_ARG_TYPE('sink', 'object', underlyingSink);
    }
    validateDictionary(strategy, 'strategy');
    const sink = underlyingSink ?? {};
    if (sink.type !== undefined) throw invalidArgValue(RangeError, 'sink.type', sink.type);
    initializeWritableStream(this);
    const sizeAlgorithm = extractSizeAlgorithm(strategy);
    const hwm = extractHighWaterMark(strategy, 1);
    setUpWritableStreamDefaultControllerFromUnderlyingSink(this, sink, hwm, sizeAlgorithm);
  }

  get locked() {
    if (!isWritableStream(this)) throw invalidThis('WritableStream');
    return isWritableStreamLocked(this);
  }

  abort(reason = undefined) {
    if (!isWritableStream(this)) return promiseRejectedWith(invalidThis('WritableStream'));
    if (isWritableStreamLocked(this)) return promiseRejectedWith(invalidState('WritableStream is locked'));
    return writableStreamAbort(this, reason);
  }

  close() {
    if (!isWritableStream(this)) return promiseRejectedWith(invalidThis('WritableStream'));
    if (isWritableStreamLocked(this)) return promiseRejectedWith(invalidState('WritableStream is locked'));
    if (writableStreamCloseQueuedOrInFlight(this)) return promiseRejectedWith(invalidState('Failure closing WritableStream'));
    return writableStreamClose(this);
  }

  getWriter() {
    if (!isWritableStream(this)) throw invalidThis('WritableStream');
    return acquireWritableStreamDefaultWriter(this);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'WritableStream', { locked: this.locked, state: this[kState].state }, depth, options);
  }
}
ObjectDefineProperty(WritableStream.prototype, SymbolToStringTag, { value: 'WritableStream', configurable: true });

function isWritableStream(v) {
  return hasBrand(v, 'WritableStream');
}

function initializeWritableStream(stream) {
  setSlots(stream, {
    brand: 'WritableStream',
    state: 'writable',
    storedError: undefined,
    writer: undefined,
    controller: undefined,
    inFlightWriteRequest: undefined,
    closeRequest: undefined,
    inFlightCloseRequest: undefined,
    pendingAbortRequest: undefined,
    writeRequests: [],
    backpressure: false,
  });
}

function isWritableStreamLocked(stream) {
  return stream[kState].writer !== undefined;
}

// CreateWritableStream (§5.5.1), for Node-side sinks (Writable.toWeb).
function createWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark = 1, sizeAlgorithm = () => 1) {
  const stream = ObjectCreate(WritableStream.prototype);
  initializeWritableStream(stream);
  const controller = ObjectCreate(WritableStreamDefaultController.prototype);
  setUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

function acquireWritableStreamDefaultWriter(stream) {
  return new WritableStreamDefaultWriter(stream);
}

// WritableStreamAbort (§5.5.3)
function writableStreamAbort(stream, reason) {
  const s = stream[kState];
  if (s.state === 'closed' || s.state === 'errored') return promiseResolvedWith(undefined);
  // 3. Signal abort on the controller's AbortSignal.
  s.controller[kState].abortController.abort(reason);
  const state = s.state;
  if (state === 'closed' || state === 'errored') return promiseResolvedWith(undefined);
  if (s.pendingAbortRequest !== undefined) return s.pendingAbortRequest.cap.promise;
  let wasAlreadyErroring = false;
  if (state === 'erroring') {
    wasAlreadyErroring = true;
    reason = undefined;
  }
  const cap = newPromiseCapability();
  s.pendingAbortRequest = { cap, reason, wasAlreadyErroring };
  if (!wasAlreadyErroring) writableStreamStartErroring(stream, reason);
  return cap.promise;
}

function writableStreamClose(stream) {
  const s = stream[kState];
  const state = s.state;
  if (state === 'closed' || state === 'errored') {
    return promiseRejectedWith(invalidState('WritableStream is closed'));
  }
  const cap = newPromiseCapability();
  s.closeRequest = cap;
  const writer = s.writer;
  if (writer !== undefined && s.backpressure && state === 'writable') {
    writer[kState].readyPromise.resolve(undefined);
  }
  writableStreamDefaultControllerClose(s.controller);
  return cap.promise;
}

function writableStreamAddWriteRequest(stream) {
  const cap = newPromiseCapability();
  ArrayPrototypePush(stream[kState].writeRequests, cap);
  return cap.promise;
}

function writableStreamDealWithRejection(stream, error) {
  const s = stream[kState];
  if (s.state === 'writable') {
    writableStreamStartErroring(stream, error);
    return;
  }
  writableStreamFinishErroring(stream);
}

function writableStreamStartErroring(stream, reason) {
  const s = stream[kState];
  const controller = s.controller;
  s.state = 'erroring';
  s.storedError = reason;
  const writer = s.writer;
  if (writer !== undefined) writableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason);
  if (!writableStreamHasOperationMarkedInFlight(stream) && controller[kState].started) {
    writableStreamFinishErroring(stream);
  }
}

function writableStreamFinishErroring(stream) {
  const s = stream[kState];
  s.state = 'errored';
  s.controller[kState].errorSteps();
  const storedError = s.storedError;
  for (const request of s.writeRequests) request.reject(storedError);
  s.writeRequests = [];
  if (s.pendingAbortRequest === undefined) {
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const abortRequest = s.pendingAbortRequest;
  s.pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.cap.reject(storedError);
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const promise = s.controller[kState].abortSteps(abortRequest.reason);
  uponPromise(promise, () => {
    abortRequest.cap.resolve(undefined);
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  }, (reason) => {
    abortRequest.cap.reject(reason);
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  });
}

function writableStreamFinishInFlightWrite(stream) {
  const s = stream[kState];
  s.inFlightWriteRequest.resolve(undefined);
  s.inFlightWriteRequest = undefined;
}

function writableStreamFinishInFlightWriteWithError(stream, error) {
  const s = stream[kState];
  s.inFlightWriteRequest.reject(error);
  s.inFlightWriteRequest = undefined;
  writableStreamDealWithRejection(stream, error);
}

function writableStreamFinishInFlightClose(stream) {
  const s = stream[kState];
  s.inFlightCloseRequest.resolve(undefined);
  s.inFlightCloseRequest = undefined;
  if (s.state === 'erroring') {
    s.storedError = undefined;
    if (s.pendingAbortRequest !== undefined) {
      s.pendingAbortRequest.cap.resolve(undefined);
      s.pendingAbortRequest = undefined;
    }
  }
  s.state = 'closed';
  const writer = s.writer;
  if (writer !== undefined) writer[kState].closedPromise.resolve(undefined);
}

function writableStreamFinishInFlightCloseWithError(stream, error) {
  const s = stream[kState];
  s.inFlightCloseRequest.reject(error);
  s.inFlightCloseRequest = undefined;
  if (s.pendingAbortRequest !== undefined) {
    s.pendingAbortRequest.cap.reject(error);
    s.pendingAbortRequest = undefined;
  }
  writableStreamDealWithRejection(stream, error);
}

function writableStreamCloseQueuedOrInFlight(stream) {
  const s = stream[kState];
  return s.closeRequest !== undefined || s.inFlightCloseRequest !== undefined;
}

function writableStreamHasOperationMarkedInFlight(stream) {
  const s = stream[kState];
  return s.inFlightWriteRequest !== undefined || s.inFlightCloseRequest !== undefined;
}

function writableStreamMarkCloseRequestInFlight(stream) {
  const s = stream[kState];
  s.inFlightCloseRequest = s.closeRequest;
  s.closeRequest = undefined;
}

function writableStreamMarkFirstWriteRequestInFlight(stream) {
  const s = stream[kState];
  s.inFlightWriteRequest = ArrayPrototypeShift(s.writeRequests);
}

function writableStreamRejectCloseAndClosedPromiseIfNeeded(stream) {
  const s = stream[kState];
  if (s.closeRequest !== undefined) {
    s.closeRequest.reject(s.storedError);
    s.closeRequest = undefined;
  }
  const writer = s.writer;
  if (writer !== undefined) {
    writer[kState].closedPromise.reject(s.storedError);
    setPromiseIsHandled(writer[kState].closedPromise.promise);
  }
}

function writableStreamUpdateBackpressure(stream, backpressure) {
  const s = stream[kState];
  const writer = s.writer;
  if (writer !== undefined && backpressure !== s.backpressure) {
    if (backpressure) writer[kState].readyPromise = newPromiseCapability();
    else writer[kState].readyPromise.resolve(undefined);
  }
  s.backpressure = backpressure;
}

// ---- WritableStreamDefaultWriter (§5.3)

function resolvedCapability(value) {
  const cap = newPromiseCapability();
  cap.resolve(value);
  return cap;
}

function rejectedCapability(reason) {
  const cap = newPromiseCapability();
  cap.reject(reason);
  setPromiseIsHandled(cap.promise);
  return cap;
}

class WritableStreamDefaultWriter {
  constructor(stream) {
    if (!isWritableStream(stream)) throw ERR_INVALID_ARG_TYPE('stream', 'WritableStream', stream);
    if (isWritableStreamLocked(stream)) throw invalidState('WritableStream is locked');
    const w = { brand: 'WritableStreamDefaultWriter', stream, readyPromise: undefined, closedPromise: undefined };
    setSlots(this, w);
    const s = stream[kState];
    s.writer = this;
    const state = s.state;
    if (state === 'writable') {
      w.readyPromise = !writableStreamCloseQueuedOrInFlight(stream) && s.backpressure
        ? newPromiseCapability() : resolvedCapability(undefined);
      w.closedPromise = newPromiseCapability();
    } else if (state === 'erroring') {
      w.readyPromise = rejectedCapability(s.storedError);
      w.closedPromise = newPromiseCapability();
    } else if (state === 'closed') {
      w.readyPromise = resolvedCapability(undefined);
      w.closedPromise = resolvedCapability(undefined);
    } else {
      w.readyPromise = rejectedCapability(s.storedError);
      w.closedPromise = rejectedCapability(s.storedError);
    }
  }

  get closed() {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(invalidThis('WritableStreamDefaultWriter'));
    return this[kState].closedPromise.promise;
  }

  get desiredSize() {
    if (!isWritableStreamDefaultWriter(this)) throw invalidThis('WritableStreamDefaultWriter');
    if (this[kState].stream === undefined) throw invalidState('Writer is not bound to a WritableStream');
    return writableStreamDefaultWriterGetDesiredSize(this);
  }

  get ready() {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(invalidThis('WritableStreamDefaultWriter'));
    return this[kState].readyPromise.promise;
  }

  abort(reason = undefined) {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(invalidThis('WritableStreamDefaultWriter'));
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    }
    return writableStreamAbort(this[kState].stream, reason);
  }

  close() {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(invalidThis('WritableStreamDefaultWriter'));
    const stream = this[kState].stream;
    if (stream === undefined) return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    if (writableStreamCloseQueuedOrInFlight(stream)) {
      return promiseRejectedWith(invalidState('Failure to close WritableStream'));
    }
    return writableStreamClose(stream);
  }

  releaseLock() {
    if (!isWritableStreamDefaultWriter(this)) throw invalidThis('WritableStreamDefaultWriter');
    if (this[kState].stream === undefined) return;
    writableStreamDefaultWriterRelease(this);
  }

  write(chunk = undefined) {
    if (!isWritableStreamDefaultWriter(this)) return promiseRejectedWith(invalidThis('WritableStreamDefaultWriter'));
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    }
    return writableStreamDefaultWriterWrite(this, chunk);
  }

  [kInspect](depth, options) {
    const w = this[kState];
    return customInspect(this, 'WritableStreamDefaultWriter', {
      stream: w.stream,
      close: w.closedPromise.promise,
      ready: w.readyPromise.promise,
      desiredSize: w.stream === undefined ? undefined : writableStreamDefaultWriterGetDesiredSize(this),
    }, depth, options);
  }
}
ObjectDefineProperty(WritableStreamDefaultWriter.prototype, SymbolToStringTag, {
  value: 'WritableStreamDefaultWriter', configurable: true,
});

function isWritableStreamDefaultWriter(v) {
  return hasBrand(v, 'WritableStreamDefaultWriter');
}

function writableStreamDefaultWriterCloseWithErrorPropagation(writer) {
  const stream = writer[kState].stream;
  const state = stream[kState].state;
  if (writableStreamCloseQueuedOrInFlight(stream) || state === 'closed') return promiseResolvedWith(undefined);
  if (state === 'errored') return promiseRejectedWith(stream[kState].storedError);
  return writableStreamClose(stream);
}

function writableStreamDefaultWriterEnsureClosedPromiseRejected(writer, error) {
  const w = writer[kState];
  if (!w.closedPromise.settled) {
    w.closedPromise.reject(error);
  } else {
    w.closedPromise = newPromiseCapability();
    w.closedPromise.reject(error);
  }
  setPromiseIsHandled(w.closedPromise.promise);
}

function writableStreamDefaultWriterEnsureReadyPromiseRejected(writer, error) {
  const w = writer[kState];
  if (!w.readyPromise.settled) {
    w.readyPromise.reject(error);
  } else {
    w.readyPromise = newPromiseCapability();
    w.readyPromise.reject(error);
  }
  setPromiseIsHandled(w.readyPromise.promise);
}

function writableStreamDefaultWriterGetDesiredSize(writer) {
  const stream = writer[kState].stream;
  const state = stream[kState].state;
  if (state === 'errored' || state === 'erroring') return null;
  if (state === 'closed') return 0;
  return writableStreamDefaultControllerGetDesiredSize(stream[kState].controller);
}

function writableStreamDefaultWriterRelease(writer) {
  const stream = writer[kState].stream;
  const releasedError = invalidState('Writer has been released');
  writableStreamDefaultWriterEnsureReadyPromiseRejected(writer, releasedError);
  writableStreamDefaultWriterEnsureClosedPromiseRejected(writer, releasedError);
  stream[kState].writer = undefined;
  writer[kState].stream = undefined;
}

// WritableStreamDefaultWriterWrite (§5.5.4.9)
function writableStreamDefaultWriterWrite(writer, chunk) {
  const stream = writer[kState].stream;
  const controller = stream[kState].controller;
  const chunkSize = writableStreamDefaultControllerGetChunkSize(controller, chunk);
  if (stream !== writer[kState].stream) {
    return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
  }
  const state = stream[kState].state;
  if (state === 'errored') return promiseRejectedWith(stream[kState].storedError);
  if (writableStreamCloseQueuedOrInFlight(stream) || state === 'closed') {
    return promiseRejectedWith(invalidState('WritableStream is closed'));
  }
  if (state === 'erroring') return promiseRejectedWith(stream[kState].storedError);
  const promise = writableStreamAddWriteRequest(stream);
  writableStreamDefaultControllerWrite(controller, chunk, chunkSize);
  return promise;
}

// ---- WritableStreamDefaultController (§5.4)

const kCloseSentinel = Symbol('kCloseSentinel');

class WritableStreamDefaultController {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get signal() {
    if (!hasBrand(this, 'WritableStreamDefaultController')) throw invalidThis('WritableStreamDefaultController');
    return this[kState].abortController.signal;
  }

  error(e = undefined) {
    if (!hasBrand(this, 'WritableStreamDefaultController')) throw invalidThis('WritableStreamDefaultController');
    if (this[kState].stream[kState].state !== 'writable') return;
    writableStreamDefaultControllerError(this, e);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'WritableStreamDefaultController', {}, depth, options);
  }
}
ObjectDefineProperty(WritableStreamDefaultController.prototype, SymbolToStringTag, {
  value: 'WritableStreamDefaultController', configurable: true,
});

// SetUpWritableStreamDefaultController (§5.5.4.1)
function setUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  const { AbortController } = require('node:internal/web');
  const c = {
    brand: 'WritableStreamDefaultController',
    stream,
    queue: [],
    queueTotalSize: 0,
    abortController: new AbortController(),
    started: false,
    strategySizeAlgorithm: sizeAlgorithm,
    strategyHWM: highWaterMark,
    writeAlgorithm,
    closeAlgorithm,
    abortAlgorithm,
    // [[AbortSteps]] and [[ErrorSteps]] (§5.4.4)
    abortSteps(reason) {
      const result = c.abortAlgorithm(reason);
      writableStreamDefaultControllerClearAlgorithms(controller);
      return result;
    },
    errorSteps() {
      resetQueue(c);
    },
  };
  setSlots(controller, c);
  stream[kState].controller = controller;
  const backpressure = writableStreamDefaultControllerGetBackpressure(controller);
  writableStreamUpdateBackpressure(stream, backpressure);
  const startResult = startAlgorithm();
  uponPromise(promiseResolvedWith(startResult), () => {
    c.started = true;
    writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  }, (r) => {
    c.started = true;
    writableStreamDealWithRejection(stream, r);
  });
}

function setUpWritableStreamDefaultControllerFromUnderlyingSink(stream, sink, highWaterMark, sizeAlgorithm) {
  const controller = ObjectCreate(WritableStreamDefaultController.prototype);
  const start = getMethod(sink, 'start', 'sink');
  const write = getMethod(sink, 'write', 'sink');
  const close = getMethod(sink, 'close', 'sink');
  const abort = getMethod(sink, 'abort', 'sink');
  const startAlgorithm = start ? () => ReflectApply(start, sink, [controller]) : () => undefined;
  const writeAlgorithm = write ? (chunk) => promiseCall(write, sink, [chunk, controller]) : noopPromise;
  const closeAlgorithm = close ? () => promiseCall(close, sink, []) : noopPromise;
  const abortAlgorithm = abort ? (reason) => promiseCall(abort, sink, [reason]) : noopPromise;
  setUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
}

function writableStreamDefaultControllerAdvanceQueueIfNeeded(controller) {
  const c = controller[kState];
  const stream = c.stream;
  if (!c.started) return;
  if (stream[kState].inFlightWriteRequest !== undefined) return;
  const state = stream[kState].state;
  if (state === 'erroring') {
    writableStreamFinishErroring(stream);
    return;
  }
  if (c.queue.length === 0) return;
  const value = peekQueueValue(c);
  if (value === kCloseSentinel) writableStreamDefaultControllerProcessClose(controller);
  else writableStreamDefaultControllerProcessWrite(controller, value);
}

function writableStreamDefaultControllerClearAlgorithms(controller) {
  const c = controller[kState];
  c.writeAlgorithm = undefined;
  c.closeAlgorithm = undefined;
  c.abortAlgorithm = undefined;
  c.strategySizeAlgorithm = undefined;
}

function writableStreamDefaultControllerClose(controller) {
  enqueueValueWithSize(controller[kState], kCloseSentinel, 0);
  writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

function writableStreamDefaultControllerError(controller, error) {
  const stream = controller[kState].stream;
  writableStreamDefaultControllerClearAlgorithms(controller);
  writableStreamStartErroring(stream, error);
}

function writableStreamDefaultControllerErrorIfNeeded(controller, error) {
  if (controller[kState].stream[kState].state === 'writable') writableStreamDefaultControllerError(controller, error);
}

function writableStreamDefaultControllerGetBackpressure(controller) {
  return writableStreamDefaultControllerGetDesiredSize(controller) <= 0;
}

function writableStreamDefaultControllerGetChunkSize(controller, chunk) {
  const c = controller[kState];
  if (c.strategySizeAlgorithm === undefined) return 1;
  try {
    return c.strategySizeAlgorithm(chunk);
  } catch (e) {
    writableStreamDefaultControllerErrorIfNeeded(controller, e);
    return 1;
  }
}

function writableStreamDefaultControllerGetDesiredSize(controller) {
  const c = controller[kState];
  return c.strategyHWM - c.queueTotalSize;
}

function writableStreamDefaultControllerProcessClose(controller) {
  const c = controller[kState];
  const stream = c.stream;
  writableStreamMarkCloseRequestInFlight(stream);
  dequeueValue(c);
  const sinkClosePromise = c.closeAlgorithm();
  writableStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(sinkClosePromise, () => writableStreamFinishInFlightClose(stream),
    (reason) => writableStreamFinishInFlightCloseWithError(stream, reason));
}

function writableStreamDefaultControllerProcessWrite(controller, chunk) {
  const c = controller[kState];
  const stream = c.stream;
  writableStreamMarkFirstWriteRequestInFlight(stream);
  const sinkWritePromise = c.writeAlgorithm(chunk);
  uponPromise(sinkWritePromise, () => {
    writableStreamFinishInFlightWrite(stream);
    const state = stream[kState].state;
    dequeueValue(c);
    if (!writableStreamCloseQueuedOrInFlight(stream) && state === 'writable') {
      const backpressure = writableStreamDefaultControllerGetBackpressure(controller);
      writableStreamUpdateBackpressure(stream, backpressure);
    }
    writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  }, (reason) => {
    if (stream[kState].state === 'writable') writableStreamDefaultControllerClearAlgorithms(controller);
    writableStreamFinishInFlightWriteWithError(stream, reason);
  });
}

function writableStreamDefaultControllerWrite(controller, chunk, chunkSize) {
  const c = controller[kState];
  try {
    enqueueValueWithSize(c, chunk, chunkSize);
  } catch (e) {
    writableStreamDefaultControllerErrorIfNeeded(controller, e);
    return;
  }
  const stream = c.stream;
  if (!writableStreamCloseQueuedOrInFlight(stream) && stream[kState].state === 'writable') {
    const backpressure = writableStreamDefaultControllerGetBackpressure(controller);
    writableStreamUpdateBackpressure(stream, backpressure);
  }
  writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}
