// Errors of require, with Node's codes and messages (paths shown relative).
const show = (f) => {
  try {
    f();
    console.log('no error');
  } catch (e) {
    console.log(e.name, e.code, JSON.stringify(e.message.replaceAll(__dirname, '.')));
    if (e.requireStack) console.log(e.requireStack.map((p) => p.replace(__dirname, '.')));
  }
};
show(() => require('./fixtures/missing'));
show(() => require('missing-package'));
show(() => require('node:no-such-builtin'));
show(() => require('./fixtures/bad.json'));
show(() => require(42));
show(() => require(''));
show(() => require.resolve(null));
show(() => require('./fixtures/thrower'));
