import data from './data.json' with { type: 'json' };
import * as ns from './data.json' with { type: 'json' };

console.log(data, ns.default === data, Object.keys(ns));
const dyn = await import('./data.json', { with: { type: 'json' } });
console.log(dyn === ns);
