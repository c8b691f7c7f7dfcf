// ES modules importing CommonJS: default is module.exports, plus identifier-named keys.
import lib, { a, b, fn } from './fixtures/cjs_lib.cjs';
import * as ns from './fixtures/cjs_lib.cjs';
import Thing from './fixtures/cjs_class.js';
import esm, { named } from './fixtures/cjs_esmodule.js';
console.log(a, b, fn(), lib.a, lib['not-an-id'], ns['not-an-id']);
console.log(Object.keys(ns).sort(), ns.default === lib);
console.log(new Thing().hello());
console.log(typeof esm, esm.default, named);
const again = await import('./fixtures/cjs_lib.cjs');
console.log(again.default === lib, again.a);
