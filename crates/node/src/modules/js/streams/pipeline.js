'use strict';
// pipeline (callback and promise forms) and compose: connecting streams, iterables and async
// functions, and tearing all of them down on the first error.
const {
  ArrayIsArray, ArrayPrototypeForEach, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift,
  Error, FunctionPrototypeCall, Promise, SymbolAsyncIterator, TypeError,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { E, nextTick } = require('node:internal/streams/common');
const {
  destroyer,
  eos,
  isIterable,
  isNodeStream,
  isReadable,
  isReadableFinished,
  isReadableNodeStream,
} = require('node:internal/streams/end_of_stream');
const { Readable } = require('node:internal/streams/readable');
const { Duplex } = require('node:internal/streams/duplex');
const { PassThrough } = require('node:internal/streams/transform');

// ---- pipeline

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

module.exports = {
  compose, pipeline, pipelineImpl,
};
