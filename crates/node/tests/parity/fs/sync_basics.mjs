import fs from 'node:fs';
import path from 'node:path';

const dir = 'work-sync';
fs.rmSync(dir, { recursive: true, force: true });
console.log('mkdir', fs.mkdirSync(dir), fs.existsSync(dir));
console.log('mkdir -p', path.relative(process.cwd(), fs.mkdirSync(`${dir}/a/b/c`, { recursive: true }) ?? 'undefined'));
console.log('mkdir -p again', fs.mkdirSync(`${dir}/a/b/c`, { recursive: true }));

fs.writeFileSync(`${dir}/hello.txt`, 'hello world\n');
console.log(fs.readFileSync(`${dir}/hello.txt`, 'utf8'));
console.log(fs.readFileSync(`${dir}/hello.txt`));
console.log(fs.readFileSync(`${dir}/hello.txt`, { encoding: 'hex' }));
console.log(fs.readFileSync(`${dir}/hello.txt`, { encoding: 'base64' }));
fs.appendFileSync(`${dir}/hello.txt`, 'more');
fs.appendFileSync(`${dir}/hello.txt`, Buffer.from(' bytes'));
console.log(JSON.stringify(fs.readFileSync(`${dir}/hello.txt`, 'utf8')));
fs.writeFileSync(`${dir}/bytes.bin`, new Uint8Array([0, 1, 2, 255]));
console.log(fs.readFileSync(`${dir}/bytes.bin`));
fs.writeFileSync(`${dir}/latin1.txt`, 'caf\u00e9', 'latin1');
console.log(fs.readFileSync(`${dir}/latin1.txt`), fs.readFileSync(`${dir}/latin1.txt`, 'latin1'));
fs.writeFileSync(`${dir}/utf8.txt`, 'h\u00e9llo \u{1F600}');
console.log(fs.readFileSync(`${dir}/utf8.txt`).length, fs.readFileSync(`${dir}/utf8.txt`, 'utf8'));
fs.writeFileSync(`${dir}/flag.txt`, 'abc');
fs.writeFileSync(`${dir}/flag.txt`, 'de', { flag: 'a' });
console.log(fs.readFileSync(`${dir}/flag.txt`, 'utf8'));

const st = fs.statSync(`${dir}/hello.txt`);
console.log(st.isFile(), st.isDirectory(), st.isSymbolicLink(), st.size, (st.mode & 0o777).toString(8), st.nlink);
console.log(st.mtime instanceof Date, typeof st.mtimeMs, st.mtime.getTime() === Math.round(st.mtimeMs), st instanceof fs.Stats);
const dst = fs.statSync(dir);
console.log(dst.isFile(), dst.isDirectory(), (dst.mode & 0o777).toString(8));
console.log(fs.statSync(`${dir}/nope`, { throwIfNoEntry: false }));
console.log(typeof fs.statSync(dir, { bigint: true }).size);

console.log(fs.readdirSync(dir).sort());
console.log(fs.readdirSync(dir, { withFileTypes: true })
  .map((d) => [d.name, d.isFile(), d.isDirectory(), d.isSymbolicLink(), d.parentPath === dir, d.path === dir])
  .sort());
console.log(fs.readdirSync(dir, { recursive: true }).sort());
console.log(fs.readdirSync(dir, 'buffer').map(String).sort());

fs.renameSync(`${dir}/flag.txt`, `${dir}/a/moved.txt`);
console.log(fs.existsSync(`${dir}/flag.txt`), fs.readFileSync(`${dir}/a/moved.txt`, 'utf8'));
fs.copyFileSync(`${dir}/a/moved.txt`, `${dir}/copy.txt`);
console.log(fs.readFileSync(`${dir}/copy.txt`, 'utf8'));
try {
  fs.copyFileSync(`${dir}/a/moved.txt`, `${dir}/copy.txt`, fs.constants.COPYFILE_EXCL);
} catch (e) {
  console.log(e.code, e.syscall, e.message.replace(process.cwd(), '.'));
}
fs.unlinkSync(`${dir}/copy.txt`);
console.log(fs.existsSync(`${dir}/copy.txt`));

fs.truncateSync(`${dir}/hello.txt`, 5);
console.log(JSON.stringify(fs.readFileSync(`${dir}/hello.txt`, 'utf8')));
fs.truncateSync(`${dir}/hello.txt`, 7);
console.log(fs.readFileSync(`${dir}/hello.txt`));
fs.chmodSync(`${dir}/hello.txt`, 0o600);
console.log((fs.statSync(`${dir}/hello.txt`).mode & 0o777).toString(8));
fs.chmodSync(`${dir}/hello.txt`, '644');
console.log((fs.statSync(`${dir}/hello.txt`).mode & 0o777).toString(8));

fs.accessSync(`${dir}/hello.txt`);
fs.accessSync(`${dir}/hello.txt`, fs.constants.R_OK | fs.constants.W_OK);
console.log(fs.F_OK, fs.R_OK, fs.W_OK, fs.X_OK);

fs.utimesSync(`${dir}/hello.txt`, 1000, 2000);
const ut = fs.statSync(`${dir}/hello.txt`);
console.log(ut.atimeMs, ut.mtimeMs, ut.mtime.toISOString());
fs.utimesSync(`${dir}/hello.txt`, new Date('2020-01-02T03:04:05Z'), new Date('2021-01-02T03:04:05Z'));
console.log(fs.statSync(`${dir}/hello.txt`).mtime.toISOString());

console.log(fs.rmdirSync(`${dir}/a/b/c`), fs.existsSync(`${dir}/a/b/c`));
fs.rmSync(dir, { recursive: true });
console.log(fs.existsSync(dir));
