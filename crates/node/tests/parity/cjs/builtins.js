// Builtins through require, and node:module's helpers.
const Module = require('module');
console.log(require('os') === require('node:os'), typeof require('os').platform);
console.log(Module === require('node:module'), typeof Module, typeof Module.createRequire);
console.log(Module.builtinModules.includes('os'), Module.builtinModules.includes('module'));
console.log(Array.isArray(Module.builtinModules), Module.builtinModules.every((n) => !n.startsWith('node:')));
const sorted = [...Module.builtinModules].sort();
console.log(Module.builtinModules.every((n, i) => n === sorted[i]) || 'unsorted');
console.log(Module.isBuiltin('os'), Module.isBuiltin('node:os'), Module.isBuiltin('node:nope'), Module.isBuiltin('nope'));
console.log(Module.isBuiltin('os/'), Module.isBuiltin(42));
const req = Module.createRequire(__dirname + '/fixtures/');
console.log(req('./math').name, req('plain').name, req.resolve('./math').slice(__dirname.length));
const req2 = Module.createRequire('file://' + __filename);
console.log(req2('./fixtures/math') === require('./fixtures/math'));
for (const bad of ['relative/path', 42, null]) {
  try {
    Module.createRequire(bad);
  } catch (e) {
    console.log(e.code);
  }
}
console.log(typeof Module._load, typeof Module._resolveFilename, typeof Module._extensions['.js']);
console.log(Module.wrap('x').startsWith('(function (exports, require, module, __filename, __dirname) { x'));
