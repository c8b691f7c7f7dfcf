'use strict';
// Node-shaped errors, the one copy every builtin requires (`require('node:internal/errors')`):
// `code` properties, the exact message text of ERR_INVALID_ARG_TYPE and friends
// (lib/internal/errors.js), the argument validators (lib/internal/validators.js) and
// AbortError. Messages describe values with util.inspect, as Node's do; `util` is required
// lazily, when a message is built, because util itself requires modules that require this.
const {
  ArrayIsArray, ArrayPrototypeIncludes, ArrayPrototypeIndexOf, ArrayPrototypeJoin,
  ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSplice, MathAbs, NumberIsInteger,
  NumberIsNaN, NumberMAX_SAFE_INTEGER, NumberMIN_SAFE_INTEGER, ObjectDefineProperty,
  StringPrototypeEndsWith, StringPrototypeIncludes, StringPrototypeReplace,
  StringPrototypeToLowerCase,
} = primordials;

const kTypes = ['string', 'function', 'number', 'object', 'Function', 'Object', 'boolean', 'bigint', 'symbol'];

function makeError(Base, code, message) {
  const err = new Base(message);
  ObjectDefineProperty(err, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  const stack = err.stack;
  if (typeof stack === 'string') {
    const name = Base.name;
    // V8 shows the code in the first line of the stack: `TypeError [ERR_X]: message`.
    err.stack = StringPrototypeReplace(stack, `${name}:`, `${name} [${code}]:`);
  }
  return err;
}

function inspectShort(value) {
  return require('util').inspect(value, { depth: -1, colors: false });
}

function describeReceived(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function' && value.name) return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) return ` Received an instance of ${value.constructor.name}`;
    return ` Received ${inspectShort(value)}`;
  }
  let inspected = require('util').inspect(value, { colors: false });
  if (inspected.length > 28) inspected = `${inspected.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${inspected})`;
}

function formatList(list, sep = 'or') {
  if (list.length < 3) return ArrayPrototypeJoin(list, ` ${sep} `);
  return `${ArrayPrototypeJoin(ArrayPrototypeSlice(list, 0, -1), ', ')}, ${sep} ${list[list.length - 1]}`;
}

function invalidArgTypeMessage(name, expected, actual) {
  if (!ArrayIsArray(expected)) expected = [expected];
  let msg = 'The ';
  if (StringPrototypeEndsWith(name, ' argument')) msg += `${name} `;
  else msg += `"${name}" ${name.includes('.') ? 'property' : 'argument'} `;
  msg += 'must be ';
  const types = [];
  const instances = [];
  const other = [];
  for (const value of expected) {
    if (ArrayPrototypeIncludes(kTypes, value)) ArrayPrototypePush(types, StringPrototypeToLowerCase(value));
    else if (/^([A-Z][a-z0-9]*)+$/.test(value)) ArrayPrototypePush(instances, value);
    else ArrayPrototypePush(other, value);
  }
  if (instances.length > 0) {
    const pos = ArrayPrototypeIndexOf(types, 'object');
    if (pos !== -1) {
      ArrayPrototypeSplice(types, pos, 1);
      ArrayPrototypePush(instances, 'Object');
    }
  }
  if (types.length > 0) {
    msg += `${types.length > 1 ? 'one of type' : 'of type'} ${formatList(types)}`;
    if (instances.length > 0 || other.length > 0) msg += ' or ';
  }
  if (instances.length > 0) {
    msg += `an instance of ${formatList(instances)}`;
    if (other.length > 0) msg += ' or ';
  }
  if (other.length > 0) {
    if (other.length > 1) msg += `one of ${formatList(other)}`;
    else {
      if (StringPrototypeToLowerCase(other[0]) !== other[0]) msg += 'an ';
      msg += `${other[0]}`;
    }
  }
  return msg + '.' + describeReceived(actual);
}

function ERR_INVALID_ARG_TYPE(name, expected, actual) {
  return makeError(TypeError, 'ERR_INVALID_ARG_TYPE', invalidArgTypeMessage(name, expected, actual));
}

function ERR_INVALID_ARG_VALUE(name, value, reason = 'is invalid') {
  let inspected = require('util').inspect(value);
  if (inspected.length > 128) inspected = `${inspected.slice(0, 128)}...`;
  const type = StringPrototypeIncludes(name, '.') ? 'property' : 'argument';
  return makeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The ${type} '${name}' ${reason}. Received ${inspected}`);
}

function addNumericalSeparator(val) {
  let res = '';
  let i = val.length;
  const start = val[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${val.slice(i - 3, i)}${res}`;
  return `${val.slice(0, i)}${res}`;
}

function ERR_OUT_OF_RANGE(name, range, input) {
  let received;
  if (NumberIsInteger(input) && MathAbs(input) > 2 ** 32) received = addNumericalSeparator(String(input));
  else if (typeof input === 'bigint') {
    received = String(input);
    if (input > 2n ** 32n || input < -(2n ** 32n)) received = addNumericalSeparator(received);
    received += 'n';
  } else received = require('util').inspect(input);
  return makeError(RangeError, 'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${received}`);
}

function validateFunction(value, name) {
  if (typeof value !== 'function') throw ERR_INVALID_ARG_TYPE(name, 'Function', value);
}
function validateString(value, name) {
  if (typeof value !== 'string') throw ERR_INVALID_ARG_TYPE(name, 'string', value);
}
function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw ERR_INVALID_ARG_TYPE(name, 'boolean', value);
}
function validateObject(value, name, allowNull = false) {
  if ((!allowNull && value === null) || ArrayIsArray(value) || (typeof value !== 'object' && typeof value !== 'function') || typeof value === 'function') {
    if (!(allowNull && value === null)) throw ERR_INVALID_ARG_TYPE(name, 'Object', value);
  }
}
function validateNumber(value, name, min, max) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if ((min != null && value < min) || (max != null && value > max) || ((min != null || max != null) && NumberIsNaN(value))) {
    throw ERR_OUT_OF_RANGE(name,
      `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`, value);
  }
}
function validateInteger(value, name, min = NumberMIN_SAFE_INTEGER, max = NumberMAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!NumberIsInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
}
function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw ERR_INVALID_ARG_TYPE(name, 'AbortSignal', signal);
  }
}

function ERR_UNKNOWN_ENCODING(enc) {
  return makeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${enc}`);
}

function ERR_BUFFER_OUT_OF_BOUNDS(name) {
  return makeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS',
    name ? `"${name}" is outside of buffer bounds` : 'Attempt to access memory outside buffer bounds');
}

function ERR_MISSING_ARGS(...names) {
  const list = [];
  for (let i = 0; i < names.length; i++) ArrayPrototypePush(list, `"${names[i]}"`);
  const text = list.length <= 2 ? ArrayPrototypeJoin(list, ' and ') : `${formatList(list, 'and')}`;
  return makeError(TypeError, 'ERR_MISSING_ARGS', `The ${text} argument${names.length > 1 ? 's' : ''} must be specified`);
}

// The legacy numeric `code` of each DOMException name (WebIDL), for the fallback below.
const kDomExceptionCodes = {
  __proto__: null,
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
  SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
  TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
  QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
};

// A DOMException (buffer's atob, webcrypto); before the global exists, an Error with the
// DOMException's name and legacy code.
function domException(message, name) {
  const DOMExceptionCtor = globalThis.DOMException;
  if (typeof DOMExceptionCtor === 'function') return new DOMExceptionCtor(message, name);
  const err = new Error(message);
  ObjectDefineProperty(err, 'name', { value: name, configurable: true, writable: true });
  ObjectDefineProperty(err, 'code', { value: kDomExceptionCodes[name] || 0, configurable: true, writable: true });
  return err;
}

class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

module.exports = {
  makeError,
  describeReceived,
  invalidArgTypeMessage,
  ERR_INVALID_ARG_TYPE,
  ERR_INVALID_ARG_VALUE,
  ERR_OUT_OF_RANGE,
  ERR_UNKNOWN_ENCODING,
  ERR_BUFFER_OUT_OF_BOUNDS,
  ERR_MISSING_ARGS,
  domException,
  validateFunction,
  validateString,
  validateBoolean,
  validateObject,
  validateNumber,
  validateInteger,
  validateAbortSignal,
  AbortError,
};
