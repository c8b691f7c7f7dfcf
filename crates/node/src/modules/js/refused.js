'use strict';
// The modules Amber refuses (node:child_process, node:net, node:worker_threads, …) load like
// any builtin, with every export Node 20 has, so a package that only references one loads
// (mocha's bin imports child_process; test helpers import worker_threads to ask
// `isMainThread`). Calling or constructing a refused export throws ERR_AMBER_MODULE_REFUSED
// naming the export and why (the reason is [`super::REFUSED`]'s, one table in Rust). Plain
// values are Node's where they state a fact true of an Amber run (this is the main thread;
// no DNS result order is set) or are constants; the few pure functions with no host effect
// (net.isIP, dns.getServers, v8.getHeapStatistics, …) work.

const EventEmitter = require('events');
const { makeError } = require('node:internal/errors');

function refusal(module, name) {
  return makeError(Error, 'ERR_AMBER_MODULE_REFUSED',
    `${module}.${name} is not available in Amber: ${internal.why(module)}`);
}

// A constructible function named like Node's, so `new net.Socket()`, `class X extends
// net.Server` and `instanceof` checks load; the call itself throws.
function refused(module, name) {
  const holder = {
    [name]: function () {
      throw refusal(module, name);
    },
  };
  return holder[name];
}

function build(module, names, values = {}) {
  const exports = {};
  for (const name of names) exports[name] = name in values ? values[name] : refused(module, name);
  for (const name of Object.keys(values)) if (!(name in exports)) exports[name] = values[name];
  return exports;
}

// ---- net: addresses are pure text; everything that opens a socket is refused.
const v4Seg = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const v4Str = `(?:${v4Seg}\\.){3}${v4Seg}`;
const IPv4Reg = new RegExp(`^${v4Str}$`);
const v6Seg = '(?:[0-9a-fA-F]{1,4})';
const IPv6Reg = new RegExp('^(?:' +
  `(?:${v6Seg}:){7}(?:${v6Seg}|:)|` +
  `(?:${v6Seg}:){6}(?:${v4Str}|:${v6Seg}|:)|` +
  `(?:${v6Seg}:){5}(?::${v4Str}|(?::${v6Seg}){1,2}|:)|` +
  `(?:${v6Seg}:){4}(?:(?::${v6Seg}){0,1}:${v4Str}|(?::${v6Seg}){1,3}|:)|` +
  `(?:${v6Seg}:){3}(?:(?::${v6Seg}){0,2}:${v4Str}|(?::${v6Seg}){1,4}|:)|` +
  `(?:${v6Seg}:){2}(?:(?::${v6Seg}){0,3}:${v4Str}|(?::${v6Seg}){1,5}|:)|` +
  `(?:${v6Seg}:){1}(?:(?::${v6Seg}){0,4}:${v4Str}|(?::${v6Seg}){1,6}|:)|` +
  `(?::(?:(?::${v6Seg}){0,5}:${v4Str}|(?::${v6Seg}){1,7}|:))` +
')(?:%[0-9a-zA-Z-.:]{1,})?$');
const isIPv4 = (s) => IPv4Reg.test(`${s}`);
const isIPv6 = (s) => IPv6Reg.test(`${s}`);
const isIP = (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0);

const dnsCodes = {
  NODATA: 'ENODATA', FORMERR: 'EFORMERR', SERVFAIL: 'ESERVFAIL', NOTFOUND: 'ENOTFOUND',
  NOTIMP: 'ENOTIMP', REFUSED: 'EREFUSED', BADQUERY: 'EBADQUERY', BADNAME: 'EBADNAME',
  BADFAMILY: 'EBADFAMILY', BADRESP: 'EBADRESP', CONNREFUSED: 'ECONNREFUSED', TIMEOUT: 'ETIMEOUT',
  EOF: 'EOF', FILE: 'EFILE', NOMEM: 'ENOMEM', DESTRUCTION: 'EDESTRUCTION', BADSTR: 'EBADSTR',
  BADFLAGS: 'EBADFLAGS', NONAME: 'ENONAME', BADHINTS: 'EBADHINTS', NOTINITIALIZED: 'ENOTINITIALIZED',
  LOADIPHLPAPI: 'ELOADIPHLPAPI', ADDRGETNETWORKPARAMS: 'EADDRGETNETWORKPARAMS', CANCELLED: 'ECANCELLED',
};
const dnsHead = ['lookup', 'lookupService', 'Resolver', 'getDefaultResultOrder', 'setDefaultResultOrder',
  'setServers'];
const dnsTail = ['getServers', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname',
  'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];

function dns(module) {
  const flags = module === 'dns' ? { ADDRCONFIG: 32, ALL: 16, V4MAPPED: 8 } : {};
  const names = [...dnsHead, ...Object.keys(flags), ...Object.keys(dnsCodes), ...dnsTail];
  // No resolver exists, so there are no servers; the default order is Node 20's.
  const exports = build(module, names, {
    ...flags, ...dnsCodes, getDefaultResultOrder: () => 'verbatim', getServers: () => [],
  });
  if (module === 'dns') exports.promises = require('dns/promises');
  return exports;
}

function cluster() {
  const c = new EventEmitter();
  const fns = ['Worker', 'setupPrimary', 'setupMaster', 'fork', 'disconnect'];
  Object.assign(c, { isWorker: false, isMaster: true, isPrimary: true });
  c.Worker = refused('cluster', 'Worker');
  Object.assign(c, { workers: {}, settings: {}, SCHED_NONE: 1, SCHED_RR: 2, schedulingPolicy: 2 });
  for (const f of fns.slice(1)) c[f] = refused('cluster', f);
  return c;
}

function v8() {
  const heap = () => {
    const used = process.memoryUsage().heapUsed;
    return {
      total_heap_size: used, total_heap_size_executable: 0, total_physical_size: used,
      total_available_size: 4294967296 - used, used_heap_size: used, heap_size_limit: 4294967296,
      malloced_memory: 0, peak_malloced_memory: 0, does_zap_garbage: 0, number_of_native_contexts: 1,
      number_of_detached_contexts: 0, total_global_handles_size: 0, used_global_handles_size: 0,
      external_memory: 0,
    };
  };
  const noop = () => {};
  return build('v8', ['cachedDataVersionTag', 'getHeapSnapshot', 'getHeapStatistics', 'getHeapSpaceStatistics',
    'getHeapCodeStatistics', 'setFlagsFromString', 'Serializer', 'Deserializer', 'DefaultSerializer',
    'DefaultDeserializer', 'deserialize', 'takeCoverage', 'stopCoverage', 'serialize', 'writeHeapSnapshot',
    'promiseHooks', 'queryObjects', 'startupSnapshot', 'setHeapSnapshotNearHeapLimit', 'GCProfiler'], {
    // A fixed tag: no V8 code cache exists, so none can be stale.
    cachedDataVersionTag: () => 0,
    getHeapStatistics: heap,
    getHeapSpaceStatistics: () => [],
    getHeapCodeStatistics: () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0,
      external_script_source_size: 0, cpu_profiler_metadata_size: 0 }),
    // V8 flags mean nothing to Amber; Node accepts unknown flags silently too.
    setFlagsFromString: noop,
    takeCoverage: noop,
    stopCoverage: noop,
    setHeapSnapshotNearHeapLimit: noop,
    promiseHooks: build('v8.promiseHooks', ['createHook', 'onInit', 'onBefore', 'onAfter', 'onSettled']),
    startupSnapshot: {
      ...build('v8.startupSnapshot', ['addDeserializeCallback', 'addSerializeCallback', 'setDeserializeMainFunction']),
      isBuildingSnapshot: () => false,
    },
  });
}

const modules = {
  child_process: () => build('child_process',
    ['_forkChild', 'ChildProcess', 'exec', 'execFile', 'execFileSync', 'execSync', 'fork', 'spawn', 'spawnSync']),
  cluster,
  dgram: () => build('dgram', ['_createSocketHandle', 'createSocket', 'Socket']),
  dns: () => dns('dns'),
  'dns/promises': () => dns('dns/promises'),
  domain: () => build('domain', ['_stack', 'Domain', 'createDomain', 'create', 'active'], { _stack: [], active: null }),
  http2: () => build('http2', ['connect', 'constants', 'createServer', 'createSecureServer', 'getDefaultSettings',
    'getPackedSettings', 'getUnpackedSettings', 'performServerHandshake', 'sensitiveHeaders', 'Http2ServerRequest',
    'Http2ServerResponse'], { constants: {}, sensitiveHeaders: Symbol('sensitiveHeaders') }),
  inspector: () => inspector('inspector'),
  'inspector/promises': () => inspector('inspector/promises'),
  net: () => build('net', ['_createServerHandle', '_normalizeArgs', '_setSimultaneousAccepts', 'BlockList',
    'SocketAddress', 'connect', 'createConnection', 'createServer', 'isIP', 'isIPv4', 'isIPv6', 'Server', 'Socket',
    'Stream', 'getDefaultAutoSelectFamily', 'setDefaultAutoSelectFamily', 'getDefaultAutoSelectFamilyAttemptTimeout',
    'setDefaultAutoSelectFamilyAttemptTimeout'], { isIP, isIPv4, isIPv6 }),
  repl: () => build('repl', ['start', 'writer', 'REPLServer', 'REPL_MODE_SLOPPY', 'REPL_MODE_STRICT', 'Recoverable',
    'isValidSyntax', 'builtinModules'], {
    REPL_MODE_SLOPPY: Symbol('repl-sloppy'),
    REPL_MODE_STRICT: Symbol('repl-strict'),
    builtinModules: require('module').builtinModules.filter((n) => !n.startsWith('_')),
  }),
  tls: () => build('tls', ['CLIENT_RENEG_LIMIT', 'CLIENT_RENEG_WINDOW', 'DEFAULT_CIPHERS', 'DEFAULT_ECDH_CURVE',
    'DEFAULT_MIN_VERSION', 'DEFAULT_MAX_VERSION', 'getCiphers', 'rootCertificates', 'convertALPNProtocols',
    'checkServerIdentity', 'createSecureContext', 'SecureContext', 'TLSSocket', 'Server', 'createServer', 'connect',
    'createSecurePair'], {
    CLIENT_RENEG_LIMIT: 3, CLIENT_RENEG_WINDOW: 600,
    DEFAULT_CIPHERS: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256',
    DEFAULT_ECDH_CURVE: 'auto', DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3',
    // No certificate store is reachable from a durable run.
    rootCertificates: Object.freeze([]),
  }),
  trace_events: () => build('trace_events', ['createTracing', 'getEnabledCategories'], {
    getEnabledCategories: () => undefined,
  }),
  v8,
  vm: () => build('vm', ['Script', 'createContext', 'createScript', 'runInContext', 'runInNewContext',
    'runInThisContext', 'isContext', 'compileFunction', 'measureMemory', 'constants'], {
    constants: Object.freeze({ __proto__: null,
      USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'),
      DONT_CONTEXTIFY: Symbol('vm_context_no_contextify') }),
  }),
  wasi: () => build('wasi', ['WASI']),
  _stream_wrap: () => refused('_stream_wrap', 'JSStreamSocket'),
  _tls_common: () => build('_tls_common', ['SecureContext', 'createSecureContext', 'translatePeerCertificate']),
  _tls_wrap: () => build('_tls_wrap', ['TLSSocket', 'Server', 'createServer', 'connect']),
  worker_threads: () => build('worker_threads', ['isMainThread', 'MessagePort', 'MessageChannel',
    'markAsUntransferable', 'moveMessagePortToContext', 'receiveMessageOnPort', 'resourceLimits',
    'postMessageToThread', 'threadId', 'SHARE_ENV', 'Worker', 'parentPort', 'workerData', 'BroadcastChannel',
    'setEnvironmentData', 'getEnvironmentData'], {
    // True of every Amber run: it is one isolate, the main thread, with no parent.
    isMainThread: true, resourceLimits: {}, threadId: 0, SHARE_ENV: Symbol('nodejs.worker_threads.SHARE_ENV'),
    parentPort: null, workerData: null,
    markAsUntransferable: () => {},
  }),
};

function inspector(module) {
  return build(module, ['open', 'close', 'url', 'waitForDebugger', 'console', 'Session', 'Network'], {
    // No inspector is attached, so there is no URL; its console is the process's.
    url: () => undefined,
    console: globalThis.console,
    Network: build(`${module}.Network`, ['requestWillBeSent', 'responseReceived', 'loadingFinished', 'loadingFailed']),
  });
}

module.exports = function load(name) {
  return modules[name]();
};
