// `base[key] op= value`, `base[key]++` and `base[key] ??= value` on a null or undefined base
// throw the TypeError before the key is converted (GetValue's ToObject comes first), so the
// key's toString never runs.
const key = { toString() { console.log('key converted'); return 'k'; } };
for (const [label, run] of [
  ['compound', () => { const base = null; base[key] += 1; }],
  ['update', () => { let base; base[key]++; }],
  ['logical', () => { const base = null; base[key] ??= 1; }],
]) {
  try {
    run();
  } catch (e) {
    console.log(label, e.constructor.name);
  }
}
