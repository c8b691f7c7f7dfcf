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

// Linux's values, as Node reports them on Linux (the virtual machine is Linux).
const errno = Object.freeze({
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11, EALREADY: 114,
  EBADF: 9, EBADMSG: 74, EBUSY: 16, ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103, ECONNREFUSED: 111,
  ECONNRESET: 104, EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122, EEXIST: 17, EFAULT: 14, EFBIG: 27,
  EHOSTUNREACH: 113, EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115, EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106,
  EISDIR: 21, ELOOP: 40, EMFILE: 24, EMLINK: 31, EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36,
  ENETDOWN: 100, ENETRESET: 102, ENETUNREACH: 101, ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19,
  ENOENT: 2, ENOEXEC: 8, ENOLCK: 37, ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92, ENOSPC: 28,
  ENOSR: 63, ENOSTR: 60, ENOSYS: 38, ENOTCONN: 107, ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95,
  ENOTTY: 25, ENXIO: 6, EOPNOTSUPP: 95, EOVERFLOW: 75, EPERM: 1, EPIPE: 32, EPROTO: 71, EPROTONOSUPPORT: 93,
  EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29, ESRCH: 3, ESTALE: 116, ETIME: 62, ETIMEDOUT: 110,
  ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18,
});

const dlopen = Object.freeze({ __proto__: null, RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 });

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
  constants: Object.freeze({ UV_UDP_REUSEADDR: 4, dlopen, errno, signals, priority }),
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
