'use strict';
// node:util. Formatting and inspection are the Rust formatter (crate::inspect, the same one
// console uses); the rest is plain JS with Node's observable behaviour.
const {
  ArrayIsArray, ArrayPrototypeEvery, ArrayPrototypeIncludes, ArrayPrototypePop, ArrayPrototypePush,
  ArrayPrototypeShift, ArrayPrototypeSlice, ArrayPrototypeUnshift, FunctionPrototypeBind,
  NumberIsSafeInteger, ObjectAssign, ObjectDefineProperties, ObjectDefineProperty, ObjectEntries,
  ObjectGetOwnPropertyDescriptors, ObjectGetPrototypeOf, ObjectKeys, ObjectPrototypeHasOwnProperty,
  ObjectSetPrototypeOf, ObjectValues, PromiseResolve, ReflectApply, ReflectConstruct,
  ReflectOwnKeys, StringPrototypeIndexOf, StringPrototypeReplace, StringPrototypeSlice,
  StringPrototypeSplit, StringPrototypeStartsWith, SymbolFor,
} = primordials;

const natives = require('node:internal/util/natives');
const { isDeepStrictEqual } = require('node:internal/util/comparisons');
const {
  ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE, makeError, validateFunction, validateString, validateObject,
} = require('node:internal/errors');

const customInspectSymbol = SymbolFor('nodejs.util.inspect.custom');
const customPromisify = SymbolFor('nodejs.util.promisify.custom');

const inspectDefaultOptions = {
  showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
  maxStringLength: 10000, breakLength: 128, compact: 3, sorted: false, getters: false, numericSeparator: false,
};

function inspect(value, opts) {
  let options = opts;
  if (typeof opts !== 'object' || opts === null) {
    // Legacy signature: inspect(value, showHidden, depth, colors).
    options = {};
    if (arguments.length >= 3 && arguments[2] !== undefined) options.depth = arguments[2];
  }
  return natives.inspect(value, options);
}
inspect.custom = customInspectSymbol;
ObjectDefineProperty(inspect, 'defaultOptions', {
  get() { return inspectDefaultOptions; },
  set(options) {
    validateObject(options, 'options');
    ObjectAssign(inspectDefaultOptions, options);
  },
});
inspect.colors = ObjectAssign({ __proto__: null }, {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25],
  inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39],
  red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39],
  white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49], bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49],
  bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49], framed: [51, 54], overlined: [53, 55],
  gray: [90, 39], redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39], blueBright: [94, 39],
  magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39], bgGray: [100, 49],
  bgRedBright: [101, 49], bgGreenBright: [102, 49], bgYellowBright: [103, 49], bgBlueBright: [104, 49],
  bgMagentaBright: [105, 49], bgCyanBright: [106, 49], bgWhiteBright: [107, 49],
});
inspect.styles = ObjectAssign({ __proto__: null }, {
  special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey', null: 'bold',
  string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline',
});
natives.hold(inspect, function stylize(str) { return str; });

function format(...args) {
  return natives.format(...args);
}

function formatWithOptions(inspectOptions, ...args) {
  if (typeof inspectOptions !== 'object' || inspectOptions === null) {
    throw ERR_INVALID_ARG_TYPE('inspectOptions', 'object', inspectOptions);
  }
  return natives.format(...args);
}

// ---- types
const classOf = natives.classOf;
const typedKinds = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
const is = (name) => (v) => classOf(v) === name;
const types = {
  isExternal: () => false,
  isDate: is('Date'),
  isArgumentsObject: is('Arguments'),
  isBigIntObject: is('BigInt'),
  isBooleanObject: is('Boolean'),
  isNumberObject: is('Number'),
  isStringObject: is('String'),
  isSymbolObject: is('Symbol'),
  isNativeError: is('Error'),
  isRegExp: is('RegExp'),
  isAsyncFunction: (v) => classOf(v) === 'AsyncFunction' || classOf(v) === 'AsyncGeneratorFunction',
  isGeneratorFunction: (v) => classOf(v) === 'GeneratorFunction' || classOf(v) === 'AsyncGeneratorFunction',
  isGeneratorObject: (v) => classOf(v) === 'Generator' || classOf(v) === 'AsyncGenerator',
  isPromise: is('Promise'),
  isMap: is('Map'),
  isSet: is('Set'),
  isMapIterator: is('MapIterator'),
  isSetIterator: is('SetIterator'),
  isWeakMap: is('WeakMap'),
  isWeakSet: is('WeakSet'),
  isArrayBuffer: is('ArrayBuffer'),
  isDataView: is('DataView'),
  isSharedArrayBuffer: is('SharedArrayBuffer'),
  isProxy: is('Proxy'),
  isModuleNamespaceObject: is('Module'),
  isAnyArrayBuffer: (v) => classOf(v) === 'ArrayBuffer' || classOf(v) === 'SharedArrayBuffer',
  isBoxedPrimitive: (v) => ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(classOf(v)),
  isArrayBufferView: (v) => ArrayPrototypeIncludes(typedKinds, classOf(v)) || classOf(v) === 'DataView',
  isTypedArray: (v) => ArrayPrototypeIncludes(typedKinds, classOf(v)),
  isKeyObject: (value) => require('node:internal/crypto_types').isKeyObject(value),
  isCryptoKey: (value) => require('node:internal/crypto_types').isCryptoKey(value),
};
for (const kind of typedKinds) {
  if (kind === 'Float16Array') continue;
  types[`is${kind}`] = is(kind);
}

// ---- promisify / callbackify
function promisify(original) {
  validateFunction(original, 'original');
  if (original[customPromisify]) {
    const fn = original[customPromisify];
    validateFunction(fn, 'util.promisify.custom');
    return ObjectDefineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  // Node's customPromisifyArgs: callback values resolved as one object with these names.
  const argumentNames = original[require('node:internal/crypto_types').customPromisifyArgs];
  function fn(...args) {
    return new Promise((resolve, reject) => {
      ReflectApply(original, this, [...args, (err, ...values) => {
        if (err) return reject(err);
        if (argumentNames !== undefined && values.length > 1) {
          const obj = {};
          for (let i = 0; i < argumentNames.length; i++) obj[argumentNames[i]] = values[i];
          resolve(obj);
        } else {
          resolve(values[0]);
        }
      }]);
    });
  }
  ObjectSetPrototypeOf(fn, ObjectGetPrototypeOf(original));
  ObjectDefineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  const descriptors = ObjectGetOwnPropertyDescriptors(original);
  for (const k of ReflectOwnKeys(descriptors)) {
    if (k === 'length' || k === 'name' || k === 'prototype') continue;
    try {
      ObjectDefineProperty(fn, k, descriptors[k]);
    } catch {
      // non-configurable on the wrapper: keep the wrapper's
    }
  }
  return fn;
}
promisify.custom = customPromisify;

// Node's setTimeout and setImmediate carry their promise forms (node:timers/promises) under
// util.promisify.custom, so `promisify(setTimeout)(ms, value)` resolves with value after ms.
for (const name of ['setTimeout', 'setImmediate']) {
  const timer = globalThis[name];
  if (typeof timer === 'function' && !ObjectPrototypeHasOwnProperty(timer, customPromisify)) {
    ObjectDefineProperty(timer, customPromisify, {
      enumerable: true,
      configurable: true,
      get() {
        return require('timers/promises')[name];
      },
    });
  }
}

function callbackifyOnRejected(reason, cb) {
  if (!reason) {
    const err = makeError(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
    err.reason = reason;
    reason = err;
  }
  return cb(reason);
}

function callbackify(original) {
  validateFunction(original, 'original');
  function callbackified(...args) {
    const maybeCb = ArrayPrototypePop(args);
    validateFunction(maybeCb, 'last argument');
    const cb = FunctionPrototypeBind(maybeCb, this);
    ReflectApply(original, this, args).then(
      (ret) => process.nextTick(cb, null, ret),
      (rej) => process.nextTick(callbackifyOnRejected, rej, cb),
    );
  }
  const descriptors = ObjectGetOwnPropertyDescriptors(original);
  if (typeof descriptors.length.value === 'number') descriptors.length.value++;
  if (typeof descriptors.name.value === 'string') descriptors.name.value += 'Callbackified';
  const propertiesValues = ObjectValues(descriptors);
  for (let i = 0; i < propertiesValues.length; i++) ObjectSetPrototypeOf(propertiesValues[i], null);
  ObjectDefineProperties(callbackified, descriptors);
  return callbackified;
}

// ---- deprecate
const codesWarned = new Set();
function deprecate(fn, msg, code) {
  validateFunction(fn, 'fn');
  if (code !== undefined) validateString(code, 'code');
  let warned = false;
  function deprecated(...args) {
    if (!process.noDeprecation && !warned) {
      warned = true;
      if (code !== undefined) {
        if (!codesWarned.has(code)) {
          process.emitWarning(msg, 'DeprecationWarning', code, deprecated);
          codesWarned.add(code);
        }
      } else {
        process.emitWarning(msg, 'DeprecationWarning', deprecated);
      }
    }
    if (new.target) return ReflectConstruct(fn, args, new.target);
    return ReflectApply(fn, this, args);
  }
  ObjectSetPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw ERR_INVALID_ARG_TYPE('ctor', 'Function', ctor);
  if (superCtor === undefined || superCtor === null) throw ERR_INVALID_ARG_TYPE('superCtor', 'Function', superCtor);
  if (superCtor.prototype === undefined) {
    throw ERR_INVALID_ARG_TYPE('superCtor.prototype', 'Object', superCtor.prototype);
  }
  ObjectDefineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  ObjectSetPrototypeOf(ctor.prototype, superCtor.prototype);
}

// ---- text helpers
const ansi = new RegExp('[\\u001B\\u009B][[\\]()#;?]*' +
  '(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*' +
  '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?' +
  '(?:\\u0007|\\u001B\\u005C|\\u009C))' +
  '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-ntqry=><~]))', 'g');
function stripVTControlCharacters(str) {
  validateString(str, 'str');
  return StringPrototypeReplace(str, ansi, '');
}

function toUSVString(input) {
  return String(input).toWellFormed();
}

function styleText(format, text, { validateStream = true, stream } = {}) {
  validateString(text, 'text');
  // Node 20: a single format is dropped when the stream has no colours (Amber's never do).
  if (!ArrayIsArray(format) && validateStream) {
    if (inspect.colors[format] === undefined) {
      throw ERR_INVALID_ARG_VALUE('format', format, `must be one of: ${ObjectKeys(inspect.colors).join(', ')}`);
    }
    return text;
  }
  const formats = ArrayIsArray(format) ? format : [format];
  let left = '';
  let right = '';
  for (const key of formats) {
    const code = inspect.colors[key];
    if (code === undefined) {
      throw ERR_INVALID_ARG_VALUE('format', key, `must be one of: ${ObjectKeys(inspect.colors).join(', ')}`);
    }
    left += `\u001b[${code[0]}m`;
    right = `\u001b[${code[1]}m${right}`;
  }
  return `${left}${text}${right}`;
}

function debuglog(set, cb) {
  const logger = function debug() {};
  logger.enabled = false;
  return logger;
}

const errnoNames = {
  '-1': 'EPERM', '-2': 'ENOENT', '-3': 'ESRCH', '-4': 'EINTR', '-5': 'EIO', '-9': 'EBADF', '-11': 'EAGAIN',
  '-12': 'ENOMEM', '-13': 'EACCES', '-17': 'EEXIST', '-20': 'ENOTDIR', '-21': 'EISDIR', '-22': 'EINVAL',
  '-24': 'EMFILE', '-28': 'ENOSPC', '-32': 'EPIPE', '-39': 'ENOTEMPTY', '-110': 'ETIMEDOUT', '-111': 'ECONNREFUSED',
};
function getSystemErrorName(err) {
  if (typeof err !== 'number') throw ERR_INVALID_ARG_TYPE('err', 'number', err);
  if (err >= 0 || !NumberIsSafeInteger(err)) {
    throw require('node:internal/errors').ERR_OUT_OF_RANGE('err', 'a negative integer', err);
  }
  return errnoNames[err] || `Unknown system error ${err}`;
}
function getSystemErrorMap() {
  return new Map(ObjectEntries(errnoNames).map(([k, v]) => [Number(k), [v, v]]));
}

function aborted(signal, resource) {
  if (signal === undefined || signal === null || typeof signal !== 'object' || !('aborted' in signal)) {
    throw ERR_INVALID_ARG_TYPE('signal', 'AbortSignal', signal);
  }
  if (resource === null || (typeof resource !== 'object' && typeof resource !== 'function')) {
    throw ERR_INVALID_ARG_TYPE('resource', ['Object', 'Function'], resource);
  }
  if (signal.aborted) return PromiseResolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

// ---- parseArgs (Node's semantics: lib/internal/util/parse_args)
function parseArgs(config = {}) {
  validateObject(config, 'config');
  const args = config.args ?? ArrayPrototypeSlice(process.argv, 2);
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const returnTokens = config.tokens ?? false;
  const allowNegative = config.allowNegative ?? false;
  const options = config.options ?? { __proto__: null };
  if (!ArrayIsArray(args)) throw ERR_INVALID_ARG_TYPE('args', 'Array', args);
  validateObject(options, 'options');
  for (const [longOption, optionConfig] of ObjectEntries(options)) {
    validateObject(optionConfig, `options.${longOption}`);
    const type = optionConfig.type;
    if (type !== 'string' && type !== 'boolean') {
      throw ERR_INVALID_ARG_VALUE(`options.${longOption}.type`, type, "must be one of: 'string', 'boolean'");
    }
    if ('short' in optionConfig) {
      const s = optionConfig.short;
      validateString(s, `options.${longOption}.short`);
      if (s.length !== 1) {
        throw ERR_INVALID_ARG_VALUE(`options.${longOption}.short`, s, 'must be a single character');
      }
    }
    if ('default' in optionConfig) {
      const d = optionConfig.default;
      const multiple = optionConfig.multiple;
      const ok = multiple ? ArrayIsArray(d) && ArrayPrototypeEvery(d, (x) => typeof x === type) : typeof d === type;
      if (!ok) {
        throw ERR_INVALID_ARG_TYPE(`options.${longOption}.default`, multiple ? `${type}[]`.replace(/^./, (c) => c) : type, d);
      }
    }
  }

  const unknownError = (option) => {
    const suggest = allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(option)}` : '';
    return makeError(TypeError, 'ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${option}'${suggest}`);
  };
  const findLongForShort = (short) => {
    for (const [name, c] of ObjectEntries(options)) if (c.short === short) return name;
    return short;
  };

  // Tokenize.
  const tokens = [];
  const remaining = ArrayPrototypeSlice(args);
  let index = -1;
  let groupCount = 0;
  while (remaining.length > 0) {
    const arg = ArrayPrototypeShift(remaining);
    const nextArg = remaining[0];
    if (groupCount > 0) groupCount--;
    else index++;
    if (arg === '--') {
      ArrayPrototypePush(tokens, { kind: 'option-terminator', index });
      for (const p of remaining) ArrayPrototypePush(tokens, { kind: 'positional', index: ++index, value: p });
      break;
    }
    if (arg.length === 2 && arg[0] === '-' && arg[1] !== '-') {
      const short = arg[1];
      const name = findLongForShort(short);
      const c = options[name];
      let value;
      let inlineValue;
      if (c && c.type === 'string' && nextArg !== undefined && !(strict === false && false)) {
        if (nextArg !== undefined && !(nextArg.length > 1 && nextArg[0] === '-' && strict === false)) {
          value = ArrayPrototypeShift(remaining);
          inlineValue = false;
        }
      }
      ArrayPrototypePush(tokens, { kind: 'option', name, rawName: arg, index, value, inlineValue });
      if (value != null) ++index;
      continue;
    }
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      const first = arg[1];
      const name0 = findLongForShort(first);
      const c0 = options[name0];
      if (c0 && c0.type === 'string') {
        // -fVALUE
        ArrayPrototypePush(tokens, { kind: 'option', name: name0, rawName: `-${first}`, index, value: StringPrototypeSlice(arg, 2), inlineValue: true });
        continue;
      }
      // Short option group -abc.
      const expanded = [];
      for (let i = 1; i < arg.length; i++) {
        const ch = arg[i];
        const nm = findLongForShort(ch);
        const c = options[nm];
        if (!c || c.type !== 'string' || i === arg.length - 1) ArrayPrototypePush(expanded, `-${ch}`);
        else {
          ArrayPrototypePush(expanded, `-${ch}${arg.slice(i + 1)}`);
          break;
        }
      }
      ArrayPrototypeUnshift(remaining, ...expanded);
      groupCount = expanded.length;
      continue;
    }
    if (StringPrototypeStartsWith(arg, '--') && arg.length > 2) {
      const eq = StringPrototypeIndexOf(arg, '=');
      if (eq !== -1) {
        const name = StringPrototypeSlice(arg, 2, eq);
        ArrayPrototypePush(tokens, { kind: 'option', name, rawName: `--${name}`, index, value: StringPrototypeSlice(arg, eq + 1), inlineValue: true });
        continue;
      }
      const name = StringPrototypeSlice(arg, 2);
      const c = options[name];
      let value;
      let inlineValue;
      if (c && c.type === 'string' && nextArg !== undefined) {
        value = ArrayPrototypeShift(remaining);
        inlineValue = false;
      }
      ArrayPrototypePush(tokens, { kind: 'option', name, rawName: arg, index, value, inlineValue });
      if (value != null) ++index;
      continue;
    }
    ArrayPrototypePush(tokens, { kind: 'positional', index, value: arg });
  }

  const result = { values: { __proto__: null }, positionals: [] };
  if (returnTokens) result.tokens = tokens;
  for (const token of tokens) {
    if (token.kind === 'option') {
      let name = token.name;
      let c = options[name];
      if (allowNegative && StringPrototypeStartsWith(name, 'no-') && (!c)) {
        const base = StringPrototypeSlice(name, 3);
        if (options[base] && options[base].type === 'boolean') {
          if (token.value !== undefined && strict) {
            throw makeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '--${base}' does not take an argument`);
          }
          setOption(result.values, base, false, options[base]);
          continue;
        }
      }
      if (strict) {
        if (!c) throw unknownError(token.rawName);
        const short = c.short ? `-${c.short}, ` : '';
        if (c.type === 'string' && typeof token.value !== 'string') {
          throw makeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
            `Option '${short}--${name} <value>' argument missing`);
        }
        if (c.type === 'boolean' && token.value != null) {
          throw makeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
            `Option '${short}--${name}' does not take an argument`);
        }
      }
      const value = c && c.type === 'string' ? (token.value ?? '') : (token.value ?? true);
      setOption(result.values, name, c && c.type === 'boolean' ? true : (token.value ?? (c ? '' : true)), c);
      void value;
    } else if (token.kind === 'positional') {
      if (!allowPositionals) {
        throw makeError(TypeError, 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
          `Unexpected argument '${token.value}'. This command does not take positional arguments`);
      }
      ArrayPrototypePush(result.positionals, token.value);
    }
  }
  for (const [name, c] of ObjectEntries(options)) {
    if (c.default !== undefined && result.values[name] === undefined) result.values[name] = c.default;
  }
  return result;
}

function setOption(values, name, value, c) {
  if (c && c.multiple) {
    if (values[name] === undefined) values[name] = [value];
    else ArrayPrototypePush(values[name], value);
  } else {
    values[name] = value;
  }
}

function parseEnv(content) {
  validateString(content, 'content');
  const out = {};
  for (const line of StringPrototypeSplit(content, /\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)?\s*$/.exec(line);
    if (!m) continue;
    let v = (m[2] || '').trim();
    if (/^(['"`])[\s\S]*\1$/.test(v)) v = v.slice(1, -1);
    else v = StringPrototypeReplace(v, /\s+#.*$/, '');
    out[m[1]] = v;
  }
  return out;
}

function _extend(target, source) {
  if (source === null || typeof source !== 'object') return target;
  const keys = ObjectKeys(source);
  let i = keys.length;
  while (i--) target[keys[i]] = source[keys[i]];
  return target;
}

const isError = (e) => classOf(e) === 'Error' || e instanceof Error;

module.exports = {
  _extend,
  callbackify,
  debug: debuglog,
  debuglog,
  deprecate,
  format,
  styleText,
  formatWithOptions,
  getSystemErrorMap,
  getSystemErrorName,
  inherits,
  inspect,
  isArray: ArrayIsArray,
  isBoolean: (v) => typeof v === 'boolean',
  isBuffer: (v) => typeof Buffer === 'function' && Buffer.isBuffer(v),
  isDeepStrictEqual,
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === undefined || v === null,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError,
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  log(...args) {
    const d = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    console.log('%s - %s', `${d.getDate()} ${months[d.getMonth()]} ${time}`, format(...args));
  },
  promisify,
  stripVTControlCharacters,
  toUSVString,
  aborted,
  types,
  parseEnv,
  parseArgs,
};
ObjectDefineProperty(module.exports, 'TextEncoder', {
  enumerable: true, configurable: true, get() { return globalThis.TextEncoder; },
});
ObjectDefineProperty(module.exports, 'TextDecoder', {
  enumerable: true, configurable: true, get() { return globalThis.TextDecoder; },
});
