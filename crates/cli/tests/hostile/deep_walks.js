// Walks over chains a million levels deep end in a RangeError (as in node), never a native
// stack overflow: JSON.stringify, structuredClone, join, flat(Infinity).
// exit: 0
// stdout: RangeError
let o = {};
for (let i = 0; i < 1e6; i++) o = { next: o };
let a = [];
for (let i = 0; i < 1e6; i++) a = [a];
for (const f of [() => JSON.stringify(o), () => structuredClone(o), () => String(a), () => a.flat(Infinity), () => JSON.stringify(a)]) {
  try { f(); console.log('finished'); } catch (e) { console.log(e.name); }
}
