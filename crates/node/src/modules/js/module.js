'use strict';
// node:module and the CommonJS loader (Node's lib/internal/modules/cjs/loader.js, reduced).
// Resolution, file reads and compilation are Rust natives over the VFS (`internal`); the
// module objects, the cache (`require.cache`), cycles and the `require` functions are here,
// so they are ordinary heap data that rides the image.

const { resolve: nativeResolve, read, compile, format, builtin, builtins, touch, hooks, amber } = internal;
const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

function dirname(p) {
  const i = p.lastIndexOf('/');
  if (i <= 0) return '/';
  return p.slice(0, i);
}

function nodeModulePaths(from) {
  const out = [];
  let dir = from;
  for (;;) {
    if (!dir.endsWith('/node_modules')) out.push(dir === '/' ? '/node_modules' : dir + '/node_modules');
    if (dir === '/') return out;
    dir = dirname(dir);
  }
}

// Node's MODULE_NOT_FOUND is a plain Error with a `code` (not one of its coded errors, whose
// stack's first line names the code).
function moduleNotFound(message) {
  const err = new Error(message);
  err.code = 'MODULE_NOT_FOUND';
  return err;
}

const builtinNames = builtins();
const builtinSet = new Set(builtinNames);

function isBuiltin(name) {
  if (typeof name !== 'string') return false;
  if (name.startsWith('node:')) return builtin(name, true);
  return builtinSet.has(name);
}

function Module(id = '', parent) {
  this.id = id;
  this.path = dirname(id);
  this.exports = {};
  moduleParents.set(this, parent);
  updateChildren(parent, this, false);
  this.filename = null;
  this.loaded = false;
  this.children = [];
}

const moduleParents = new WeakMap();
Object.defineProperty(Module.prototype, 'parent', {
  get() { return moduleParents.get(this); },
  set(v) { moduleParents.set(this, v); },
  enumerable: false,
  configurable: true,
});

function updateChildren(parent, child, scan) {
  const children = parent && parent.children;
  if (children && !(scan && children.includes(child))) children.push(child);
}

Module._cache = { __proto__: null };
Module._pathCache = { __proto__: null };
Module._extensions = { __proto__: null };
Module.globalPaths = [];
Module.builtinModules = builtinNames;
Module.isBuiltin = isBuiltin;
Module.Module = Module;
Module._nodeModulePaths = nodeModulePaths;
let mainModule;

function requireStack(parent) {
  const stack = [];
  for (let m = parent; m; m = moduleParents.get(m)) stack.push(m.filename || m.id);
  return stack;
}

Module._resolveFilename = function (request, parent, isMain, options) {
  if (typeof request !== 'string') throw ERR_INVALID_ARG_TYPE('id', 'string', request);
  if (isBuiltin(request)) return request;
  const from = options && Array.isArray(options.paths) ? options.paths : [parent && parent.filename ? dirname(parent.filename) : (parent && parent.path) || '/'];
  let failure;
  for (const dir of from) {
    const found = nativeResolve(request, String(dir));
    if (typeof found === 'string') return found;
    failure = failure || found;
  }
  const [code, message] = failure || ['MODULE_NOT_FOUND', `Cannot find module '${request}'`];
  if (code !== 'MODULE_NOT_FOUND') throw makeError(Error, code, message);
  const stack = requireStack(parent);
  const err = moduleNotFound(stack.length ? `${message}\nRequire stack:\n- ${stack.join('\n- ')}` : message);
  err.requireStack = stack;
  throw err;
};

function loadBuiltin(request) {
  return builtin(request, false);
}

Module._load = function (request, parent, isMain) {
  if (request === 'amber' || request.startsWith('amber:')) return amber(request);
  if (request.startsWith('node:')) return loadBuiltin(request);
  if (isBuiltin(request)) return loadBuiltin(request);
  const filename = Module._resolveFilename(request, parent, isMain);
  const cached = Module._cache[filename];
  if (cached !== undefined) {
    updateChildren(parent, cached, true);
    return cached.exports;
  }
  if (isBuiltin(filename)) return loadBuiltin(filename);
  // Refused inside amber.step before anything changes (the cache, the parent's children).
  touch(filename);
  const module = new Module(filename, parent);
  if (isMain) {
    mainModule = module;
    module.id = '.';
  }
  Module._cache[filename] = module;
  let threw = true;
  try {
    module.load(filename);
    threw = false;
  } finally {
    if (threw) {
      delete Module._cache[filename];
      const children = parent && parent.children;
      if (children) {
        const i = children.indexOf(module);
        if (i !== -1) children.splice(i, 1);
      }
    }
  }
  return module.exports;
};

Module.prototype.load = function (filename) {
  this.filename = filename;
  this.paths = nodeModulePaths(dirname(filename));
  const base = filename.slice(filename.lastIndexOf('/') + 1);
  let ext = '.js';
  for (let i = base.indexOf('.', 1); i !== -1; i = base.indexOf('.', i + 1)) {
    const candidate = base.slice(i);
    if (Module._extensions[candidate]) { ext = candidate; break; }
  }
  if (ext === '.js' && base.endsWith('.mjs')) throw requireEsm(filename, this);
  touch(filename);
  Module._extensions[ext](this, filename);
  this.loaded = true;
};

Module.prototype.require = function (id) {
  if (typeof id !== 'string') throw ERR_INVALID_ARG_TYPE('id', 'string', id);
  if (id === '') throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string. Received ''");
  return Module._load(id, this, false);
};

function requireEsm(filename, parent) {
  const from = parent && moduleParents.get(parent);
  const by = from && from.filename ? ` from ${from.filename}` : '';
  return makeError(Error, 'ERR_REQUIRE_ESM',
    `require() of ES Module ${filename}${by} not supported.\n` +
    `Instead change the require of ${filename} to a dynamic import() which is available in all CommonJS modules.`);
}

Module.prototype._compile = function (content, filename) {
  const wrapper = compile(content, filename);
  const require = makeRequireFunction(this);
  return Reflect.apply(wrapper, this.exports, [this.exports, require, this, filename, dirname(filename)]);
};

Module._extensions['.js'] = function (module, filename) {
  if (filename.endsWith('.js') && format(filename) === 'module') throw requireEsm(filename, module);
  module._compile(read(filename), filename);
};

// TypeScript: `compile` transforms it (loader/typescript.rs). `.mts` is always an ES module.
Module._extensions['.ts'] = function (module, filename) {
  if (format(filename) === 'module') throw requireEsm(filename, module);
  module._compile(read(filename), filename);
};
Module._extensions['.tsx'] = Module._extensions['.ts'];
Module._extensions['.cts'] = function (module, filename) {
  module._compile(read(filename), filename);
};
Module._extensions['.mts'] = function (module, filename) {
  throw requireEsm(filename, module);
};

Module._extensions['.json'] = function (module, filename) {
  const content = read(filename);
  try {
    module.exports = JSON.parse(content.charCodeAt(0) === 0xFEFF ? content.slice(1) : content);
  } catch (err) {
    err.message = filename + ': ' + err.message;
    throw err;
  }
};

Module._extensions['.node'] = function (module, filename) {
  throw makeError(Error, 'ERR_DLOPEN_FAILED', `Cannot load native addon ${filename}: native addons are not supported in Amber`);
};

function makeRequireFunction(mod) {
  const require = function require(path) {
    return mod.require(path);
  };
  function resolve(request, options) {
    if (typeof request !== 'string') throw ERR_INVALID_ARG_TYPE('request', 'string', request);
    return Module._resolveFilename(request, mod, false, options);
  }
  require.resolve = resolve;
  resolve.paths = function paths(request) {
    if (typeof request !== 'string') throw ERR_INVALID_ARG_TYPE('request', 'string', request);
    if (isBuiltin(request)) return null;
    if (request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../')) return [mod.path];
    return nodeModulePaths(mod.path);
  };
  require.main = mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

function fileURLToPath(url) {
  const href = typeof url === 'string' ? url : String(url && url.href);
  if (!href.startsWith('file://')) throw makeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  let path = href.slice(7);
  if (!path.startsWith('/')) path = path.slice(path.indexOf('/'));
  const q = path.search(/[?#]/);
  if (q !== -1) path = path.slice(0, q);
  return decodeURIComponent(path);
}

Module.createRequire = function createRequire(filename) {
  let path;
  if (typeof filename === 'string' && filename.startsWith('/')) path = filename;
  else if (typeof filename === 'string' && filename.startsWith('file:')) path = fileURLToPath(filename);
  else if (filename !== null && typeof filename === 'object' && typeof filename.href === 'string') path = fileURLToPath(filename);
  else {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
      `The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${typeof filename === 'string' ? `'${filename}'` : String(filename)}`);
  }
  const trailing = path.endsWith('/');
  const proxyPath = trailing ? path + 'noop.js' : path;
  const m = new Module(proxyPath);
  m.filename = proxyPath;
  m.paths = nodeModulePaths(m.path);
  return makeRequireFunction(m);
};

Module.wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
Module.wrap = function wrap(script) {
  return Module.wrapper[0] + script + Module.wrapper[1];
};
Module.syncBuiltinESMExports = function syncBuiltinESMExports() {};
Module.findSourceMap = function findSourceMap() { return undefined; };
Module.register = function register() {
  throw makeError(Error, 'ERR_AMBER_UNSUPPORTED', 'module.register(): loader hooks are not supported in Amber');
};

// Hooks for the Rust side: the entry program and CommonJS files imported from ES modules.
hooks({
  runMain(filename, source) {
    const module = new Module(filename, null);
    mainModule = module;
    module.id = '.';
    module.filename = filename;
    module.paths = nodeModulePaths(dirname(filename));
    Module._cache[filename] = module;
    module._compile(source, filename);
    module.loaded = true;
  },
  importCommonJs(filename) {
    return Module._load(filename, undefined, false);
  },
});

module.exports = Module;
