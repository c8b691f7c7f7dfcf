// js-sha256 0.11.0 unmodified: it finds its root through `global` (the globalThis alias).
const { sha256, sha224 } = require('js-sha256');
console.log(sha256(''), sha256('The quick brown fox jumps over the lazy dog'));
console.log(sha224('abc'), sha256.hmac('key', 'message'));
const h = sha256.create();
h.update('part one, ');
h.update(new Uint8Array([112, 97, 114, 116, 32, 116, 119, 111]));
console.log(h.hex(), sha256.array('x').length, sha256.arrayBuffer('x').byteLength);
