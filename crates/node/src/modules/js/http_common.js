'use strict';
// node:_http_common, the parts that are pure text checks (Node's own regular expressions);
// the HTTP parser itself is the embedder's network binding, not a JS object.
const tokenRegExp = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const headerCharRegex = /[^\t\x20-\x7e\x80-\xff]/;

module.exports = {
  _checkInvalidHeaderChar: (val) => headerCharRegex.test(val),
  _checkIsHttpToken: (val) => tokenRegExp.test(val),
  chunkExpression: /(?:^|\W)chunked(?:$|\W)/i,
  continueExpression: /(?:^|\W)100-continue(?:$|\W)/i,
  CRLF: '\r\n',
  methods: require('http').METHODS,
};
