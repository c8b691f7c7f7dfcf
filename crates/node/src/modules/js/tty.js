'use strict';
// node:tty. An Amber run has no terminal: its output goes through the embedder's print hook
// and its input comes from the journal, so no descriptor is a TTY. `isatty` is false for
// every fd, and opening a TTY stream fails as Node's does on a descriptor that is not one.

const { Readable, Writable } = require('stream');
const { makeError } = require('node:internal/errors');

function ttyInitFailed() {
  const err = makeError(Error, 'ERR_TTY_INIT_FAILED', 'TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)');
  err.errno = -22;
  err.syscall = 'uv_tty_init';
  err.info = { errno: -22, code: 'EINVAL', message: 'invalid argument', syscall: 'uv_tty_init' };
  // Node raises it as a SystemError (lib/internal/errors.js).
  Object.defineProperty(err, 'name', { value: 'SystemError', writable: true, configurable: true });
  return err;
}

// Node answers false for a descriptor that is not an integer too, so every answer is false.
function isatty() {
  return false;
}

class ReadStream extends Readable {
  constructor(fd) {
    super();
    throw ttyInitFailed(fd);
  }
}
ReadStream.prototype.isTTY = true;
ReadStream.prototype.isRaw = false;
ReadStream.prototype.setRawMode = function setRawMode() {
  return this;
};

class WriteStream extends Writable {
  constructor(fd) {
    super();
    throw ttyInitFailed(fd);
  }
}
WriteStream.prototype.isTTY = true;
WriteStream.prototype.getColorDepth = function getColorDepth() {
  return 1;
};
WriteStream.prototype.hasColors = function hasColors() {
  return false;
};
WriteStream.prototype.getWindowSize = function getWindowSize() {
  return [this.columns, this.rows];
};

module.exports = { isatty, ReadStream, WriteStream };
