'use strict';
// Web globals Node provides: EventTarget/Event/CustomEvent, AbortController/AbortSignal,
// DOMException and structuredClone (the HTML structured clone algorithm, in JS).
const {
  ArrayBufferPrototypeSlice, ArrayPrototypeFindIndex, ArrayPrototypeForEach, ArrayPrototypePush,
  ArrayPrototypeSlice, ArrayPrototypeSome, ArrayPrototypeSplice, BigIntPrototypeValueOf,
  DatePrototypeGetTime, FunctionPrototypeCall, MapPrototypeEntries, NumberPrototypeValueOf,
  ObjectCreate, ObjectDefineProperty, ObjectEntries, ObjectGetOwnPropertyDescriptor, ObjectKeys,
  ObjectPrototypeHasOwnProperty, ObjectPrototypeToString, SetPrototypeValues,
  StringPrototypeReplace, StringPrototypeValueOf, SymbolFor, SymbolIterator, SymbolToStringTag,
} = primordials;

const natives = require('node:internal/util/natives');
const { ERR_INVALID_ARG_TYPE, makeError } = require('node:internal/errors');
const classOf = natives.classOf;

// ---- DOMException
const legacyCodes = {
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
  InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
  InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
  URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
};
const domState = new WeakMap();
class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super();
    let name = 'Error';
    if (options !== null && typeof options === 'object') {
      if ('cause' in options) {
        ObjectDefineProperty(this, 'cause', { value: options.cause, writable: true, enumerable: false, configurable: true });
      }
      if ('name' in options) name = String(options.name);
    } else {
      name = String(options);
    }
    domState.set(this, { message: String(message), name });
    if (typeof this.stack === 'string') {
      this.stack = StringPrototypeReplace(this.stack, /^Error\b.*/, `${name}: ${String(message)}`);
    }
    delete this.message;
  }
  get name() { return domState.get(this)?.name ?? 'Error'; }
  get message() { return domState.get(this)?.message ?? ''; }
  get code() { return legacyCodes[domState.get(this)?.name] ?? 0; }
}
ObjectDefineProperty(DOMException.prototype, SymbolToStringTag, { value: 'DOMException', configurable: true });
for (const [name, code] of ObjectEntries(legacyCodes)) {
  const constName = StringPrototypeReplace(name, /([a-z])([A-Z])/g, '$1_$2').toUpperCase().replace(/_ERROR$/, '_ERR');
  ObjectDefineProperty(DOMException, constName, { value: code, enumerable: true });
  ObjectDefineProperty(DOMException.prototype, constName, { value: code, enumerable: true });
}

// ---- Event / EventTarget
const kStop = Symbol('kStop');
class Event {
  #type;
  #cancelable;
  #bubbles;
  #composed;
  #defaultPrevented = false;
  #timeStamp;
  #stopImmediate = false;
  constructor(type, options = undefined) {
    if (arguments.length === 0) throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
    if (options != null && typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'object', options);
    this.#type = `${type}`;
    this.#cancelable = !!options?.cancelable;
    this.#bubbles = !!options?.bubbles;
    this.#composed = !!options?.composed;
    this.#timeStamp = typeof performance !== 'undefined' ? performance.now() : 0;
    this.target = null;
    this.currentTarget = null;
    ObjectDefineProperty(this, 'isTrusted', { value: false, enumerable: true });
  }
  get type() { return this.#type; }
  get cancelable() { return this.#cancelable; }
  get bubbles() { return this.#bubbles; }
  get composed() { return this.#composed; }
  get defaultPrevented() { return this.#cancelable && this.#defaultPrevented; }
  get timeStamp() { return this.#timeStamp; }
  get eventPhase() { return this.currentTarget ? Event.AT_TARGET : Event.NONE; }
  get returnValue() { return !this.defaultPrevented; }
  get cancelBubble() { return this.#stopImmediate; }
  get srcElement() { return this.target; }
  composedPath() { return this.currentTarget ? [this.currentTarget] : []; }
  preventDefault() { this.#defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this.#stopImmediate = true; }
  get [kStop]() { return this.#stopImmediate; }
}
ObjectDefineProperty(Event.prototype, SymbolToStringTag, { value: 'Event', configurable: true });
for (const [k, v] of ObjectEntries({ NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 })) {
  ObjectDefineProperty(Event, k, { value: v, enumerable: true });
}

class CustomEvent extends Event {
  #detail;
  constructor(type, options = undefined) {
    super(type, options);
    this.#detail = options?.detail ?? null;
  }
  get detail() { return this.#detail; }
}
ObjectDefineProperty(CustomEvent.prototype, SymbolToStringTag, { value: 'CustomEvent', configurable: true });

const kListeners = Symbol('kEvents');
class EventTarget {
  constructor() {
    ObjectDefineProperty(this, kListeners, { value: new Map(), enumerable: false });
  }
  addEventListener(type, listener, options = undefined) {
    if (arguments.length < 2) throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" and "listener" arguments must be specified');
    if (listener == null) return;
    const opts = typeof options === 'boolean' ? { capture: options } : (options ?? {});
    const signal = opts.signal;
    if (signal && signal.aborted) return;
    type = String(type);
    let list = this[kListeners].get(type);
    if (!list) this[kListeners].set(type, (list = []));
    const capture = !!opts.capture;
    if (ArrayPrototypeSome(list, (l) => l.listener === listener && l.capture === capture)) return;
    const record = { listener, capture, once: !!opts.once, removed: false };
    ArrayPrototypePush(list, record);
    if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, listener, options), { once: true });
  }
  removeEventListener(type, listener, options = undefined) {
    const capture = typeof options === 'boolean' ? options : !!options?.capture;
    const list = this[kListeners].get(String(type));
    if (!list) return;
    const i = ArrayPrototypeFindIndex(list, (l) => l.listener === listener && l.capture === capture);
    if (i !== -1) {
      list[i].removed = true;
      ArrayPrototypeSplice(list, i, 1);
    }
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw ERR_INVALID_ARG_TYPE('event', 'Event', event);
    const list = this[kListeners].get(event.type);
    event.target = this;
    event.currentTarget = this;
    if (list) {
      for (const record of ArrayPrototypeSlice(list)) {
        if (record.removed) continue;
        if (record.once) this.removeEventListener(event.type, record.listener, { capture: record.capture });
        try {
          const l = record.listener;
          if (typeof l === 'function') FunctionPrototypeCall(l, this, event);
          else if (l && typeof l.handleEvent === 'function') l.handleEvent(event);
        } catch (err) {
          process.nextTick(() => { throw err; });
        }
        if (event[kStop]) break;
      }
    }
    event.currentTarget = null;
    return !event.defaultPrevented;
  }
  _listenersFor(type) {
    return (this[kListeners].get(type) || []).map((l) => l.listener);
  }
}
ObjectDefineProperty(EventTarget.prototype, SymbolToStringTag, { value: 'EventTarget', configurable: true });

// ---- AbortController / AbortSignal
let constructing = false;
class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  #onabort = null;
  constructor() {
    if (!constructing) throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    super();
  }
  get aborted() { return this.#aborted; }
  get reason() { return this.#reason; }
  get onabort() { return this.#onabort; }
  set onabort(fn) {
    if (this.#onabort) this.removeEventListener('abort', this.#onabort);
    this.#onabort = typeof fn === 'function' ? fn : null;
    if (this.#onabort) this.addEventListener('abort', this.#onabort);
  }
  throwIfAborted() {
    if (this.#aborted) throw this.#reason;
  }
  static abort(reason = new DOMException('This operation was aborted', 'AbortError')) {
    const s = newSignal();
    s.#aborted = true;
    s.#reason = reason;
    return s;
  }
  static timeout(ms) {
    require('node:internal/errors').validateNumber(ms, 'delay', 0, 4294967295);
    const s = newSignal();
    const t = setTimeout(() => abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    if (t && typeof t.unref === 'function') t.unref();
    return s;
  }
  static any(signals) {
    if (signals == null || typeof signals[SymbolIterator] !== 'function') {
      throw ERR_INVALID_ARG_TYPE('signals', 'Array', signals);
    }
    signals = [...signals];
    ArrayPrototypeForEach(signals, (src, i) => {
      if (!(src instanceof AbortSignal)) throw ERR_INVALID_ARG_TYPE(`signals[${i}]`, 'AbortSignal', src);
    });
    const s = newSignal();
    for (const src of signals) {
      if (src.aborted) {
        s.#aborted = true;
        s.#reason = src.reason;
        return s;
      }
    }
    for (const src of signals) {
      src.addEventListener('abort', () => abortSignal(s, src.reason), { once: true });
    }
    return s;
  }
  static _abort(signal, reason) {
    if (signal.#aborted) return;
    signal.#aborted = true;
    signal.#reason = reason;
    signal.dispatchEvent(new Event('abort'));
  }
  [SymbolFor('nodejs.util.inspect.custom')]() {
    return `AbortSignal { aborted: ${this.#aborted} }`;
  }
}
ObjectDefineProperty(AbortSignal.prototype, SymbolToStringTag, { value: 'AbortSignal', configurable: true });
function newSignal() {
  constructing = true;
  try {
    return new AbortSignal();
  } finally {
    constructing = false;
  }
}
function abortSignal(signal, reason) {
  AbortSignal._abort(signal, reason);
}

class AbortController {
  #signal = newSignal();
  get signal() { return this.#signal; }
  abort(reason = new DOMException('This operation was aborted', 'AbortError')) {
    abortSignal(this.#signal, reason);
  }
  [SymbolFor('nodejs.util.inspect.custom')]() {
    return `AbortController { signal: AbortSignal { aborted: ${this.#signal.aborted} } }`;
  }
}
ObjectDefineProperty(AbortController.prototype, SymbolToStringTag, { value: 'AbortController', configurable: true });

// ---- structuredClone
const errorCtors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
const typedCtors = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};

function cloneError(value) {
  let shown;
  try {
    shown = typeof value === 'symbol' ? value.toString() : String(value);
  } catch {
    shown = ObjectPrototypeToString(value);
  }
  return new DOMException(`${shown} could not be cloned.`, 'DataCloneError');
}

function structuredClone(value, options = undefined) {
  if (arguments.length === 0) {
    throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
  }
  if (options != null && typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
  const memory = new Map();
  const clone = (v) => {
    if (typeof v === 'symbol' || typeof v === 'function') throw cloneError(v);
    if (v === null || typeof v !== 'object') return v;
    if (memory.has(v)) return memory.get(v);
    const cls = classOf(v);
    let out;
    switch (cls) {
      case 'Boolean': out = Object(FunctionPrototypeCall(Boolean.prototype.valueOf, v)); break;
      case 'Number': out = Object(NumberPrototypeValueOf(v)); break;
      case 'String': out = Object(StringPrototypeValueOf(v)); break;
      case 'BigInt': out = Object(BigIntPrototypeValueOf(v)); break;
      case 'Date': out = new Date(DatePrototypeGetTime(v)); break;
      case 'RegExp': out = new RegExp(v.source, v.flags); break;
      case 'ArrayBuffer': out = ArrayBufferPrototypeSlice(v, 0); break;
      case 'SharedArrayBuffer': out = v; break;
      case 'DataView': {
        const buf = clone(v.buffer);
        out = new DataView(buf, v.byteOffset, v.byteLength);
        break;
      }
      case 'Map': {
        out = new Map();
        memory.set(v, out);
        for (const [k, val] of MapPrototypeEntries(v)) out.set(clone(k), clone(val));
        return out;
      }
      case 'Set': {
        out = new Set();
        memory.set(v, out);
        for (const k of SetPrototypeValues(v)) out.add(clone(k));
        return out;
      }
      case 'Error': {
        const name = v.name;
        const Ctor = ObjectPrototypeHasOwnProperty(errorCtors, name) ? errorCtors[name] : Error;
        out = ObjectCreate(Ctor.prototype);
        memory.set(v, out);
        const desc = ObjectGetOwnPropertyDescriptor(v, 'message');
        if (desc && 'value' in desc) {
          ObjectDefineProperty(out, 'message', { value: String(desc.value), writable: true, configurable: true, enumerable: false });
        }
        if (typeof v.stack === 'string') {
          ObjectDefineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true, enumerable: false });
        }
        if ('cause' in v) {
          ObjectDefineProperty(out, 'cause', { value: clone(v.cause), writable: true, configurable: true, enumerable: false });
        }
        return out;
      }
      case 'Array': {
        out = new Array(v.length);
        memory.set(v, out);
        for (const k of ObjectKeys(v)) out[k] = clone(v[k]);
        return out;
      }
      case 'Object': case 'Arguments': {
        if (v instanceof DOMException) break;
        // A Blob (or File, which node 20 clones as a plain Blob) keeps its bytes and type.
        const blobs = require('node:internal/blob').internals;
        if (blobs.isBlob(v)) {
          out = blobs.createBlob(blobs.bytesOf(v), v.type);
          break;
        }
        out = {};
        memory.set(v, out);
        for (const k of ObjectKeys(v)) out[k] = clone(v[k]);
        return out;
      }
      default:
        if (ObjectPrototypeHasOwnProperty(typedCtors, cls)) {
          const buf = clone(v.buffer);
          out = new typedCtors[cls](buf, v.byteOffset, v.length);
          break;
        }
        throw cloneError(v);
    }
    if (out === undefined) throw cloneError(v);
    memory.set(v, out);
    return out;
  };
  return clone(value);
}

module.exports = {
  DOMException, Event, CustomEvent, EventTarget, AbortController, AbortSignal, structuredClone,
  AbortError: require('node:internal/errors').AbortError,
};
