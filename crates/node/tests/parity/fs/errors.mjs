import fs from 'node:fs';

const dir = 'work-errors';
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
fs.writeFileSync(`${dir}/file`, 'x');
fs.mkdirSync(`${dir}/sub`);
fs.writeFileSync(`${dir}/sub/inner`, 'y');

function show(label, fn) {
  try {
    const r = fn();
    console.log(label, 'ok', r);
  } catch (e) {
    const keys = Object.keys(e).join(',');
    console.log(label, e.name, e.code, e.errno, e.syscall, e.path, e.dest, keys, '|', e.message);
  }
}

show('read missing', () => fs.readFileSync(`${dir}/missing`));
show('read dir', () => fs.readFileSync(dir));
show('read through file', () => fs.readFileSync(`${dir}/file/x`));
show('read empty', () => fs.readFileSync(''));
show('open missing', () => fs.openSync(`${dir}/missing`, 'r'));
show('open wx', () => fs.openSync(`${dir}/file`, 'wx'));
show('open bad flag', () => fs.openSync(`${dir}/file`, 'z'));
show('write dir', () => fs.writeFileSync(dir, 'x'));
show('write missing parent', () => fs.writeFileSync(`${dir}/no/such`, 'x'));
show('mkdir exists', () => fs.mkdirSync(`${dir}/sub`));
show('mkdir missing parent', () => fs.mkdirSync(`${dir}/a/b`));
show('mkdir -p over file', () => fs.mkdirSync(`${dir}/file`, { recursive: true }));
show('mkdir -p through file', () => fs.mkdirSync(`${dir}/file/deeper`, { recursive: true }));
show('rmdir not empty', () => fs.rmdirSync(`${dir}/sub`));
show('rmdir file', () => fs.rmdirSync(`${dir}/file`));
show('rmdir missing', () => fs.rmdirSync(`${dir}/missing`));
show('unlink dir', () => fs.unlinkSync(`${dir}/sub`));
show('unlink missing', () => fs.unlinkSync(`${dir}/missing`));
show('rm dir', () => fs.rmSync(`${dir}/sub`));
show('rm missing', () => fs.rmSync(`${dir}/missing`));
show('rm missing force', () => fs.rmSync(`${dir}/missing`, { force: true }));
show('rename missing', () => fs.renameSync(`${dir}/missing`, `${dir}/other`));
show('rename dir over file', () => fs.renameSync(`${dir}/sub`, `${dir}/file`));
show('rename into self', () => fs.renameSync(`${dir}/sub`, `${dir}/sub/inside`));
show('copy missing', () => fs.copyFileSync(`${dir}/missing`, `${dir}/other`));
show('copy dir', () => fs.copyFileSync(`${dir}/sub`, `${dir}/other`));
show('stat missing', () => fs.statSync(`${dir}/missing`));
show('lstat missing', () => fs.lstatSync(`${dir}/missing`));
show('readdir file', () => fs.readdirSync(`${dir}/file`));
show('readdir missing', () => fs.readdirSync(`${dir}/missing`));
show('access missing', () => fs.accessSync(`${dir}/missing`));
show('readlink file', () => fs.readlinkSync(`${dir}/file`));
show('truncate missing', () => fs.truncateSync(`${dir}/missing`));
show('close bad fd', () => fs.closeSync(9999));
show('fstat bad fd', () => fs.fstatSync(9999));
show('nul path', () => fs.readFileSync('a\0b'));
show('number path', () => fs.statSync(1.5));
show('object path', () => fs.readFileSync({}));
show('undefined path', () => fs.existsSync(undefined));
show('no callback', () => fs.readFile(`${dir}/file`));
show('bad fd type', () => fs.closeSync('3'));
show('negative fd', () => fs.closeSync(-1));
show('bad encoding', () => fs.readFileSync(`${dir}/file`, 'nope'));
show('bad data', () => fs.writeFileSync(`${dir}/file`, 42));
show('bad options', () => fs.readFileSync(`${dir}/file`, 42));
show('bad mode', () => fs.chmodSync(`${dir}/file`, 'xyz'));
show('bad recursive', () => fs.mkdirSync(`${dir}/q`, { recursive: 'yes' }));

fs.rmSync(dir, { recursive: true });
