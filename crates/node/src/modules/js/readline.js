'use strict';
// node:readline and node:readline/promises over any Readable (a file stream, a PassThrough,
// process.stdin): the input is decoded, cut at \n, \r\n or \r, and each line is a 'line'
// event, a `question()` answer or an async-iterator value. There is no terminal (node:tty),
// so there is no line editing, history or keypress decoding: the interface behaves as Node's
// does with `terminal: false`. The cursor functions write the ANSI sequences Node writes.

const EventEmitter = require('events');
const { StringDecoder } = require('string_decoder');
const { validateFunction, makeError } = require('node:internal/errors');

const kQuestion = Symbol('kQuestion');

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    // createInterface(options) or createInterface(input, output, completer, terminal).
    const opts = input && input.input !== undefined ? input : { input, output, completer, terminal };
    this.input = opts.input;
    this.output = opts.output;
    this.terminal = false;
    this.line = '';
    this.cursor = 0;
    this.history = [];
    this.closed = false;
    this.crlfDelay = Math.max(100, opts.crlfDelay ?? 100);
    this._prompt = opts.prompt === undefined ? '> ' : `${opts.prompt}`;
    this._paused = false;
    this._sawReturn = false;
    this._decoder = new StringDecoder('utf8');
    this._pending = [];
    this._waiting = [];
    this[kQuestion] = null;
    if (opts.signal) {
      if (opts.signal.aborted) process.nextTick(() => this.close());
      else opts.signal.addEventListener('abort', () => this.close(), { once: true });
    }
    const input_ = this.input;
    if (input_ && typeof input_.on === 'function') {
      this._ondata = (chunk) => this._write(typeof chunk === 'string' ? chunk : this._decoder.write(chunk));
      this._onend = () => {
        const rest = this._decoder.end();
        if (rest) this._write(rest);
        if (this.line.length > 0) this._online(this.line);
        this.close();
      };
      input_.on('data', this._ondata);
      input_.on('end', this._onend);
      if (typeof input_.resume === 'function') input_.resume();
    }
  }

  get [Symbol.toStringTag]() {
    return 'Interface';
  }

  _write(text) {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\n' && this._sawReturn && i === start) {
        // The \n of a \r\n already ended its line at the \r.
        this._sawReturn = false;
        start = i + 1;
        continue;
      }
      if (c === '\n' || c === '\r') {
        this._online(this.line + text.slice(start, i));
        this.line = '';
        this._sawReturn = c === '\r';
        start = i + 1;
        if (this.closed) return;
      } else {
        this._sawReturn = false;
      }
    }
    this.line += text.slice(start);
  }

  _online(line) {
    const question = this[kQuestion];
    if (question) {
      this[kQuestion] = null;
      question(line);
      return;
    }
    if (this._waiting.length > 0 || this.listenerCount('line') === 0) {
      if (this._waiting.length > 0) this._waiting.shift().resolve({ value: line, done: false });
      else this._pending.push(line);
    }
    this.emit('line', line);
  }

  setPrompt(prompt) {
    this._prompt = `${prompt}`;
  }

  getPrompt() {
    return this._prompt;
  }

  prompt() {
    if (this.closed) throw makeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
    if (this._paused) this.resume();
    if (this.output && typeof this.output.write === 'function') this.output.write(this._prompt);
  }

  question(query, options, cb) {
    if (typeof options === 'function') {
      cb = options;
      options = {};
    }
    if (this.closed) throw makeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
    validateFunction(cb, 'cb');
    if (this[kQuestion]) {
      this.prompt();
      return;
    }
    const signal = options && options.signal;
    if (signal && signal.aborted) return;
    this[kQuestion] = cb;
    if (signal) {
      signal.addEventListener('abort', () => {
        this[kQuestion] = null;
      }, { once: true });
    }
    if (this.output && typeof this.output.write === 'function') this.output.write(`${query}`);
  }

  write(data) {
    if (this.closed) throw makeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
    if (typeof data === 'string') this._write(data);
  }

  pause() {
    if (this._paused) return this;
    if (this.input && typeof this.input.pause === 'function') this.input.pause();
    this._paused = true;
    this.emit('pause');
    return this;
  }

  resume() {
    if (!this._paused) return this;
    if (this.input && typeof this.input.resume === 'function') this.input.resume();
    this._paused = false;
    this.emit('resume');
    return this;
  }

  close() {
    if (this.closed) return;
    this.pause();
    if (this.input && typeof this.input.removeListener === 'function') {
      this.input.removeListener('data', this._ondata);
      this.input.removeListener('end', this._onend);
    }
    this.closed = true;
    this.emit('close');
    for (const w of this._waiting.splice(0)) w.resolve({ value: undefined, done: true });
  }

  getCursorPos() {
    return { rows: 0, cols: this.cursor };
  }

  [Symbol.asyncIterator]() {
    const self = this;
    return {
      next() {
        if (self._pending.length > 0) return Promise.resolve({ value: self._pending.shift(), done: false });
        if (self.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => self._waiting.push({ resolve, reject }));
      },
      return() {
        self.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

function writeTo(stream, data, callback) {
  if (stream == null || typeof stream.write !== 'function') {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  return stream.write(data, callback);
}

function cursorTo(stream, x, y, callback) {
  if (typeof y === 'function') {
    callback = y;
    y = undefined;
  }
  if (Number.isNaN(x) || Number.isNaN(y)) throw require('node:internal/errors').ERR_INVALID_ARG_VALUE('x', x);
  if (typeof x !== 'number') {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  const data = typeof y !== 'number' ? `\x1b[${x + 1}G` : `\x1b[${y + 1};${x + 1}H`;
  return writeTo(stream, data, callback);
}

function moveCursor(stream, dx, dy, callback) {
  let data = '';
  if (dx < 0) data += `\x1b[${-dx}D`;
  else if (dx > 0) data += `\x1b[${dx}C`;
  if (dy < 0) data += `\x1b[${-dy}A`;
  else if (dy > 0) data += `\x1b[${dy}B`;
  if (data === '') {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  return writeTo(stream, data, callback);
}

function clearLine(stream, dir, callback) {
  const data = dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K';
  return writeTo(stream, data, callback);
}

function clearScreenDown(stream, callback) {
  return writeTo(stream, '\x1b[0J', callback);
}

// Keypresses come from a terminal, and there is none.
function emitKeypressEvents() {}

class PromisesInterface extends Interface {
  question(query, options = {}) {
    return new Promise((resolve, reject) => {
      const signal = options && options.signal;
      if (signal && signal.aborted) {
        reject(new (require('node:internal/errors').AbortError)(undefined, { cause: signal.reason }));
        return;
      }
      super.question(query, options, resolve);
      if (signal) {
        signal.addEventListener('abort', () => {
          reject(new (require('node:internal/errors').AbortError)(undefined, { cause: signal.reason }));
        }, { once: true });
      }
    });
  }
}

// readline/promises' Readline: cursor actions queued, then written at commit().
class Readline {
  constructor(stream, options) {
    this._stream = stream;
    this._autoCommit = Boolean(options && options.autoCommit);
    this._todo = [];
  }

  _queue(data) {
    if (this._autoCommit) writeTo(this._stream, data);
    else this._todo.push(data);
    return this;
  }

  cursorTo(x, y) {
    return this._queue(typeof y !== 'number' ? `\x1b[${x + 1}G` : `\x1b[${y + 1};${x + 1}H`);
  }

  moveCursor(dx, dy) {
    let data = '';
    if (dx < 0) data += `\x1b[${-dx}D`;
    else if (dx > 0) data += `\x1b[${dx}C`;
    if (dy < 0) data += `\x1b[${-dy}A`;
    else if (dy > 0) data += `\x1b[${dy}B`;
    return data ? this._queue(data) : this;
  }

  clearLine(dir) {
    return this._queue(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K');
  }

  clearScreenDown() {
    return this._queue('\x1b[0J');
  }

  commit() {
    const data = this._todo.join('');
    this._todo = [];
    return new Promise((resolve) => {
      if (data) writeTo(this._stream, data, () => resolve());
      else resolve();
    });
  }

  rollback() {
    this._todo = [];
    return this;
  }
}

const promises = {
  Interface: PromisesInterface,
  Readline,
  createInterface(input, output, completer, terminal) {
    return new PromisesInterface(input, output, completer, terminal);
  },
};

module.exports = {
  Interface,
  clearLine,
  clearScreenDown,
  createInterface,
  cursorTo,
  emitKeypressEvents,
  moveCursor,
  promises,
};
