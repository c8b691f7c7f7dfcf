// super() and `this` in arrows inside derived constructors, strict class bodies, and super
// property references (ECMA-262 §13.3.7, §15.7).

class Base {
  constructor(tag) {
    this.tag = tag;
  }
}

class LateSuper extends Base {
  constructor() {
    const init = () => super('from arrow');
    const peek = () => this.tag;
    let before;
    try {
      peek();
    } catch (e) {
      before = e.constructor.name;
    }
    init();
    console.log(before, peek(), this.tag);
  }
}
new LateSuper();

class Twice extends Base {
  constructor() {
    super('once');
    try {
      (() => super('twice'))();
    } catch (e) {
      console.log('second super():', e.constructor.name);
    }
  }
}
console.log(new Twice().tag);

class OfNull extends null {
  constructor() {
    try {
      (() => this)();
    } catch (e) {
      console.log('extends null:', e.constructor.name);
    }
    return Object.create(OfNull.prototype);
  }
}
console.log(new OfNull() instanceof OfNull);

// Class bodies are strict even in sloppy scripts.
class Strict {
  kind() {
    return typeof this;
  }
  assign() {
    undeclaredInStrictClass = 1;
  }
}
console.log(Strict.prototype.kind.call(1));
try {
  new Strict().assign();
} catch (e) {
  console.log('assignment:', e.constructor.name);
}

// super[key] needs `this` before the key runs.
class KeyOrder extends Base {
  constructor() {
    try {
      super[(console.log('key evaluated'), 'x')];
    } catch (e) {
      console.log('super[key] before super():', e.constructor.name);
    }
    super('ok');
  }
}
console.log(new KeyOrder().tag);

// A failed super property assignment throws only in strict code.
const proto = Object.freeze({});
const sloppy = { __proto__: proto, m() { super.x = 1; return 'silent'; } };
console.log(sloppy.m());
