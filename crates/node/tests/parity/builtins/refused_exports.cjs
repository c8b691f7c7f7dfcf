// The modules Amber refuses still have Node's exports (what a package that only references
// them sees); the facts and constants among them are Node's. Calling a refused export is
// Amber's own behaviour (crates/node/tests/js/modules/refused_calls.js).
const mods = {
  child_process: null, cluster: null, dgram: null, dns: null, 'dns/promises': null, domain: null,
  http2: null, inspector: null, net: null, repl: null, tls: null, trace_events: null, v8: null, vm: null,
  wasi: null, worker_threads: null,
};
process.on('warning', () => {});
for (const name of Object.keys(mods)) {
  const m = require(name);
  const keys = Object.keys(m).filter((k) => !k.startsWith('_'));
  console.log(name, keys.map((k) => `${k}:${typeof m[k]}`).join(' '));
}
const net = require('net');
for (const s of ['127.0.0.1', '::1', 'fe80::1%eth0', '1.2.3', '256.1.1.1', '::ffff:1.2.3.4', 'x', '', 7]) {
  console.log('isIP', JSON.stringify(s), net.isIP(s), net.isIPv4(s), net.isIPv6(s));
}
const wt = require('worker_threads');
console.log(wt.isMainThread, wt.threadId, wt.parentPort, wt.workerData, wt.resourceLimits, String(wt.SHARE_ENV));
const cluster = require('cluster');
console.log(cluster.isPrimary, cluster.isMaster, cluster.isWorker, cluster.workers, cluster.SCHED_RR,
  cluster instanceof require('events'));
const dns = require('dns');
console.log(dns.NOTFOUND, dns.ADDRCONFIG, dns.ALL, dns.V4MAPPED, dns.promises === require('dns/promises'));
const tls = require('tls');
console.log(tls.DEFAULT_MIN_VERSION, tls.DEFAULT_MAX_VERSION, tls.DEFAULT_ECDH_CURVE, tls.CLIENT_RENEG_LIMIT,
  Array.isArray(tls.rootCertificates));
const vm = require('vm');
console.log(Object.keys(vm.constants), typeof vm.constants.DONT_CONTEXTIFY);
const v8 = require('v8');
console.log(typeof v8.getHeapStatistics().used_heap_size, !v8.startupSnapshot.isBuildingSnapshot(),
  v8.setFlagsFromString('--no-lazy'));
const repl = require('repl');
console.log(String(repl.REPL_MODE_STRICT), repl.builtinModules.includes('fs'));
console.log(require('domain').active, require('inspector').url());
class MySocket extends net.Socket {}
console.log(typeof MySocket, net.Socket.name, require('child_process').spawn.name);
