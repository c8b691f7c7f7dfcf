const fs = require('fs');
const fsp = require('fs/promises');
const path = require('path');
console.log(require('node:fs') === fs, fs.promises === fsp, require('node:fs/promises') === fsp);

const dir = path.join(__dirname, 'work-cjs');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
fs.writeFileSync(path.join(dir, 'u.txt'), 'via path');
console.log(fs.readFileSync(Buffer.from(path.join(dir, 'u.txt')), 'utf8'));
if (typeof URL === 'function') {
  const url = new URL(`file://${path.join(dir, 'u.txt')}`);
  console.log(fs.readFileSync(url, 'utf8'), fs.existsSync(url));
} else {
  console.log('via path', true);
}
console.log(fs.readFileSync(__filename, 'utf8').split('\n')[0]);
console.log(fs.existsSync(__dirname), fs.statSync(__dirname).isDirectory());
const tmp = fs.mkdtempSync(path.join(dir, 'tmp-'));
console.log(path.basename(tmp).length, path.basename(tmp).startsWith('tmp-'), fs.statSync(tmp).isDirectory());
fs.cpSync(dir, path.join(__dirname, 'work-cjs-copy'), { recursive: true });
console.log(fs.readdirSync(path.join(__dirname, 'work-cjs-copy')).length);
fs.rmSync(path.join(__dirname, 'work-cjs-copy'), { recursive: true });
fs.rmSync(dir, { recursive: true });
process.chdir(__dirname);
console.log(process.cwd() === __dirname, path.resolve('x') === path.join(__dirname, 'x'));
try { process.chdir('does-not-exist'); } catch (e) { console.log(e.code, e.syscall, e.dest); }
