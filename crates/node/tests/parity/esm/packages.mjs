// Bare specifiers: "exports" with the import condition, subpaths, patterns and errors.
import cond, { kind } from './fixtures/node_modules/cond/esm.mjs';
const load = async (id) => {
  try {
    const ns = await import(id);
    return Object.keys(ns).sort().join(',') + ' ' + JSON.stringify(ns.default ?? ns.kind);
  } catch (e) {
    return `${e.code} ${e.message.replaceAll(import.meta.dirname, '.').split('\n')[0]}`;
  }
};
console.log(kind, cond.kind);
// Run from fixtures/ so fixtures/node_modules is found.
const { tryAll } = await import('./fixtures/esm_loader.mjs');
for (const line of await tryAll()) console.log(line.replaceAll(import.meta.dirname, '.').split('\n')[0]);
console.log(await load('./fixtures/missing.mjs'));
console.log(await load('./fixtures/typemod'));
console.log(await load('not-a-package-anywhere'));
console.log(await load('./fixtures/typemod/m'));
