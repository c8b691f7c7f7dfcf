// A `var` captured by a closure lives in an environment slot; it must start out undefined
// (not the internal TDZ marker), observable through ===, Object.is and == null.
(function () {
  var x;
  function f() { return [x === undefined, Object.is(x, undefined), x == null, typeof x]; }
  console.log(f().join(" "));
  console.log(x === undefined);
  var y = 1;
  function g(a) { var a; return a; }
  console.log(g(5), y);
})();
