import fs from 'node:fs';

const dir = 'work-fd';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
const f = `${dir}/data.txt`;

const fd = fs.openSync(f, 'w+');
console.log(typeof fd, fd > 2);
console.log(fs.writeSync(fd, 'hello '));
console.log(fs.writeSync(fd, Buffer.from('world')));
console.log(fs.writeSync(fd, Buffer.from('XYZ'), 0, 1, 0));
console.log(fs.fstatSync(fd).size, fs.fstatSync(fd).isFile());
const buf = Buffer.alloc(20);
console.log(fs.readSync(fd, buf, 0, 20, 0), JSON.stringify(buf.toString('utf8', 0, 11)));
console.log(fs.readSync(fd, buf, { position: 6, length: 5 }), buf.subarray(0, 5).toString());
console.log(fs.readSync(fd, buf, 0, 5, null));
fs.ftruncateSync(fd, 4);
console.log(fs.readFileSync(f, 'utf8'));
fs.fsyncSync(fd);
fs.fdatasyncSync(fd);
fs.closeSync(fd);

const ap = fs.openSync(f, 'a');
fs.writeSync(ap, '++');
fs.writeSync(ap, '--', 0);
fs.closeSync(ap);
console.log(fs.readFileSync(f, 'utf8'));

const rd = fs.openSync(f, 'r');
const small = Buffer.alloc(3);
let n;
const parts = [];
while ((n = fs.readSync(rd, small, 0, 3, null)) > 0) parts.push(small.toString('utf8', 0, n));
console.log(parts);
try { fs.writeSync(rd, 'no'); } catch (e) { console.log(e.code, e.syscall, e.message); }
console.log(fs.readFileSync(rd, 'utf8') === '');
fs.closeSync(rd);

const rw = fs.openSync(f, 'r+');
console.log(fs.readFileSync(rw, 'utf8'));
fs.writeFileSync(rw, 'Z');
fs.closeSync(rw);
console.log(fs.readFileSync(f, 'utf8'));

const ex = fs.openSync(`${dir}/new.txt`, 'wx', 0o600);
console.log((fs.fstatSync(ex).mode & 0o777).toString(8));
fs.closeSync(ex);

// Unlinked while open: still readable through the descriptor.
const held = fs.openSync(f, 'r');
fs.unlinkSync(f);
console.log(fs.existsSync(f), fs.readFileSync(held, 'utf8'));
fs.closeSync(held);

const v = fs.openSync(`${dir}/v.txt`, 'w+');
console.log(fs.writevSync(v, [Buffer.from('ab'), Buffer.from('cd')]));
const b1 = Buffer.alloc(1);
const b2 = Buffer.alloc(3);
console.log(fs.readvSync(v, [b1, b2], 0), b1.toString(), b2.toString());
fs.closeSync(v);

fs.rmSync(dir, { recursive: true });
