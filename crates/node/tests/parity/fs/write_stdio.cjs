// fs.writeSync and fs.write on descriptors 1 and 2 print like process.stdout/stderr.
const fs = require('fs');
console.log(fs.writeSync(1, 'string to fd 1\n'));
console.log(fs.writeSync(1, Buffer.from('xxbuffer slicexx\n'), 2, 13));
console.log(fs.writeSync(2, 'to stderr\n'));
console.log(fs.writeSync(1, new Uint8Array([104, 105, 10])));
fs.write(1, 'async write\n', (err, n) => console.log('written', err, n));
