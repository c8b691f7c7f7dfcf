// node_modules resolution: main, index fallback, scoped packages, nested node_modules,
// "exports" with conditions, subpaths and patterns, self-reference and "imports".
const load = require('./fixtures/resolver');
const rel = (p) => p.slice(__dirname.length);
console.log(load('plain').name, load('plain').file);
console.log(load('@scope/pkg'));
console.log(load('nested'));
console.log(load('cond').kind, load('cond/feature'), load('cond/sub/one'));
console.log(load('cond/package.json').name);
for (const id of ['cond/cjs.js', 'cond/sub/private/hidden', 'cond/missing', 'nope-not-here', 'plain/nope']) {
  try {
    load(id);
    console.log(id, 'loaded');
  } catch (e) {
    console.log(id, e.code, e.message.split('\n')[0].replaceAll(__dirname, '.'));
  }
}
console.log(rel(load.resolve('cond')), rel(load.resolve('cond/sub/one')), rel(load.resolve('plain')));
const self = require('./fixtures/selfref');
console.log(self.self(), self.hash());
try {
  console.log(self.dep());
} catch (e) {
  console.log('dep', e.code);
}
console.log(rel(require.resolve('./fixtures/math')), rel(require.resolve('./fixtures/data.json')));
console.log(require.resolve.paths('plain')[0] === __dirname + '/node_modules', require.resolve.paths('./x')[0] === __dirname);
console.log(require.resolve('os'), require.resolve('node:os'), require.resolve.paths('os'));
