'use strict';
// application/x-www-form-urlencoded parsing and serializing, and URLSearchParams (URL
// Standard §5, §6), which writes its list back to the URL it belongs to.
const {
  ArrayPrototypeFilter, ArrayPrototypeFindIndex, ArrayPrototypeMap, ArrayPrototypePush,
  ArrayPrototypeSome, ArrayPrototypeSort, FunctionPrototypeCall, ObjectCreate, ObjectDefineProperty,
  ObjectGetPrototypeOf, ObjectPrototypeHasOwnProperty, ReflectGetOwnPropertyDescriptor,
  ReflectOwnKeys, StringPrototypeCodePointAt, StringPrototypeIndexOf, StringPrototypeReplace,
  StringPrototypeSlice, StringPrototypeSplit, SymbolIterator, SymbolToStringTag, TypeError,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const {
  pctByte,
  percentDecodeBytes,
  stringBytes,
  toUSVString,
  utf8Bytes,
  utf8Decode,
} = require('node:internal/url/encoding');
const {
  customInspect,
  kContext,
  kList,
  kQuery,
  kURL,
  stripTrailingSpacesFromOpaquePath,
} = require('node:internal/url/parser');

function parseParams(input) {
  const out = [];
  for (const seq of StringPrototypeSplit(input, '&')) {
    if (seq === '') continue;
    const eq = StringPrototypeIndexOf(seq, '=');
    let name = eq < 0 ? seq : StringPrototypeSlice(seq, 0, eq);
    let value = eq < 0 ? '' : StringPrototypeSlice(seq, eq + 1);
    name = utf8Decode(percentDecodeBytes(stringBytes(StringPrototypeReplace(name, /\+/g, ' '))));
    value = utf8Decode(percentDecodeBytes(stringBytes(StringPrototypeReplace(value, /\+/g, ' '))));
    ArrayPrototypePush(out, [name, value]);
  }
  return out;
}

function formEncode(s) {
  let out = '';
  for (const ch of s) {
    const c = StringPrototypeCodePointAt(ch, 0);
    if (c === 0x20) out += '+';
    else if (
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x2a ||
      c === 0x2d ||
      c === 0x2e ||
      c === 0x5f
    )
      out += ch;
    else {
      const b = utf8Bytes(c);
      for (let i = 0; i < b.length; i++) out += pctByte(b[i]);
    }
  }
  return out;
}

function serializeParams(list) {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out += '&';
    out += formEncode(list[i][0]) + '=' + formEncode(list[i][1]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// URLSearchParams

function missingArgs(...names) {
  let msg;
  if (names.length === 1) msg = `The "${names[0]}" argument must be specified`;
  else msg = `The "${names[0]}" and "${names[1]}" arguments must be specified`;
  return makeError(TypeError, 'ERR_MISSING_ARGS', msg);
}

function checkParams(self) {
  if (self === null || typeof self !== 'object' || !ObjectPrototypeHasOwnProperty(self, kList)) {
    throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParams');
  }
}

function updateParams(self) {
  const url = self[kURL];
  if (!url) return;
  const ctx = url[kContext];
  const s = serializeParams(self[kList]);
  ctx.query = s === '' ? null : s;
  if (ctx.query === null) stripTrailingSpacesFromOpaquePath(ctx);
}

class URLSearchParams {
  constructor(init = undefined) {
    ObjectDefineProperty(this, kList, { value: [], writable: true });
    ObjectDefineProperty(this, kURL, { value: null, writable: true });
    const list = this[kList];
    if (init == null) {
      // empty
    } else if (typeof init === 'object' || typeof init === 'function') {
      const method = init[SymbolIterator];
      if (method != null) {
        if (typeof method !== 'function') {
          throw makeError(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
        }
        for (const pair of init) {
          if (
            pair == null ||
            (typeof pair !== 'object' && typeof pair !== 'function') ||
            typeof pair[SymbolIterator] !== 'function'
          ) {
            throw makeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          const conv = [];
          for (const el of pair) ArrayPrototypePush(conv, toUSVString(el));
          if (conv.length !== 2) {
            throw makeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          ArrayPrototypePush(list, conv);
        }
      } else {
        for (const key of ReflectOwnKeys(init)) {
          const desc = ReflectGetOwnPropertyDescriptor(init, key);
          if (desc !== undefined && desc.enumerable) {
            const k = toUSVString(key);
            const v = toUSVString(init[key]);
            const idx = ArrayPrototypeFindIndex(list, (e) => e[0] === k);
            if (idx >= 0) list[idx][1] = v;
            else ArrayPrototypePush(list, [k, v]);
          }
        }
      }
    } else {
      let s = toUSVString(init);
      if (s[0] === '?') s = StringPrototypeSlice(s, 1);
      this[kList] = parseParams(s);
    }
  }

  get size() {
    checkParams(this);
    return this[kList].length;
  }

  append(name, value) {
    checkParams(this);
    if (arguments.length < 2) throw missingArgs('name', 'value');
    ArrayPrototypePush(this[kList], [toUSVString(name), toUSVString(value)]);
    updateParams(this);
  }

  delete(name, value = undefined) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    const list = this[kList];
    if (value !== undefined) {
      value = toUSVString(value);
      this[kList] = ArrayPrototypeFilter(list, (e) => !(e[0] === name && e[1] === value));
    } else {
      this[kList] = ArrayPrototypeFilter(list, (e) => e[0] !== name);
    }
    updateParams(this);
  }

  get(name) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    for (const e of this[kList]) if (e[0] === name) return e[1];
    return null;
  }

  getAll(name) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    const out = [];
    for (const e of this[kList]) if (e[0] === name) ArrayPrototypePush(out, e[1]);
    return out;
  }

  has(name, value = undefined) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    if (value !== undefined) {
      value = toUSVString(value);
      return ArrayPrototypeSome(this[kList], (e) => e[0] === name && e[1] === value);
    }
    return ArrayPrototypeSome(this[kList], (e) => e[0] === name);
  }

  set(name, value) {
    checkParams(this);
    if (arguments.length < 2) throw missingArgs('name', 'value');
    name = toUSVString(name);
    value = toUSVString(value);
    const list = this[kList];
    let found = false;
    const out = [];
    for (const e of list) {
      if (e[0] === name) {
        if (!found) {
          ArrayPrototypePush(out, [name, value]);
          found = true;
        }
      } else {
        ArrayPrototypePush(out, e);
      }
    }
    if (!found) ArrayPrototypePush(out, [name, value]);
    this[kList] = out;
    updateParams(this);
  }

  sort() {
    checkParams(this);
    ArrayPrototypeSort(this[kList], (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    updateParams(this);
  }

  entries() {
    checkParams(this);
    return makeIterator(this, 'key+value');
  }

  forEach(callback, thisArg = undefined) {
    checkParams(this);
    if (typeof callback !== 'function') throw ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
    let list = this[kList];
    for (let i = 0; i < list.length; i++) {
      const [k, v] = list[i];
      FunctionPrototypeCall(callback, thisArg, v, k, this);
      list = this[kList];
    }
  }

  keys() {
    checkParams(this);
    return makeIterator(this, 'key');
  }

  values() {
    checkParams(this);
    return makeIterator(this, 'value');
  }

  toString() {
    checkParams(this);
    return serializeParams(this[kList]);
  }

  [customInspect](depth, opts) {
    if (typeof depth === 'number' && depth < 0) return '[Object]';
    const inspect = require('util').inspect;
    const parts = ArrayPrototypeMap(this[kList], ([k, v]) => `${inspect(k, opts)} => ${inspect(v, opts)}`);
    if (parts.length === 0) return 'URLSearchParams {}';
    const one = `URLSearchParams { ${parts.join(', ')} }`;
    const breakLength = opts && typeof opts.breakLength === 'number' ? opts.breakLength : 80;
    if (one.length <= breakLength) return one;
    return `URLSearchParams {\n  ${parts.join(',\n  ')} }`;
  }
}

ObjectDefineProperty(URLSearchParams.prototype, SymbolIterator, {
  value: URLSearchParams.prototype.entries,
  writable: true,
  configurable: true,
});
ObjectDefineProperty(URLSearchParams.prototype, SymbolToStringTag, {
  value: 'URLSearchParams',
  configurable: true,
});

const IteratorProto = ObjectGetPrototypeOf(ObjectGetPrototypeOf([][SymbolIterator]()));
const URLSearchParamsIteratorPrototype = ObjectCreate(IteratorProto, {
  next: {
    value: function next() {
      const st = this && this[kQuery];
      if (!st) {
        throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      }
      const list = st.target[kList];
      if (st.index >= list.length) return { value: undefined, done: true };
      const [k, v] = list[st.index++];
      const value = st.kind === 'key' ? k : st.kind === 'value' ? v : [k, v];
      return { value, done: false };
    },
    writable: true,
    configurable: true,
    enumerable: true,
  },
  [SymbolToStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
});

function makeIterator(target, kind) {
  const it = ObjectCreate(URLSearchParamsIteratorPrototype);
  ObjectDefineProperty(it, kQuery, { value: { target, kind, index: 0 } });
  return it;
}

module.exports = {
  URLSearchParams, missingArgs, parseParams,
};
