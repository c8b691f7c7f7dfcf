// `constants` merges os, fs and crypto constants in Node's order; os.constants carries
// Linux's errno and dlopen numbers; process.binding('constants') as packages read it.
const c = require('constants');
const keys = Object.keys(c);
console.log(keys.length, Object.isFrozen(c), keys.slice(0, 8), keys.slice(-4));
console.log(c.ENOENT, c.EACCES, c.SIGTERM, c.O_CREAT, c.S_IFMT, c.RTLD_NOW, c.RSA_PKCS1_PADDING, c.PRIORITY_HIGH);
const os = require('os');
console.log(Object.keys(os.constants), Object.keys(os.constants.errno).length, os.constants.errno.EEXIST,
  os.constants.dlopen, os.constants.UV_UDP_REUSEADDR);
const crypto = require('crypto').constants;
console.log(Object.keys(crypto).length, crypto.RSA_PKCS1_OAEP_PADDING, crypto.POINT_CONVERSION_COMPRESSED,
  crypto.TLS1_3_VERSION);
const b = process.binding('constants');
console.log(Object.keys(b), Object.keys(b.os), b.os.errno.ENOTDIR, b.fs.O_RDONLY, b.fs === require('fs').constants,
  b.trace.TRACE_EVENT_PHASE_BEGIN, typeof b.zlib.Z_OK);
try {
  process.binding('no_such_binding');
} catch (e) {
  console.log(e.message);
}
