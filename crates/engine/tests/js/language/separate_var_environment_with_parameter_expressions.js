// FunctionDeclarationInstantiation step 28: with parameter expressions (defaults, patterns,
// rest), the body's `var`s live in an environment of their own below the parameters'.

// A body var of a parameter's name is a separate binding, initialised with the parameter.
function f(x = 1, g = () => x) { var x = 2; return [x, g()]; }
console.log(f());
console.log(f(5));

// It starts with the parameter's value.
function h(a, b = 0) { var a; return a; }
console.log(h(7));

// Closures in the body see the body binding; closures in the parameters see the parameter.
function k(x, read = () => x, write = (v) => { x = v; }) {
  var x;
  const inner = () => x;
  x = 10;
  write(20);
  return [x, inner(), read()];
}
console.log(k(1));

// A parameter initialiser does not see a body var of another name: it reads the outer one.
var y = "outer";
function m(g = () => y) { var y = "body"; return g(); }
console.log(m());

// Rest and pattern parameters make the list non-simple too.
function n({ p }, ...r) { var p = p + 1; var r; return [p, r.length]; }
console.log(n({ p: 1 }, 2, 3));

// A function declaration in the body of a parameter's name.
function q(x = 1, g = () => x) { function x() {} return [typeof x, g()]; }
console.log(q());

// Arrows with block bodies.
const arrow = (x = 3, g = () => x) => { var x = 4; return [x, g()]; };
console.log(arrow());

// Direct eval in the body finds the body binding.
function e(x = 1, g = () => x) { var x = 2; return [eval("x"), g()]; }
console.log(e());

// A simple parameter list keeps one binding (no separate environment).
function s(x) { var x = 2; return x; }
console.log(s(1));

// Nested: an inner function with parameter expressions inside one without.
function outer(x) {
  function inner(y = () => x) { var x = "inner-body"; return [x, y()]; }
  return inner();
}
console.log(outer("outer-param"));

// Direct eval in a parameter initialiser (and in an arrow there) sees the parameter.
function pe(x = 1, g = () => eval("x"), h = eval("x")) { var x = 2; return [x, g(), h]; }
console.log(pe());
