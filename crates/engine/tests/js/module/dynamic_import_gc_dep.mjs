// Imported by dynamic_import_gc.mjs: allocates enough garbage to trigger collections.
let last = null;
let made = 0;
for (let i = 0; i < 300000; i++) {
  last = { i, s: 'x' + i };
  made++;
}
export { made, last };
console.log('dep evaluated', made);
