// `arguments` as a binding: what var, function and lexical declarations of that name do to
// a function's arguments object (FunctionDeclarationInstantiation steps 15-28).

function readsBeforeVar() {
  const kind = typeof arguments;
  var arguments = 'replaced';
  return [kind, arguments];
}
console.log(readsBeforeVar(1, 2));

function varWithoutInitialiser(a) {
  var arguments;
  return arguments.length + ':' + arguments[0];
}
console.log(varWithoutInitialiser('x', 'y'));

function innerHasItsOwn() {
  var arguments = undefined;
  return (function () { return arguments.length; })(1, 2, 3);
}
console.log(innerHasItsOwn());

function functionNamedArguments() {
  function arguments() {}
  return typeof arguments;
}
console.log(functionNamedArguments());

function parameterExpressionsSeeTheObject(x = arguments.length) {
  let arguments = 'body';
  return [x, arguments];
}
console.log(parameterExpressionsSeeTheObject(undefined, 2, 3));

function arrowInDefault(f = () => arguments[1]) {
  function arguments() {}
  return [f(), typeof arguments];
}
console.log(arrowInDefault(undefined, 'second'));

function cannotDelete() {
  return delete arguments;
}
console.log(cannotDelete());

function parameterNamedArguments(arguments) {
  return arguments;
}
console.log(parameterNamedArguments('param'));
