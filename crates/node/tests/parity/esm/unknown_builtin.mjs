// An unknown `node:` name: Node 20's Error ERR_UNKNOWN_BUILTIN_MODULE, from a dynamic import
// (rejected) and from require (thrown).
import { createRequire } from 'node:module';
try {
  await import('node:no_such_module');
} catch (e) {
  console.log(e.constructor.name, e.code, e.message);
}
const require = createRequire(import.meta.url);
try {
  require('node:no_such_module');
} catch (e) {
  console.log(e.constructor.name, e.code, e.message);
}
