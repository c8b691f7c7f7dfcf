'use strict';
// The legacy half of node:url (what it covers and where it departs from Node: below).
const {
  ArrayPrototypeJoin, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift,
  ArrayPrototypeUnshift, Boolean, FunctionPrototypeCall, ObjectAssign, ObjectKeys,
  RegExpPrototypeTest, Set, StringPrototypeCharCodeAt, StringPrototypeEndsWith,
  StringPrototypeIncludes, StringPrototypeIndexOf, StringPrototypeLastIndexOf,
  StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith,
  StringPrototypeToLowerCase,
} = primordials;

const { ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { FAIL, domainToASCIIInternal, parseHost } = require('node:internal/url/host');
const { invalidURL, kContext, serialize } = require('node:internal/url/parser');
const { domainToUnicode, isURL } = require('node:internal/url/conversions');

// Node's legacy URL API (`url.parse`, `url.format`, `url.resolve`, `url.resolveObject`,
// `Url`): Node's own lenient, pre-WHATWG parsing, reimplemented from its documented and
// observed behaviour. Partial: url.resolve follows RFC 3986 reference resolution over the
// legacy parse; Node's quirks for bases in non-slashed schemes (mailto:, foo://) where the
// host acts as the first path segment are only approximated; no DEP0170 warning is emitted.

const SLASHED = new Set(['http', 'https', 'ftp', 'gopher', 'file', 'http:', 'https:', 'ftp:', 'gopher:', 'file:', 'ws:', 'wss:', 'ws', 'wss']);
const HOSTLESS = new Set(['javascript', 'javascript:']);
const UNSAFE = new Set(['javascript', 'javascript:']);
const AUTO_ESCAPE = {
  '\t': '%09', '\n': '%0A', '\r': '%0D', ' ': '%20', '"': '%22', "'": '%27', '<': '%3C', '>': '%3E',
  '\\': '%5C', '^': '%5E', '`': '%60', '{': '%7B', '|': '%7C', '}': '%7D',
};
const NON_HOST = new Set(['\t', '\n', '\r', ' ', '"', '%', "'", ';', '<', '>', '\\', '^', '`', '{', '|', '}']);
// eslint-disable-next-line no-control-regex
const FORBIDDEN_HOST = /[\0\t\n\r #%/:<>?@[\\\]^|]/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_HOST_V6 = /[\0\t\n\r #%/<>?@\\^|]/;

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  const u = new Url();
  u.parse(url, parseQueryString, slashesDenoteHost);
  return u;
}

function isWs(c) {
  return c < 33 || c === 0xa0 || c === 0xfeff;
}

Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
  if (typeof url !== 'string') throw ERR_INVALID_ARG_TYPE('url', 'string', url);
  // Trim whitespace; turn backslashes before the first ? or # into slashes.
  let start = 0;
  let end = url.length;
  while (start < end && isWs(StringPrototypeCharCodeAt(url, start))) start++;
  while (end > start && isWs(StringPrototypeCharCodeAt(url, end - 1))) end--;
  let rest = '';
  let split = false;
  let hasHash = false;
  let hasAt = false;
  for (let i = start; i < end; i++) {
    const ch = url[i];
    if (!split) {
      if (ch === '@') hasAt = true;
      else if (ch === '#' || ch === '?') {
        split = true;
        if (ch === '#') hasHash = true;
      } else if (ch === '\\') {
        rest += '/';
        continue;
      }
    } else if (ch === '#') {
      hasHash = true;
    }
    rest += ch;
  }

  if (!slashesDenoteHost && !hasHash && !hasAt) {
    const simple = /^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/.exec(rest);
    if (simple) {
      this.path = rest;
      this.href = rest;
      this.pathname = simple[1];
      if (simple[2]) {
        this.search = simple[2];
        this.query = parseQueryString ? require('querystring').parse(StringPrototypeSlice(this.search, 1)) : StringPrototypeSlice(this.search, 1);
      } else if (parseQueryString) {
        this.search = null;
        this.query = { __proto__: null };
      }
      return this;
    }
  }

  let lowerProto;
  const protoMatch = /^[a-z0-9.+-]+:/i.exec(rest);
  let proto;
  if (protoMatch) {
    proto = protoMatch[0];
    lowerProto = StringPrototypeToLowerCase(proto);
    this.protocol = lowerProto;
    rest = StringPrototypeSlice(rest, proto.length);
  }

  let slashes;
  if (slashesDenoteHost || proto || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
    slashes = StringPrototypeStartsWith(rest, '//');
    if (slashes && !(proto && HOSTLESS.has(lowerProto))) {
      rest = StringPrototypeSlice(rest, 2);
      this.slashes = true;
    }
  }

  if (!HOSTLESS.has(lowerProto) && (slashes || (proto && !SLASHED.has(proto)))) {
    let hostEnd = -1;
    let atSign = -1;
    let nonHost = -1;
    for (let i = 0; i < rest.length && hostEnd === -1; i++) {
      const ch = rest[i];
      if (NON_HOST.has(ch)) {
        if (nonHost === -1) nonHost = i;
      } else if (ch === '#' || ch === '/' || ch === '?') {
        if (nonHost === -1) nonHost = i;
        hostEnd = i;
      } else if (ch === '@') {
        atSign = i;
        nonHost = -1;
      }
    }
    let hstart = 0;
    if (atSign !== -1) {
      this.auth = decodeURIComponent(StringPrototypeSlice(rest, 0, atSign));
      hstart = atSign + 1;
    }
    if (nonHost === -1) {
      this.host = StringPrototypeSlice(rest, hstart);
      rest = '';
    } else {
      this.host = StringPrototypeSlice(rest, hstart, nonHost);
      rest = StringPrototypeSlice(rest, nonHost);
    }
    this.parseHost();
    if (typeof this.hostname !== 'string') this.hostname = '';
    const hostname = this.hostname;
    const ipv6 = hostname[0] === '[' && hostname[hostname.length - 1] === ']';
    if (!ipv6) {
      for (let i = 0; i < hostname.length; i++) {
        const ch = hostname[i];
        if (ch === '/' || ch === '\\' || ch === '#' || ch === '?' || ch === ':') {
          this.hostname = StringPrototypeSlice(hostname, 0, i);
          rest = `/${hostname.slice(i)}${rest}`;
          break;
        }
      }
    }
    if (this.hostname.length > 255) this.hostname = '';
    else this.hostname = StringPrototypeToLowerCase(this.hostname);
    if (this.hostname !== '') {
      if (ipv6) {
        if (RegExpPrototypeTest(FORBIDDEN_HOST_V6, this.hostname)) throw invalidURL(url);
      } else {
        // eslint-disable-next-line no-control-regex
        if (/[^\x00-\x7f]/.test(this.hostname)) {
          const a = domainToASCIIInternal(this.hostname);
          this.hostname = a === FAIL ? '' : a;
        }
        if (RegExpPrototypeTest(FORBIDDEN_HOST, this.hostname)) throw invalidURL(url);
      }
    }
    const p = this.port ? ':' + this.port : '';
    this.host = (this.hostname || '') + p;
    if (ipv6) {
      this.hostname = StringPrototypeSlice(this.hostname, 1, -1);
      if (rest[0] !== '/') rest = '/' + rest;
    }
  }

  if (!UNSAFE.has(lowerProto)) {
    let esc = '';
    for (const ch of rest) esc += AUTO_ESCAPE[ch] || ch;
    rest = esc;
  }

  let q = -1;
  let h = -1;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '#') {
      this.hash = StringPrototypeSlice(rest, i);
      h = i;
      break;
    } else if (rest[i] === '?' && q === -1) {
      q = i;
    }
  }
  if (q !== -1) {
    this.search = h === -1 ? StringPrototypeSlice(rest, q) : StringPrototypeSlice(rest, q, h);
    this.query = h === -1 ? StringPrototypeSlice(rest, q + 1) : StringPrototypeSlice(rest, q + 1, h);
    if (parseQueryString) this.query = require('querystring').parse(this.query);
  } else if (parseQueryString) {
    this.search = null;
    this.query = { __proto__: null };
  }
  const first = q !== -1 && (h === -1 || q < h) ? q : h;
  if (first === -1) {
    if (rest.length > 0) this.pathname = rest;
  } else if (first > 0) {
    this.pathname = StringPrototypeSlice(rest, 0, first);
  }
  if (SLASHED.has(lowerProto) && this.hostname && !this.pathname) this.pathname = '/';
  if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
  this.href = this.format();
  return this;
};

Url.prototype.parseHost = function parseHost() {
  let host = this.host;
  const m = /:[0-9]*$/.exec(host);
  if (m) {
    const port = m[0];
    if (port !== ':') this.port = StringPrototypeSlice(port, 1);
    host = StringPrototypeSlice(host, 0, host.length - port.length);
  }
  if (host) this.hostname = host;
};

function escapeAuth(auth) {
  let out = '';
  for (const ch of auth) {
    if (/^[A-Za-z0-9!'()*\-._~:]$/.test(ch)) out += ch;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  }
  return out;
}

Url.prototype.format = function format() {
  let auth = this.auth || '';
  if (auth) auth = escapeAuth(auth) + '@';
  let protocol = this.protocol || '';
  let pathname = this.pathname || '';
  let hash = this.hash || '';
  let host = '';
  let query = '';
  if (this.host) {
    host = auth + this.host;
  } else if (this.hostname) {
    const hn = this.hostname;
    host = auth + (StringPrototypeIncludes(hn, ':') && !(hn[0] === '[' && hn[hn.length - 1] === ']') ? '[' + hn + ']' : hn);
    if (this.port) host += ':' + this.port;
  }
  if (this.query !== null && typeof this.query === 'object') query = require('querystring').stringify(this.query);
  let search = this.search || (query && '?' + query) || '';
  if (protocol && protocol[protocol.length - 1] !== ':') protocol += ':';
  pathname = StringPrototypeReplace(pathname, /[?#]/g, (c) => (c === '#' ? '%23' : '%3F'));
  if (this.slashes || SLASHED.has(protocol)) {
    if (this.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = '/' + pathname;
      host = '//' + host;
    } else if (protocol.length >= 4 && StringPrototypeStartsWith(protocol, 'file')) {
      host = '//';
    }
  }
  search = StringPrototypeReplace(search, /#/g, '%23');
  if (hash && hash[0] !== '#') hash = '#' + hash;
  if (search && search[0] !== '?') search = '?' + search;
  return protocol + host + pathname + search + hash;
};

// RFC 3986 remove_dot_segments; a relative path keeps the `..` it cannot resolve (as Node).
function removeDots(path) {
  const abs = StringPrototypeStartsWith(path, '/');
  const segs = StringPrototypeSplit(path, '/');
  const out = [];
  let up = 0;
  for (let i = abs ? 1 : 0; i < segs.length; i++) {
    const s = segs[i];
    const last = i === segs.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..') {
        if (out.length > 0) ArrayPrototypePop(out);
        else if (!abs) up++;
      }
      if (last) ArrayPrototypePush(out, '');
    } else {
      ArrayPrototypePush(out, s);
    }
  }
  for (; up > 0; up--) ArrayPrototypeUnshift(out, '..');
  const r = (abs ? '/' : '') + ArrayPrototypeJoin(out, '/');
  return r === '' && StringPrototypeEndsWith(path, '/') ? '/' : r;
}

Url.prototype.resolveObject = function resolveObject(relative) {
  const rel = typeof relative === 'string' ? urlParse(relative, false, true) : relative;
  const result = new Url();
  ObjectAssign(result, this);
  result.hash = rel.hash;
  if (rel.href === '') {
    result.href = result.format();
    return result;
  }
  if (rel.protocol && rel.host) {
    ObjectAssign(result, rel);
    result.href = result.format();
    return result;
  }
  if (rel.protocol && rel.protocol !== result.protocol) {
    if (!SLASHED.has(rel.protocol) || rel.host || rel.protocol === 'file:') {
      ObjectAssign(result, rel);
      result.href = result.format();
      return result;
    }
    // `https:g` against another scheme: the first path segment is the host.
    const segs = StringPrototypeSplit(rel.pathname || '', '/');
    let host = '';
    while (segs.length && !(host = ArrayPrototypeShift(segs)));
    if (segs[0] !== '') ArrayPrototypeUnshift(segs, '');
    if (segs.length < 2) ArrayPrototypeUnshift(segs, '');
    ObjectAssign(result, rel);
    result.host = result.hostname = host;
    result.pathname = ArrayPrototypeJoin(segs, '/');
    result.path = result.pathname + (result.search || '');
    result.slashes = true;
    result.href = result.format();
    return result;
  }
  if (rel.slashes && rel.host !== null) {
    for (const k of ObjectKeys(rel)) if (k !== 'protocol') result[k] = rel[k];
    if (SLASHED.has(result.protocol) && result.hostname && !result.pathname) result.pathname = result.path = '/';
    result.href = result.format();
    return result;
  }
  // Non-slashed schemes (mailto:) keep their host as the first path segment.
  const psychotic = result.protocol && !SLASHED.has(result.protocol) && !result.slashes;
  let basePath = result.pathname || '';
  if (psychotic) basePath = (result.host || '') + (basePath ? '/' + basePath : '');
  let path;
  if (!rel.pathname) {
    path = basePath;
    if (rel.search !== null) {
      result.search = rel.search;
      result.query = rel.query;
    }
  } else {
    if (StringPrototypeStartsWith(rel.pathname, '/')) {
      path = rel.pathname;
    } else if (result.host && !basePath && !psychotic) {
      path = '/' + rel.pathname;
    } else {
      const slash = StringPrototypeLastIndexOf(basePath, '/');
      path = StringPrototypeSlice(basePath, 0, slash + 1) + rel.pathname;
    }
    path = removeDots(path);
    result.search = rel.search;
    result.query = rel.query;
  }
  if (psychotic) {
    const slash = StringPrototypeIndexOf(path, '/');
    const host = slash < 0 ? path : StringPrototypeSlice(path, 0, slash);
    path = slash < 0 ? '' : StringPrototypeSlice(path, slash + 1);
    result.host = result.hostname = host;
    result.port = null;
  }
  result.pathname = path === '' ? null : path;
  if (SLASHED.has(result.protocol) && result.hostname && !result.pathname) result.pathname = '/';
  result.path = result.pathname || result.search ? (result.pathname || '') + (result.search || '') : null;
  result.auth = rel.auth || result.auth;
  result.slashes = result.slashes || rel.slashes;
  result.href = result.format();
  return result;
};

Url.prototype.resolve = function resolve(relative) {
  return this.resolveObject(urlParse(relative, false, true)).format();
};

function urlResolve(source, relative) {
  return urlParse(source, false, true).resolve(relative);
}

function urlResolveObject(source, relative) {
  if (!source) return relative;
  return urlParse(source, false, true).resolveObject(relative);
}

function urlFormat(urlObject, options) {
  if (typeof urlObject === 'string') {
    urlObject = urlParse(urlObject);
  } else if (typeof urlObject !== 'object' || urlObject === null) {
    throw ERR_INVALID_ARG_TYPE('urlObject', ['Object', 'string'], urlObject);
  } else if (isURL(urlObject)) {
    let fragment = true;
    let unicode = false;
    let search = true;
    let auth = true;
    if (options !== undefined) {
      if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
      if (options.fragment !== undefined) fragment = Boolean(options.fragment);
      if (options.unicode !== undefined) unicode = Boolean(options.unicode);
      if (options.search !== undefined) search = Boolean(options.search);
      if (options.auth !== undefined) auth = Boolean(options.auth);
    }
    const ctx = { ...urlObject[kContext] };
    if (!auth) {
      ctx.username = '';
      ctx.password = '';
    }
    if (!fragment) ctx.fragment = null;
    if (!search) ctx.query = null;
    if (unicode && ctx.host) ctx.host = domainToUnicode(ctx.host);
    return serialize(ctx, false);
  }
  return FunctionPrototypeCall(Url.prototype.format, urlObject);
}

module.exports = {
  Url, urlFormat, urlParse, urlResolve, urlResolveObject,
};
