'use strict';
// node:os over a fixed virtual machine: the same values on every host, so an agent that
// branches on them behaves the same after it moves.

const cpu = Object.freeze({
  model: 'Amber Virtual CPU',
  speed: 0,
  times: Object.freeze({ user: 0, nice: 0, sys: 0, idle: 0, irq: 0 }),
});

const signals = Object.freeze({
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7,
  SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14,
  SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21,
  SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28,
  SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
});

const priority = Object.freeze({
  PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7,
  PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20,
});

function checkPid(pid) {
  if (pid !== undefined && (typeof pid !== 'number' || !Number.isInteger(pid))) {
    const err = new TypeError(`The "pid" argument must be of type number. Received ${typeof pid}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

module.exports = {
  EOL: '\n',
  devNull: '/dev/null',
  constants: Object.freeze({ signals, priority, errno: Object.freeze({}), dlopen: Object.freeze({}) }),
  arch: () => 'x64',
  availableParallelism: () => 1,
  cpus: () => [{ ...cpu, times: { ...cpu.times } }],
  endianness: () => 'LE',
  freemem: () => 2147483648,
  getPriority(pid) {
    checkPid(pid);
    return 0;
  },
  homedir: () => '/home/agent',
  hostname: () => 'amber',
  loadavg: () => [0, 0, 0],
  machine: () => 'x86_64',
  networkInterfaces: () => ({}),
  platform: () => 'linux',
  release: () => '6.0.0-amber',
  setPriority(pid, value) {
    if (value === undefined) value = pid;
    checkPid(value);
  },
  tmpdir: () => '/tmp',
  totalmem: () => 4294967296,
  type: () => 'Linux',
  uptime: () => 0,
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'agent', homedir: '/home/agent', shell: null }),
  version: () => '#1 SMP Amber',
};
