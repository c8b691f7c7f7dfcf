'use strict';
// node:url — the WHATWG URL Standard (`URL`, `URLSearchParams`) plus Node's helpers
// (fileURLToPath, pathToFileURL, urlToHttpOptions, domainToASCII/Unicode) and the legacy
// `url.parse` / `url.format` / `url.resolve`. The parts live in internal/url/* (modules/js/url/),
// one job each; this module is the public surface.

const { URLSearchParams } = require('node:internal/url/search_params');
const { URL } = require('node:internal/url/url');
const {
  domainToASCII,
  domainToUnicode,
  fileURLToPath,
  pathToFileURL,
  urlToHttpOptions,
} = require('node:internal/url/conversions');
const { Url, urlFormat, urlParse, urlResolve, urlResolveObject } = require('node:internal/url/legacy');

module.exports = {
  Url,
  parse: urlParse,
  resolve: urlResolve,
  resolveObject: urlResolveObject,
  format: urlFormat,
  URL,
  URLSearchParams,
  domainToASCII,
  domainToUnicode,
  pathToFileURL,
  fileURLToPath,
  urlToHttpOptions,
};
