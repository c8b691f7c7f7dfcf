// CommonJS basics: require, exports vs module.exports, JSON, __filename, top-level scope.
const math = require('./fixtures/math');
console.log(math.add(2, 3), math.name);
console.log(require('./fixtures/math.js') === math);
const counter = require('./fixtures/counter');
counter.next();
console.log(require('./fixtures/counter').next());
const data = require('./fixtures/data.json');
console.log(data.name, data.list, data.nested.ok);
console.log(require('./fixtures/data') === data);
console.log(require('./fixtures/dir'), require('./fixtures/dir/'), require('./fixtures/withmain'));
console.log(__filename.slice(__dirname.length), typeof __dirname, __filename.startsWith(__dirname + '/'));
console.log(this === module.exports, this === exports, typeof require, typeof module);
var topLevelVar = 1;
let topLevelLet = 2;
console.log(typeof globalThis.topLevelVar, typeof globalThis.topLevelLet);
function hoisted() {}
console.log(typeof globalThis.hoisted);
console.log(module.id, require.main === module, module.loaded, module.parent);
console.log(Object.keys(module));
console.log(Object.keys(require), typeof require.resolve.paths);
console.log(module.filename === __filename, module.path === __dirname);
console.log(module.paths[0] === __dirname + '/node_modules');
console.log(module.children.map((m) => m.id.slice(__dirname.length)));
console.log(module.children[0].parent === module, module.children[0].loaded);
exports.done = true;
console.log(module.exports.done);
