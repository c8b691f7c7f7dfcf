// Errors inside objects, arrays and promises, as Node's formatError prints them: the stack
// (set here, so both sides have the same frames) indented as deep as the error sits; in
// brackets only when it has no frames; Error.prototype.toString's text when the stack is
// empty.
const framed = (e) => { e.stack = `${e.name}: ${e.message}\n    at f (/app/a.js:1:1)\n    at g (/app/b.js:2:2)`; return e; };
const e = framed(new Error('x'));
console.log(e);
console.log({ e });
console.log([e, [e]]);
console.log({ deep: { deeper: { e } } });
const p = Promise.reject(e);
p.catch(() => {});
console.log(p);
const coded = framed(new RangeError('r'));
coded.code = 'ERR_X';
console.log({ coded });
const bare = new Error('y');
bare.stack = '';
console.log(bare, { bare }, [bare]);
const frameless = new TypeError('w');
frameless.stack = 'TypeError: w';
console.log(frameless, [frameless]);
console.log({ a: { b: { c: { coded } } } });
