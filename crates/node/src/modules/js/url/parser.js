'use strict';
// The URL record and the basic URL parser (URL Standard §4.4) as the standard's state machine,
// with state overrides for the setters, and the URL serializer. A URL's state is a plain
// record on a symbol-keyed property (kContext), so URL objects ride images like any other
// JS data; hosts are stored already serialized (IPv6 in brackets).
const {
  ArrayFrom, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeSlice, StringPrototypeReplace,
  StringPrototypeToLowerCase, Symbol, SymbolFor, TypeError,
} = primordials;

const { makeError } = require('node:internal/errors');
const {
  encodeCp,
  encodeStr,
  inC0,
  inFragment,
  inPath,
  inQuery,
  inSpecialQuery,
  inUserinfo,
} = require('node:internal/url/encoding');
const { FAIL, defaultPort, isSpecialScheme, parseHost } = require('node:internal/url/host');

const kContext = Symbol('context');
const kQuery = Symbol('query');
const kList = Symbol('list');
const kURL = Symbol('url');
const customInspect = SymbolFor('nodejs.util.inspect.custom');

function invalidURL(input, base) {
  const err = makeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

const S = {
  SCHEME_START: 1,
  SCHEME: 2,
  NO_SCHEME: 3,
  SPECIAL_RELATIVE_OR_AUTHORITY: 4,
  PATH_OR_AUTHORITY: 5,
  RELATIVE: 6,
  RELATIVE_SLASH: 7,
  SPECIAL_AUTHORITY_SLASHES: 8,
  SPECIAL_AUTHORITY_IGNORE_SLASHES: 9,
  AUTHORITY: 10,
  HOST: 11,
  HOSTNAME: 12,
  PORT: 13,
  FILE: 14,
  FILE_SLASH: 15,
  FILE_HOST: 16,
  PATH_START: 17,
  PATH: 18,
  OPAQUE_PATH: 19,
  QUERY: 20,
  FRAGMENT: 21,
};

function newRecord() {
  return { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
}

function isAlpha(c) {
  return c !== undefined && /^[A-Za-z]$/.test(c);
}
function isDigit(c) {
  return c !== undefined && c >= '0' && c <= '9';
}
function isWinDrive(s, normalizedOnly) {
  return s.length === 2 && isAlpha(s[0]) && (s[1] === ':' || (!normalizedOnly && s[1] === '|'));
}
function startsWithWinDrive(cps, p) {
  if (cps.length - p < 2) return false;
  if (!isAlpha(cps[p]) || (cps[p + 1] !== ':' && cps[p + 1] !== '|')) return false;
  if (cps.length - p === 2) return true;
  const c = cps[p + 2];
  return c === '/' || c === '\\' || c === '?' || c === '#';
}
function isSingleDot(s) {
  return s === '.' || StringPrototypeToLowerCase(s) === '%2e';
}
function isDoubleDot(s) {
  const l = StringPrototypeToLowerCase(s);
  return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
}
function shortenPath(url) {
  const path = url.path;
  if (url.scheme === 'file' && path.length === 1 && isWinDrive(path[0], true)) return;
  ArrayPrototypePop(path);
}
function includesCredentials(url) {
  return url.username !== '' || url.password !== '';
}
function hasOpaquePath(url) {
  return typeof url.path === 'string';
}

function basicParse(inputStr, base, url, override) {
  let input = inputStr;
  if (!url) {
    url = newRecord();
    // eslint-disable-next-line no-control-regex
    input = StringPrototypeReplace(input, /^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  }
  input = StringPrototypeReplace(input, /[\t\n\r]/g, '');
  let state = override || S.SCHEME_START;
  let buffer = '';
  let atSignSeen = false;
  let insideBrackets = false;
  let passwordTokenSeen = false;
  const cps = ArrayFrom(input);
  const len = cps.length;
  const special = () => isSpecialScheme(url.scheme);
  for (let p = 0; ; p++) {
    const c = p < len ? cps[p] : undefined; // undefined = EOF
    switch (state) {
      case S.SCHEME_START:
        if (isAlpha(c)) {
          buffer += StringPrototypeToLowerCase(c);
          state = S.SCHEME;
        } else if (!override) {
          state = S.NO_SCHEME;
          p--;
        } else {
          return FAIL;
        }
        break;
      case S.SCHEME:
        if (c !== undefined && (/^[A-Za-z0-9]$/.test(c) || c === '+' || c === '-' || c === '.')) {
          buffer += StringPrototypeToLowerCase(c);
        } else if (c === ':') {
          if (override) {
            if (isSpecialScheme(url.scheme) !== isSpecialScheme(buffer)) return url;
            if ((includesCredentials(url) || url.port !== null) && buffer === 'file') return url;
            if (url.scheme === 'file' && url.host === '') return url;
          }
          url.scheme = buffer;
          if (override) {
            if (url.port === defaultPort(url.scheme)) url.port = null;
            return url;
          }
          buffer = '';
          if (url.scheme === 'file') {
            state = S.FILE;
          } else if (special() && base && base.scheme === url.scheme) {
            state = S.SPECIAL_RELATIVE_OR_AUTHORITY;
          } else if (special()) {
            state = S.SPECIAL_AUTHORITY_SLASHES;
          } else if (cps[p + 1] === '/') {
            state = S.PATH_OR_AUTHORITY;
            p++;
          } else {
            url.path = '';
            state = S.OPAQUE_PATH;
          }
        } else if (!override) {
          buffer = '';
          state = S.NO_SCHEME;
          p = -1;
        } else {
          return FAIL;
        }
        break;
      case S.NO_SCHEME:
        if (!base || (hasOpaquePath(base) && c !== '#')) return FAIL;
        if (hasOpaquePath(base) && c === '#') {
          url.scheme = base.scheme;
          url.path = base.path;
          url.query = base.query;
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (base.scheme !== 'file') {
          state = S.RELATIVE;
          p--;
        } else {
          state = S.FILE;
          p--;
        }
        break;
      case S.SPECIAL_RELATIVE_OR_AUTHORITY:
        if (c === '/' && cps[p + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p++;
        } else {
          state = S.RELATIVE;
          p--;
        }
        break;
      case S.PATH_OR_AUTHORITY:
        if (c === '/') {
          state = S.AUTHORITY;
        } else {
          state = S.PATH;
          p--;
        }
        break;
      case S.RELATIVE:
        url.scheme = base.scheme;
        if (c === '/' || (special() && c === '\\')) {
          state = S.RELATIVE_SLASH;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          url.path = ArrayPrototypeSlice(base.path);
          url.query = base.query;
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            shortenPath(url);
            state = S.PATH;
            p--;
          }
        }
        break;
      case S.RELATIVE_SLASH:
        if (special() && (c === '/' || c === '\\')) {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        } else if (c === '/') {
          state = S.AUTHORITY;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          state = S.PATH;
          p--;
        }
        break;
      case S.SPECIAL_AUTHORITY_SLASHES:
        if (c === '/' && cps[p + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p++;
        } else {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p--;
        }
        break;
      case S.SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== '/' && c !== '\\') {
          state = S.AUTHORITY;
          p--;
        }
        break;
      case S.AUTHORITY:
        if (c === '@') {
          if (atSignSeen) buffer = '%40' + buffer;
          atSignSeen = true;
          for (const ch of buffer) {
            if (ch === ':' && !passwordTokenSeen) {
              passwordTokenSeen = true;
              continue;
            }
            const enc = encodeCp(ch, inUserinfo);
            if (passwordTokenSeen) url.password += enc;
            else url.username += enc;
          }
          buffer = '';
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          if (atSignSeen && buffer === '') return FAIL;
          p -= ArrayFrom(buffer).length + 1;
          buffer = '';
          state = S.HOST;
        } else {
          buffer += c;
        }
        break;
      case S.HOST:
      case S.HOSTNAME:
        if (override && url.scheme === 'file') {
          p--;
          state = S.FILE_HOST;
        } else if (c === ':' && !insideBrackets) {
          if (buffer === '') return FAIL;
          if (override === S.HOSTNAME) return FAIL;
          const host = parseHost(buffer, !special());
          if (host === FAIL) return FAIL;
          url.host = host;
          buffer = '';
          state = S.PORT;
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          p--;
          if (special() && buffer === '') return FAIL;
          if (override && buffer === '' && (includesCredentials(url) || url.port !== null)) return FAIL;
          const host = parseHost(buffer, !special());
          if (host === FAIL) return FAIL;
          url.host = host;
          buffer = '';
          state = S.PATH_START;
          if (override) return url;
        } else {
          if (c === '[') insideBrackets = true;
          if (c === ']') insideBrackets = false;
          buffer += c;
        }
        break;
      case S.PORT:
        if (isDigit(c)) {
          buffer += c;
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\') || override) {
          if (buffer !== '') {
            const port = parseInt(buffer, 10);
            if (port > 65535) return FAIL;
            url.port = port === defaultPort(url.scheme) ? null : port;
            buffer = '';
          }
          if (override) return url;
          state = S.PATH_START;
          p--;
        } else {
          return FAIL;
        }
        break;
      case S.FILE:
        url.scheme = 'file';
        url.host = '';
        if (c === '/' || c === '\\') {
          state = S.FILE_SLASH;
        } else if (base && base.scheme === 'file') {
          url.host = base.host;
          url.path = ArrayPrototypeSlice(base.path);
          url.query = base.query;
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            if (!startsWithWinDrive(cps, p)) shortenPath(url);
            else url.path = [];
            state = S.PATH;
            p--;
          }
        } else {
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_SLASH:
        if (c === '/' || c === '\\') {
          state = S.FILE_HOST;
        } else {
          if (base && base.scheme === 'file') {
            url.host = base.host;
            if (!startsWithWinDrive(cps, p) && base.path.length > 0 && isWinDrive(base.path[0], true)) {
              ArrayPrototypePush(url.path, base.path[0]);
            }
          }
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_HOST:
        if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
          p--;
          if (!override && isWinDrive(buffer, false)) {
            state = S.PATH;
          } else if (buffer === '') {
            url.host = '';
            if (override) return url;
            state = S.PATH_START;
          } else {
            let host = parseHost(buffer, !special());
            if (host === FAIL) return FAIL;
            if (host === 'localhost') host = '';
            url.host = host;
            if (override) return url;
            buffer = '';
            state = S.PATH_START;
          }
        } else {
          buffer += c;
        }
        break;
      case S.PATH_START:
        if (special()) {
          state = S.PATH;
          if (c !== '/' && c !== '\\') p--;
        } else if (!override && c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (!override && c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          state = S.PATH;
          if (c !== '/') p--;
        } else if (override && url.host === null) {
          ArrayPrototypePush(url.path, '');
        }
        break;
      case S.PATH: {
        const slashLike = c === '/' || (special() && c === '\\');
        if (c === undefined || slashLike || (!override && (c === '?' || c === '#'))) {
          if (isDoubleDot(buffer)) {
            shortenPath(url);
            if (!slashLike) ArrayPrototypePush(url.path, '');
          } else if (isSingleDot(buffer) && !slashLike) {
            ArrayPrototypePush(url.path, '');
          } else if (!isSingleDot(buffer)) {
            if (url.scheme === 'file' && url.path.length === 0 && isWinDrive(buffer, false)) {
              buffer = buffer[0] + ':';
            }
            ArrayPrototypePush(url.path, buffer);
          }
          buffer = '';
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          }
          if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += encodeCp(c, inPath);
        }
        break;
      }
      case S.OPAQUE_PATH:
        if (c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          url.path += encodeCp(c, inC0);
        }
        break;
      case S.QUERY:
        if ((!override && c === '#') || c === undefined) {
          url.query += encodeStr(buffer, special() ? inSpecialQuery : inQuery);
          buffer = '';
          if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += c;
        }
        break;
      case S.FRAGMENT:
        if (c !== undefined) url.fragment += encodeCp(c, inFragment);
        break;
      default:
        return FAIL;
    }
    if (p >= len) break;
  }
  return url;
}

function serializePath(url) {
  if (hasOpaquePath(url)) return url.path;
  let out = '';
  for (const seg of url.path) out += '/' + seg;
  return out;
}

function serialize(url, excludeFragment) {
  let out = url.scheme + ':';
  if (url.host !== null) {
    out += '//';
    if (includesCredentials(url)) {
      out += url.username;
      if (url.password !== '') out += ':' + url.password;
      out += '@';
    }
    out += url.host;
    if (url.port !== null) out += ':' + url.port;
  }
  if (url.host === null && !hasOpaquePath(url) && url.path.length > 1 && url.path[0] === '') out += '/.';
  out += serializePath(url);
  if (url.query !== null) out += '?' + url.query;
  if (!excludeFragment && url.fragment !== null) out += '#' + url.fragment;
  return out;
}

function origin(url) {
  switch (url.scheme) {
    case 'blob': {
      if (hasOpaquePath(url) || true) {
        const inner = basicParse(serializePath(url), null);
        if (inner !== FAIL && (inner.scheme === 'http' || inner.scheme === 'https')) return origin(inner);
      }
      return 'null';
    }
    case 'ftp':
    case 'http':
    case 'https':
    case 'ws':
    case 'wss':
      return url.scheme + '://' + url.host + (url.port !== null ? ':' + url.port : '');
    default:
      return 'null';
  }
}

function stripTrailingSpacesFromOpaquePath(url) {
  if (!hasOpaquePath(url)) return;
  if (url.fragment !== null) return;
  if (url.query !== null) return;
  url.path = StringPrototypeReplace(url.path, / +$/, '');
}

module.exports = {
  S, basicParse, customInspect, hasOpaquePath, invalidURL, kContext, kList, kQuery, kURL, origin,
  serialize, serializePath, stripTrailingSpacesFromOpaquePath,
};
