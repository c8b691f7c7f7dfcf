// EvalDeclarationInstantiation: sloppy direct eval in a function declares its `var`s and
// functions in the function's variable environment, where the function, closures made before
// or after, and later evals all see them; they are deletable. A name the function declares
// lexically between the call and that environment makes the eval a SyntaxError.
function visibleAfter() {
  eval("var x = 1");
  return x;
}
console.log(visibleAfter());

function closureSees() {
  var early = function () { return typeof y; };
  eval("var y = 2");
  var late = function () { return y; };
  return [early(), late()].join(" ");
}
console.log(closureSees());

function laterEval() {
  eval("var z = 3");
  eval("z++");
  z += 10;
  return eval("z");
}
console.log(laterEval());

function deletable() {
  eval("var w = 4");
  var before = typeof w;
  var deleted = delete w;
  return [before, deleted, typeof w].join(" ");
}
console.log(deletable());

var shadowed = "global";
function shadowsGlobal() {
  eval("var shadowed = 'local'");
  return shadowed;
}
console.log(shadowsGlobal(), shadowed);

function outer() {
  var v = "outer";
  function inner() {
    eval("var v = 'inner'");
    return v;
  }
  return [inner(), v].join(" ");
}
console.log(outer());

function existingVar() {
  var e = 1;
  eval("var e = 2");
  return e;
}
console.log(existingVar());

function functionDeclaration() {
  eval("function k() { return 'k'; }");
  return k();
}
console.log(functionDeclaration());

function arrowVarEnv() {
  var f = () => {
    eval("var a = 'arrow'");
    return a;
  };
  return [f(), typeof a].join(" ");
}
console.log(arrowVarEnv());

function seesOuterFunction() {
  var o = "seen";
  return (function () {
    return eval("o");
  })();
}
console.log(seesOuterFunction());

function strictEval() {
  eval("'use strict'; var s = 1");
  return typeof s;
}
console.log(strictEval());

function conflict(src) {
  try {
    return src();
  } catch (e) {
    return e.constructor.name;
  }
}
console.log(conflict(function () { let a; { eval("var a"); } }));
console.log(conflict(function () { { let b; eval("var b"); } }));
console.log(conflict(function () { const c = 1; eval("function c() {}"); }));
console.log(conflict(function () { try { throw 1; } catch (d) { eval("var d = 5"); return typeof d; } }));
console.log(conflict(function () { { let q; } eval("var q = 'ok'"); return q; }));

// In a parameter initialiser the eval's `var`s go outside the parameters' environment: a
// parameter of the same name clashes; others are seen by later parameters' closures.
console.log(conflict(function () { return ((a = eval("var a = 42")) => a)(); }));
function paramEval(a, b = eval("var c = 3"), d = () => c) {
  return [a, d()].join(" ");
}
console.log(paramEval(1));
console.log(typeof (notDeclaredAnywhere));
