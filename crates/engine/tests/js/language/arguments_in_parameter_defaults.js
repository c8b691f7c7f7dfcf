"use strict";
// A parameter initialiser can read the arguments object: it exists before the parameters
// are bound, in strict code (class bodies, methods) as in sloppy.
class C {
  method(x = arguments[2], y = arguments.length) {
    return [x, y];
  }
  static s(x = arguments[1]) {
    return x;
  }
  *gen(x = arguments[1]) {
    yield x;
  }
}
console.log(new C().method(undefined, undefined, "third"), C.s(undefined, "static"), new C().gen(undefined, "gen").next().value);
const o = {
  m({ a } = arguments[1]) {
    return a;
  },
};
console.log(o.m(undefined, { a: "destructured" }));
class D {
  static {
    (function ({ t = arguments }) {
      console.log(arguments[0], t === arguments);
    })({});
  }
}
