// import() from a CommonJS module resolves against the module's own file.
const lib = require('./fixtures/cjs_lib.cjs');
import('./fixtures/typemod/m.js').then((m) => {
  console.log(m.where, m.default('cjs'));
  return import('./fixtures/cjs_lib.cjs');
}).then((ns) => {
  console.log(ns.default === lib, ns.a);
});
