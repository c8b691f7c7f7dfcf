// Sloppy functions with duplicate parameter names: the last one is the binding, and only
// its index of the arguments object is mapped to it (CreateMappedArgumentsObject).
function all(a, a, a) {
  return Array.prototype.slice.call(arguments);
}
console.log(all(1, 2, 3));

function assignBinding(a, b, a) {
  a = 9;
  return [arguments[0], arguments[2], b];
}
console.log(assignBinding(1, 2, 3));

function assignArguments(a, a) {
  arguments[0] = 7;
  arguments[1] = 8;
  return a;
}
console.log(assignArguments(1, 2));

function missing(x, x) {
  return x;
}
console.log(missing(1), missing(1, 2));

// Array.prototype.toString falls back to the intrinsic Object.prototype.toString.
const saved = Object.prototype.toString;
delete Object.prototype.toString;
console.log(Array.prototype.toString.call({ join: null }));
Object.prototype.toString = saved;
