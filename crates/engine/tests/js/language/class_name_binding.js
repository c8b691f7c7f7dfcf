// Inside a class, its name is an immutable binding of its own: reassigning the outer
// declaration does not change what the methods see, and assigning to it throws.
class C {
  method() {
    return C;
  }
  static rename() {
    C = 1;
  }
}
const original = C;
C = null;
console.log(original.prototype.method() === original, C);
try {
  original.rename();
} catch (e) {
  console.log(e instanceof TypeError);
}

const Expr = class Named {
  make() {
    return new Named();
  }
  clobber() {
    Named = 0;
  }
};
console.log(new Expr().make() instanceof Expr);
try {
  new Expr().clobber();
} catch (e) {
  console.log(e instanceof TypeError);
}

// The heritage expression is evaluated inside the class scope: the name is in its TDZ.
try {
  class Self extends Self {}
} catch (e) {
  console.log(e instanceof ReferenceError);
}

// Field initialisers (compiled as functions of their own) read the enclosing function's
// locals, and a static field sees the class through its inner binding.
function locals() {
  let x = 1;
  class A {
    y = x;
    static z = x + 1;
    static self = A;
  }
  return [new A().y, A.z, A.self === A];
}
console.log(locals());
function expressionField() {
  let factor = 5;
  const B = class {
    w = factor * 2;
  };
  return new B().w;
}
console.log(expressionField());
