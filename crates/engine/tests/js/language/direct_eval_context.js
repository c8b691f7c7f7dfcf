// Direct eval code is compiled in its caller's context: `super`, `new.target` and the
// private names of enclosing classes work as in the surrounding code; `arguments` in eval code
// in a class field initialiser is a SyntaxError, and so is `super` in a plain function.
function outcome(f) {
  try {
    return f();
  } catch (e) {
    return e.constructor.name;
  }
}

class Base {
  m() {
    return "Base.m";
  }
}
class Derived extends Base {
  field = eval("super.m()");
  constructor() {
    eval("super()");
    console.log("this after eval super():", this instanceof Derived, this.field);
    console.log("new.target in eval:", eval("new.target === Derived"));
  }
  method() {
    return eval("super.m() + ' via ' + (() => eval('super.m()'))()");
  }
}
console.log(new Derived().method());

class TooEarly extends Base {
  constructor() {
    console.log("this before super() in eval:", outcome(() => eval("this")));
    super();
  }
}
new TooEarly();

class Private {
  #secret = 42;
  static #count = 1;
  read() {
    return eval("this.#secret + Private.#count");
  }
  missing() {
    return outcome(() => eval("this.#other"));
  }
}
console.log(new Private().read(), new Private().missing());

class FieldArguments {
  direct = outcome(() => eval("arguments"));
  inArrow = outcome(() => eval("() => arguments"));
}
const fa = new FieldArguments();
console.log(fa.direct, fa.inArrow);

function plainFunction() {
  return outcome(() => eval("super.x"));
}
console.log(plainFunction());

const literal = {
  m() {
    return outcome(() => eval("(function () { return super.x; })"));
  },
};
console.log(literal.m());

function newTarget() {
  return eval("new.target");
}
console.log(newTarget() === undefined, new newTarget() instanceof Object);

// Eval code of a strict caller is strict: strict-only early errors apply.
function strictCaller() {
  "use strict";
  return [outcome(() => eval("var public = 1;")), outcome(() => eval("with ({}) {}")), eval("typeof this")].join(" ");
}
console.log(strictCaller());
