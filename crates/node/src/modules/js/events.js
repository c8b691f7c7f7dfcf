'use strict';
// node:events: EventEmitter with Node's observable behaviour (listener storage shape, 'error'
// semantics, newListener/removeListener events, the max-listeners warning), plus the static
// helpers once/on/listenerCount/getEventListeners.
const {
  ArrayPrototypeFilter, ArrayPrototypeMap, ArrayPrototypePush, ArrayPrototypeShift,
  ArrayPrototypeSlice, ArrayPrototypeSplice, ArrayPrototypeUnshift, FunctionPrototypeBind,
  FunctionPrototypeCall, ObjectDefineProperty, ObjectGetPrototypeOf, ObjectSetPrototypeOf,
  PromiseReject, PromiseResolve, ReflectApply, ReflectOwnKeys, SymbolAsyncIterator, SymbolDispose,
  SymbolFor,
} = primordials;
const { makeError, describeReceived } = require('node:internal/errors');

const kCapture = Symbol('kCapture');
const kShapeMode = Symbol('shapeMode');
const kRejection = SymbolFor('nodejs.rejection');
const errorMonitor = Symbol('events.errorMonitor');
let defaultMaxListeners = 10;

function checkListener(listener) {
  if (typeof listener !== 'function') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "listener" argument must be of type function.${describeReceived(listener)}`);
  }
}

function EventEmitter(opts) {
  FunctionPrototypeCall(EventEmitter.init, this, opts);
}

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

EventEmitter.init = function init(opts) {
  if (this._events === undefined || this._events === ObjectGetPrototypeOf(this)._events) {
    this._events = { __proto__: null };
    this._eventsCount = 0;
    this[kShapeMode] = false;
  } else {
    this[kShapeMode] = true;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (opts && opts.captureRejections) {
    if (typeof opts.captureRejections !== 'boolean') {
      throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "options.captureRejections" property must be of type boolean.${describeReceived(opts.captureRejections)}`);
    }
    this[kCapture] = Boolean(opts.captureRejections);
  } else {
    this[kCapture] = EventEmitter.prototype[kCapture];
  }
};

ObjectDefineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) {
    require('node:internal/errors').validateNumber(n, 'defaultMaxListeners', 0);
    defaultMaxListeners = n;
  },
});

ObjectDefineProperty(EventEmitter, 'captureRejections', {
  enumerable: true,
  get() { return EventEmitter.prototype[kCapture]; },
  set(v) {
    if (typeof v !== 'boolean') {
      throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "EventEmitter.captureRejections" property must be of type boolean.${describeReceived(v)}`);
    }
    EventEmitter.prototype[kCapture] = v;
  },
});
ObjectDefineProperty(EventEmitter.prototype, kCapture, { value: false, writable: true, enumerable: false });

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  require('node:internal/errors').validateNumber(n, 'setMaxListeners', 0);
  this._maxListeners = n;
  return this;
};

function maxListeners(that) {
  return that._maxListeners === undefined ? defaultMaxListeners : that._maxListeners;
}

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return maxListeners(this);
};

function addCatch(that, promise, type, args) {
  try {
    const then = promise.then;
    if (typeof then === 'function') {
      FunctionPrototypeCall(then, promise, undefined, (err) => {
        process.nextTick(emitUnhandledRejectionOrErr, that, err, type, args);
      });
    }
  } catch (err) {
    that.emit('error', err);
  }
}

function emitUnhandledRejectionOrErr(ee, err, type, args) {
  if (typeof ee[kRejection] === 'function') {
    ee[kRejection](err, type, ...args);
  } else {
    const prev = ee[kCapture];
    try {
      ee[kCapture] = false;
      ee.emit('error', err);
    } finally {
      ee[kCapture] = prev;
    }
  }
}

EventEmitter.prototype.emit = function emit(type, ...args) {
  let doError = type === 'error';
  const events = this._events;
  if (events !== undefined) {
    if (doError && events[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    let er;
    if (args.length > 0) er = args[0];
    if (er instanceof Error) {
      throw er; // Unhandled 'error' event
    }
    let stringified;
    try {
      stringified = require('util').inspect(er);
    } catch {
      stringified = er;
    }
    const err = makeError(Error, 'ERR_UNHANDLED_ERROR', `Unhandled error. (${stringified})`);
    err.context = er;
    throw err; // Unhandled 'error' event
  }
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    const result = ReflectApply(handler, this, args);
    if (result !== undefined && result !== null && this[kCapture]) addCatch(this, result, type, args);
  } else {
    const listeners = ArrayPrototypeSlice(handler);
    for (let i = 0; i < listeners.length; ++i) {
      const result = ReflectApply(listeners[i], this, args);
      if (result !== undefined && result !== null && this[kCapture]) addCatch(this, result, type, args);
    }
  }
  return true;
};

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = target._events;
  let existing;
  if (events === undefined) {
    events = target._events = { __proto__: null };
    target._eventsCount = 0;
  } else {
    if (events.newListener !== undefined) {
      target.emit('newListener', type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
    existing = events[type];
  }
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else {
    if (typeof existing === 'function') {
      existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else if (prepend) {
      ArrayPrototypeUnshift(existing, listener);
    } else {
      ArrayPrototypePush(existing, listener);
    }
    const m = maxListeners(target);
    if (m > 0 && existing.length > m && !existing.warned) {
      existing.warned = true;
      const name = target.constructor && target.constructor.name ? target.constructor.name : 'EventEmitter';
      const w = new Error('Possible EventEmitter memory leak detected. ' +
        `${existing.length} ${String(type)} listeners ` +
        `added to [${name}]. MaxListeners is ${m}. Use emitter.setMaxListeners() to increase limit`);
      w.name = 'MaxListenersExceededWarning';
      w.emitter = target;
      w.type = type;
      w.count = existing.length;
      process.emitWarning(w);
    }
  }
  return target;
}

EventEmitter.prototype.addListener = function addListener_(type, listener) {
  return addListener(this, type, listener, false);
};
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function prependListener(type, listener) {
  return addListener(this, type, listener, true);
};

function onceWrapper() {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    if (arguments.length === 0) return FunctionPrototypeCall(this.listener, this.target);
    return ReflectApply(this.listener, this.target, arguments);
  }
}

function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = FunctionPrototypeBind(onceWrapper, state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    this._eventsCount -= 1;
    if (this[kShapeMode]) {
      events[type] = undefined;
    } else if (this._eventsCount === 0) {
      this._events = { __proto__: null };
    } else {
      delete events[type];
      if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
    }
  } else if (typeof list !== 'function') {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        position = i;
        break;
      }
    }
    if (position < 0) return this;
    if (position === 0) ArrayPrototypeShift(list);
    else ArrayPrototypeSplice(list, position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = { __proto__: null };
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = { __proto__: null };
      else delete events[type];
    }
    this[kShapeMode] = false;
    return this;
  }
  if (arguments.length === 0) {
    for (const key of ReflectOwnKeys(events)) {
      if (key === 'removeListener') continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = { __proto__: null };
    this._eventsCount = 0;
    this[kShapeMode] = false;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') {
    this.removeListener(type, listeners);
  } else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

function listenersOf(target, type, unwrap) {
  const events = target._events;
  if (events === undefined) return [];
  const l = events[type];
  if (l === undefined) return [];
  if (typeof l === 'function') return unwrap ? [l.listener || l] : [l];
  return unwrap ? ArrayPrototypeMap(l, (f) => f.listener || f) : ArrayPrototypeSlice(l);
}

EventEmitter.prototype.listeners = function listeners(type) {
  return listenersOf(this, type, true);
};
EventEmitter.prototype.rawListeners = function rawListeners(type) {
  return listenersOf(this, type, false);
};

function listenerCount(type, listener) {
  const events = this._events;
  if (events !== undefined) {
    const l = events[type];
    if (typeof l === 'function') {
      if (listener != null) return listener === l || listener === l.listener ? 1 : 0;
      return 1;
    } else if (l !== undefined) {
      if (listener != null) return ArrayPrototypeFilter(l, (f) => f === listener || f.listener === listener).length;
      return l.length;
    }
  }
  return 0;
}
EventEmitter.prototype.listenerCount = listenerCount;

EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? ReflectOwnKeys(this._events) : [];
};

EventEmitter.listenerCount = function (emitter, type) {
  if (typeof emitter.listenerCount === 'function') return emitter.listenerCount(type);
  return FunctionPrototypeCall(listenerCount, emitter, type);
};

function abortError(signal) {
  const { AbortError } = require('node:internal/web');
  return new AbortError(undefined, { cause: signal && signal.reason });
}

function once(emitter, name, options = {}) {
  const signal = options ? options.signal : undefined;
  if (signal && signal.aborted) return PromiseReject(abortError(signal));
  return new Promise((resolve, reject) => {
    const errorListener = (err) => {
      emitter.removeListener(name, resolver);
      if (signal) signal.removeEventListener('abort', abortListener);
      reject(err);
    };
    const resolver = (...args) => {
      if (typeof emitter.removeListener === 'function') emitter.removeListener('error', errorListener);
      if (signal) signal.removeEventListener('abort', abortListener);
      resolve(args);
    };
    function abortListener() {
      if (typeof emitter.removeListener === 'function') {
        emitter.removeListener(name, resolver);
        emitter.removeListener('error', errorListener);
      } else {
        emitter.removeEventListener(name, resolver);
      }
      reject(abortError(signal));
    }
    if (typeof emitter.addEventListener === 'function' && typeof emitter.on !== 'function') {
      emitter.addEventListener(name, resolver, { once: true });
    } else {
      emitter.once(name, resolver);
      if (name !== 'error') emitter.once('error', errorListener);
    }
    if (signal) signal.addEventListener('abort', abortListener, { once: true });
  });
}

function on(emitter, event, options = {}) {
  const signal = options ? options.signal : undefined;
  if (signal && signal.aborted) throw abortError(signal);
  const unconsumed = [];
  const pending = [];
  let error = null;
  let finished = false;
  const eventHandler = (...args) => {
    const p = ArrayPrototypeShift(pending);
    if (p) p.resolve({ value: args, done: false });
    else ArrayPrototypePush(unconsumed, args);
  };
  const errorHandler = (err) => {
    finished = true;
    const p = ArrayPrototypeShift(pending);
    if (p) p.reject(err);
    else error = err;
    iterator.return();
  };
  const abortListener = () => errorHandler(abortError(signal));
  const iterator = ObjectSetPrototypeOf({
    next() {
      const value = ArrayPrototypeShift(unconsumed);
      if (value) return PromiseResolve({ value, done: false });
      if (error) {
        const p = PromiseReject(error);
        error = null;
        return p;
      }
      if (finished) return PromiseResolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => ArrayPrototypePush(pending, { resolve, reject }));
    },
    return() {
      emitter.removeListener(event, eventHandler);
      emitter.removeListener('error', errorHandler);
      if (signal) signal.removeEventListener('abort', abortListener);
      finished = true;
      for (const p of pending) p.resolve({ value: undefined, done: true });
      pending.length = 0;
      return PromiseResolve({ value: undefined, done: true });
    },
    throw(err) {
      error = err;
      emitter.removeListener(event, eventHandler);
      emitter.removeListener('error', errorHandler);
    },
    [SymbolAsyncIterator]() {
      return this;
    },
  }, ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype));
  emitter.on(event, eventHandler);
  if (event !== 'error') emitter.on('error', errorHandler);
  if (signal) signal.addEventListener('abort', abortListener, { once: true });
  return iterator;
}

function getEventListeners(emitter, type) {
  if (typeof emitter.listeners === 'function') return emitter.listeners(type);
  if (typeof emitter._listenersFor === 'function') return emitter._listenersFor(type);
  return [];
}

function setMaxListeners(n = defaultMaxListeners, ...targets) {
  if (targets.length === 0) {
    EventEmitter.defaultMaxListeners = n;
  } else {
    for (const t of targets) {
      if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
    }
  }
}

function getMaxListeners(emitter) {
  if (typeof emitter.getMaxListeners === 'function') return emitter.getMaxListeners();
  return defaultMaxListeners;
}

function addAbortListener(signal, listener) {
  checkListener(listener);
  if (signal.aborted) {
    queueMicrotask(() => listener());
  } else {
    signal.addEventListener('abort', listener, { once: true });
  }
  return {
    [SymbolDispose || SymbolFor('nodejs.dispose')]() {
      signal.removeEventListener('abort', listener);
    },
  };
}

module.exports = EventEmitter;
EventEmitter.addAbortListener = addAbortListener;
EventEmitter.once = once;
EventEmitter.on = on;
EventEmitter.getEventListeners = getEventListeners;
EventEmitter.getMaxListeners = getMaxListeners;
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.captureRejectionSymbol = kRejection;
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.setMaxListeners = setMaxListeners;
EventEmitter.init = EventEmitter.init;
