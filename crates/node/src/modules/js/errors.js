'use strict';
// Node-shaped errors (lib/internal/errors.js, the few this module throws): `code` on the
// error, the same messages, "Received …" as Node describes the offending value.

function __describeReceived(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) return ` Received an instance of ${value.constructor.name}`;
    return ' Received [Object: null prototype]';
  }
  let shown;
  if (typeof value === 'string') shown = `'${value}'`;
  else if (typeof value === 'bigint') shown = `${value}n`;
  else if (Object.is(value, -0)) shown = '-0';
  else shown = String(value);
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${shown})`;
}

function __codedError(Base, code, message) {
  const err = new Base(message);
  Object.defineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  const stack = err.stack;
  if (typeof stack === 'string') {
    err.stack = stack.replace(`${Base.name}:`, `${Base.name} [${code}]:`);
  }
  return err;
}

function __typeList(types) {
  if (!Array.isArray(types)) types = [types];
  const kinds = [];
  const instances = [];
  const other = [];
  for (const t of types) {
    if (['string', 'function', 'number', 'object', 'Function', 'Object', 'boolean', 'bigint', 'symbol'].includes(t)) {
      kinds.push(t.toLowerCase());
    } else if (/^[A-Z][A-Za-z0-9]*$/.test(t)) {
      instances.push(t);
    } else {
      other.push(t);
    }
  }
  if (instances.length > 0) {
    const pos = kinds.indexOf('object');
    if (pos !== -1) {
      kinds.splice(pos, 1);
      instances.push('Object');
    }
  }
  let msg = '';
  if (kinds.length > 2) msg += `one of type ${kinds.slice(0, -1).join(', ')}, or ${kinds[kinds.length - 1]}`;
  else if (kinds.length === 2) msg += `one of type ${kinds[0]} or ${kinds[1]}`;
  else if (kinds.length === 1) msg += `of type ${kinds[0]}`;
  if (instances.length) {
    if (msg) msg += ' or ';
    if (instances.length > 2) msg += `an instance of ${instances.slice(0, -1).join(', ')}, or ${instances[instances.length - 1]}`;
    else msg += `an instance of ${instances.join(' or ')}`;
  }
  if (other.length) {
    if (msg) msg += ' or ';
    if (other.length > 2) msg += `one of ${other.slice(0, -1).join(', ')}, or ${other[other.length - 1]}`;
    else if (other.length === 2) msg += `one of ${other[0]} or ${other[1]}`;
    else msg += (other[0].toLowerCase() !== other[0] ? 'an ' : '') + other[0];
  }
  return msg;
}

function ERR_INVALID_ARG_TYPE(name, types, actual) {
  const what = name.includes('.') || name.endsWith(' argument') ? `The "${name}" property` : `The "${name}" argument`;
  const subject = name.endsWith(' argument') ? `The ${name}` : what;
  return __codedError(TypeError, 'ERR_INVALID_ARG_TYPE',
    `${subject} must be ${__typeList(types)}.${__describeReceived(actual)}`);
}

function __addNumericalSeparator(val) {
  let res = '';
  let i = val.length;
  const start = val[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${val.slice(i - 3, i)}${res}`;
  return `${val.slice(0, i)}${res}`;
}

function ERR_OUT_OF_RANGE(name, range, received) {
  let shown;
  if (Number.isInteger(received) && Math.abs(received) > 2 ** 32) {
    shown = __addNumericalSeparator(String(received));
  } else if (typeof received === 'bigint') {
    shown = String(received);
    if (received > 2n ** 32n || received < -(2n ** 32n)) shown = __addNumericalSeparator(shown);
    shown += 'n';
  } else if (typeof received === 'string') {
    shown = `'${received}'`;
  } else {
    shown = String(received);
  }
  return __codedError(RangeError, 'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${shown}`);
}

function ERR_INVALID_ARG_VALUE(name, value, reason = 'is invalid') {
  let shown = typeof value === 'string' ? `'${value}'` : String(value);
  if (typeof value === 'object' && value !== null) shown = Array.isArray(value) ? '[]' : '{}';
  const kind = name.includes('.') ? 'property' : 'argument';
  return __codedError(TypeError, 'ERR_INVALID_ARG_VALUE', `The ${kind} '${name}' ${reason}. Received ${shown}`);
}

function ERR_UNKNOWN_ENCODING(enc) {
  return __codedError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${enc}`);
}

function ERR_BUFFER_OUT_OF_BOUNDS(name) {
  return __codedError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS',
    name ? `"${name}" is outside of buffer bounds` : 'Attempt to access memory outside buffer bounds');
}

function ERR_MISSING_ARGS(...names) {
  const list = names.map((n) => `"${n}"`);
  const text = list.length <= 2 ? list.join(' and ') : `${list.slice(0, -1).join(', ')}, and ${list[list.length - 1]}`;
  return __codedError(TypeError, 'ERR_MISSING_ARGS', `The ${text} argument${names.length > 1 ? 's' : ''} must be specified`);
}

function __validateNumber(value, name, min, max) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if ((min != null && value < min) || (max != null && value > max) || ((min != null || max != null) && Number.isNaN(value))) {
    throw ERR_OUT_OF_RANGE(name,
      `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`,
      value);
  }
}

function __validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!Number.isInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
}

function __validateString(value, name) {
  if (typeof value !== 'string') throw ERR_INVALID_ARG_TYPE(name, 'string', value);
}

function __validateFunction(value, name) {
  if (typeof value !== 'function') throw ERR_INVALID_ARG_TYPE(name, 'Function', value);
}

function __domException(message, name) {
  const DOMExceptionCtor = globalThis.DOMException;
  if (typeof DOMExceptionCtor === 'function') return new DOMExceptionCtor(message, name);
  // No DOMException global yet: an Error with the DOMException name and legacy code.
  const codes = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
    SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
    TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
    QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  };
  const err = new Error(message);
  Object.defineProperty(err, 'name', { value: name, configurable: true, writable: true });
  Object.defineProperty(err, 'code', { value: codes[name] || 0, configurable: true, writable: true });
  return err;
}
