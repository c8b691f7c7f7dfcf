'use strict';
// node:timers/promises: promise-returning timers over the virtual timer queue, with
// AbortSignal support and the async-iterator setInterval.

const { ERR_INVALID_ARG_TYPE, validateAbortSignal, validateBoolean, validateObject, AbortError } =
  require('node:internal/errors');

function abortError(signal) {
  return new AbortError(undefined, { cause: signal.reason });
}

function validateOptions(options) {
  validateObject(options, 'options');
  const { signal, ref = true } = options;
  validateAbortSignal(signal, 'options.signal');
  validateBoolean(ref, 'options.ref');
  return { signal, ref };
}

function timerPromise(schedule, clear, value, options) {
  const { signal, ref } = validateOptions(options);
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    let onAbort;
    const handle = schedule(() => {
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (!ref && handle && typeof handle.unref === 'function') handle.unref();
    if (signal) {
      onAbort = () => {
        clear(handle);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

function setTimeout(after, value, options = {}) {
  try {
    if (after !== undefined && typeof after !== 'number') throw ERR_INVALID_ARG_TYPE('delay', 'number', after);
    return timerPromise((cb) => globalThis.setTimeout(cb, after), globalThis.clearTimeout, value, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

function setImmediate(value, options = {}) {
  try {
    return timerPromise((cb) => globalThis.setImmediate(cb), globalThis.clearImmediate, value, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function* setInterval(after, value, options = {}) {
  const { signal, ref } = validateOptions(options);
  if (after !== undefined && typeof after !== 'number') throw ERR_INVALID_ARG_TYPE('delay', 'number', after);
  if (signal && signal.aborted) throw abortError(signal);
  let notYielded = 0;
  let wake;
  let onAbort;
  const interval = globalThis.setInterval(() => {
    notYielded++;
    if (wake) {
      wake();
      wake = undefined;
    }
  }, after);
  if (!ref) interval.unref();
  if (signal) {
    onAbort = () => {
      globalThis.clearInterval(interval);
      if (wake) {
        wake();
        wake = undefined;
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    while (!(signal && signal.aborted)) {
      if (notYielded === 0) await new Promise((resolve) => { wake = resolve; });
      for (; notYielded > 0; notYielded--) yield value;
    }
    throw abortError(signal);
  } finally {
    globalThis.clearInterval(interval);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
}

const scheduler = {
  wait(delay, options) {
    return setTimeout(delay, undefined, options);
  },
  yield() {
    return setImmediate();
  },
};

module.exports = { setTimeout, setImmediate, setInterval, scheduler };
