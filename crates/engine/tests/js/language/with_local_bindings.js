// `with` looks a name up on its object before the enclosing function's (or an outer
// function's) binding of it, honouring Symbol.unscopables; assignments resolve the name once,
// before the right side runs; a function called through the object gets it as `this`.
function reads() {
  var v = "local";
  var o = { v: "object" };
  with (o) {
    var first = v;
    delete o.v;
    var second = v;
  }
  return [first, second].join(" ");
}
console.log(reads());

function writes() {
  var x = 0;
  var o = { x: 10 };
  with (o) {
    x++;
    x += 5;
    x = x * 2;
  }
  return [x, o.x].join(" ");
}
console.log(writes());

function unscopable() {
  var u = "local";
  var o = { u: "object", [Symbol.unscopables]: { u: true } };
  with (o) {
    return u;
  }
}
console.log(unscopable());

function outerFunction() {
  var n = "outer";
  var o = { n: "object" };
  with (o) {
    return (function () {
      return n;
    })();
  }
}
console.log(outerFunction());

function callThis() {
  var o = {
    f() {
      return this === o;
    },
  };
  var f = function () {
    return this;
  };
  with (o) {
    return f();
  }
}
console.log(callThis());

function missingThenLocal() {
  var m = "local";
  with ({}) {
    m = "assigned";
  }
  return m;
}
console.log(missingThenLocal());

function typeofThroughWith() {
  var t = 1;
  with ({ t: "s" }) {
    return typeof t;
  }
}
console.log(typeofThroughWith());

function evalInWith() {
  var o = { e: 1 };
  with (o) {
    eval("var e = 2");
  }
  return [o.e, typeof e].join(" ");
}
console.log(evalInWith());
