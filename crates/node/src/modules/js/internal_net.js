'use strict';
// node:internal/net: the embedder's network binding (the `amber.net` host value: request,
// read, cancel, and the approval gate of a capability's first use), shared by fetch, the
// http(s) clients and fs's deletes. Without an Amber runtime there is
// no binding, and using the network says so.

const { makeError } = require('node:internal/errors');

const binding = internal.binding();

function unavailable() {
  return makeError(Error, 'ERR_AMBER_NET_UNAVAILABLE', 'the network is not available in this embedding');
}

module.exports = {
  // spec: {method, url, protocol, hostname, port, headers: [[name, value]], redirect, decode}
  // → {seq, response}: response is the Promise of {seq, status, statusText, headers, url,
  // redirected} or {seq, error}; seq is undefined when nothing was journaled.
  request(spec, body) {
    if (!binding) throw unavailable();
    return binding.request(spec, body ?? null);
  },
  // → Promise of a Uint8Array, null at the end, or {error}.
  read(seq, offset) {
    if (!binding) return Promise.reject(unavailable());
    return binding.read(seq, offset);
  },
  cancel(seq) {
    if (binding && seq !== undefined) binding.cancel(seq);
  },
  // The first use of a capability the program manifest gates (`Net` for a host, `FsDelete`)
  // waits for a human's approval: → undefined when nothing needs to wait, else a Promise
  // that fulfils once approved and rejects (ERR_AMBER_NOT_APPROVED) when denied. `call`
  // names the operation that waits (fetch, unlink, …), `key` what it uses (a host, a path).
  gate(capability, key, call) {
    return binding ? binding.gate(capability, key, call) : undefined;
  },
};
