// ---- Readable byte streams (§4.7, §4.8, §4.5): ReadableByteStreamController,
// ReadableStreamBYOBRequest and ReadableStreamBYOBReader. Chunks are transferred
// (their ArrayBuffer detached) as the spec says, so a producer cannot change bytes
// a consumer already holds.

class ReadableStreamBYOBReader {
  constructor(stream) {
    if (!isReadableStream(stream)) throw ERR_INVALID_ARG_TYPE('stream', 'ReadableStream', stream);
    if (isReadableStreamLocked(stream)) throw invalidState('ReadableStream is locked');
    if (!isReadableByteStreamController(stream[kState].controller)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
        `The argument 'stream' must be a byte stream. Received ${inspect(stream)}`);
    }
    setSlots(this, { brand: 'ReadableStreamBYOBReader', stream: undefined, closedPromise: undefined, readIntoRequests: [] });
    readableStreamReaderGenericInitialize(this, stream);
  }

  read(view = undefined) {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamBYOBReader'));
    if (!ArrayBufferIsView(view)) {
      return promiseRejectedWith(ERR_INVALID_ARG_TYPE('view', ['Buffer', 'TypedArray', 'DataView'], view));
    }
    if (view.byteLength === 0 || isDetached(view.buffer) || arrayBufferByteLength(view.buffer) === 0) {
      return promiseRejectedWith(invalidState('View or Viewed ArrayBuffer is zero-length or detached'));
    }
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    const cap = newPromiseCapability();
    readableStreamBYOBReaderRead(this, view, {
      chunk: (value) => cap.resolve({ value, done: false }),
      close: (value) => cap.resolve({ value, done: true }),
      error: (e) => cap.reject(e),
    });
    return cap.promise;
  }

  releaseLock() {
    if (!isReadableStreamBYOBReader(this)) throw invalidThis('ReadableStreamBYOBReader');
    if (this[kState].stream === undefined) return;
    readableStreamReaderGenericRelease(this);
    readableStreamBYOBReaderErrorReadIntoRequests(this, invalidState('Releasing reader'));
  }

  get closed() {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamBYOBReader'));
    return this[kState].closedPromise.promise;
  }

  cancel(reason = undefined) {
    if (!isReadableStreamBYOBReader(this)) return promiseRejectedWith(invalidThis('ReadableStreamBYOBReader'));
    if (this[kState].stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    return readableStreamReaderGenericCancel(this, reason);
  }

  [kInspect](depth, options) {
    const r = this[kState];
    return customInspect(this, 'ReadableStreamBYOBReader', {
      stream: r.stream,
      requestIntoRequests: r.readIntoRequests.length,
      close: r.closedPromise.promise,
    }, depth, options);
  }
}
ObjectDefineProperty(ReadableStreamBYOBReader.prototype, SymbolToStringTag, {
  value: 'ReadableStreamBYOBReader', configurable: true,
});

function isReadableStreamBYOBReader(v) {
  return hasBrand(v, 'ReadableStreamBYOBReader');
}

function readableStreamBYOBReaderRead(reader, view, readIntoRequest) {
  const stream = reader[kState].stream;
  const s = stream[kState];
  s.disturbed = true;
  if (s.state === 'errored') readIntoRequest.error(s.storedError);
  else readableByteStreamControllerPullInto(s.controller, view, readIntoRequest);
}

function readableStreamBYOBReaderErrorReadIntoRequests(reader, e) {
  const requests = reader[kState].readIntoRequests;
  reader[kState].readIntoRequests = [];
  for (const request of requests) request.error(e);
}

function readableStreamAddReadIntoRequest(stream, readIntoRequest) {
  ArrayPrototypePush(stream[kState].reader[kState].readIntoRequests, readIntoRequest);
}

function readableStreamFulfillReadIntoRequest(stream, chunk, done) {
  const reader = stream[kState].reader;
  const request = ArrayPrototypeShift(reader[kState].readIntoRequests);
  if (done) request.close(chunk);
  else request.chunk(chunk);
}

function readableStreamGetNumReadIntoRequests(stream) {
  return stream[kState].reader[kState].readIntoRequests.length;
}

function readableStreamHasBYOBReader(stream) {
  const reader = stream[kState].reader;
  return reader !== undefined && isReadableStreamBYOBReader(reader);
}

// ---- ReadableStreamBYOBRequest (§4.8)

class ReadableStreamBYOBRequest {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get view() {
    if (!hasBrand(this, 'ReadableStreamBYOBRequest')) throw invalidThis('ReadableStreamBYOBRequest');
    return this[kState].view;
  }

  respond(bytesWritten) {
    if (!hasBrand(this, 'ReadableStreamBYOBRequest')) throw invalidThis('ReadableStreamBYOBRequest');
    const r = this[kState];
    if (r.controller === undefined) throw invalidState('This BYOB request has been invalidated');
    if (isDetached(r.view.buffer)) throw invalidState('Viewed ArrayBuffer is detached');
    readableByteStreamControllerRespond(r.controller, bytesWritten);
  }

  respondWithNewView(view) {
    if (!hasBrand(this, 'ReadableStreamBYOBRequest')) throw invalidThis('ReadableStreamBYOBRequest');
    if (!ArrayBufferIsView(view)) throw ERR_INVALID_ARG_TYPE('view', ['Buffer', 'TypedArray', 'DataView'], view);
    const r = this[kState];
    if (r.controller === undefined) throw invalidState('This BYOB request has been invalidated');
    if (isDetached(view.buffer)) throw invalidState('Viewed ArrayBuffer is detached');
    readableByteStreamControllerRespondWithNewView(r.controller, view);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'ReadableStreamBYOBRequest', { view: this.view, controller: this[kState].controller }, depth, options);
  }
}
ObjectDefineProperty(ReadableStreamBYOBRequest.prototype, SymbolToStringTag, {
  value: 'ReadableStreamBYOBRequest', configurable: true,
});

// ---- ReadableByteStreamController (§4.7)

class ReadableByteStreamController {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get byobRequest() {
    if (!isReadableByteStreamController(this)) throw invalidThis('ReadableByteStreamController');
    return readableByteStreamControllerGetBYOBRequest(this);
  }

  get desiredSize() {
    if (!isReadableByteStreamController(this)) throw invalidThis('ReadableByteStreamController');
    return readableByteStreamControllerGetDesiredSize(this);
  }

  close() {
    if (!isReadableByteStreamController(this)) throw invalidThis('ReadableByteStreamController');
    const c = this[kState];
    if (c.closeRequested) throw invalidState('Controller is already closed');
    if (c.stream[kState].state !== 'readable') throw invalidState('ReadableStream is already closed');
    readableByteStreamControllerClose(this);
  }

  enqueue(chunk) {
    if (!isReadableByteStreamController(this)) throw invalidThis('ReadableByteStreamController');
    if (!ArrayBufferIsView(chunk)) throw ERR_INVALID_ARG_TYPE('chunk', ['Buffer', 'TypedArray', 'DataView'], chunk);
    const c = this[kState];
    if (chunk.byteLength === 0) throw invalidState('chunk ArrayBuffer is zero-length or detached');
    if (arrayBufferByteLength(chunk.buffer) === 0) throw invalidState('chunk ArrayBuffer is zero-length or detached');
    if (c.closeRequested) throw invalidState('Controller is already closed');
    if (c.stream[kState].state !== 'readable') throw invalidState('ReadableStream is already closed');
    readableByteStreamControllerEnqueue(this, chunk);
  }

  error(e = undefined) {
    if (!isReadableByteStreamController(this)) throw invalidThis('ReadableByteStreamController');
    readableByteStreamControllerError(this, e);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'ReadableByteStreamController', {}, depth, options);
  }
}
ObjectDefineProperty(ReadableByteStreamController.prototype, SymbolToStringTag, {
  value: 'ReadableByteStreamController', configurable: true,
});

function isReadableByteStreamController(v) {
  return hasBrand(v, 'ReadableByteStreamController');
}

function readableByteStreamControllerCallPullIfNeeded(controller) {
  const c = controller[kState];
  if (!readableByteStreamControllerShouldCallPull(controller)) return;
  if (c.pulling) {
    c.pullAgain = true;
    return;
  }
  c.pulling = true;
  uponPromise(c.pullAlgorithm(), () => {
    c.pulling = false;
    if (c.pullAgain) {
      c.pullAgain = false;
      readableByteStreamControllerCallPullIfNeeded(controller);
    }
  }, (e) => readableByteStreamControllerError(controller, e));
}

function readableByteStreamControllerClearAlgorithms(controller) {
  const c = controller[kState];
  c.pullAlgorithm = undefined;
  c.cancelAlgorithm = undefined;
}

function readableByteStreamControllerClearPendingPullIntos(controller) {
  readableByteStreamControllerInvalidateBYOBRequest(controller);
  controller[kState].pendingPullIntos = [];
}

// ReadableByteStreamControllerClose (§4.10.4)
function readableByteStreamControllerClose(controller) {
  const c = controller[kState];
  const stream = c.stream;
  if (c.closeRequested || stream[kState].state !== 'readable') return;
  if (c.queueTotalSize > 0) {
    c.closeRequested = true;
    return;
  }
  if (c.pendingPullIntos.length > 0) {
    const first = c.pendingPullIntos[0];
    if (first.bytesFilled % first.elementSize !== 0) {
      const e = invalidState('Partial read');
      readableByteStreamControllerError(controller, e);
      throw e;
    }
  }
  readableByteStreamControllerClearAlgorithms(controller);
  readableStreamClose(stream);
}

function readableByteStreamControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor) {
  let done = false;
  if (stream[kState].state === 'closed') done = true;
  const filledView = readableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === 'default') {
    readableStreamFulfillReadRequest(stream, filledView, done);
  } else {
    readableStreamFulfillReadIntoRequest(stream, filledView, done);
  }
}

function readableByteStreamControllerConvertPullIntoDescriptor(d) {
  const buffer = transferArrayBuffer(d.buffer);
  return new d.viewConstructor(buffer, d.byteOffset, d.bytesFilled / d.elementSize);
}

// ReadableByteStreamControllerEnqueue (§4.10.8)
function readableByteStreamControllerEnqueue(controller, chunk) {
  const c = controller[kState];
  const stream = c.stream;
  if (c.closeRequested || stream[kState].state !== 'readable') return;
  const { buffer, byteOffset, byteLength } = chunk;
  if (isDetached(buffer)) throw invalidState('chunk ArrayBuffer is zero-length or detached');
  const transferredBuffer = transferArrayBuffer(buffer);
  if (c.pendingPullIntos.length > 0) {
    const first = c.pendingPullIntos[0];
    if (isDetached(first.buffer)) throw invalidState('The BYOB request buffer is detached');
    readableByteStreamControllerInvalidateBYOBRequest(controller);
    first.buffer = transferArrayBuffer(first.buffer);
    if (first.readerType === 'none') {
      readableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, first);
    }
  }
  if (readableStreamHasDefaultReader(stream)) {
    readableByteStreamControllerProcessReadRequestsUsingQueue(controller);
    if (readableStreamGetNumReadRequests(stream) === 0) {
      readableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    } else {
      if (c.pendingPullIntos.length > 0) readableByteStreamControllerShiftPendingPullInto(controller);
      const transferredView = new Uint8Array(transferredBuffer, byteOffset, byteLength);
      readableStreamFulfillReadRequest(stream, transferredView, false);
    }
  } else if (readableStreamHasBYOBReader(stream)) {
    readableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
  } else {
    readableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
  }
  readableByteStreamControllerCallPullIfNeeded(controller);
}

function readableByteStreamControllerEnqueueChunkToQueue(controller, buffer, byteOffset, byteLength) {
  const c = controller[kState];
  ArrayPrototypePush(c.queue, { buffer, byteOffset, byteLength });
  c.queueTotalSize += byteLength;
}

function readableByteStreamControllerEnqueueClonedChunkToQueue(controller, buffer, byteOffset, byteLength) {
  let cloneResult;
  try {
    cloneResult = cloneArrayBuffer(buffer, byteOffset, byteLength);
  } catch (e) {
    readableByteStreamControllerError(controller, e);
    throw e;
  }
  readableByteStreamControllerEnqueueChunkToQueue(controller, cloneResult, 0, byteLength);
}

function readableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, d) {
  if (d.bytesFilled > 0) {
    readableByteStreamControllerEnqueueClonedChunkToQueue(controller, d.buffer, d.byteOffset, d.bytesFilled);
  }
  readableByteStreamControllerShiftPendingPullInto(controller);
}

// ReadableByteStreamControllerFillPullIntoDescriptorFromQueue (§4.10.12)
function readableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, d) {
  const c = controller[kState];
  const maxBytesToCopy = MathMin(c.queueTotalSize, d.byteLength - d.bytesFilled);
  const maxBytesFilled = d.bytesFilled + maxBytesToCopy;
  let totalBytesToCopyRemaining = maxBytesToCopy;
  let ready = false;
  const remainderBytes = maxBytesFilled % d.elementSize;
  const maxAlignedBytes = maxBytesFilled - remainderBytes;
  if (maxAlignedBytes >= d.elementSize) {
    totalBytesToCopyRemaining = maxAlignedBytes - d.bytesFilled;
    ready = true;
  }
  const queue = c.queue;
  while (totalBytesToCopyRemaining > 0) {
    const headOfQueue = queue[0];
    const bytesToCopy = MathMin(totalBytesToCopyRemaining, headOfQueue.byteLength);
    const destStart = d.byteOffset + d.bytesFilled;
    new Uint8Array(d.buffer, destStart, bytesToCopy)
      .set(new Uint8Array(headOfQueue.buffer, headOfQueue.byteOffset, bytesToCopy));
    if (headOfQueue.byteLength === bytesToCopy) {
      ArrayPrototypeShift(queue);
    } else {
      headOfQueue.byteOffset += bytesToCopy;
      headOfQueue.byteLength -= bytesToCopy;
    }
    c.queueTotalSize -= bytesToCopy;
    readableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesToCopy, d);
    totalBytesToCopyRemaining -= bytesToCopy;
  }
  return ready;
}

function readableByteStreamControllerFillReadRequestFromQueue(controller, readRequest) {
  const c = controller[kState];
  const entry = ArrayPrototypeShift(c.queue);
  c.queueTotalSize -= entry.byteLength;
  readableByteStreamControllerHandleQueueDrain(controller);
  readRequest.chunk(new Uint8Array(entry.buffer, entry.byteOffset, entry.byteLength));
}

function readableByteStreamControllerGetBYOBRequest(controller) {
  const c = controller[kState];
  if (c.byobRequest === null && c.pendingPullIntos.length > 0) {
    const first = c.pendingPullIntos[0];
    const view = new Uint8Array(first.buffer, first.byteOffset + first.bytesFilled, first.byteLength - first.bytesFilled);
    const byobRequest = ObjectCreate(ReadableStreamBYOBRequest.prototype);
    setSlots(byobRequest, { brand: 'ReadableStreamBYOBRequest', controller, view });
    c.byobRequest = byobRequest;
  }
  return c.byobRequest;
}

function readableByteStreamControllerGetDesiredSize(controller) {
  const c = controller[kState];
  const state = c.stream[kState].state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return c.strategyHWM - c.queueTotalSize;
}

function readableByteStreamControllerHandleQueueDrain(controller) {
  const c = controller[kState];
  if (c.queueTotalSize === 0 && c.closeRequested) {
    readableByteStreamControllerClearAlgorithms(controller);
    readableStreamClose(c.stream);
  } else {
    readableByteStreamControllerCallPullIfNeeded(controller);
  }
}

function readableByteStreamControllerInvalidateBYOBRequest(controller) {
  const c = controller[kState];
  if (c.byobRequest === null) return;
  c.byobRequest[kState].controller = undefined;
  c.byobRequest[kState].view = null;
  c.byobRequest = null;
}

function readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller) {
  const c = controller[kState];
  while (c.pendingPullIntos.length > 0) {
    if (c.queueTotalSize === 0) return;
    const d = c.pendingPullIntos[0];
    if (readableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, d)) {
      readableByteStreamControllerShiftPendingPullInto(controller);
      readableByteStreamControllerCommitPullIntoDescriptor(c.stream, d);
    }
  }
}

function readableByteStreamControllerProcessReadRequestsUsingQueue(controller) {
  const c = controller[kState];
  const reader = c.stream[kState].reader;
  while (reader[kState].readRequests.length > 0) {
    if (c.queueTotalSize === 0) return;
    const readRequest = ArrayPrototypeShift(reader[kState].readRequests);
    readableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
  }
}

// ReadableByteStreamControllerPullInto (§4.10.21)
function readableByteStreamControllerPullInto(controller, view, readIntoRequest) {
  const c = controller[kState];
  const stream = c.stream;
  let elementSize = 1;
  let ctor = DataView;
  if (!(view instanceof DataView)) {
    ctor = view.constructor;
    elementSize = view.BYTES_PER_ELEMENT ?? 1;
    const name = typedArrayName(view);
    if (name && globalThis[name]) ctor = globalThis[name];
  }
  const { byteOffset, byteLength } = view;
  let buffer;
  try {
    buffer = transferArrayBuffer(view.buffer);
  } catch (e) {
    readIntoRequest.error(e);
    return;
  }
  const d = {
    buffer, bufferByteLength: arrayBufferByteLength(buffer), byteOffset, byteLength,
    bytesFilled: 0, elementSize, viewConstructor: ctor, readerType: 'byob',
  };
  if (c.pendingPullIntos.length > 0) {
    ArrayPrototypePush(c.pendingPullIntos, d);
    readableStreamAddReadIntoRequest(stream, readIntoRequest);
    return;
  }
  if (stream[kState].state === 'closed') {
    const emptyView = new ctor(d.buffer, d.byteOffset, 0);
    readIntoRequest.close(emptyView);
    return;
  }
  if (c.queueTotalSize > 0) {
    if (readableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, d)) {
      const filledView = readableByteStreamControllerConvertPullIntoDescriptor(d);
      readableByteStreamControllerHandleQueueDrain(controller);
      readIntoRequest.chunk(filledView);
      return;
    }
    if (c.closeRequested) {
      const e = invalidState('ReadableStream closed');
      readableByteStreamControllerError(controller, e);
      readIntoRequest.error(e);
      return;
    }
  }
  ArrayPrototypePush(c.pendingPullIntos, d);
  readableStreamAddReadIntoRequest(stream, readIntoRequest);
  readableByteStreamControllerCallPullIfNeeded(controller);
}

function readableByteStreamControllerRespond(controller, bytesWritten) {
  const c = controller[kState];
  const n = Number(bytesWritten);
  if (!NumberIsFinite(n) || n < 0) throw invalidArgValue(RangeError, 'bytesWritten', bytesWritten, 'argument');
  const first = c.pendingPullIntos[0];
  const state = c.stream[kState].state;
  if (state === 'closed') {
    if (n !== 0) throw makeError(TypeError, 'ERR_INVALID_STATE', 'Invalid state: Controller is closed');
  } else {
    if (n === 0) throw makeError(TypeError, 'ERR_INVALID_STATE', 'Invalid state: bytesWritten must be greater than zero');
    if (first.bytesFilled + n > first.byteLength) throw makeError(RangeError, 'ERR_OUT_OF_RANGE',
      `The value of "bytesWritten" is out of range. Received ${n}`);
  }
  first.buffer = transferArrayBuffer(first.buffer);
  readableByteStreamControllerRespondInternal(controller, n);
}

function readableByteStreamControllerRespondInClosedState(controller, first) {
  const c = controller[kState];
  if (first.readerType === 'none') readableByteStreamControllerShiftPendingPullInto(controller);
  const stream = c.stream;
  if (readableStreamHasBYOBReader(stream)) {
    while (readableStreamGetNumReadIntoRequests(stream) > 0) {
      const d = readableByteStreamControllerShiftPendingPullInto(controller);
      readableByteStreamControllerCommitPullIntoDescriptor(stream, d);
    }
  }
}

function readableByteStreamControllerRespondInReadableState(controller, bytesWritten, d) {
  readableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesWritten, d);
  if (d.readerType === 'none') {
    readableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, d);
    readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    return;
  }
  if (d.bytesFilled < d.elementSize) return;
  readableByteStreamControllerShiftPendingPullInto(controller);
  const remainderSize = d.bytesFilled % d.elementSize;
  if (remainderSize > 0) {
    const end = d.byteOffset + d.bytesFilled;
    readableByteStreamControllerEnqueueClonedChunkToQueue(controller, d.buffer, end - remainderSize, remainderSize);
  }
  d.bytesFilled -= remainderSize;
  readableByteStreamControllerCommitPullIntoDescriptor(controller[kState].stream, d);
  readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
}

function readableByteStreamControllerRespondInternal(controller, bytesWritten) {
  const c = controller[kState];
  const first = c.pendingPullIntos[0];
  readableByteStreamControllerInvalidateBYOBRequest(controller);
  if (c.stream[kState].state === 'closed') {
    readableByteStreamControllerRespondInClosedState(controller, first);
  } else {
    readableByteStreamControllerRespondInReadableState(controller, bytesWritten, first);
  }
  readableByteStreamControllerCallPullIfNeeded(controller);
}

function readableByteStreamControllerRespondWithNewView(controller, view) {
  const c = controller[kState];
  const first = c.pendingPullIntos[0];
  const state = c.stream[kState].state;
  if (state === 'closed') {
    if (view.byteLength !== 0) throw invalidState('The view\'s length must be 0 when the stream is closed');
  } else if (view.byteLength === 0) {
    throw invalidState('The view\'s length must be greater than 0');
  }
  if (first.byteOffset + first.bytesFilled !== view.byteOffset) {
    throw makeError(RangeError, 'ERR_INVALID_ARG_VALUE', 'The region specified by view does not match byobRequest');
  }
  if (first.bufferByteLength !== arrayBufferByteLength(view.buffer)) {
    throw makeError(RangeError, 'ERR_INVALID_ARG_VALUE', 'The buffer of view has different capacity than byobRequest');
  }
  if (first.bytesFilled + view.byteLength > first.byteLength) {
    throw makeError(RangeError, 'ERR_INVALID_ARG_VALUE', 'The region specified by view is larger than byobRequest');
  }
  const viewByteLength = view.byteLength;
  first.buffer = transferArrayBuffer(view.buffer);
  readableByteStreamControllerRespondInternal(controller, viewByteLength);
}

function readableByteStreamControllerShiftPendingPullInto(controller) {
  return ArrayPrototypeShift(controller[kState].pendingPullIntos);
}

function readableByteStreamControllerFillHeadPullIntoDescriptor(controller, size, d) {
  d.bytesFilled += size;
}

function readableByteStreamControllerShouldCallPull(controller) {
  const c = controller[kState];
  const stream = c.stream;
  if (stream[kState].state !== 'readable') return false;
  if (c.closeRequested) return false;
  if (!c.started) return false;
  if (readableStreamHasDefaultReader(stream) && readableStreamGetNumReadRequests(stream) > 0) return true;
  if (readableStreamHasBYOBReader(stream) && readableStreamGetNumReadIntoRequests(stream) > 0) return true;
  return readableByteStreamControllerGetDesiredSize(controller) > 0;
}

function readableByteStreamControllerError(controller, e) {
  const c = controller[kState];
  const stream = c.stream;
  if (stream[kState].state !== 'readable') return;
  readableByteStreamControllerClearPendingPullIntos(controller);
  c.queue = [];
  c.queueTotalSize = 0;
  readableByteStreamControllerClearAlgorithms(controller);
  readableStreamError(stream, e);
}

// SetUpReadableByteStreamController (§4.10.28)
function setUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize) {
  const c = {
    brand: 'ReadableByteStreamController',
    stream,
    pullAgain: false,
    pulling: false,
    byobRequest: null,
    queue: [],
    queueTotalSize: 0,
    closeRequested: false,
    started: false,
    strategyHWM: highWaterMark,
    pullAlgorithm,
    cancelAlgorithm,
    autoAllocateChunkSize,
    pendingPullIntos: [],
    // [[CancelSteps]] (§4.7.4)
    cancelSteps(reason) {
      readableByteStreamControllerClearPendingPullIntos(controller);
      c.queue = [];
      c.queueTotalSize = 0;
      const result = c.cancelAlgorithm(reason);
      readableByteStreamControllerClearAlgorithms(controller);
      return result;
    },
    // [[PullSteps]] (§4.7.4)
    pullSteps(readRequest) {
      if (c.queueTotalSize > 0) {
        readableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
        return;
      }
      if (c.autoAllocateChunkSize !== undefined) {
        let buffer;
        try {
          buffer = new ArrayBuffer(c.autoAllocateChunkSize);
        } catch (e) {
          readRequest.error(e);
          return;
        }
        ArrayPrototypePush(c.pendingPullIntos, {
          buffer, bufferByteLength: c.autoAllocateChunkSize, byteOffset: 0, byteLength: c.autoAllocateChunkSize,
          bytesFilled: 0, elementSize: 1, viewConstructor: Uint8Array, readerType: 'default',
        });
      }
      readableStreamAddReadRequest(stream, readRequest);
      readableByteStreamControllerCallPullIfNeeded(controller);
    },
    // [[ReleaseSteps]] (§4.7.4)
    releaseSteps() {
      if (c.pendingPullIntos.length > 0) {
        const first = c.pendingPullIntos[0];
        first.readerType = 'none';
        c.pendingPullIntos = [first];
      }
    },
  };
  setSlots(controller, c);
  stream[kState].controller = controller;
  const startResult = startAlgorithm();
  uponPromise(promiseResolvedWith(startResult), () => {
    c.started = true;
    readableByteStreamControllerCallPullIfNeeded(controller);
  }, (r) => readableByteStreamControllerError(controller, r));
}

function setUpReadableByteStreamControllerFromUnderlyingSource(stream, source, highWaterMark) {
  const controller = ObjectCreate(ReadableByteStreamController.prototype);
  const start = getMethod(source, 'start', 'source');
  const pull = getMethod(source, 'pull', 'source');
  const cancel = getMethod(source, 'cancel', 'source');
  const startAlgorithm = start ? () => ReflectApply(start, source, [controller]) : () => undefined;
  const pullAlgorithm = pull ? () => promiseCall(pull, source, [controller]) : noopPromise;
  const cancelAlgorithm = cancel ? (reason) => promiseCall(cancel, source, [reason]) : noopPromise;
  let autoAllocateChunkSize = source.autoAllocateChunkSize;
  if (autoAllocateChunkSize !== undefined) {
    autoAllocateChunkSize = Number(autoAllocateChunkSize);
    if (!NumberIsInteger(autoAllocateChunkSize) || autoAllocateChunkSize <= 0) {
      throw invalidArgValue(RangeError, 'source.autoAllocateChunkSize', source.autoAllocateChunkSize);
    }
  }
  setUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize);
}
