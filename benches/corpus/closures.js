// Closures and higher-order functions: counters, compose, currying, memoization, callbacks
// through map/filter/reduce, and closures captured in loops.
var ROUNDS = 2500;

function counter(start) {
  var n = start;
  return { inc: function () { return ++n; }, add: function (k) { n += k; return n; }, get: function () { return n; } };
}
function compose() {
  var fns = arguments;
  return function (x) { for (var i = fns.length - 1; i >= 0; i--) x = fns[i](x); return x; };
}
function curry3(f) { return function (a) { return function (b) { return function (c) { return f(a, b, c); }; }; }; }
function memoize(f) {
  var cache = new Map();
  return function (n) {
    if (cache.has(n)) return cache.get(n);
    var v = f(n);
    cache.set(n, v);
    return v;
  };
}

var total = 0;
for (var r = 0; r < ROUNDS; r++) {
  var c = counter(r);
  for (var i = 0; i < 1000; i++) c.inc();
  c.add(r);
  total += c.get();

  var pipeline = compose(function (x) { return x * 2; }, function (x) { return x + r; }, function (x) { return x % 1000; });
  var arr = [];
  for (var j = 0; j < 500; j++) arr.push(pipeline(j * r));
  total += arr.filter(function (x) { return x % 3 === 0; }).map(function (x) { return x + 1; }).reduce(function (a, b) { return a + b; }, 0);

  var add3 = curry3(function (a, b, c) { return a + b * c; });
  for (var k = 0; k < 200; k++) total += add3(k)(r)(2);

  var fns = [];
  for (let m = 0; m < 100; m++) fns.push(() => m * r);
  total += fns.reduce((acc, f) => acc + f(), 0);
  total %= 1000000007;
}
var fib = memoize(function (n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); });
console.log("total " + total + " fib " + fib(90));
