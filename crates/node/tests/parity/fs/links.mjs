import fs from 'node:fs';
import path from 'node:path';

const dir = 'work-links';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(`${dir}/real/deep`, { recursive: true });
fs.writeFileSync(`${dir}/real/deep/f.txt`, 'data');
fs.symlinkSync('real/deep', `${dir}/link`);
fs.symlinkSync('deep/f.txt', `${dir}/real/flink`);
console.log(fs.readFileSync(`${dir}/link/f.txt`, 'utf8'), fs.readFileSync(`${dir}/real/flink`, 'utf8'));
console.log(fs.readlinkSync(`${dir}/link`), fs.readlinkSync(`${dir}/real/flink`));
console.log(fs.lstatSync(`${dir}/link`).isSymbolicLink(), fs.statSync(`${dir}/link`).isDirectory());
console.log(path.relative(process.cwd(), fs.realpathSync(`${dir}/link/f.txt`)));
console.log(path.relative(process.cwd(), fs.realpathSync.native(`${dir}/real/flink`)));
console.log(fs.readdirSync(dir, { withFileTypes: true }).map((d) => `${d.name}:${d.isSymbolicLink()}`).sort());
fs.symlinkSync('nowhere', `${dir}/dangling`);
console.log(fs.existsSync(`${dir}/dangling`), fs.lstatSync(`${dir}/dangling`).isSymbolicLink());
try { fs.statSync(`${dir}/dangling`); } catch (e) { console.log(e.code, e.syscall); }
try { fs.symlinkSync('x', `${dir}/link`); } catch (e) { console.log(e.code, e.syscall, e.message); }
fs.linkSync(`${dir}/real/deep/f.txt`, `${dir}/hard.txt`);
console.log(fs.statSync(`${dir}/hard.txt`).nlink, fs.statSync(`${dir}/hard.txt`).ino === fs.statSync(`${dir}/real/deep/f.txt`).ino);
fs.unlinkSync(`${dir}/link`);
console.log(fs.existsSync(`${dir}/real/deep/f.txt`), fs.existsSync(`${dir}/link`));
fs.rmSync(`${dir}/real`, { recursive: true });
console.log(fs.readFileSync(`${dir}/hard.txt`, 'utf8'), fs.readdirSync(dir).sort());
fs.rmSync(dir, { recursive: true });
console.log(fs.existsSync(dir));
