// The entry .js is an ES module here: the nearest package.json says "type": "module".
import { where } from './helper.js';
console.log(typeof require, typeof module, typeof exports, where);
console.log(import.meta.url.startsWith('file:///'), import.meta.url.endsWith('/main.js'));
console.log(import.meta.filename.endsWith('/typemodule/main.js'), import.meta.dirname.endsWith('/typemodule'));
console.log(Object.keys(import.meta).filter((k) => k !== 'resolve'));
