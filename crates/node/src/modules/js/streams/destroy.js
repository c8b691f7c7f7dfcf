'use strict';
// destroy() and the error/close events it schedules, errorOrDestroy, and _construct, shared by
// Readable and Writable (Node's lib/internal/streams/destroy.js).

const { E, nextTick } = require('node:internal/streams/common');

// ---- destroy helpers

function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const s = w || r;
  if ((w && w.destroyed) || (r && r.destroyed)) {
    if (typeof cb === 'function') cb();
    return this;
  }
  checkError(err, w, r);
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  if (!s.constructed) {
    this.once('__amber_destroy', (er) => _destroy(this, err || er, cb));
  } else {
    _destroy(this, err, cb);
  }
  return this;
}

function checkError(err, w, r) {
  if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
  }
}

function _destroy(self, err, cb) {
  let called = false;
  function onDestroy(err) {
    if (called) return;
    called = true;
    const r = self._readableState;
    const w = self._writableState;
    checkError(err, w, r);
    if (w) w.closed = true;
    if (r) r.closed = true;
    if (typeof cb === 'function') cb(err);
    if (err) nextTick(emitErrorCloseNT, self, err);
    else nextTick(emitCloseNT, self);
  }
  try {
    self._destroy(err || null, onDestroy);
  } catch (e) {
    onDestroy(e);
  }
}

function emitErrorCloseNT(self, err) {
  emitErrorNT(self, err);
  emitCloseNT(self);
}

function emitCloseNT(self) {
  const r = self._readableState;
  const w = self._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if ((w && w.emitClose) || (r && r.emitClose)) self.emit('close');
}

function emitErrorNT(self, err) {
  const r = self._readableState;
  const w = self._writableState;
  if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  self.emit('error', err);
}

function errorOrDestroy(stream, err, sync) {
  const r = stream._readableState;
  const w = stream._writableState;
  if ((w && w.destroyed) || (r && r.destroyed)) return;
  if ((r && r.autoDestroy) || (w && w.autoDestroy)) {
    stream.destroy(err);
  } else if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
    if (sync) nextTick(emitErrorNT, stream, err);
    else emitErrorNT(stream, err);
  }
}

function construct(stream, cb) {
  if (typeof stream._construct !== 'function') return;
  const r = stream._readableState;
  const w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  stream.once('__amber_construct', cb);
  nextTick(() => {
    let called = false;
    function onConstruct(err) {
      if (called) { errorOrDestroy(stream, err ?? E.MULTIPLE_CALLBACK()); return; }
      called = true;
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      const s = w || r;
      if (s.destroyed) stream.emit('__amber_destroy', err);
      else if (err) errorOrDestroy(stream, err, true);
      else nextTick(() => stream.emit('__amber_construct'));
    }
    try {
      stream._construct((err) => nextTick(onConstruct, err));
    } catch (err) {
      nextTick(onConstruct, err);
    }
  });
}

module.exports = {
  construct, destroy, errorOrDestroy,
};
