// ---- ReadableStreamPipeTo (§4.9.7) and ReadableStreamTee (§4.9.8, §4.9.9)

function readableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const reader = acquireReadableStreamDefaultReader(source);
  const writer = acquireWritableStreamDefaultWriter(dest);
  source[kState].disturbed = true;
  let shuttingDown = false;
  // The last write the pipe started; shutdown waits for it before finishing.
  let currentWrite = promiseResolvedWith(undefined);
  const cap = newPromiseCapability();
  let abortAlgorithm;

  const finalize = (isError, error) => {
    writableStreamDefaultWriterRelease(writer);
    readableStreamDefaultReaderRelease(reader);
    if (signal !== undefined) signal.removeEventListener('abort', abortAlgorithm);
    if (isError) cap.reject(error);
    else cap.resolve(undefined);
  };

  const waitForWritesToFinish = () => {
    const oldCurrentWrite = currentWrite;
    return uponPromise(currentWrite, () => (oldCurrentWrite !== currentWrite ? waitForWritesToFinish() : undefined));
  };

  // Shutdown with an action (§4.9.7 "shutdown with an action").
  const shutdownWithAnAction = (action, originalIsError, originalError) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const doTheRest = () => {
      uponPromise(action(), () => finalize(originalIsError, originalError), (newError) => finalize(true, newError));
    };
    if (dest[kState].state === 'writable' && !writableStreamCloseQueuedOrInFlight(dest)) {
      uponPromise(waitForWritesToFinish(), doTheRest);
    } else {
      doTheRest();
    }
  };

  const shutdown = (isError, error) => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest[kState].state === 'writable' && !writableStreamCloseQueuedOrInFlight(dest)) {
      uponPromise(waitForWritesToFinish(), () => finalize(isError, error));
    } else {
      finalize(isError, error);
    }
  };

  if (signal !== undefined) {
    abortAlgorithm = () => {
      const error = signal.reason;
      const actions = [];
      if (!preventAbort) {
        ArrayPrototypePush(actions, () => (dest[kState].state === 'writable' ? writableStreamAbort(dest, error) : promiseResolvedWith(undefined)));
      }
      if (!preventCancel) {
        ArrayPrototypePush(actions, () => (source[kState].state === 'readable' ? readableStreamCancel(source, error) : promiseResolvedWith(undefined)));
      }
      shutdownWithAnAction(() => PromiseCtor.all(ArrayPrototypeMap(actions, (action) => action())), true, error);
    };
    if (signal.aborted) {
      abortAlgorithm();
      return cap.promise;
    }
    signal.addEventListener('abort', abortAlgorithm);
  }

  // Error and close propagation, checked as the spec orders them.
  const sourceErrored = (storedError) => {
    if (!preventAbort) shutdownWithAnAction(() => writableStreamAbort(dest, storedError), true, storedError);
    else shutdown(true, storedError);
  };
  const destErrored = (storedError) => {
    if (!preventCancel) shutdownWithAnAction(() => readableStreamCancel(source, storedError), true, storedError);
    else shutdown(true, storedError);
  };
  const sourceClosed = () => {
    if (!preventClose) shutdownWithAnAction(() => writableStreamDefaultWriterCloseWithErrorPropagation(writer));
    else shutdown();
  };
  const destClosed = () => {
    const destClosedError = invalidState('The destination writable stream closed before all the data could be piped to it.');
    if (!preventCancel) shutdownWithAnAction(() => readableStreamCancel(source, destClosedError), true, destClosedError);
    else shutdown(true, destClosedError);
  };

  uponPromise(reader[kState].closedPromise.promise, () => {
    if (!shuttingDown) sourceClosed();
  }, (e) => {
    if (!shuttingDown) sourceErrored(e);
  });
  uponPromise(writer[kState].closedPromise.promise, undefined, (e) => {
    if (!shuttingDown) destErrored(e);
  });

  const checkInitialState = () => {
    if (source[kState].state === 'errored') {
      sourceErrored(source[kState].storedError);
      return false;
    }
    if (dest[kState].state === 'errored' || dest[kState].state === 'erroring') {
      destErrored(dest[kState].storedError);
      return false;
    }
    if (source[kState].state === 'closed') {
      sourceClosed();
      return false;
    }
    if (writableStreamCloseQueuedOrInFlight(dest) || dest[kState].state === 'closed') {
      destClosed();
      return false;
    }
    return true;
  };

  // One chunk at a time: wait for the writer to be ready (backpressure), read, write.
  const pipeStep = () => {
    if (shuttingDown) return;
    uponPromise(writer[kState].readyPromise.promise, () => {
      if (shuttingDown) return;
      readableStreamDefaultReaderRead(reader, {
        chunk: (chunk) => {
          currentWrite = writableStreamDefaultWriterWrite(writer, chunk);
          setPromiseIsHandled(currentWrite);
          pipeStep();
        },
        close: () => {},
        error: () => {},
      });
    }, () => {});
  };

  if (checkInitialState()) pipeStep();
  return cap.promise;
}

// ReadableStreamTee: a default stream's chunks go to both branches as they are; a byte
// stream's branches are byte streams and the second gets a copy of each chunk, so one
// branch's consumer cannot see the other's changes (as ReadableByteStreamTee guarantees).
function readableStreamTee(stream, cloneForBranch2) {
  const isBytes = isReadableByteStreamController(stream[kState].controller);
  const reader = acquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgain = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelCap = newPromiseCapability();

  const enqueue = (branch, chunk) => {
    const controller = branch[kState].controller;
    if (isBytes) readableByteStreamControllerEnqueue(controller, chunk);
    else readableStreamDefaultControllerEnqueue(controller, chunk);
  };
  const close = (branch) => {
    const controller = branch[kState].controller;
    if (isBytes) {
      readableByteStreamControllerClose(controller);
      if (controller[kState].pendingPullIntos.length > 0) readableByteStreamControllerRespond(controller, 0);
    } else {
      readableStreamDefaultControllerClose(controller);
    }
  };
  const error = (branch, e) => {
    const controller = branch[kState].controller;
    if (isBytes) readableByteStreamControllerError(controller, e);
    else readableStreamDefaultControllerError(controller, e);
  };

  const pullAlgorithm = () => {
    if (reading) {
      readAgain = true;
      return promiseResolvedWith(undefined);
    }
    reading = true;
    readableStreamDefaultReaderRead(reader, {
      // The chunk steps run in a microtask, so a pull that finds the queue empty
      // resolves before the branches see the chunk (the spec's "queue a microtask").
      chunk: (chunk) => {
        queueMicrotask(() => {
          readAgain = false;
          let chunk1 = chunk;
          let chunk2 = chunk;
          if (isBytes) {
            chunk2 = new Uint8Array(cloneArrayBuffer(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          } else if (!canceled2 && cloneForBranch2) {
            chunk2 = structuredCloneFn()(chunk2);
          }
          if (isBytes && !canceled1 && !canceled2) {
            chunk1 = chunk;
          }
          if (!canceled1) enqueue(branch1, chunk1);
          if (!canceled2) enqueue(branch2, chunk2);
          reading = false;
          if (readAgain) pullAlgorithm();
        });
      },
      close: () => {
        reading = false;
        if (!canceled1) close(branch1);
        if (!canceled2) close(branch2);
        if (!canceled1 || !canceled2) cancelCap.resolve(undefined);
      },
      error: () => {
        reading = false;
      },
    });
    return promiseResolvedWith(undefined);
  };

  const cancel1Algorithm = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      cancelCap.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return cancelCap.promise;
  };
  const cancel2Algorithm = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      cancelCap.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return cancelCap.promise;
  };
  const startAlgorithm = () => undefined;
  if (isBytes) {
    branch1 = createReadableByteStream(startAlgorithm, pullAlgorithm, cancel1Algorithm);
    branch2 = createReadableByteStream(startAlgorithm, pullAlgorithm, cancel2Algorithm);
  } else {
    branch1 = createReadableStream(startAlgorithm, pullAlgorithm, cancel1Algorithm);
    branch2 = createReadableStream(startAlgorithm, pullAlgorithm, cancel2Algorithm);
  }
  uponPromise(reader[kState].closedPromise.promise, undefined, (r) => {
    error(branch1, r);
    error(branch2, r);
    if (!canceled1 || !canceled2) cancelCap.resolve(undefined);
  });
  return [branch1, branch2];
}

function structuredCloneFn() {
  return require('node:internal/web').structuredClone;
}
