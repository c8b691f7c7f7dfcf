// A compile error inside a nested function (here, nesting past the compiler's limit) is a
// SyntaxError, not a crash: the compiler used to unwind into the outer function's state with
// the inner one still pushed (found by fuzzing, target `vm`).
const deep = "(".repeat(1600) + "1" + ")".repeat(1600);
const sources = [
  `(function () { return ${deep}; })`,
  `[1].map(() => ${deep})`,
  `class A { m() { if (true) { ${deep}; } } }`,
];
for (const src of sources) {
  try {
    eval(src);
    console.log("compiled");
  } catch (e) {
    console.log(e.name);
  }
}
console.log("still running");
