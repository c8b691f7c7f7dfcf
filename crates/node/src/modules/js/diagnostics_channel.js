'use strict';
// node:diagnostics_channel (lib/diagnostics_channel.js): named channels a library publishes
// to and tools subscribe to, store binding for AsyncLocalStorage, and tracing channels. A
// channel is kept for the run by name (Node holds them weakly; here a channel without
// subscribers is kept, which no program can observe). A subscriber that throws does not stop
// the others: its error is rethrown on the next tick, as Node does.

const { validateFunction, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

const channels = new Map();

function triggerUncaught(err) {
  process.nextTick(() => {
    throw err;
  });
}

class Channel {
  constructor(name) {
    this._subscribers = [];
    this._stores = new Map();
    this.name = name;
  }

  static [Symbol.hasInstance](instance) {
    return instance !== null && typeof instance === 'object' && Array.isArray(instance._subscribers) &&
      instance._stores instanceof Map && 'name' in instance;
  }

  get hasSubscribers() {
    return this._subscribers.length > 0 || this._stores.size > 0;
  }

  subscribe(subscription) {
    validateFunction(subscription, 'subscription');
    this._subscribers = [...this._subscribers, subscription];
  }

  unsubscribe(subscription) {
    const index = this._subscribers.indexOf(subscription);
    if (index === -1) return false;
    this._subscribers = [...this._subscribers.slice(0, index), ...this._subscribers.slice(index + 1)];
    return true;
  }

  bindStore(store, transform) {
    this._stores.set(store, transform);
  }

  unbindStore(store) {
    return this._stores.delete(store);
  }

  publish(data) {
    for (const onMessage of this._subscribers) {
      try {
        onMessage(data, this.name);
      } catch (err) {
        triggerUncaught(err);
      }
    }
  }

  runStores(data, fn, thisArg, ...args) {
    let run = () => {
      this.publish(data);
      return Reflect.apply(fn, thisArg, args);
    };
    for (const [store, transform] of this._stores) {
      const next = run;
      let value = data;
      if (transform) {
        try {
          value = transform(data);
        } catch (err) {
          triggerUncaught(err);
          continue;
        }
      }
      run = () => store.run(value, next);
    }
    return run();
  }
}

function channel(name) {
  if (typeof name !== 'string' && typeof name !== 'symbol') {
    throw ERR_INVALID_ARG_TYPE('channel', ['string', 'symbol'], name);
  }
  let ch = channels.get(name);
  if (ch === undefined) {
    ch = new Channel(name);
    channels.set(name, ch);
  }
  return ch;
}

function subscribe(name, subscription) {
  channel(name).subscribe(subscription);
}

function unsubscribe(name, subscription) {
  return channel(name).unsubscribe(subscription);
}

function hasSubscribers(name) {
  const ch = channels.get(name);
  return ch !== undefined && ch.hasSubscribers;
}

const traceEvents = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

class TracingChannel {
  constructor(nameOrChannels) {
    for (const event of traceEvents) {
      let ch;
      if (typeof nameOrChannels === 'string') ch = channel(`tracing:${nameOrChannels}:${event}`);
      else if (nameOrChannels !== null && typeof nameOrChannels === 'object') ch = nameOrChannels[event];
      else throw ERR_INVALID_ARG_TYPE('nameOrChannels', ['string', 'object', 'TracingChannel'], nameOrChannels);
      if (!(ch instanceof Channel)) throw ERR_INVALID_ARG_TYPE(`nameOrChannels.${event}`, ['Channel'], ch);
      Object.defineProperty(this, event, { value: ch, enumerable: true });
    }
  }

  get hasSubscribers() {
    return traceEvents.some((event) => this[event].hasSubscribers);
  }

  subscribe(handlers) {
    for (const event of traceEvents) if (handlers[event]) this[event].subscribe(handlers[event]);
  }

  unsubscribe(handlers) {
    let done = true;
    for (const event of traceEvents) {
      if (handlers[event] && !this[event].unsubscribe(handlers[event])) done = false;
    }
    return done;
  }

  traceSync(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, error } = this;
    return start.runStores(context, () => {
      try {
        const result = Reflect.apply(fn, thisArg, args);
        context.result = result;
        return result;
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }

  tracePromise(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    const reject = (err) => {
      context.error = err;
      error.publish(context);
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return Promise.reject(err);
    };
    const resolve = (result) => {
      context.result = result;
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return result;
    };
    return start.runStores(context, () => {
      try {
        let promise = Reflect.apply(fn, thisArg, args);
        if (!(promise instanceof Promise)) promise = Promise.resolve(promise);
        return promise.then(resolve, reject);
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }

  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    const callback = args.at(position);
    validateFunction(callback, 'callback');
    function wrappedCallback(err, res) {
      if (err) {
        context.error = err;
        error.publish(context);
      } else {
        context.result = res;
      }
      asyncStart.runStores(context, () => {
        try {
          return Reflect.apply(callback, this, arguments);
        } finally {
          asyncEnd.publish(context);
        }
      });
    }
    args.splice(position, 1, wrappedCallback);
    return start.runStores(context, () => {
      try {
        return Reflect.apply(fn, thisArg, args);
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }
}

function tracingChannel(nameOrChannels) {
  return new TracingChannel(nameOrChannels);
}

module.exports = { channel, hasSubscribers, subscribe, tracingChannel, unsubscribe, Channel };
