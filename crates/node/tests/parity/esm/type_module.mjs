// A .js file under "type": "module" is an ES module; .cjs stays CommonJS.
import greet, { where } from './fixtures/typemod/m.js';
import legacy from './fixtures/typemod/legacy.cjs';
console.log(greet('amber'), where, legacy);
import { x, fromY } from './fixtures/cycle_x.mjs';
import { y, fromX } from './fixtures/cycle_y.mjs';
console.log(x, y, fromX(), fromY());
