// An error whose message or name is built by concatenation (a rope) keeps it in `.stack`
// (expected output from node 20).
let s = '';
for (let i = 0; i < 50; i++) s += 'part' + i + ' ';
const e = new Error(s);
console.log(e.stack.split('\n')[0]);
class MyLongNamedError extends Error {}
let nm = '';
for (let i = 0; i < 20; i++) nm += 'N' + i;
Object.defineProperty(MyLongNamedError.prototype, 'name', { value: nm });
console.log(new MyLongNamedError('m').stack.split('\n')[0]);
const holder = { message: 'held ' + s, name: 'Holder' + nm };
Error.captureStackTrace(holder);
console.log(holder.stack.split('\n')[0]);
const t = new TypeError('type ' + s);
console.log(t.stack.split('\n')[0] === 'TypeError: type ' + s);
