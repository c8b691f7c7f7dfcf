// Messages of Object's builtins as V8 words them: ToObject of undefined or null names both,
// a bad prototype and a non-object entry name the value.
const cases = [
  () => Object.keys(undefined),
  () => Object.entries(null),
  () => Object.assign(null),
  () => Array.prototype.at.call(null),
  () => Object.setPrototypeOf({}, 5),
  () => Object.create("s"),
  () => Object.fromEntries([5]),
  () => Object.fromEntries(["ab"]),
];
for (const f of cases) {
  try {
    f();
  } catch (e) {
    console.log(e.constructor.name + ": " + e.message);
  }
}
