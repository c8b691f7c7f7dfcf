// ---- TransformStream (§6)

class TransformStream {
  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    if (transformer !== undefined && transformer !== null && typeof transformer !== 'object') {
      throw ERR_INVALID_ARG_TYPE('transformer', 'object', transformer);
    }
    validateDictionary(writableStrategy, 'writableStrategy');
    validateDictionary(readableStrategy, 'readableStrategy');
    const t = transformer ?? {};
    if (t.readableType !== undefined) throw invalidArgValue(RangeError, 'transformer.readableType', t.readableType);
    if (t.writableType !== undefined) throw invalidArgValue(RangeError, 'transformer.writableType', t.writableType);
    const readableHighWaterMark = extractHighWaterMark(readableStrategy, 0);
    const readableSizeAlgorithm = extractSizeAlgorithm(readableStrategy);
    const writableHighWaterMark = extractHighWaterMark(writableStrategy, 1);
    const writableSizeAlgorithm = extractSizeAlgorithm(writableStrategy);
    const startPromise = newPromiseCapability();
    initializeTransformStream(this, startPromise.promise, writableHighWaterMark, writableSizeAlgorithm,
      readableHighWaterMark, readableSizeAlgorithm);
    setUpTransformStreamDefaultControllerFromTransformer(this, t);
    const start = getMethod(t, 'start', 'transformer');
    if (start) {
      startPromise.resolve(ReflectApply(start, t, [this[kState].controller]));
    } else {
      startPromise.resolve(undefined);
    }
  }

  get readable() {
    if (!isTransformStream(this)) throw invalidThis('TransformStream');
    return this[kState].readable;
  }

  get writable() {
    if (!isTransformStream(this)) throw invalidThis('TransformStream');
    return this[kState].writable;
  }

  [kInspect](depth, options) {
    const s = this[kState];
    return customInspect(this, 'TransformStream', {
      readable: s.readable, writable: s.writable, backpressure: s.backpressure,
    }, depth, options);
  }
}
ObjectDefineProperty(TransformStream.prototype, SymbolToStringTag, { value: 'TransformStream', configurable: true });

function isTransformStream(v) {
  return hasBrand(v, 'TransformStream');
}

// InitializeTransformStream (§6.4.1.2)
function initializeTransformStream(stream, startPromise, writableHighWaterMark, writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm) {
  const s = {
    brand: 'TransformStream',
    readable: undefined,
    writable: undefined,
    backpressure: undefined,
    backpressureChangePromise: undefined,
    controller: undefined,
  };
  setSlots(stream, s);
  const startAlgorithm = () => startPromise;
  const writeAlgorithm = (chunk) => transformStreamDefaultSinkWriteAlgorithm(stream, chunk);
  const abortAlgorithm = (reason) => transformStreamDefaultSinkAbortAlgorithm(stream, reason);
  const closeAlgorithm = () => transformStreamDefaultSinkCloseAlgorithm(stream);
  s.writable = createWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm,
    writableHighWaterMark, writableSizeAlgorithm);
  const pullAlgorithm = () => transformStreamDefaultSourcePullAlgorithm(stream);
  const cancelAlgorithm = (reason) => transformStreamDefaultSourceCancelAlgorithm(stream, reason);
  s.readable = createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, readableHighWaterMark, readableSizeAlgorithm);
  s.backpressure = undefined;
  s.backpressureChangePromise = undefined;
  transformStreamSetBackpressure(stream, true);
  s.controller = undefined;
}

function transformStreamError(stream, e) {
  readableStreamDefaultControllerError(stream[kState].readable[kState].controller, e);
  transformStreamErrorWritableAndUnblockWrite(stream, e);
}

function transformStreamErrorWritableAndUnblockWrite(stream, e) {
  transformStreamDefaultControllerClearAlgorithms(stream[kState].controller);
  writableStreamDefaultControllerErrorIfNeeded(stream[kState].writable[kState].controller, e);
  transformStreamUnblockWrite(stream);
}

function transformStreamUnblockWrite(stream) {
  if (stream[kState].backpressure) transformStreamSetBackpressure(stream, false);
}

function transformStreamSetBackpressure(stream, backpressure) {
  const s = stream[kState];
  if (s.backpressureChangePromise !== undefined) s.backpressureChangePromise.resolve(undefined);
  s.backpressureChangePromise = newPromiseCapability();
  s.backpressure = backpressure;
}

// ---- TransformStreamDefaultController (§6.3)

class TransformStreamDefaultController {
  constructor() {
    throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get desiredSize() {
    if (!isTransformStreamDefaultController(this)) throw invalidThis('TransformStreamDefaultController');
    const readableController = this[kState].stream[kState].readable[kState].controller;
    return readableStreamDefaultControllerGetDesiredSize(readableController);
  }

  enqueue(chunk = undefined) {
    if (!isTransformStreamDefaultController(this)) throw invalidThis('TransformStreamDefaultController');
    transformStreamDefaultControllerEnqueue(this, chunk);
  }

  error(reason = undefined) {
    if (!isTransformStreamDefaultController(this)) throw invalidThis('TransformStreamDefaultController');
    transformStreamError(this[kState].stream, reason);
  }

  terminate() {
    if (!isTransformStreamDefaultController(this)) throw invalidThis('TransformStreamDefaultController');
    transformStreamDefaultControllerTerminate(this);
  }

  [kInspect](depth, options) {
    return customInspect(this, 'TransformStreamDefaultController', { stream: this[kState].stream }, depth, options);
  }
}
ObjectDefineProperty(TransformStreamDefaultController.prototype, SymbolToStringTag, {
  value: 'TransformStreamDefaultController', configurable: true,
});

function isTransformStreamDefaultController(v) {
  return hasBrand(v, 'TransformStreamDefaultController');
}

function setUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm) {
  setSlots(controller, {
    brand: 'TransformStreamDefaultController',
    stream,
    transformAlgorithm,
    flushAlgorithm,
    cancelAlgorithm,
    finishPromise: undefined,
  });
  stream[kState].controller = controller;
}

function setUpTransformStreamDefaultControllerFromTransformer(stream, transformer) {
  const controller = ObjectCreate(TransformStreamDefaultController.prototype);
  const transform = getMethod(transformer, 'transform', 'transformer');
  const flush = getMethod(transformer, 'flush', 'transformer');
  const cancel = getMethod(transformer, 'cancel', 'transformer');
  const transformAlgorithm = transform
    ? (chunk) => promiseCall(transform, transformer, [chunk, controller])
    : (chunk) => {
      try {
        transformStreamDefaultControllerEnqueue(controller, chunk);
        return promiseResolvedWith(undefined);
      } catch (e) {
        return promiseRejectedWith(e);
      }
    };
  const flushAlgorithm = flush ? () => promiseCall(flush, transformer, [controller]) : noopPromise;
  const cancelAlgorithm = cancel ? (reason) => promiseCall(cancel, transformer, [reason]) : noopPromise;
  setUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm);
}

function transformStreamDefaultControllerClearAlgorithms(controller) {
  const c = controller[kState];
  c.transformAlgorithm = undefined;
  c.flushAlgorithm = undefined;
  c.cancelAlgorithm = undefined;
}

// TransformStreamDefaultControllerEnqueue (§6.4.2.5)
function transformStreamDefaultControllerEnqueue(controller, chunk) {
  const stream = controller[kState].stream;
  const readableController = stream[kState].readable[kState].controller;
  if (!readableStreamDefaultControllerCanCloseOrEnqueue(readableController)) {
    throw invalidState('Unable to enqueue');
  }
  try {
    readableStreamDefaultControllerEnqueue(readableController, chunk);
  } catch (e) {
    transformStreamErrorWritableAndUnblockWrite(stream, e);
    throw stream[kState].readable[kState].storedError;
  }
  const backpressure = readableStreamDefaultControllerHasBackpressure(readableController);
  if (backpressure !== stream[kState].backpressure) transformStreamSetBackpressure(stream, true);
}

function transformStreamDefaultControllerPerformTransform(controller, chunk) {
  const transformPromise = controller[kState].transformAlgorithm(chunk);
  return uponPromise(transformPromise, undefined, (r) => {
    transformStreamError(controller[kState].stream, r);
    throw r;
  });
}

function transformStreamDefaultControllerTerminate(controller) {
  const stream = controller[kState].stream;
  const readableController = stream[kState].readable[kState].controller;
  readableStreamDefaultControllerClose(readableController);
  const error = invalidState('TransformStream has been terminated');
  transformStreamErrorWritableAndUnblockWrite(stream, error);
}

// ---- the sink and source algorithms (§6.4.3, §6.4.4)

function transformStreamDefaultSinkWriteAlgorithm(stream, chunk) {
  const controller = stream[kState].controller;
  if (stream[kState].backpressure) {
    const backpressureChangePromise = stream[kState].backpressureChangePromise.promise;
    return uponPromise(backpressureChangePromise, () => {
      const writable = stream[kState].writable;
      const state = writable[kState].state;
      if (state === 'erroring') throw writable[kState].storedError;
      return transformStreamDefaultControllerPerformTransform(controller, chunk);
    });
  }
  return transformStreamDefaultControllerPerformTransform(controller, chunk);
}

function transformStreamDefaultSinkAbortAlgorithm(stream, reason) {
  const controller = stream[kState].controller;
  const c = controller[kState];
  if (c.finishPromise !== undefined) return c.finishPromise.promise;
  const readable = stream[kState].readable;
  c.finishPromise = newPromiseCapability();
  const cancelPromise = c.cancelAlgorithm(reason);
  transformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(cancelPromise, () => {
    if (readable[kState].state === 'errored') {
      c.finishPromise.reject(readable[kState].storedError);
    } else {
      readableStreamDefaultControllerError(readable[kState].controller, reason);
      c.finishPromise.resolve(undefined);
    }
  }, (r) => {
    readableStreamDefaultControllerError(readable[kState].controller, r);
    c.finishPromise.reject(r);
  });
  return c.finishPromise.promise;
}

function transformStreamDefaultSinkCloseAlgorithm(stream) {
  const controller = stream[kState].controller;
  const c = controller[kState];
  if (c.finishPromise !== undefined) return c.finishPromise.promise;
  const readable = stream[kState].readable;
  c.finishPromise = newPromiseCapability();
  const flushPromise = c.flushAlgorithm();
  transformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(flushPromise, () => {
    if (readable[kState].state === 'errored') {
      c.finishPromise.reject(readable[kState].storedError);
    } else {
      readableStreamDefaultControllerClose(readable[kState].controller);
      c.finishPromise.resolve(undefined);
    }
  }, (r) => {
    readableStreamDefaultControllerError(readable[kState].controller, r);
    c.finishPromise.reject(r);
  });
  return c.finishPromise.promise;
}

function transformStreamDefaultSourceCancelAlgorithm(stream, reason) {
  const controller = stream[kState].controller;
  const c = controller[kState];
  if (c.finishPromise !== undefined) return c.finishPromise.promise;
  const writable = stream[kState].writable;
  c.finishPromise = newPromiseCapability();
  const cancelPromise = c.cancelAlgorithm(reason);
  transformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(cancelPromise, () => {
    if (writable[kState].state === 'errored') {
      c.finishPromise.reject(writable[kState].storedError);
    } else {
      writableStreamDefaultControllerErrorIfNeeded(writable[kState].controller, reason);
      transformStreamUnblockWrite(stream);
      c.finishPromise.resolve(undefined);
    }
  }, (r) => {
    writableStreamDefaultControllerErrorIfNeeded(writable[kState].controller, r);
    transformStreamUnblockWrite(stream);
    c.finishPromise.reject(r);
  });
  return c.finishPromise.promise;
}

function transformStreamDefaultSourcePullAlgorithm(stream) {
  transformStreamSetBackpressure(stream, false);
  return stream[kState].backpressureChangePromise.promise;
}
