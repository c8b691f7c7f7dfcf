// No descriptor is a terminal when output is piped (as here, under node and amber alike).
// (Whether node can open a tty.WriteStream on a pipe depends on libuv, so that is not shown.)
const tty = require('tty');
console.log([0, 1, 2, 3, -1, 1.5, '1', undefined].map((fd) => tty.isatty(fd)));
console.log(typeof tty.ReadStream, typeof tty.WriteStream, Boolean(process.stdout.isTTY));
console.log(tty.WriteStream.prototype instanceof require('stream').Writable ||
  tty.WriteStream.prototype instanceof require('stream').Duplex);
