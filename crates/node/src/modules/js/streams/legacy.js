'use strict';
// Stream, the legacy base every node stream inherits (an EventEmitter with the old `pipe`).
const {
  FunctionPrototypeCall, ObjectSetPrototypeOf,
} = primordials;

const EE = require('events');

// ---- Stream (legacy base)

function Stream(opts) {
  FunctionPrototypeCall(EE, this, opts);
}
ObjectSetPrototypeOf(Stream.prototype, EE.prototype);
ObjectSetPrototypeOf(Stream, EE);

Stream.prototype.pipe = function pipe(dest, options) {
  const source = this;
  function ondata(chunk) {
    if (dest.writable && dest.write(chunk) === false && source.pause) source.pause();
  }
  source.on('data', ondata);
  function ondrain() { if (source.readable && source.resume) source.resume(); }
  dest.on('drain', ondrain);
  let didOnEnd = false;
  function onend() { if (didOnEnd) return; didOnEnd = true; dest.end(); }
  function onclose() { if (didOnEnd) return; didOnEnd = true; if (typeof dest.destroy === 'function') dest.destroy(); }
  if (!dest._isStdio && (!options || options.end !== false)) {
    source.on('end', onend);
    source.on('close', onclose);
  }
  function onerror(er) { cleanup(); if (EE.listenerCount(this, 'error') === 0) this.emit('error', er); }
  source.prependListener('error', onerror);
  dest.prependListener('error', onerror);
  function cleanup() {
    source.removeListener('data', ondata);
    dest.removeListener('drain', ondrain);
    source.removeListener('end', onend);
    source.removeListener('close', onclose);
    source.removeListener('error', onerror);
    dest.removeListener('error', onerror);
    source.removeListener('end', cleanup);
    source.removeListener('close', cleanup);
    dest.removeListener('close', cleanup);
  }
  source.on('end', cleanup);
  source.on('close', cleanup);
  dest.on('close', cleanup);
  dest.emit('pipe', source);
  return dest;
};

module.exports = {
  Stream,
};
