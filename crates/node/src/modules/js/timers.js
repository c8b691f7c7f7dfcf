'use strict';
// node:timers: the global timer functions, plus `promises` (node:timers/promises).

module.exports = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
};
Object.defineProperty(module.exports, 'promises', {
  enumerable: true, configurable: true, get() { return require('timers/promises'); },
});
