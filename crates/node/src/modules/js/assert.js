'use strict';
// node:assert and node:assert/strict. Messages follow Node 20's AssertionError text
// (including the "+ actual - expected" line diff of deepStrictEqual/strictEqual).
const {
  ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift, MathMax, NumberIsNaN, ObjectAssign,
  ObjectDefineProperty, ObjectIs, ObjectKeys, ObjectPrototypeIsPrototypeOf, ReflectApply,
  RegExpPrototypeExec, StringPrototypeEndsWith, StringPrototypeLastIndexOf, StringPrototypeReplace,
  StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith, StringPrototypeTrim,
} = primordials;

const { inspect } = require('util');
const { isDeepEqual, isDeepStrictEqual } = require('node:internal/util/comparisons');
const { ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE, makeError, describeReceived } = require('node:internal/errors');
const natives = require('node:internal/util/natives');

const kMaxShortLength = 12;
const kReadableOperator = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};

function inspectValue(val) {
  return inspect(val, {
    compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, showHidden: false,
    showProxy: false, sorted: true, getters: true,
  });
}

function createErrDiff(actual, expected, operator, customMessage) {
  let other = '';
  let res = '';
  let end = '';
  let skipped = false;
  const actualInspected = inspectValue(actual);
  const actualLines = StringPrototypeSplit(actualInspected, '\n');
  const expectedLines = inspectValue(expected).split('\n');
  let i = 0;
  let indicator = '';
  if (operator === 'strictEqual' &&
      ((typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) ||
       (typeof actual === 'function' && typeof expected === 'function'))) {
    operator = 'strictEqualObject';
  }
  const header = customMessage ?? kReadableOperator[operator];
  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const actualRaw = actualLines[0];
    const expectedRaw = expectedLines[0];
    const inputLength = actualRaw.length + expectedRaw.length;
    if (inputLength <= kMaxShortLength) {
      if ((typeof actual !== 'object' || actual === null) && (typeof expected !== 'object' || expected === null) &&
          (actual !== 0 || expected !== 0)) {
        return `${header}\n\n${actualLines[0]} !== ${expectedLines[0]}\n`;
      }
    } else if (operator !== 'strictEqualObject') {
      if (inputLength < 80) {
        while (actualRaw[i] === expectedRaw[i]) i++;
        if (i > 2) {
          indicator = `\n  ${' '.repeat(i)}^`;
          i = 0;
        }
      }
    }
  }
  let a = actualLines[actualLines.length - 1];
  let b = expectedLines[expectedLines.length - 1];
  while (a === b) {
    if (i++ < 3) end = `\n  ${a}${end}`;
    else other = a;
    ArrayPrototypePop(actualLines);
    ArrayPrototypePop(expectedLines);
    if (actualLines.length === 0 || expectedLines.length === 0) break;
    a = actualLines[actualLines.length - 1];
    b = expectedLines[expectedLines.length - 1];
  }
  const maxLines = MathMax(actualLines.length, expectedLines.length);
  if (maxLines === 0) {
    const lines = StringPrototypeSplit(actualInspected, '\n');
    if (lines.length > 50) {
      lines[46] = '...';
      while (lines.length > 47) ArrayPrototypePop(lines);
    }
    return `${customMessage ?? kReadableOperator.notIdentical}\n\n${lines.join('\n')}\n`;
  }
  if (i >= 5) {
    end = `\n...${end}`;
    skipped = true;
  }
  if (other !== '') {
    end = `\n  ${other}${end}`;
    other = '';
  }
  let printedLines = 0;
  let identical = 0;
  const msg = `${header}\n+ actual - expected`;
  const skippedMsg = ' ... Lines skipped';
  let lines = actualLines;
  let plusMinus = '+';
  let maxLength = expectedLines.length;
  if (actualLines.length < maxLines) {
    lines = expectedLines;
    plusMinus = '-';
    maxLength = actualLines.length;
  }
  const flushIdentical = (src) => {
    if (identical > 2) {
      if (identical > 3) {
        if (identical > 4) {
          if (identical === 5) {
            res += `\n  ${src[i - 3]}`;
            printedLines++;
          } else {
            res += '\n...';
            skipped = true;
          }
        }
        res += `\n  ${src[i - 2]}`;
        printedLines++;
      }
      res += `\n  ${src[i - 1]}`;
      printedLines++;
    }
    identical = 0;
  };
  for (i = 0; i < maxLines; i++) {
    if (maxLength < i + 1) {
      flushIdentical(lines);
      if (lines === actualLines) res += `\n${plusMinus} ${lines[i]}`;
      else other += `\n${plusMinus} ${lines[i]}`;
      printedLines++;
    } else {
      const expectedLine = expectedLines[i];
      let actualLine = actualLines[i];
      let divergingLines = actualLine !== expectedLine &&
        (!StringPrototypeEndsWith(actualLine, ',') || StringPrototypeSlice(actualLine, 0, -1) !== expectedLine);
      if (divergingLines && StringPrototypeEndsWith(expectedLine, ',') && StringPrototypeSlice(expectedLine, 0, -1) === actualLine) {
        divergingLines = false;
        actualLine += ',';
      }
      if (divergingLines) {
        flushIdentical(actualLines);
        res += `\n+ ${actualLine}`;
        other += `\n- ${expectedLine}`;
        printedLines += 2;
      } else {
        res += other;
        other = '';
        identical++;
        if (identical <= 2) {
          res += `\n  ${actualLine}`;
          printedLines++;
        }
      }
    }
    if (printedLines > 50 && i < maxLines - 2) {
      return `${msg}${skippedMsg}\n${res}\n...${other}\n...`;
    }
  }
  return `${msg}${skipped ? skippedMsg : ''}\n${res}${other}${end}${indicator}`;
}

class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
    const { message, operator, stackStartFn, details } = options;
    let { actual, expected } = options;
    if (message != null) {
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
        super(createErrDiff(actual, expected, operator, String(message)));
      } else {
        super(String(message));
      }
    } else if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
      super(createErrDiff(actual, expected, operator));
    } else if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
      let base = kReadableOperator[operator];
      const res = inspectValue(actual).split('\n');
      if (operator === 'notStrictEqual' && ((typeof actual === 'object' && actual !== null) || typeof actual === 'function')) {
        base = kReadableOperator.notStrictEqualObject;
      }
      if (res.length > 50) {
        res[46] = '...';
        while (res.length > 47) ArrayPrototypePop(res);
      }
      if (res.length === 1) super(`${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}`);
      else super(`${base}\n\n${res.join('\n')}\n`);
    } else {
      let res = inspectValue(actual);
      let other = inspectValue(expected);
      const knownOperator = kReadableOperator[operator];
      if (operator === 'notDeepEqual' && res === other) {
        res = `${knownOperator}\n\n${res}`;
        if (res.length > 1024) res = `${res.slice(0, 1021)}...`;
        super(res);
      } else {
        if (res.length > 512) res = `${res.slice(0, 509)}...`;
        if (other.length > 512) other = `${other.slice(0, 509)}...`;
        if (operator === 'deepEqual') {
          res = `${knownOperator}\n\n${res}\n\nshould loosely deep-equal\n\n`;
        } else {
          const newOp = kReadableOperator[`${operator}Unequal`];
          if (newOp) res = `${newOp}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
          else other = ` ${operator} ${other}`;
        }
        super(`${res}${other}`);
      }
    }
    this.generatedMessage = !message;
    ObjectDefineProperty(this, 'name', {
      value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true,
    });
    this.code = 'ERR_ASSERTION';
    if (details) {
      this.actual = undefined;
      this.expected = undefined;
      this.operator = undefined;
    } else {
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
    }
    if (typeof this.stack === 'string') {
      this.stack = StringPrototypeReplace(this.stack, /^AssertionError:/, 'AssertionError [ERR_ASSERTION]:');
    }
    this.name = 'AssertionError';
    void stackStartFn;
  }

  toString() {
    return `${this.name} [${this.code}]: ${this.message}`;
  }

  [inspect.custom](recurseTimes, ctx) {
    return inspect(this, { ...ctx, customInspect: false, depth: 0 });
  }
}

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

// ---- the source text of a failing assert.ok(...) call
function callSite() {
  const stack = new Error().stack || '';
  for (const line of StringPrototypeSplit(stack, '\n').slice(1)) {
    const m = /\(?([^()\s]+):(\d+):(\d+)\)?$/.exec(StringPrototypeTrim(line));
    if (!m || StringPrototypeStartsWith(m[1], 'node:')) continue;
    return { file: StringPrototypeReplace(m[1], /^file:\/\//, ''), line: +m[2], column: +m[3] };
  }
  return undefined;
}

function expressionAt(source, line, column) {
  const lines = StringPrototypeSplit(source, '\n');
  if (line < 1 || line > lines.length) return undefined;
  let pos = 0;
  for (let i = 0; i < line - 1; i++) pos += lines[i].length + 1;
  pos += column - 1;
  const isWord = (c) => c !== undefined && /[\w$.]/.test(c);
  let start = pos;
  while (start > 0 && isWord(source[start - 1])) start--;
  let p = pos;
  while (p < source.length && isWord(source[p])) p++;
  while (p < source.length && /\s/.test(source[p])) p++;
  if (source[p] !== '(') return undefined;
  let depth = 0;
  let quote = null;
  for (; p < source.length; p++) {
    const c = source[p];
    if (quote) {
      if (c === '\\') p++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) break;
    }
  }
  if (depth !== 0) return undefined;
  const startColumn = start - StringPrototypeLastIndexOf(source, '\n', start - 1) - 1;
  return { code: StringPrototypeSlice(source, start, p + 1), column: startColumn };
}

function getErrMessage(value) {
  const site = callSite();
  const fallback = 'The expression evaluated to a falsy value:\n\n  ' +
    `assert.ok(${inspect(value)})\n`;
  if (!site) return fallback;
  const source = natives.source ? natives.source(site.file) : undefined;
  if (typeof source !== 'string') return fallback;
  const found = expressionAt(source, site.line, site.column);
  if (!found) return fallback;
  const frames = StringPrototypeSplit(found.code, '\n');
  let message = ArrayPrototypeShift(frames);
  for (const frame of frames) {
    let pos = 0;
    while (pos < found.column && (frame[pos] === ' ' || frame[pos] === '\t')) pos++;
    message += `\n  ${frame.slice(pos)}`;
  }
  return `The expression evaluated to a falsy value:\n\n  ${message}\n`;
}

function innerOk(fn, argLen, value, message) {
  if (!value) {
    let generatedMessage = false;
    if (argLen === 0) {
      generatedMessage = true;
      message = 'No value argument passed to `assert.ok()`';
    } else if (message == null) {
      generatedMessage = true;
      message = getErrMessage(value);
    } else if (message instanceof Error) {
      throw message;
    }
    const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function missingArgs(args) {
  if (args.length < 2) {
    throw makeError(TypeError, 'ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');
  }
}

function ok(...args) {
  innerOk(ok, args.length, ...args);
}
const assert = ok;
assert.fail = fail;
assert.equal = equal;
assert.notEqual = notEqual;
assert.deepEqual = deepEqual;
assert.notDeepEqual = notDeepEqual;
assert.deepStrictEqual = deepStrictEqual;
assert.notDeepStrictEqual = notDeepStrictEqual;
assert.strictEqual = strictEqual;
assert.notStrictEqual = notStrictEqual;
assert.throws = throws;
assert.rejects = rejects;
assert.doesNotThrow = doesNotThrow;
assert.doesNotReject = doesNotReject;
assert.ifError = ifError;
assert.match = match;
assert.doesNotMatch = doesNotMatch;

function fail(actual, expected, message, operator, stackStartFn) {
  const argsLen = arguments.length;
  let internalMessage = false;
  if (actual == null && argsLen <= 1) {
    internalMessage = true;
    message = 'Failed';
  } else if (argsLen === 1) {
    message = actual;
    actual = undefined;
  } else if (argsLen === 2) {
    operator = '!=';
  }
  if (message instanceof Error) throw message;
  const err = new AssertionError({
    actual, expected, operator: operator === undefined ? 'fail' : operator, stackStartFn: stackStartFn || fail, message,
  });
  if (internalMessage) err.generatedMessage = true;
  throw err;
};
assert.AssertionError = AssertionError;
assert.ok = ok;

function equal(actual, expected, message) {
  missingArgs(arguments);
  // eslint-disable-next-line eqeqeq
  if (actual != expected && (!NumberIsNaN(actual) || !NumberIsNaN(expected))) {
    innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
  }
};
function notEqual(actual, expected, message) {
  missingArgs(arguments);
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (NumberIsNaN(actual) && NumberIsNaN(expected))) {
    innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
  }
};
function deepEqual(actual, expected, message) {
  missingArgs(arguments);
  if (!isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
};
function notDeepEqual(actual, expected, message) {
  missingArgs(arguments);
  if (isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
};
function deepStrictEqual(actual, expected, message) {
  missingArgs(arguments);
  if (!isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
  }
};
function notDeepStrictEqual(actual, expected, message) {
  missingArgs(arguments);
  if (isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: notDeepStrictEqual });
  }
};
function strictEqual(actual, expected, message) {
  missingArgs(arguments);
  if (!ObjectIs(actual, expected)) innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
};
function notStrictEqual(actual, expected, message) {
  missingArgs(arguments);
  if (ObjectIs(actual, expected)) innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
};

// ---- throws / rejects
const NO_EXCEPTION = {};
const isRegExp = (v) => natives.classOf(v) === 'RegExp';
const isError = (v) => natives.classOf(v) === 'Error' || v instanceof Error;

class Comparison {
  constructor(obj, keys, actual) {
    for (const key of keys) {
      if (key in obj) {
        if (actual !== undefined && typeof actual[key] === 'string' && isRegExp(obj[key]) && RegExpPrototypeExec(obj[key], actual[key]) !== null) {
          this[key] = actual[key];
        } else {
          this[key] = obj[key];
        }
      }
    }
  }
}

function compareExceptionKey(actual, expected, key, message, keys, fn) {
  if (!(key in actual) || !isDeepStrictEqual(actual[key], expected[key])) {
    if (!message) {
      const a = new Comparison(actual, keys);
      const b = new Comparison(expected, keys, actual);
      const err = new AssertionError({ actual: a, expected: b, operator: 'deepStrictEqual', stackStartFn: fn });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
  }
}

function expectedException(actual, expected, message, fn) {
  let generatedMessage = false;
  let throwError = false;
  if (typeof expected !== 'function') {
    if (isRegExp(expected)) {
      const str = String(actual);
      if (RegExpPrototypeExec(expected, str) !== null) return;
      if (!message) {
        generatedMessage = true;
        message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
      }
      throwError = true;
    } else if (typeof actual !== 'object' || actual === null) {
      const err = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
      err.operator = fn.name;
      throw err;
    } else {
      const keys = ObjectKeys(expected);
      if (expected instanceof Error) ArrayPrototypePush(keys, 'name', 'message');
      else if (keys.length === 0) throw ERR_INVALID_ARG_VALUE('error', expected, 'may not be an empty object');
      for (const key of keys) {
        if (typeof actual[key] === 'string' && isRegExp(expected[key]) && RegExpPrototypeExec(expected[key], actual[key]) !== null) continue;
        compareExceptionKey(actual, expected, key, message, keys, fn);
      }
      return;
    }
  } else if (expected.prototype !== undefined && actual instanceof expected) {
    return;
  } else if (ObjectPrototypeIsPrototypeOf(Error, expected) || expected === Error) {
    if (!message) {
      generatedMessage = true;
      message = `The error is expected to be an instance of "${expected.name}". Received `;
      if (isError(actual)) {
        const name = (actual.constructor && actual.constructor.name) || actual.name;
        if (expected.name === name) message += 'an error with identical name but a different prototype.';
        else message += `"${name}"`;
        if (actual.message) message += `\n\nError message:\n\n${actual.message}`;
      } else {
        message += `"${inspect(actual, { depth: -1 })}"`;
      }
    }
    throwError = true;
  } else {
    const res = ReflectApply(expected, {}, [actual]);
    if (res !== true) {
      if (!message) {
        generatedMessage = true;
        const name = expected.name ? `"${expected.name}" ` : '';
        message = `The ${name}validation function is expected to return "true". Received ${inspect(res)}`;
        if (isError(actual)) message += `\n\nCaught error:\n\n${actual}`;
      }
      throwError = true;
    }
  }
  if (throwError) {
    const err = new AssertionError({ actual, expected, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function getActual(fn) {
  if (typeof fn !== 'function') throw ERR_INVALID_ARG_TYPE('fn', 'Function', fn);
  try {
    fn();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

const isPromiseLike = (v) => natives.classOf(v) === 'Promise' ||
  (v !== null && typeof v === 'object' && typeof v.then === 'function' && typeof v.catch === 'function');

async function waitForActual(promiseFn) {
  let resultPromise;
  if (typeof promiseFn === 'function') {
    resultPromise = promiseFn();
    if (!isPromiseLike(resultPromise)) {
      throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
        `Expected instance of Promise to be returned from the "promiseFn" function but got ${describeReceived(resultPromise).slice(' Received '.length)}.`);
    }
  } else if (isPromiseLike(promiseFn)) {
    resultPromise = promiseFn;
  } else {
    throw ERR_INVALID_ARG_TYPE('promiseFn', ['Function', 'Promise'], promiseFn);
  }
  try {
    await resultPromise;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

function expectsError(stackStartFn, actual, error, message) {
  if (typeof error === 'string') {
    if (arguments.length === 4) {
      throw ERR_INVALID_ARG_TYPE('error', ['Object', 'Error', 'Function', 'RegExp'], error);
    }
    if (typeof actual === 'object' && actual !== null) {
      if (actual.message === error) {
        throw makeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT',
          `The "error/message" argument is ambiguous. The error message "${actual.message}" is identical to the message.`);
      }
    } else if (actual === error) {
      throw makeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT',
        `The "error/message" argument is ambiguous. The error "${actual}" is identical to the message.`);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw ERR_INVALID_ARG_TYPE('error', ['Object', 'Error', 'Function', 'RegExp'], error);
  }
  if (actual === NO_EXCEPTION) {
    let details = '';
    if (error && error.name) details += ` (${error.name})`;
    details += message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.rejects ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: stackStartFn.name, message: `Missing expected ${fnType}${details}`, stackStartFn });
  }
  if (!error) return;
  expectedException(actual, error, message, stackStartFn);
}

function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (isRegExp(expected)) return RegExpPrototypeExec(expected, String(actual)) !== null;
    throw ERR_INVALID_ARG_TYPE('expected', ['Function', 'RegExp'], expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (ObjectPrototypeIsPrototypeOf(Error, expected)) return false;
  return ReflectApply(expected, {}, [actual]) === true;
}

function expectsNoError(stackStartFn, actual, error, message) {
  if (actual === NO_EXCEPTION) return;
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  if (!error || hasMatchingError(actual, error)) {
    const details = message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.doesNotReject ? 'rejection' : 'exception';
    innerFail({
      actual, expected: error, operator: stackStartFn.name,
      message: `Got unwanted ${fnType}${details}\nActual message: "${actual && actual.message}"`, stackStartFn,
    });
  }
  throw actual;
}

function throws(promiseFn, ...args) {
  expectsError(throws, getActual(promiseFn), ...args);
};
async function rejects(promiseFn, ...args) {
  expectsError(rejects, await waitForActual(promiseFn), ...args);
};
function doesNotThrow(fn, ...args) {
  expectsNoError(doesNotThrow, getActual(fn), ...args);
};
async function doesNotReject(fn, ...args) {
  expectsNoError(doesNotReject, await waitForActual(fn), ...args);
};

function ifError(err) {
  if (err !== null && err !== undefined) {
    let message = 'ifError got unwanted exception: ';
    if (typeof err === 'object' && typeof err.message === 'string') {
      if (err.message.length === 0 && err.constructor) message += err.constructor.name;
      else message += err.message;
    } else {
      message += inspect(err);
    }
    throw new AssertionError({ actual: err, expected: null, operator: 'ifError', message, stackStartFn: ifError });
  }
};

function internalMatch(string, regexp, message, fn) {
  if (!isRegExp(regexp)) throw ERR_INVALID_ARG_TYPE('regexp', 'RegExp', regexp);
  const match = fn === assert.match;
  if (typeof string !== 'string' || (RegExpPrototypeExec(regexp, string) !== null) !== match) {
    if (message instanceof Error) throw message;
    const generatedMessage = !message;
    message = message || (typeof string !== 'string'
      ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
      : `${match ? 'The input did not match the regular expression ' : 'The input was expected to not match the regular expression '}${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({ actual: string, expected: regexp, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}
function match(string, regexp, message) {
  internalMatch(string, regexp, message, match);
};
function doesNotMatch(string, regexp, message) {
  internalMatch(string, regexp, message, doesNotMatch);
};

function strict(...args) {
  innerOk(strict, args.length, ...args);
}
assert.strict = ObjectAssign(strict, assert, {
  equal: assert.strictEqual,
  deepEqual: assert.deepStrictEqual,
  notEqual: assert.notStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict.strict = assert.strict;

module.exports = assert;
