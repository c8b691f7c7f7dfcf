'use strict';
// Node's conversions around URL: file URLs to paths and back (fileURLToPath, pathToFileURL),
// urlToHttpOptions, and domainToASCII / domainToUnicode.
const {
  ArrayPrototypeJoin, ArrayPrototypeMap, Number, ObjectPrototypeHasOwnProperty,
  StringPrototypeCharCodeAt, StringPrototypeCodePointAt, StringPrototypeSlice, StringPrototypeSplit,
  StringPrototypeStartsWith, TypeError,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');
const { FAIL, parseHost, punyDecode } = require('node:internal/url/host');
const { kContext } = require('node:internal/url/parser');
const { missingArgs } = require('node:internal/url/search_params');
const { URL } = require('node:internal/url/url');

function isURL(v) {
  return v != null && typeof v === 'object' && ObjectPrototypeHasOwnProperty(v, kContext);
}

function fileURLToPath(path) {
  if (typeof path === 'string') path = new URL(path);
  else if (!isURL(path)) throw ERR_INVALID_ARG_TYPE('path', ['string', 'URL'], path);
  if (path.protocol !== 'file:') throw makeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (path.hostname !== '') {
    throw makeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', `File URL host must be "localhost" or empty on ${process.platform}`);
  }
  const pathname = path.pathname;
  for (let n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%') {
      const third = StringPrototypeCodePointAt(pathname, n + 2) | 0x20;
      if (pathname[n + 1] === '2' && third === 102) {
        throw makeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
    }
  }
  return decodeURIComponent(pathname);
}

function pathToFileURL(filepath) {
  if (typeof filepath !== 'string') throw ERR_INVALID_ARG_TYPE('path', 'string', filepath);
  const path = require('path');
  let resolved = path.resolve(filepath);
  if (StringPrototypeCharCodeAt(filepath, filepath.length - 1) === 47 && resolved[resolved.length - 1] !== path.sep) resolved += '/';
  let enc = '';
  for (const ch of resolved) {
    if (ch === '%') enc += '%25';
    else if (ch === '\\') enc += '%5C';
    else if (ch === '\n') enc += '%0A';
    else if (ch === '\r') enc += '%0D';
    else if (ch === '\t') enc += '%09';
    else if (ch === '?') enc += '%3F';
    else if (ch === '#') enc += '%23';
    else enc += ch;
  }
  return new URL('file://' + enc);
}

function urlToHttpOptions(url) {
  const options = {
    __proto__: null,
    protocol: url.protocol,
    hostname: typeof url.hostname === 'string' && StringPrototypeStartsWith(url.hostname, '[') ? StringPrototypeSlice(url.hostname, 1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) {
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  }
  return options;
}

function domainToASCII(domain) {
  if (arguments.length < 1) throw missingArgs('domain');
  const h = parseHost(`${domain}`, false);
  return h === FAIL ? '' : h;
}

function domainToUnicode(domain) {
  if (arguments.length < 1) throw missingArgs('domain');
  const h = parseHost(`${domain}`, false);
  if (h === FAIL) return '';
  const labels = ArrayPrototypeMap(StringPrototypeSplit(h, '.'), (l) => {
    if (!StringPrototypeStartsWith(l, 'xn--')) return l;
    const d = punyDecode(StringPrototypeSlice(l, 4));
    return d === null ? l : d;
  });
  return ArrayPrototypeJoin(labels, '.');
}

module.exports = {
  domainToASCII, domainToUnicode, fileURLToPath, isURL, pathToFileURL, urlToHttpOptions,
};
