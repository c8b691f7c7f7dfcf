'use strict';
// A program that replaces built-in methods (Array.prototype.push, Function.prototype.call,
// String.prototype.split, …) must not break fs, streams, events or url: the node layer
// captures the intrinsics it uses before program code runs (its primordials). Each cell runs
// one section of fixtures/sections.js with one method replaced by a function that throws; the
// results print at the end, after the originals are back.
//
// Node 20 itself calls some of these methods through the prototype (its EventEmitter calls
// `EventEmitter.init.call`, its pipeline `destroys.push`, its url.resolve `.split`), and this
// test compares with Node's output, so the cells Node 20 fails (NODE_FAILS) are left out
// here; fixtures/beyond_node.js runs those for Amber alone.
const { SECTIONS, NODE_FAILS, runCells } = require('./fixtures/sections.js');

const cells = [];
for (const name of Object.getOwnPropertyNames(NODE_FAILS)) {
  for (const section of Object.getOwnPropertyNames(SECTIONS)) {
    if (!NODE_FAILS[name].includes(section)) cells[cells.length] = [name, section];
  }
}
runCells(cells).then((lines) => {
  for (const line of lines) console.log(line);
});
