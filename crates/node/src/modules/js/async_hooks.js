'use strict';
// node:async_hooks. AsyncLocalStorage keeps a store for the code run inside `run()`; the
// store follows that code into what it schedules through the JS-visible entry points —
// `then`/`catch`/`finally` callbacks, timers, `setImmediate`, `process.nextTick`,
// `queueMicrotask`, `AsyncResource` and `AsyncLocalStorage.bind` — each of which captures
// the current context when called and restores it around the callback. An `await`
// continuation resumes inside the engine, not through `then`, so it sees the context that is
// current when it resumes (docs/node-compat.md). There are no async resource ids: one
// execution context exists, so `executionAsyncId()` is 1 and hooks never fire.

const { validateFunction } = require('node:internal/errors');

// The current context: a Map from AsyncLocalStorage to its store (replaced, never mutated).
let current = new Map();
let patched = false;

function wrap(fn) {
  if (typeof fn !== 'function') return fn;
  const saved = current;
  return function contextBound(...args) {
    const prev = current;
    current = saved;
    try {
      return Reflect.apply(fn, this, args);
    } finally {
      current = prev;
    }
  };
}

// The scheduling entry points capture the context once an AsyncLocalStorage exists, so a
// program that never uses one runs its callbacks unwrapped.
function patchScheduling() {
  if (patched) return;
  patched = true;
  const proto = Promise.prototype;
  const then = proto.then;
  Object.defineProperty(proto, 'then', {
    value: function then_(onFulfilled, onRejected) {
      return Reflect.apply(then, this, [wrap(onFulfilled), wrap(onRejected)]);
    },
    writable: true, configurable: true,
  });
  Object.defineProperty(proto.then, 'name', { value: 'then' });
  for (const name of ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']) {
    const original = globalThis[name];
    if (typeof original !== 'function') continue;
    const replacement = {
      [name](callback, ...rest) {
        return Reflect.apply(original, this, [wrap(callback), ...rest]);
      },
    }[name];
    Object.assign(replacement, original);
    globalThis[name] = replacement;
  }
  const nextTick = process.nextTick;
  process.nextTick = function nextTick_(callback, ...args) {
    return Reflect.apply(nextTick, this, [wrap(callback), ...args]);
  };
}

class AsyncLocalStorage {
  constructor() {
    this._enabled = false;
    patchScheduling();
  }

  static bind(fn) {
    validateFunction(fn, 'fn');
    return wrap(fn);
  }

  static snapshot() {
    const saved = current;
    return function runInAsyncScope(fn, ...args) {
      const prev = current;
      current = saved;
      try {
        return Reflect.apply(fn, this, args);
      } finally {
        current = prev;
      }
    };
  }

  disable() {
    this._enabled = false;
    if (current.has(this)) {
      current = new Map(current);
      current.delete(this);
    }
  }

  // A disabled storage answers undefined everywhere until run() or enterWith() again.
  getStore() {
    return this._enabled ? current.get(this) : undefined;
  }

  enterWith(store) {
    this._enabled = true;
    current = new Map(current);
    current.set(this, store);
  }

  run(store, callback, ...args) {
    this._enabled = true;
    const prev = current;
    current = new Map(current);
    current.set(this, store);
    try {
      return Reflect.apply(callback, null, args);
    } finally {
      current = prev;
    }
  }

  exit(callback, ...args) {
    const prev = current;
    current = new Map(current);
    current.delete(this);
    try {
      return Reflect.apply(callback, null, args);
    } finally {
      current = prev;
    }
  }
}

class AsyncResource {
  constructor(type, opts = {}) {
    if (typeof type !== 'string') {
      throw require('node:internal/errors').ERR_INVALID_ARG_TYPE('type', 'string', type);
    }
    this._type = type;
    this._context = current;
    this._triggerAsyncId = typeof opts === 'number' ? opts : (opts.triggerAsyncId ?? 1);
  }

  static bind(fn, type, thisArg) {
    return new AsyncResource(type || fn.name || 'bound-anonymous-fn').bind(fn, thisArg);
  }

  runInAsyncScope(fn, thisArg, ...args) {
    const prev = current;
    current = this._context;
    try {
      return Reflect.apply(fn, thisArg, args);
    } finally {
      current = prev;
    }
  }

  emitDestroy() {
    return this;
  }

  asyncId() {
    return 1;
  }

  triggerAsyncId() {
    return this._triggerAsyncId;
  }

  bind(fn, thisArg) {
    validateFunction(fn, 'fn');
    const resource = this;
    const bound = thisArg === undefined
      ? function (...args) { return resource.runInAsyncScope(fn, this, ...args); }
      : function (...args) { return resource.runInAsyncScope(fn, thisArg, ...args); };
    Object.defineProperties(bound, {
      length: { value: fn.length, configurable: true },
      asyncResource: { value: this, configurable: true, enumerable: true, writable: true },
    });
    return bound;
  }
}

// Hooks have no resources to report; the handle still enables and disables as Node's does.
function createHook(callbacks) {
  if (callbacks !== null && typeof callbacks === 'object') {
    for (const name of ['init', 'before', 'after', 'destroy', 'promiseResolve']) {
      if (callbacks[name] !== undefined) validateFunction(callbacks[name], `hook.${name}`);
    }
  }
  const hook = {
    enable() {
      return hook;
    },
    disable() {
      return hook;
    },
  };
  return hook;
}

// Node 20's provider numbers (no resource of these kinds is ever reported).
const asyncWrapProviders = Object.freeze({ __proto__: null,
  NONE: 0, DIRHANDLE: 1, DNSCHANNEL: 2, ELDHISTOGRAM: 3, FILEHANDLE: 4, FILEHANDLECLOSEREQ: 5,
  BLOBREADER: 6, FSEVENTWRAP: 7, FSREQCALLBACK: 8, FSREQPROMISE: 9, GETADDRINFOREQWRAP: 10,
  GETNAMEINFOREQWRAP: 11, HEAPSNAPSHOT: 12, HTTP2SESSION: 13, HTTP2STREAM: 14, HTTP2PING: 15,
  HTTP2SETTINGS: 16, HTTPINCOMINGMESSAGE: 17, HTTPCLIENTREQUEST: 18, JSSTREAM: 19, JSUDPWRAP: 20,
  MESSAGEPORT: 21, PIPECONNECTWRAP: 22, PIPESERVERWRAP: 23, PIPEWRAP: 24, PROCESSWRAP: 25,
  PROMISE: 26, QUERYWRAP: 27, QUIC_LOGSTREAM: 28, QUIC_PACKET: 29, SHUTDOWNWRAP: 30,
  SIGNALWRAP: 31, STATWATCHER: 32, STREAMPIPE: 33, TCPCONNECTWRAP: 34, TCPSERVERWRAP: 35,
  TCPWRAP: 36, TTYWRAP: 37, UDPSENDWRAP: 38, UDPWRAP: 39, SIGINTWATCHDOG: 40, WORKER: 41,
  WORKERHEAPSNAPSHOT: 42, WRITEWRAP: 43, ZLIB: 44, CHECKPRIMEREQUEST: 45, PBKDF2REQUEST: 46,
  KEYPAIRGENREQUEST: 47, KEYGENREQUEST: 48, KEYEXPORTREQUEST: 49, CIPHERREQUEST: 50,
  DERIVEBITSREQUEST: 51, HASHREQUEST: 52, RANDOMBYTESREQUEST: 53, RANDOMPRIMEREQUEST: 54,
  SCRYPTREQUEST: 55, SIGNREQUEST: 56, TLSWRAP: 57, VERIFYREQUEST: 58,
});

module.exports = {
  AsyncLocalStorage,
  createHook,
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
  asyncWrapProviders,
  AsyncResource,
};
