// A require cycle sees the partial exports of the module still loading.
const a = require('./fixtures/cycle_a');
console.log('main: a.done =', a.done, 'a.loaded =', a.loaded);
const b = require('./fixtures/cycle_b');
console.log('main: b.done =', b.done);
