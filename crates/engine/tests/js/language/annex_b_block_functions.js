// Annex B.3.3: a sloppy block-level function also assigns a var binding of its name in the
// enclosing function or script — unless `var F` there would be an early error, or F is a
// parameter name. Where it does not, the name does not exist outside the block.

// Applies: the var binding is undefined before the block and the function after.
function applies() {
  const before = typeof f;
  {
    function f() { return "block"; }
  }
  return [before, f()];
}
console.log(applies());

// Blocked by a `let` between the block and the function: no var binding at all.
function blockedByLet() {
  const log = [];
  try { f; } catch (e) { log.push(e.constructor.name); }
  {
    let f = 1;
    {
      function f() { return 2; }
    }
    log.push(typeof f);
  }
  log.push(typeof f);
  return log;
}
console.log(blockedByLet());

// An if-clause function inside a block with a `let` of its name is invisible.
function clauseBlocked() {
  {
    let f = 123;
    if (true) function f() {}
    return [typeof f, f];
  }
}
console.log(clauseBlocked());

// A parameter keeps its value: the block function stays in its block.
function parameter(f) {
  const init = f;
  {
    function f() { return "inner"; }
    var inner = f();
  }
  return [init, f, inner];
}
console.log(parameter(123));

// A function after a blocked one still gets its var binding.
function secondApplies() {
  {
    let g = 0;
    { function g() { return "blocked"; } }
  }
  { function g() { return "second"; } }
  return g();
}
console.log(secondApplies());

// The block binding and the var binding are separate bindings. (Nested blocks, where the
// spec lets only the outer function reach the var binding, are left to test262: V8 differs.)
var initialBV, currentBV;
{
  function h() { initialBV = h; h = 123; currentBV = h; return "decl"; }
}
h();
console.log(initialBV(), currentBV, h());

// A global of the same name does not stand in for the function's own var binding.
var b = 1;
function withGlobal(s) {
  if (s) { function b() {} }
  return [typeof b, (() => typeof b)()];
}
console.log(withGlobal(true), withGlobal(false), b);

// Generators and async functions in blocks are lexical only: no var binding.
function lexicalOnly() {
  {
    function* gen() {}
    async function af() {}
  }
  return [typeof gen, typeof af];
}
console.log(lexicalOnly());
