// The console methods beyond log: count/countReset, group/groupCollapsed/groupEnd (indenting
// every line), assert, dir (customInspect off, options honoured), dirxml, time and its
// warnings (the times themselves are not printed: they are wall time in Node), clear.
console.count(); console.count(); console.count('x'); console.count(undefined); console.countReset(); console.count();
console.countReset('nope');
console.group('Group A', 1);
console.log('inside\nmulti-line');
console.group();
console.info({ a: [1, 2] });
console.groupEnd();
console.groupCollapsed('collapsed');
console.log('deeper');
console.groupEnd(); console.groupEnd(); console.groupEnd();
console.log('outside');
console.assert(true, 'never');
console.assert(false, 'shown %s', 'formatted');
console.assert(0, { o: 1 });
console.assert(false);
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.dir({ a: { b: { c: { d: 1 } } } });
console.dir({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'custom'; }, z: 1 });
console.dirxml([1, 2], 'x');
console.time('t'); console.time('t'); console.timeEnd('missing'); console.timeLog('missing');
console.clear();
console.log(typeof console.timeEnd, console.group.length);
console.group('errors indent too'); console.error('on stderr'); console.warn('a\nb'); console.groupEnd();
console.log(['dir', 'time', 'timeEnd', 'timeLog', 'count', 'countReset', 'group', 'groupCollapsed', 'groupEnd', 'assert', 'trace', 'clear', 'dirxml'].map((k) => typeof console[k]).join(' '));
