'use strict';
// The URL class (URL Standard §6.1): the getters and setters over the URL record, canParse,
// parse, toJSON and Node's inspect output.
const {
  ArrayIsArray, ArrayPrototypeSlice, ObjectAssign, ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor, ObjectPrototypeHasOwnProperty, String, StringPrototypeSlice,
  SymbolToStringTag, TypeError,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { encodeStr, inUserinfo, toUSVString } = require('node:internal/url/encoding');
const { FAIL } = require('node:internal/url/host');
const {
  S,
  basicParse,
  customInspect,
  hasOpaquePath,
  invalidURL,
  kContext,
  kList,
  kQuery,
  kURL,
  origin,
  serialize,
  serializePath,
  stripTrailingSpacesFromOpaquePath,
} = require('node:internal/url/parser');
const { URLSearchParams, missingArgs, parseParams } = require('node:internal/url/search_params');

function checkURL(self) {
  if (self === null || typeof self !== 'object' || !ObjectPrototypeHasOwnProperty(self, kContext)) {
    throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URL');
  }
}

function parseWithBase(input, base) {
  let baseRec = null;
  if (base !== undefined) {
    baseRec = basicParse(base, null);
    if (baseRec === FAIL) return FAIL;
  }
  return basicParse(input, baseRec);
}

function syncSearchParams(self) {
  const sp = self[kQuery];
  if (sp) {
    const q = self[kContext].query;
    sp[kList] = q ? parseParams(q) : [];
  }
}

class URL {
  constructor(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    input = toUSVString(input);
    if (base !== undefined) base = toUSVString(base);
    const rec = parseWithBase(input, base);
    if (rec === FAIL) throw invalidURL(input, base);
    ObjectDefineProperty(this, kContext, { value: rec, writable: true });
    ObjectDefineProperty(this, kQuery, { value: null, writable: true });
  }

  static canParse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    input = toUSVString(input);
    if (base !== undefined) base = toUSVString(base);
    return parseWithBase(input, base) !== FAIL;
  }

  static createObjectURL(obj) {
    const blobs = require('node:internal/blob').internals;
    if (!blobs.isBlob(obj)) throw ERR_INVALID_ARG_TYPE('obj', 'Blob', obj);
    const id = require('node:crypto').randomUUID();
    blobs.storeObjectURL(id, obj);
    return `blob:nodedata:${id}`;
  }

  static revokeObjectURL(url) {
    if (arguments.length === 0) throw missingArgs('url');
    require('node:internal/blob').internals.revokeObjectURL(url);
  }

  static parse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    try {
      return new URL(input, base);
    } catch {
      return null;
    }
  }

  toString() {
    checkURL(this);
    return serialize(this[kContext], false);
  }

  get href() {
    checkURL(this);
    return serialize(this[kContext], false);
  }
  set href(value) {
    checkURL(this);
    value = toUSVString(value);
    const rec = basicParse(value, null);
    if (rec === FAIL) throw invalidURL(value);
    this[kContext] = rec;
    syncSearchParams(this);
  }

  get origin() {
    checkURL(this);
    return origin(this[kContext]);
  }

  get protocol() {
    checkURL(this);
    return this[kContext].scheme + ':';
  }
  set protocol(value) {
    checkURL(this);
    basicParse(toUSVString(value) + ':', null, this[kContext], S.SCHEME_START);
  }

  get username() {
    checkURL(this);
    return this[kContext].username;
  }
  set username(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    ctx.username = encodeStr(toUSVString(value), inUserinfo);
  }

  get password() {
    checkURL(this);
    return this[kContext].password;
  }
  set password(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    ctx.password = encodeStr(toUSVString(value), inUserinfo);
  }

  get host() {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null) return '';
    if (ctx.port === null) return ctx.host;
    return ctx.host + ':' + ctx.port;
  }
  set host(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    setWith(ctx, toUSVString(value), S.HOST);
  }

  get hostname() {
    checkURL(this);
    const h = this[kContext].host;
    return h === null ? '' : h;
  }
  set hostname(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    setWith(ctx, toUSVString(value), S.HOSTNAME);
  }

  get port() {
    checkURL(this);
    const p = this[kContext].port;
    return p === null ? '' : String(p);
  }
  set port(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    value = toUSVString(value);
    if (value === '') ctx.port = null;
    else setWith(ctx, value, S.PORT);
  }

  get pathname() {
    checkURL(this);
    return serializePath(this[kContext]);
  }
  set pathname(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    const copy = { ...ctx, path: [] };
    const r = basicParse(toUSVString(value), null, copy, S.PATH_START);
    if (r !== FAIL) this[kContext] = copy;
  }

  get search() {
    checkURL(this);
    const q = this[kContext].query;
    return q === null || q === '' ? '' : '?' + q;
  }
  set search(value) {
    checkURL(this);
    const ctx = this[kContext];
    value = toUSVString(value);
    if (value === '') {
      ctx.query = null;
      if (this[kQuery]) this[kQuery][kList] = [];
      stripTrailingSpacesFromOpaquePath(ctx);
      return;
    }
    const input = value[0] === '?' ? StringPrototypeSlice(value, 1) : value;
    const copy = { ...ctx, query: '' };
    basicParse(input, null, copy, S.QUERY);
    this[kContext] = copy;
    if (this[kQuery]) this[kQuery][kList] = parseParams(input);
  }

  get searchParams() {
    checkURL(this);
    if (this[kQuery] === null) {
      const sp = new URLSearchParams(this[kContext].query || '');
      sp[kURL] = this;
      this[kQuery] = sp;
    }
    return this[kQuery];
  }

  get hash() {
    checkURL(this);
    const f = this[kContext].fragment;
    return f === null || f === '' ? '' : '#' + f;
  }
  set hash(value) {
    checkURL(this);
    const ctx = this[kContext];
    value = toUSVString(value);
    if (value === '') {
      ctx.fragment = null;
      stripTrailingSpacesFromOpaquePath(ctx);
      return;
    }
    const input = value[0] === '#' ? StringPrototypeSlice(value, 1) : value;
    const copy = { ...ctx, fragment: '' };
    basicParse(input, null, copy, S.FRAGMENT);
    this[kContext] = copy;
  }

  toJSON() {
    checkURL(this);
    return serialize(this[kContext], false);
  }

  [customInspect](depth, opts) {
    if (typeof depth === 'number' && depth < 0) return this;
    const inspect = require('util').inspect;
    const obj = {
      href: this.href,
      origin: this.origin,
      protocol: this.protocol,
      username: this.username,
      password: this.password,
      host: this.host,
      hostname: this.hostname,
      port: this.port,
      pathname: this.pathname,
      search: this.search,
      searchParams: this.searchParams,
      hash: this.hash,
    };
    const name = (this.constructor && this.constructor.name) || 'URL';
    return `${name} ${inspect(obj, opts)}`;
  }
}

// Setters with a state override run on a copy so a failure leaves the URL unchanged.
function setWith(ctx, value, state) {
  const copy = { ...ctx, path: ArrayIsArray(ctx.path) ? ArrayPrototypeSlice(ctx.path) : ctx.path };
  const r = basicParse(value, null, copy, state);
  if (r !== FAIL) ObjectAssign(ctx, copy);
}

for (const name of [
  'toString',
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'searchParams',
  'hash',
  'toJSON',
]) {
  const d = ObjectGetOwnPropertyDescriptor(URL.prototype, name);
  d.enumerable = true;
  ObjectDefineProperty(URL.prototype, name, d);
}
for (const name of ['size', 'append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'entries', 'forEach', 'keys', 'values', 'toString']) {
  const d = ObjectGetOwnPropertyDescriptor(URLSearchParams.prototype, name);
  d.enumerable = true;
  ObjectDefineProperty(URLSearchParams.prototype, name, d);
}
ObjectDefineProperty(URL.prototype, SymbolToStringTag, { value: 'URL', configurable: true });

module.exports = {
  URL,
};
