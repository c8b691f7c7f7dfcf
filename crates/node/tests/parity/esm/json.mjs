// JSON modules with the type attribute.
import data from './fixtures/data.json' with { type: 'json' };
console.log(data.answer, data.list);
const dyn = await import('./fixtures/data.json', { with: { type: 'json' } });
console.log(dyn.default === data);
