// The node layer's primordials: the built-ins its JavaScript uses, captured once when the VM
// is set up (before any program code runs), so a program that replaces
// `Array.prototype.push` or `String.prototype.split` cannot change what `fs`, `stream`,
// `url` or `events` do. The technique is Node's and Deno's (lib/internal/per_context/
// primordials.js), and so are the names, so code reads the same:
//
//   a constructor or namespace keeps its name            Array, Promise, Symbol
//   a static method or value: Owner + Name                ObjectKeys, NumberIsInteger
//   a prototype method, uncurried (receiver first):       ArrayPrototypePush(list, item)
//     Owner + 'Prototype' + Name
//   a getter: Owner + 'Prototype' + 'Get' + Name          ArrayBufferPrototypeGetByteLength(b)
//   a well-known symbol: 'Symbol' + Name                  SymbolIterator, SymbolAsyncIterator
//
// Uncurrying is `Function.prototype.call.bind(method)`: one bound function per method, made
// here once; calling it costs one bound-function hop over `list.push(item)`.
//
// Only what the builtins use is captured (the table below), because this runs in every VM's
// baseline: capturing every intrinsic method (about 600) cost a `console.log` run 4 ms at
// the ci profile, this table well under one. A builtin that needs another one adds it here;
// `tests::every_primordial_a_builtin_names_exists` (modules/mod.rs) fails on a name missing.
//
// This file is a script whose completion value is the frozen object; the module loader
// passes it to every builtin body as `primordials` (modules/mod.rs).
(function capturePrimordials() {
  'use strict';
  const { bind, call } = Function.prototype;
  const uncurryThis = bind.bind(call);
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const TypedArray = Reflect.getPrototypeOf(Uint8Array);

  // Statics, copied as they are: [owner, its name, keys]. A statics owner's own name is
  // captured too (Array, Promise, …).
  const statics = [
    [Array, 'Array', ['from', 'isArray']],
    [ArrayBuffer, 'ArrayBuffer', ['isView']],
    [BigInt, 'BigInt', ['asIntN', 'asUintN']],
    [Boolean, 'Boolean', []],
    [Date, 'Date', ['now']],
    [Error, 'Error', ['captureStackTrace']],
    [Function, 'Function', []],
    [JSON, 'JSON', ['parse', 'stringify']],
    [Map, 'Map', []],
    [Math, 'Math', ['abs', 'floor', 'max', 'min', 'round', 'trunc']],
    [Number, 'Number', ['isFinite', 'isInteger', 'isNaN', 'isSafeInteger', 'MAX_SAFE_INTEGER',
      'MIN_SAFE_INTEGER', 'parseInt']],
    [Object, 'Object', ['assign', 'create', 'defineProperties', 'defineProperty', 'entries', 'freeze',
      'getOwnPropertyDescriptor', 'getOwnPropertyDescriptors', 'getPrototypeOf', 'is', 'keys',
      'setPrototypeOf', 'values']],
    [Reflect, 'Reflect', ['apply', 'construct', 'getOwnPropertyDescriptor', 'ownKeys']],
    [Set, 'Set', []],
    [String, 'String', ['fromCharCode', 'fromCodePoint']],
    [Symbol, 'Symbol', ['asyncDispose', 'asyncIterator', 'dispose', 'for', 'hasInstance', 'iterator',
      'species', 'toPrimitive', 'toStringTag']],
    [TypeError, 'TypeError', []],
    [Uint8Array, 'Uint8Array', []],
  ];
  // Statics that read their receiver, bound to their constructor so `PromiseResolve(x)` works
  // as `Promise.resolve(x)` does.
  const boundStatics = [
    [Promise, 'Promise', ['all', 'reject', 'resolve']],
  ];
  // Prototype methods and getters ('get name'), uncurried: [prototype, prefix, keys].
  const methods = [
    [Array.prototype, 'ArrayPrototype', ['concat', 'every', 'filter', 'findIndex', 'forEach', 'includes',
      'indexOf', 'join', 'map', 'pop', 'push', 'shift', 'slice', 'some', 'sort', 'splice', 'unshift']],
    [ArrayBuffer.prototype, 'ArrayBufferPrototype', ['get byteLength', 'get detached', 'slice', 'transfer']],
    [BigInt.prototype, 'BigIntPrototype', ['valueOf']],
    [Date.prototype, 'DatePrototype', ['getTime']],
    [Function.prototype, 'FunctionPrototype', ['apply', 'bind', 'call']],
    [Map.prototype, 'MapPrototype', ['entries']],
    [Number.prototype, 'NumberPrototype', ['valueOf']],
    [Object.prototype, 'ObjectPrototype', ['hasOwnProperty', 'isPrototypeOf', 'toString']],
    [Promise.prototype, 'PromisePrototype', ['then']],
    [RegExp.prototype, 'RegExpPrototype', ['exec', 'test']],
    [Set.prototype, 'SetPrototype', ['values']],
    [String.prototype, 'StringPrototype', ['charCodeAt', 'codePointAt', 'endsWith', 'includes', 'indexOf',
      'lastIndexOf', 'normalize', 'replace', 'slice', 'split', 'startsWith', 'toLowerCase', 'trim',
      'valueOf']],
    [TypedArray.prototype, 'TypedArrayPrototype', ['fill', 'get @@toStringTag']],
  ];

  const primordials = { __proto__: null };
  // 'get @@toStringTag' → ['SymbolToStringTag', Symbol.toStringTag, true]
  function parse(spec) {
    const getter = spec.startsWith('get ');
    const name = getter ? spec.slice(4) : spec;
    if (name.startsWith('@@')) {
      const short = name.slice(2);
      return [`Symbol${short[0].toUpperCase()}${short.slice(1)}`, Symbol[short], getter];
    }
    return [`${name[0].toUpperCase()}${name.slice(1)}`, name, getter];
  }
  for (let i = 0; i < statics.length; i++) {
    const [owner, prefix, keys] = statics[i];
    primordials[prefix] = owner;
    for (let k = 0; k < keys.length; k++) {
      const [name, key] = parse(keys[k]);
      primordials[`${prefix}${name}`] = owner[key];
    }
  }
  for (let i = 0; i < boundStatics.length; i++) {
    const [owner, prefix, keys] = boundStatics[i];
    primordials[prefix] = owner;
    for (let k = 0; k < keys.length; k++) {
      const [name, key] = parse(keys[k]);
      primordials[`${prefix}${name}`] = bind.call(owner[key], owner);
    }
  }
  for (let i = 0; i < methods.length; i++) {
    const [proto, prefix, keys] = methods[i];
    for (let k = 0; k < keys.length; k++) {
      const [name, key, getter] = parse(keys[k]);
      // A method this engine lacks stays undefined, as `proto[key]` would be.
      const desc = getOwnPropertyDescriptor(proto, key);
      const f = desc && (getter ? desc.get : desc.value);
      primordials[`${prefix}${getter ? 'Get' : ''}${name}`] = typeof f === 'function' ? uncurryThis(f) : undefined;
    }
  }
  primordials.uncurryThis = uncurryThis;
  return Object.freeze(primordials);
})()
