import path from 'node:path';
import { basename, dirname, extname, join, normalize, relative, parse, format, sep, delimiter, posix } from 'path';

const samples = [
  '', '.', '..', '/', '//', '///', 'a', '/a', 'a/', '/a/', 'a/b', '/a/b/', 'a//b', '/a//b//',
  '.x', '..x', 'x.', '.x.', '...', 'a.b.c', '/a/b.c/', '/a/.b', 'a/../b', './a', '../a', 'a/./b/.',
  '/../a', 'a/b/../../..', '//a', '//a/b', 'dir/file.tar.gz', '/dir/.hidden.txt', 'a/..', 'a/../',
  './', '../', 'a/b/c/../../d', '/a/b/c/./../', 'file.', '/.', '/..', 'x/.y.', 'é/ü.txt',
];

for (const p of samples) {
  console.log(JSON.stringify(p), '|',
    JSON.stringify(basename(p)), JSON.stringify(dirname(p)), JSON.stringify(extname(p)),
    JSON.stringify(normalize(p)), path.isAbsolute(p), JSON.stringify(parse(p)));
}

const suffixes = [['aaa', 'aaa'], ['/a/b.js', '.js'], ['/a/b.js', 'b.js'], ['b.js/', '.js'], ['a/b/', 'b'],
  ['a/xb/', 'b'], ['a/b', '/b'], ['b/', 'b/'], ['x.js', ''], ['.js', '.js'], ['a.js', 'a.jsx'], ['file.js', 'js']];
for (const [p, s] of suffixes) console.log('basename', JSON.stringify(p), JSON.stringify(s), JSON.stringify(basename(p, s)));

const joins = [[], [''], ['', ''], ['a', 'b'], ['/a', '/b'], ['a', '', 'b'], ['a/', '/b/'], ['..', 'a'],
  ['/', '..', 'x'], ['a', '../..', 'b'], ['.', '.'], ['a', '.'], ['/a/', ''], ['', '/x']];
for (const args of joins) console.log('join', JSON.stringify(args), JSON.stringify(join(...args)));

const rels = [['/a/b/c', '/a/b/d'], ['/a/b', '/a/b/c/d'], ['/a/b/c', '/a'], ['/', '/x/y'], ['/x/y', '/'],
  ['/a', '/a'], ['/foo/bar', '/foo/barbaz'], ['/foo/barbaz', '/foo/bar'], ['/a/b/', '/a/b'], ['//a', '/a/b']];
for (const [f, t] of rels) console.log('relative', f, t, JSON.stringify(relative(f, t)));
console.log('relative cwd', JSON.stringify(relative('x/y', 'x/z')), JSON.stringify(relative('', '')), JSON.stringify(relative('a', 'a')));

console.log('resolve', path.resolve('/a', 'b', '../c'), path.resolve('/a', '/b'), path.resolve('/', ''), path.resolve('/x/', './'));
console.log('resolve rel', path.resolve('x') === join(path.resolve(), 'x'), path.isAbsolute(path.resolve()), path.resolve('') === path.resolve('.'), path.resolve('a/../b') === path.resolve('b'));

const formats = [{ root: '/', dir: '/a', base: 'b.txt' }, { dir: 'a', name: 'b', ext: '.c' }, { name: 'x', ext: 'js' },
  { root: '/', name: 'f' }, { base: 'only' }, {}, { root: '/x/', base: 'y' }, { dir: '/d', base: 'b', name: 'ignored' },
  { root: '/', dir: '/', base: 'z' }];
for (const f of formats) console.log('format', JSON.stringify(f), JSON.stringify(format(f)));

console.log(sep, delimiter, path.posix === path, posix.posix === posix, path.sep === path.posix.sep);
console.log(path.win32.sep, path.win32.delimiter, path.toNamespacedPath('/a/b'), path.toNamespacedPath(5));
for (const p of ['/a/b/c', 'a/b.txt', '/x/y.js']) console.log(format(parse(p)) === p);

for (const bad of [undefined, null, 1, {}, true]) {
  for (const f of ['basename', 'dirname', 'extname', 'normalize', 'isAbsolute', 'join', 'parse']) {
    try { path[f](bad); console.log(f, 'ok'); } catch (e) { console.log(f, e.name, e.code, e.message); }
  }
}
try { path.resolve('a', 1); } catch (e) { console.log(e.code, e.message); }
try { path.relative(1, 'a'); } catch (e) { console.log(e.code, e.message); }
try { path.format(null); } catch (e) { console.log(e.code, e.message); }
try { path.format('x'); } catch (e) { console.log(e.code, e.message); }
try { basename('a', 1); } catch (e) { console.log(e.code, e.message); }
