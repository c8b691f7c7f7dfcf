// A `var` initialiser inside `with` assigns through the with object when it has the
// property; the var itself is still hoisted to the function (and stays undefined then).
function f() {
  var o = { x: 1 };
  with (o) {
    var x = 2, y = 3;
  }
  return [o, x, y];
}
console.log(f());

var g = { value: "before" };
with (g) {
  var value = "set in with";
}
console.log(g.value, typeof value);

function loops() {
  var o = { k: "o's" };
  with (o) {
    for (var k in { a: 1 }) {}
  }
  return [o.k, k];
}
console.log(loops());
