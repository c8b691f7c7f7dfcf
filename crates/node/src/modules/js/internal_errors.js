'use strict';
// Node-shaped errors shared by the builtins: `code` properties, and the exact message text
// of ERR_INVALID_ARG_TYPE and friends (lib/internal/errors.js).

const kTypes = ['string', 'function', 'number', 'object', 'Function', 'Object', 'boolean', 'bigint', 'symbol'];

function makeError(Base, code, message) {
  const err = new Base(message);
  Object.defineProperty(err, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  const stack = err.stack;
  if (typeof stack === 'string') {
    const name = Base.name;
    // V8 shows the code in the first line of the stack: `TypeError [ERR_X]: message`.
    err.stack = stack.replace(`${name}:`, `${name} [${code}]:`);
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
  if (list.length < 3) return list.join(` ${sep} `);
  return `${list.slice(0, -1).join(', ')}, ${sep} ${list[list.length - 1]}`;
}

function invalidArgTypeMessage(name, expected, actual) {
  if (!Array.isArray(expected)) expected = [expected];
  let msg = 'The ';
  if (name.endsWith(' argument')) msg += `${name} `;
  else msg += `"${name}" ${name.includes('.') ? 'property' : 'argument'} `;
  msg += 'must be ';
  const types = [];
  const instances = [];
  const other = [];
  for (const value of expected) {
    if (kTypes.includes(value)) types.push(value.toLowerCase());
    else if (/^([A-Z][a-z0-9]*)+$/.test(value)) instances.push(value);
    else other.push(value);
  }
  if (instances.length > 0) {
    const pos = types.indexOf('object');
    if (pos !== -1) {
      types.splice(pos, 1);
      instances.push('Object');
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
      if (other[0].toLowerCase() !== other[0]) msg += 'an ';
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
  const type = name.includes('.') ? 'property' : 'argument';
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
  if (Number.isInteger(input) && Math.abs(input) > 2 ** 32) received = addNumericalSeparator(String(input));
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
  if ((!allowNull && value === null) || Array.isArray(value) || (typeof value !== 'object' && typeof value !== 'function') || typeof value === 'function') {
    if (!(allowNull && value === null)) throw ERR_INVALID_ARG_TYPE(name, 'Object', value);
  }
}
function validateNumber(value, name, min, max) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if ((min != null && value < min) || (max != null && value > max) || ((min != null || max != null) && Number.isNaN(value))) {
    throw ERR_OUT_OF_RANGE(name,
      `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`, value);
  }
}
function validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!Number.isInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
}
function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw ERR_INVALID_ARG_TYPE(name, 'AbortSignal', signal);
  }
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
  validateFunction,
  validateString,
  validateBoolean,
  validateObject,
  validateNumber,
  validateInteger,
  validateAbortSignal,
  AbortError,
};
