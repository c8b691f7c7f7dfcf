// require.cache: entries by file name; deleting one makes the next require load it again.
const file = require.resolve('./fixtures/counter');
const first = require('./fixtures/counter');
first.next();
console.log(require.cache[file].exports === first, require.cache[file].loaded, first.next());
delete require.cache[file];
const second = require('./fixtures/counter');
console.log(second === first, second.next());
console.log(Object.keys(require.cache).map((k) => k.slice(__dirname.length)));
// A module that throws while loading leaves no cache entry.
try {
  require('./fixtures/thrower');
} catch (e) {
  console.log(e.message, Object.keys(require.cache).some((k) => k.endsWith('thrower.js')));
}
// require.cache can be filled by hand.
require.cache[require.resolve('./fixtures/dir')] = { id: 'v', exports: { virtual: true }, loaded: true };
console.log(require('./fixtures/dir'));
