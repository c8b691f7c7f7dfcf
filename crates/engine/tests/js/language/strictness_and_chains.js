// Direct eval inherits its caller's strictness; parenthesised optional chains keep their
// receiver.
'use strict';

try {
  eval('undeclaredFromStrictEval = 1');
  console.log('no error');
} catch (e) {
  console.log('strict eval assignment:', e.constructor.name);
}
(function () {
  try {
    eval('arguments = 1');
  } catch (e) {
    console.log('strict eval arguments:', e.constructor.name);
  }
})();

const a = { b() { return this.tag; }, tag: 'receiver kept' };
console.log((a?.b)(), (a.b)?.(), (a?.b)?.());
const none = null;
console.log((none?.b)?.());
try {
  (none?.b)();
} catch (e) {
  console.log('call of a short-circuited chain:', e.constructor.name);
}

class Stamp extends class { constructor(o) { return o; } } {
  #mark = 'stamped';
  static read(o) { return o.#mark; }
}
console.log(Stamp.read(new Stamp({})));
