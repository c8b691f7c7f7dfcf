// import() of a module whose evaluation collects garbage: the import still settles, with
// the module's namespace (the reaction that resolves it must survive the collection).
console.log('before');
const dep = await import('./dynamic_import_gc_dep.mjs');
console.log('after', dep.made, dep.last.s);
const again = await import('./dynamic_import_gc_dep.mjs');
console.log('same namespace', again === dep);
import('./dynamic_import_gc_dep.mjs').then((ns) => console.log('then', ns.made));
