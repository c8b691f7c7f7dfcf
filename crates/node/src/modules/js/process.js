'use strict';
// node:process over a fixed virtual process. Everything a program could branch on is the
// same on every host (docs/node-compat.md): argv[0] is /usr/local/bin/node, env is empty
// unless the embedder fills it, pid 4242, versions of Node 20. Time is the logical clock.
const {
  ArrayIsArray, ArrayPrototypePush, ArrayPrototypeSplice, FunctionPrototypeCall, JSONParse,
  MathRound, NumberIsInteger, ObjectAssign, ObjectCreate, ObjectDefineProperty, ObjectKeys,
  ReflectApply, SymbolToStringTag,
} = primordials;
const { makeError, describeReceived } = require('node:internal/errors');

const EventEmitter = require('events');

const process = ObjectCreate(EventEmitter.prototype, {
  [SymbolToStringTag]: { value: 'process', writable: false, enumerable: false, configurable: true },
});
FunctionPrototypeCall(EventEmitter, process);

// ---- nextTick: a queue drained by the embedder's microtask checkpoint (process.rs).
const queue = [];
function runTicks() {
  let i = 0;
  try {
    while (i < queue.length) {
      const tock = queue[i++];
      const { callback, args } = tock;
      if (args === undefined) callback();
      else ReflectApply(callback, undefined, args);
    }
  } finally {
    ArrayPrototypeSplice(queue, 0, i);
  }
}
function onIdle(exiting) {
  const code = process.exitCode || 0;
  if (!exiting) {
    process.emit('beforeExit', code);
  } else if (!process._exiting) {
    process._exiting = true;
    process.emit('exit', code);
  }
}
internal.tickQueue(queue, runTicks, process, onIdle);

function nextTick(callback, ...args) {
  if (typeof callback !== 'function') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "callback" argument must be of type function.${describeReceived(callback)}`);
  }
  if (process._exiting) return;
  ArrayPrototypePush(queue, { callback, args: args.length ? args : undefined });
}

// ---- exit
let exitCode;
function exit(code) {
  if (code !== undefined) process.exitCode = code;
  if (!process._exiting) {
    process._exiting = true;
    process.emit('exit', process.exitCode || 0);
  }
  internal.exit(process.exitCode || 0);
}

function validateExitCode(code) {
  if (code === undefined || code === null) return;
  if (typeof code === 'string' && code !== '' && NumberIsInteger(+code)) return;
  if (typeof code !== 'number') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "code" argument must be of type number.${describeReceived(code)}`);
  }
  if (!NumberIsInteger(code)) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE',
      `The value of "code" is out of range. It must be an integer. Received ${code}`);
  }
}

// process.binding('constants').trace: the trace event phases (character codes), as Node has them.
const traceConstants = {
  TRACE_EVENT_PHASE_BEGIN: 66, TRACE_EVENT_PHASE_END: 69, TRACE_EVENT_PHASE_COMPLETE: 88,
  TRACE_EVENT_PHASE_INSTANT: 73, TRACE_EVENT_PHASE_ASYNC_BEGIN: 83,
  TRACE_EVENT_PHASE_ASYNC_STEP_INTO: 84, TRACE_EVENT_PHASE_ASYNC_STEP_PAST: 112,
  TRACE_EVENT_PHASE_ASYNC_END: 70, TRACE_EVENT_PHASE_NESTABLE_ASYNC_BEGIN: 98,
  TRACE_EVENT_PHASE_NESTABLE_ASYNC_END: 101, TRACE_EVENT_PHASE_NESTABLE_ASYNC_INSTANT: 110,
  TRACE_EVENT_PHASE_FLOW_BEGIN: 115, TRACE_EVENT_PHASE_FLOW_STEP: 116, TRACE_EVENT_PHASE_FLOW_END: 102,
  TRACE_EVENT_PHASE_METADATA: 77, TRACE_EVENT_PHASE_COUNTER: 67, TRACE_EVENT_PHASE_SAMPLE: 80,
  TRACE_EVENT_PHASE_CREATE_OBJECT: 78, TRACE_EVENT_PHASE_SNAPSHOT_OBJECT: 79,
  TRACE_EVENT_PHASE_DELETE_OBJECT: 68, TRACE_EVENT_PHASE_MEMORY_DUMP: 118, TRACE_EVENT_PHASE_MARK: 82,
  TRACE_EVENT_PHASE_CLOCK_SYNC: 99, TRACE_EVENT_PHASE_ENTER_CONTEXT: 40,
  TRACE_EVENT_PHASE_LEAVE_CONTEXT: 41, TRACE_EVENT_PHASE_LINK_IDS: 61,
};

// ---- time on the logical clock
const start = internal.clock();
function hrtime(prev) {
  const ns = BigInt(MathRound((internal.clock() - start) * 1e6)) + 1000000000n;
  let sec = Number(ns / 1000000000n);
  let nsec = Number(ns % 1000000000n);
  if (prev !== undefined) {
    if (!ArrayIsArray(prev)) {
      throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "time" argument must be an instance of Array.${describeReceived(prev)}`);
    }
    if (prev.length !== 2) {
      throw makeError(RangeError, 'ERR_OUT_OF_RANGE',
        `The value of "time" is out of range. It must be 2. Received ${prev.length}`);
    }
    sec -= prev[0];
    nsec -= prev[1];
    if (nsec < 0) {
      sec -= 1;
      nsec += 1e9;
    }
  }
  return [sec, nsec];
}
hrtime.bigint = function bigint() {
  return BigInt(MathRound((internal.clock() - start) * 1e6)) + 1000000000n;
};

// ---- streams: line-buffered writes through the print hook
function makeStream(fd) {
  const stream = new EventEmitter();
  stream.fd = fd;
  stream.isTTY = false;
  stream.writable = true;
  stream._isStdio = true;
  stream.write = function write(chunk, encoding, cb) {
    if (typeof encoding === 'function') {
      cb = encoding;
      encoding = undefined;
    }
    let text;
    if (typeof chunk === 'string') text = chunk;
    else if (chunk instanceof Uint8Array) text = new TextDecoder().decode(chunk);
    else {
      throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "chunk" argument must be of type string or an instance of Buffer, TypedArray, or DataView.${describeReceived(chunk)}`);
    }
    internal.write(fd, text);
    if (typeof cb === 'function') nextTick(cb);
    return true;
  };
  stream.end = function end(chunk, encoding, cb) {
    if (typeof chunk === 'function') {
      cb = chunk;
      chunk = undefined;
    }
    if (chunk !== undefined && chunk !== null) stream.write(chunk, encoding);
    if (typeof cb === 'function') nextTick(cb);
    return stream;
  };
  stream.cork = function cork() {};
  stream.uncork = function uncork() {};
  stream.setDefaultEncoding = function setDefaultEncoding() { return stream; };
  stream.hasColors = () => false;
  stream.getColorDepth = () => 1;
  stream.columns = undefined;
  return stream;
}

// The working directory is the VFS's (relative fs paths and path.resolve use it too).
function chdir(directory) {
  if (typeof directory !== 'string') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "directory" argument must be of type string.${describeReceived(directory)}`);
  }
  require('node:internal/fs/cwd').chdir(directory);
}

// ---- warnings
const warned = new Set();
function emitWarning(warning, type, code, ctor) {
  let detail;
  if (type !== null && typeof type === 'object' && !ArrayIsArray(type)) {
    ctor = type.ctor;
    code = type.code;
    if (typeof type.detail === 'string') detail = type.detail;
    type = type.type || 'Warning';
  } else if (typeof type === 'function') {
    ctor = type;
    code = undefined;
    type = 'Warning';
  }
  if (type !== undefined && typeof type !== 'string') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "type" argument must be of type string.${describeReceived(type)}`);
  }
  if (typeof code === 'function') {
    ctor = code;
    code = undefined;
  }
  if (typeof warning === 'string') {
    const w = new Error(warning);
    w.name = String(type || 'Warning');
    if (code !== undefined) w.code = code;
    if (detail !== undefined) w.detail = detail;
    warning = w;
  } else if (!(warning instanceof Error)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "warning" argument must be of type string or an instance of Error.${describeReceived(warning)}`);
  }
  if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
  nextTick(() => {
    process.emit('warning', warning);
    writeWarning(warning);
  });
}

function writeWarning(warning) {
  if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
  let msg = `(node:${process.pid}) `;
  if (warning.code) msg += `[${warning.code}] `;
  msg += `${warning.name}: ${warning.message}`;
  if (typeof warning.detail === 'string') msg += `\n${warning.detail}`;
  if (!warned.has('trace')) {
    warned.add('trace');
    const flag = warning.name === 'DeprecationWarning' ? '--trace-deprecation' : '--trace-warnings';
    msg += `\n(Use \`node ${flag} ...\` to show where the warning was created)`;
  }
  internal.write(2, `${msg}\n`);
}

const memoryUsage = function memoryUsage() {
  const heap = internal.heapBytes();
  return { rss: heap + 30000000, heapTotal: heap + 1000000, heapUsed: heap, external: 0, arrayBuffers: 0 };
};
memoryUsage.rss = () => internal.heapBytes() + 30000000;

const versions = {
  node: '20.11.0', acorn: '8.11.3', ada: '2.7.4', ares: '1.26.0', brotli: '1.1.0', cjs_module_lexer: '1.2.2',
  llhttp: '8.1.1', modules: '115', napi: '9', nghttp2: '1.58.0', openssl: '3.0.12', simdutf: '4.0.8',
  tz: '2023c', undici: '5.28.2', unicode: '15.1', uv: '1.46.0', uvwasi: '0.0.19', v8: '11.3.244.8-node.17',
  zlib: '1.3.0.1-motley', amber: '0.1.0',
};

const props = {
  version: 'v20.11.0',
  versions,
  arch: 'x64',
  platform: 'linux',
  release: { name: 'node', lts: 'Iron' },
  _exiting: false,
  config: { target_defaults: {}, variables: {} },
  env: {},
  title: 'node',
  argv: ['/usr/local/bin/node'],
  execArgv: [],
  pid: 4242,
  ppid: 4241,
  execPath: '/usr/local/bin/node',
  argv0: 'node',
  debugPort: 9229,
  exitCode: undefined,
  features: { inspector: false, debug: false, uv: true, ipv6: true, tls_alpn: false, tls_sni: false, tls_ocsp: false, tls: false },
  stdout: makeStream(1),
  stderr: makeStream(2),
  stdin: makeStream(0),
  nextTick,
  exit,
  reallyExit: exit,
  abort() {
    internal.exit(134);
  },
  hrtime,
  uptime() {
    return (internal.clock() - start) / 1000;
  },
  cwd() {
    return require('node:internal/fs/cwd').cwd();
  },
  chdir,
  umask() {
    return 0o22;
  },
  getuid: () => 1000,
  geteuid: () => 1000,
  getgid: () => 1000,
  getegid: () => 1000,
  getgroups: () => [1000],
  kill() {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'process.kill is not available in Amber');
  },
  memoryUsage,
  cpuUsage(prev) {
    const us = MathRound((internal.clock() - start) * 1000);
    if (prev) return { user: us - prev.user, system: 0 - prev.system };
    return { user: us, system: 0 };
  },
  resourceUsage() {
    return { userCPUTime: 0, systemCPUTime: 0, maxRSS: 0, sharedMemorySize: 0, unsharedDataSize: 0,
      unsharedStackSize: 0, minorPageFault: 0, majorPageFault: 0, swappedOut: 0, fsRead: 0, fsWrite: 0,
      ipcSent: 0, ipcReceived: 0, signalsCount: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0 };
  },
  constrainedMemory: () => 0,
  availableMemory: () => 4294967296,
  emitWarning,
  getActiveResourcesInfo: () => [],
  setUncaughtExceptionCaptureCallback() {},
  hasUncaughtExceptionCaptureCallback: () => false,
  setSourceMapsEnabled() {},
  sourceMapsEnabled: false,
  allowedNodeEnvironmentFlags: new Set(),
  // The internal bindings packages still read: `constants` (the `tmp` package, old
  // graceful-fs) as Node lays it out; the rest name native code Amber does not have.
  binding(name) {
    if (name === 'constants') {
      return {
        os: require('os').constants,
        fs: require('fs').constants,
        crypto: require('crypto').constants,
        zlib: require('zlib').constants,
        trace: traceConstants,
      };
    }
    throw makeError(Error, 'ERR_INVALID_MODULE', `No such module: ${name}`);
  },
  getBuiltinModule(id) {
    try {
      return require(id);
    } catch {
      return undefined;
    }
  },
};
const entry = internal.entry();
if (entry) ArrayPrototypePush(props.argv, entry);
const inputs = internal.inputs();
if (inputs !== undefined) {
  const { argv, env } = JSONParse(inputs);
  ArrayPrototypePush(props.argv, ...argv);
  ObjectAssign(props.env, env);
}
for (const key of ObjectKeys(props)) {
  ObjectDefineProperty(process, key, { value: props[key], writable: true, enumerable: true, configurable: true });
}
ObjectDefineProperty(process, 'exitCode', {
  enumerable: true,
  configurable: false,
  get() {
    return exitCode;
  },
  set(code) {
    validateExitCode(code);
    exitCode = code;
  },
});

module.exports = process;
