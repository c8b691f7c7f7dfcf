'use strict';
// node:fs over the virtual filesystem. The natives (`internal`, fs.rs) are the system calls
// on vm.vfs; this file is Node's lib/fs.js in miniature: argument validation, encodings,
// options, Stats and Dirent, the callback and promise forms, FileHandle and file streams.
//
// Ordering: every operation runs when it is called (the VFS is in memory); callback and
// promise forms deliver their result in a later macrotask (setImmediate), so callbacks run
// after the current tick's nextTicks and microtasks, as Node's I/O completions do.
const {
  ArrayBufferIsView, ArrayPrototypeIncludes, ArrayPrototypeMap, ArrayPrototypePop,
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSlice, ArrayPrototypeSplice, DateNow,
  FunctionPrototypeCall, MathFloor, MathMax, MathMin, MathRound, NumberIsFinite, NumberIsInteger,
  NumberMAX_SAFE_INTEGER, NumberMIN_SAFE_INTEGER, ObjectDefineProperty, ObjectFreeze,
  ObjectPrototypeHasOwnProperty, ObjectPrototypeToString, ObjectSetPrototypeOf,
  PromisePrototypeThen, PromiseResolve, StringPrototypeIncludes, StringPrototypeReplace,
  StringPrototypeSplit, SymbolAsyncDispose, SymbolAsyncIterator,
} = primordials;

const { Buffer } = require('buffer');
const pathModule = require('path');
const EventEmitter = require('events');
const {
  ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE, ERR_OUT_OF_RANGE, makeError,
} = require('node:internal/errors');

const constants = ObjectFreeze({
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4,
  UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7, EXTENSIONLESS_FORMAT_JAVASCRIPT: 0,
  EXTENSIONLESS_FORMAT_WASM: 1, S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192,
  S_IFBLK: 24576, S_IFIFO: 4096, S_IFLNK: 40960, S_IFSOCK: 49152, O_CREAT: 64, O_EXCL: 128,
  UV_FS_O_FILEMAP: 0, O_NOCTTY: 256, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536,
  O_NOATIME: 262144, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096, O_DIRECT: 16384,
  O_NONBLOCK: 2048, S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64, S_IRWXG: 56,
  S_IRGRP: 32, S_IWGRP: 16, S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1, F_OK: 0,
  R_OK: 4, W_OK: 2, X_OK: 1, UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE: 2, UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
});
const {
  O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_SYNC,
  S_IFMT, S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK,
} = constants;

// ---- scheduling

function defer(fn) {
  const setImmediate = globalThis.setImmediate;
  if (typeof setImmediate === 'function') setImmediate(fn);
  else PromiseResolve().then(fn);
}

// ---- argument validation

function isUint8Array(v) {
  return ArrayBufferIsView(v) && ObjectPrototypeToString(v) === '[object Uint8Array]';
}

function fileURLToPath(url) {
  if (url.protocol !== 'file:') {
    throw makeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  }
  if (url.hostname !== '' && url.hostname !== undefined && url.hostname !== 'localhost') {
    throw makeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const pathname = url.pathname;
  if (/%2f/i.test(pathname)) {
    throw makeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  }
  return decodeURIComponent(pathname);
}

function isURL(v) {
  return v !== null && typeof v === 'object' && typeof v.href === 'string' && typeof v.protocol === 'string' &&
    v.pathname !== undefined;
}

// A path argument as a string: strings, Buffers / Uint8Arrays (UTF-8) and file: URLs.
function getPath(value, name = 'path') {
  let path = value;
  if (isURL(value)) path = fileURLToPath(value);
  else if (isUint8Array(value)) path = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString();
  else if (typeof value !== 'string') throw ERR_INVALID_ARG_TYPE(name, ['string', 'Buffer', 'URL'], value);
  if (StringPrototypeIncludes(path, '\u0000')) {
    throw ERR_INVALID_ARG_VALUE(name, value, 'must be a string, Uint8Array, or URL without null bytes');
  }
  return path;
}

function validateFd(fd, name = 'fd') {
  if (typeof fd !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', fd);
  if (!NumberIsInteger(fd)) throw ERR_OUT_OF_RANGE(name, 'an integer', fd);
  if (fd < 0 || fd > 2147483647) throw ERR_OUT_OF_RANGE(name, '>= 0 && <= 2147483647', fd);
  return fd;
}

// A number that names a descriptor where a path is also accepted (readFile(fd), …).
function isFd(value) {
  return typeof value === 'number' && (value >>> 0) === value;
}

function validateFunction(cb, name = 'cb') {
  if (typeof cb !== 'function') throw ERR_INVALID_ARG_TYPE(name, 'Function', cb);
  return cb;
}

function validateInteger(value, name, min = NumberMIN_SAFE_INTEGER, max = NumberMAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!NumberIsInteger(value)) throw ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
  return value;
}

function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw ERR_INVALID_ARG_TYPE(name, 'boolean', value);
}

function validateEncoding(encoding) {
  if (encoding && encoding !== 'buffer' && !Buffer.isEncoding(encoding)) {
    throw ERR_INVALID_ARG_VALUE('encoding', encoding, 'is invalid encoding');
  }
}

function getOptions(options, defaults) {
  if (options === undefined || options === null || typeof options === 'function') return defaults;
  if (typeof options === 'string') {
    validateEncoding(options);
    return { ...defaults, encoding: options };
  }
  if (typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', ['string', 'Object'], options);
  const merged = { ...defaults, ...options };
  validateEncoding(merged.encoding);
  return merged;
}

function parseMode(value, name, def) {
  if (value === undefined || value === null) return def;
  if (typeof value === 'string') {
    if (!/^[0-7]+$/.test(value)) throw ERR_INVALID_ARG_VALUE(name, value, 'must be a 32-bit unsigned integer or an octal string');
    return parseInt(value, 8);
  }
  return validateInteger(value, name, 0, 4294967295);
}

const kFlags = {
  r: O_RDONLY, rs: O_RDONLY | O_SYNC, sr: O_RDONLY | O_SYNC,
  'r+': O_RDWR, 'rs+': O_RDWR | O_SYNC, 'sr+': O_RDWR | O_SYNC,
  w: O_TRUNC | O_CREAT | O_WRONLY, wx: O_TRUNC | O_CREAT | O_WRONLY | O_EXCL, xw: O_TRUNC | O_CREAT | O_WRONLY | O_EXCL,
  'w+': O_TRUNC | O_CREAT | O_RDWR, 'wx+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL, 'xw+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL,
  a: O_APPEND | O_CREAT | O_WRONLY, ax: O_APPEND | O_CREAT | O_WRONLY | O_EXCL, xa: O_APPEND | O_CREAT | O_WRONLY | O_EXCL,
  as: O_APPEND | O_CREAT | O_WRONLY | O_SYNC, sa: O_APPEND | O_CREAT | O_WRONLY | O_SYNC,
  'a+': O_APPEND | O_CREAT | O_RDWR, 'ax+': O_APPEND | O_CREAT | O_RDWR | O_EXCL, 'xa+': O_APPEND | O_CREAT | O_RDWR | O_EXCL,
  'as+': O_APPEND | O_CREAT | O_RDWR | O_SYNC, 'sa+': O_APPEND | O_CREAT | O_RDWR | O_SYNC,
};

function stringToFlags(flags, name = 'flags') {
  if (typeof flags === 'number') return flags;
  if (flags === undefined || flags === null) return O_RDONLY;
  if (typeof flags === 'string' && ObjectPrototypeHasOwnProperty(kFlags, flags)) return kFlags[flags];
  throw ERR_INVALID_ARG_VALUE(name, flags, 'is invalid');
}

// Bytes of `data` (string in `encoding`, or any ArrayBufferView) as a Buffer.
function toBuffer(data, encoding, name = 'data') {
  if (typeof data === 'string') return Buffer.from(data, encoding && encoding !== 'buffer' ? encoding : 'utf8');
  if (ArrayBufferIsView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw ERR_INVALID_ARG_TYPE(name, ['string', 'Buffer', 'TypedArray', 'DataView'], data);
}

function encodeResult(buffer, encoding) {
  return encoding && encoding !== 'buffer' ? buffer.toString(encoding) : buffer;
}

function encodeName(name, encoding) {
  return encoding === 'buffer' ? Buffer.from(name) : name;
}

// Node's SystemError (ERR_FS_EISDIR, ERR_FS_CP_*): `prefix: syscall returned CODE (message) path`,
// with `info` and the info's errno/syscall/path mirrored on the error.
function systemError(code, prefix, info) {
  const err = makeError(Error, code, `${prefix}: ${info.syscall} returned ${info.code} (${info.message}) ${info.path}`);
  err.info = info;
  err.errno = info.errno;
  err.syscall = info.syscall;
  err.path = info.path;
  ObjectDefineProperty(err, 'name', { value: 'SystemError', writable: true, enumerable: false, configurable: true });
  if (typeof err.stack === 'string') err.stack = StringPrototypeReplace(err.stack, /^Error/, 'SystemError');
  return err;
}

// ---- Stats and Dirent

function dateFromMs(ms) {
  return new Date(MathRound(Number(ms)));
}

class StatsBase {
  isDirectory() { return this._checkModeProperty(S_IFDIR); }
  isFile() { return this._checkModeProperty(S_IFREG); }
  isBlockDevice() { return this._checkModeProperty(S_IFBLK); }
  isCharacterDevice() { return this._checkModeProperty(S_IFCHR); }
  isSymbolicLink() { return this._checkModeProperty(S_IFLNK); }
  isFIFO() { return this._checkModeProperty(S_IFIFO); }
  isSocket() { return this._checkModeProperty(S_IFSOCK); }
}

function Stats(dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeMs, mtimeMs, ctimeMs, birthtimeMs) {
  this.dev = dev;
  this.mode = mode;
  this.nlink = nlink;
  this.uid = uid;
  this.gid = gid;
  this.rdev = rdev;
  this.blksize = blksize;
  this.ino = ino;
  this.size = size;
  this.blocks = blocks;
  this.atimeMs = atimeMs;
  this.mtimeMs = mtimeMs;
  this.ctimeMs = ctimeMs;
  this.birthtimeMs = birthtimeMs;
  this.atime = dateFromMs(atimeMs);
  this.mtime = dateFromMs(mtimeMs);
  this.ctime = dateFromMs(ctimeMs);
  this.birthtime = dateFromMs(birthtimeMs);
}
ObjectSetPrototypeOf(Stats.prototype, StatsBase.prototype);
ObjectSetPrototypeOf(Stats, StatsBase);
Stats.prototype.isFile = StatsBase.prototype.isFile;
Stats.prototype._checkModeProperty = function _checkModeProperty(property) {
  return (this.mode & S_IFMT) === property;
};

function BigIntStats(dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeMs, mtimeMs, ctimeMs, birthtimeMs) {
  const big = (n) => BigInt(MathFloor(n));
  this.dev = big(dev);
  this.mode = big(mode);
  this.nlink = big(nlink);
  this.uid = big(uid);
  this.gid = big(gid);
  this.rdev = big(rdev);
  this.blksize = big(blksize);
  this.ino = big(ino);
  this.size = big(size);
  this.blocks = big(blocks);
  this.atimeMs = big(atimeMs);
  this.mtimeMs = big(mtimeMs);
  this.ctimeMs = big(ctimeMs);
  this.birthtimeMs = big(birthtimeMs);
  this.atimeNs = big(atimeMs * 1e6);
  this.mtimeNs = big(mtimeMs * 1e6);
  this.ctimeNs = big(ctimeMs * 1e6);
  this.birthtimeNs = big(birthtimeMs * 1e6);
  this.atime = dateFromMs(atimeMs);
  this.mtime = dateFromMs(mtimeMs);
  this.ctime = dateFromMs(ctimeMs);
  this.birthtime = dateFromMs(birthtimeMs);
}
ObjectSetPrototypeOf(BigIntStats.prototype, StatsBase.prototype);
BigIntStats.prototype._checkModeProperty = function _checkModeProperty(property) {
  return (this.mode & BigInt(S_IFMT)) === BigInt(property);
};

function makeStats(array, options) {
  if (array === undefined) return undefined;
  return options && options.bigint ? new BigIntStats(...array) : new Stats(...array);
}

const kType = Symbol('type');

class Dirent {
  constructor(name, type, path) {
    this.name = name;
    this.parentPath = path;
    this.path = path;
    this[kType] = type;
  }
  isDirectory() { return this[kType] === constants.UV_DIRENT_DIR; }
  isFile() { return this[kType] === constants.UV_DIRENT_FILE; }
  isBlockDevice() { return this[kType] === constants.UV_DIRENT_BLOCK; }
  isCharacterDevice() { return this[kType] === constants.UV_DIRENT_CHAR; }
  isSymbolicLink() { return this[kType] === constants.UV_DIRENT_LINK; }
  isFIFO() { return this[kType] === constants.UV_DIRENT_FIFO; }
  isSocket() { return this[kType] === constants.UV_DIRENT_SOCKET; }
}

// ---- synchronous API

function existsSync(path) {
  try {
    path = getPath(path);
  } catch {
    return false;
  }
  return internal.exists(path);
}

function accessSync(path, mode) {
  path = getPath(path);
  mode = mode === undefined ? constants.F_OK : validateInteger(mode, 'mode', 0, 7);
  internal.access(path, mode);
}

function statSync(path, options = { bigint: false, throwIfNoEntry: true }) {
  path = getPath(path);
  return makeStats(internal.stat(path, true, options.throwIfNoEntry !== false), options);
}

function lstatSync(path, options = { bigint: false, throwIfNoEntry: true }) {
  path = getPath(path);
  return makeStats(internal.stat(path, false, options.throwIfNoEntry !== false), options);
}

function fstatSync(fd, options = { bigint: false }) {
  validateFd(fd);
  return makeStats(internal.fstat(fd), options);
}

function openSync(path, flags, mode) {
  path = getPath(path);
  return internal.open(path, stringToFlags(flags), parseMode(mode, 'mode', 0o666));
}

function closeSync(fd) {
  validateFd(fd);
  internal.close(fd);
}

function readFileSync(path, options) {
  options = getOptions(options, { flag: 'r' });
  let buffer;
  if (isFd(path)) {
    buffer = internal.readFd(path);
  } else {
    path = getPath(path);
    const flags = stringToFlags(options.flag);
    if (flags === O_RDONLY) {
      buffer = internal.readFile(path);
    } else {
      const fd = internal.open(path, flags, 0o666);
      try {
        buffer = internal.readFd(fd);
      } finally {
        internal.close(fd);
      }
    }
  }
  return encodeResult(buffer, options.encoding);
}

function writeAll(fd, buffer, position) {
  let offset = 0;
  while (offset < buffer.byteLength) {
    const n = internal.write(fd, buffer, offset, buffer.byteLength - offset, position);
    if (n <= 0) break;
    offset += n;
    if (position !== null && position !== undefined) position += n;
  }
}

function writeFileSync(path, data, options) {
  options = getOptions(options, { encoding: 'utf8', mode: 0o666, flag: 'w' });
  const buffer = toBuffer(data, options.encoding);
  const flags = stringToFlags(options.flag);
  if (isFd(path)) {
    writeAll(path, buffer, null);
    return;
  }
  path = getPath(path);
  const fd = internal.open(path, flags, parseMode(options.mode, 'mode', 0o666));
  try {
    writeAll(fd, buffer, null);
  } finally {
    internal.close(fd);
  }
}

function appendFileSync(path, data, options) {
  options = getOptions(options, { encoding: 'utf8', mode: 0o666, flag: 'a' });
  options = { ...options };
  if (!options.flag || isFd(path)) options.flag = 'a';
  writeFileSync(path, data, options);
}

function readdirSync(path, options) {
  options = getOptions(options, { encoding: 'utf8', withFileTypes: false, recursive: false });
  path = getPath(path);
  if (options.recursive) return readdirRecursive(path, options);
  const [names, types] = internal.readdir(path);
  if (options.withFileTypes) {
    return ArrayPrototypeMap(names, (name, i) => new Dirent(encodeName(name, options.encoding), types[i], path));
  }
  return ArrayPrototypeMap(names, (name) => encodeName(name, options.encoding));
}

function readdirRecursive(root, options) {
  const out = [];
  const todo = [''];
  while (todo.length > 0) {
    const rel = ArrayPrototypeShift(todo);
    const dir = rel === '' ? root : pathModule.join(root, rel);
    const [names, types] = internal.readdir(dir);
    for (let i = 0; i < names.length; i++) {
      const relName = rel === '' ? names[i] : pathModule.join(rel, names[i]);
      if (options.withFileTypes) ArrayPrototypePush(out, new Dirent(encodeName(names[i], options.encoding), types[i], dir));
      else ArrayPrototypePush(out, encodeName(relName, options.encoding));
      if (types[i] === constants.UV_DIRENT_DIR) ArrayPrototypePush(todo, relName);
    }
  }
  return out;
}

function mkdirSync(path, options) {
  let mode = 0o777;
  let recursive = false;
  if (typeof options === 'number' || typeof options === 'string') {
    mode = parseMode(options, 'mode', 0o777);
  } else if (options) {
    if (options.recursive !== undefined) recursive = options.recursive;
    if (options.mode !== undefined) mode = parseMode(options.mode, 'options.mode', 0o777);
  }
  validateBoolean(recursive, 'options.recursive');
  path = getPath(path);
  return internal.mkdir(path, recursive, mode);
}

function rmdirSync(path, options) {
  path = getPath(path);
  if (options && options.recursive) {
    // Deprecated in Node (DEP0147) but still honoured: rm -r, failing on a missing path.
    internal.stat(path, false, true);
    internal.rm(path);
    return;
  }
  internal.rmdir(path);
}

function rmSync(path, options) {
  path = getPath(path);
  options = options || {};
  if (options.recursive !== undefined) validateBoolean(options.recursive, 'options.recursive');
  if (options.force !== undefined) validateBoolean(options.force, 'options.force');
  const st = internal.stat(path, false, false);
  if (st === undefined) {
    if (options.force) return;
    internal.stat(path, false, true);
  }
  if ((st[1] & S_IFMT) === S_IFDIR && !options.recursive) {
    throw systemError('ERR_FS_EISDIR', 'Path is a directory', { code: 'EISDIR', message: 'is a directory', path, syscall: 'rm', errno: 21 });
  }
  internal.rm(path);
}

function unlinkSync(path) {
  internal.unlink(getPath(path));
}

function renameSync(oldPath, newPath) {
  internal.rename(getPath(oldPath, 'oldPath'), getPath(newPath, 'newPath'));
}

function copyFileSync(src, dest, mode = 0) {
  src = getPath(src, 'src');
  dest = getPath(dest, 'dest');
  validateInteger(mode, 'mode', 0, 7);
  internal.copyFile(src, dest, mode);
}

function cpSync(src, dest, options) {
  src = getPath(src, 'src');
  dest = getPath(dest, 'dest');
  options = options || {};
  const st = lstatSync(src);
  if (st.isDirectory()) {
    if (!options.recursive) {
      throw systemError('ERR_FS_EISDIR', 'Recursive option is required to copy a directory',
        { code: 'EISDIR', message: `${src} is a directory (not copied)`, path: src, syscall: 'cp', errno: 21 });
    }
    mkdirSync(dest, { recursive: true });
    for (const name of internal.readdir(src)[0]) {
      const from = pathModule.join(src, name);
      const to = pathModule.join(dest, name);
      if (typeof options.filter === 'function' && !options.filter(from, to)) continue;
      cpSync(from, to, options);
    }
    return;
  }
  if (st.isSymbolicLink()) {
    if (internal.exists(dest) || internal.stat(dest, false, false) !== undefined) {
      if (options.force === false) return;
      internal.unlink(dest);
    }
    internal.symlink(internal.readlink(src), dest);
    return;
  }
  const exists = internal.stat(dest, false, false) !== undefined;
  if (exists && (options.force === false || options.errorOnExist)) {
    if (options.errorOnExist) {
      throw systemError('ERR_FS_CP_EEXIST', 'Target already exists',
        { code: 'EEXIST', message: `${dest} already exists`, path: dest, syscall: 'cp', errno: 17 });
    }
    return;
  }
  internal.copyFile(src, dest, 0);
  if (options.preserveTimestamps) internal.utimes(dest, st.atimeMs, st.mtimeMs, true);
}

function symlinkSync(target, path, type) {
  target = getPath(target, 'target');
  path = getPath(path);
  if (type !== undefined && type !== null && !ArrayPrototypeIncludes(['dir', 'file', 'junction'], type)) {
    throw ERR_INVALID_ARG_VALUE('type', type, "must be one of: 'dir', 'file', 'junction'");
  }
  internal.symlink(target, path);
}

function readlinkSync(path, options) {
  options = getOptions(options, { encoding: 'utf8' });
  return encodeName(internal.readlink(getPath(path)), options.encoding);
}

function linkSync(existingPath, newPath) {
  internal.link(getPath(existingPath, 'existingPath'), getPath(newPath, 'newPath'));
}

function realpathSync(path, options) {
  options = getOptions(options, { encoding: 'utf8' });
  return encodeName(internal.realpath(getPath(path)), options.encoding);
}
realpathSync.native = realpathSync;

function mkdtempSync(prefix, options) {
  options = getOptions(options, { encoding: 'utf8' });
  prefix = getPath(prefix, 'prefix');
  return encodeName(internal.mkdtemp(prefix), options.encoding);
}

function truncateSync(path, len = 0) {
  if (typeof path === 'number') return ftruncateSync(path, len);
  validateInteger(len, 'len');
  internal.truncate(getPath(path), MathMax(0, len));
}

function ftruncateSync(fd, len = 0) {
  validateFd(fd);
  validateInteger(len, 'len');
  internal.ftruncate(fd, MathMax(0, len));
}

function chmodSync(path, mode) {
  internal.chmod(getPath(path), parseMode(mode, 'mode'));
}

function fchmodSync(fd, mode) {
  validateFd(fd);
  mode = parseMode(mode, 'mode');
  internal.fstat(fd);
}

function chownSync(path, uid, gid) {
  path = getPath(path);
  validateInteger(uid, 'uid', -1, 4294967295);
  validateInteger(gid, 'gid', -1, 4294967295);
  internal.stat(path, true, true);
}

function lchownSync(path, uid, gid) {
  path = getPath(path);
  validateInteger(uid, 'uid', -1, 4294967295);
  validateInteger(gid, 'gid', -1, 4294967295);
  internal.stat(path, false, true);
}

function fchownSync(fd, uid, gid) {
  validateFd(fd);
  validateInteger(uid, 'uid', -1, 4294967295);
  validateInteger(gid, 'gid', -1, 4294967295);
  internal.fstat(fd);
}

function toUnixTimestampMs(time, name) {
  if (typeof time === 'string' && +time == time) return +time * 1000;
  if (typeof time === 'number') {
    if (!NumberIsFinite(time) || time < 0) return DateNow();
    return time * 1000;
  }
  if (time instanceof Date) return time.getTime();
  throw ERR_INVALID_ARG_TYPE(name, ['Date', 'Time in seconds'], time);
}

function utimesSync(path, atime, mtime) {
  internal.utimes(getPath(path), toUnixTimestampMs(atime, 'atime'), toUnixTimestampMs(mtime, 'mtime'), true);
}

function lutimesSync(path, atime, mtime) {
  internal.utimes(getPath(path), toUnixTimestampMs(atime, 'atime'), toUnixTimestampMs(mtime, 'mtime'), false);
}

function futimesSync(fd, atime, mtime) {
  validateFd(fd);
  internal.futimes(fd, toUnixTimestampMs(atime, 'atime'), toUnixTimestampMs(mtime, 'mtime'));
}

function fsyncSync(fd) {
  validateFd(fd);
  internal.fsync(fd);
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  validateFd(fd);
  let offset = offsetOrOptions;
  if (arguments.length <= 3 || (offsetOrOptions !== null && typeof offsetOrOptions === 'object')) {
    const opts = offsetOrOptions || {};
    offset = opts.offset;
    length = opts.length;
    position = opts.position;
  }
  if (!ArrayBufferIsView(buffer)) throw ERR_INVALID_ARG_TYPE('buffer', ['Buffer', 'TypedArray', 'DataView'], buffer);
  if (offset === undefined || offset === null) offset = 0;
  else validateInteger(offset, 'offset', 0);
  if (length === undefined) length = buffer.byteLength - offset;
  if (length === 0) return 0;
  validateInteger(length, 'length', 0);
  if (offset + length > buffer.byteLength) {
    throw ERR_OUT_OF_RANGE('length', `<= ${buffer.byteLength - offset}`, length);
  }
  if (typeof position === 'bigint') position = Number(position);
  return internal.read(fd, buffer, offset, length, position === undefined ? null : position);
}

function writeSync(fd, buffer, offsetOrOptions, length, position) {
  validateFd(fd);
  if (ArrayBufferIsView(buffer)) {
    let offset = offsetOrOptions;
    if (offset !== null && typeof offset === 'object') {
      ({ offset = 0, length = buffer.byteLength - offset, position = null } = offset);
    }
    if (offset === undefined || offset === null) offset = 0;
    else validateInteger(offset, 'offset', 0);
    if (typeof length !== 'number') length = buffer.byteLength - offset;
    if (typeof position !== 'number') position = null;
    if (offset > buffer.byteLength) throw ERR_OUT_OF_RANGE('offset', `<= ${buffer.byteLength}`, offset);
    if (length < 0 || offset + length > buffer.byteLength) {
      throw ERR_OUT_OF_RANGE('length', `>= 0 && <= ${buffer.byteLength - offset}`, length);
    }
    if (fd === 1 || fd === 2) return writeStdio(fd, new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));
    return internal.write(fd, buffer, offset, length, position);
  }
  if (typeof buffer !== 'string') throw ERR_INVALID_ARG_TYPE('buffer', ['string', 'Buffer', 'TypedArray', 'DataView'], buffer);
  // writeSync(fd, string[, position[, encoding]])
  const pos = typeof offsetOrOptions === 'number' ? offsetOrOptions : null;
  const bytes = Buffer.from(buffer, typeof length === 'string' ? length : 'utf8');
  if (fd === 1 || fd === 2) return writeStdio(fd, bytes);
  return internal.write(fd, bytes, 0, bytes.byteLength, pos);
}

// Descriptors 1 and 2 are the process's stdout and stderr (VFS descriptors start at 3), so
// `fs.writeSync(1, …)` prints as `process.stdout.write` does.
function writeStdio(fd, bytes) {
  (fd === 1 ? process.stdout : process.stderr).write(bytes);
  return bytes.byteLength;
}

function readvSync(fd, buffers, position) {
  validateFd(fd);
  let total = 0;
  for (const buf of buffers) {
    const n = internal.read(fd, buf, 0, buf.byteLength, typeof position === 'number' ? position + total : null);
    total += n;
    if (n < buf.byteLength) break;
  }
  return total;
}

function writevSync(fd, buffers, position) {
  validateFd(fd);
  let total = 0;
  for (const buf of buffers) {
    total += internal.write(fd, buf, 0, buf.byteLength, typeof position === 'number' ? position + total : null);
  }
  return total;
}

function statfsSync(path, options = { bigint: false }) {
  internal.stat(getPath(path), true, true);
  const conv = options.bigint ? BigInt : Number;
  return {
    type: conv(0x414d), bsize: conv(4096), blocks: conv(65536), bfree: conv(65536), bavail: conv(65536),
    files: conv(1000000), ffree: conv(1000000),
  };
}

// ---- Dir (opendir)

class Dir {
  constructor(path, entries) {
    this.path = path;
    this._entries = entries;
    this._closed = false;
  }
  _check() {
    if (this._closed) throw makeError(Error, 'ERR_DIR_CLOSED', 'Directory handle was closed');
  }
  readSync() {
    this._check();
    return ArrayPrototypeShift(this._entries) || null;
  }
  read(cb) {
    if (typeof cb === 'function') {
      let r;
      let err = null;
      try { r = this.readSync(); } catch (e) { err = e; }
      defer(() => (err ? cb(err) : cb(null, r)));
      return undefined;
    }
    return settle(() => this.readSync());
  }
  closeSync() {
    this._check();
    this._closed = true;
  }
  close(cb) {
    if (typeof cb === 'function') {
      let err = null;
      try { this.closeSync(); } catch (e) { err = e; }
      defer(() => cb(err));
      return undefined;
    }
    return settle(() => this.closeSync());
  }
  async *entries() {
    try {
      for (;;) {
        const e = this.readSync();
        if (e === null) break;
        yield e;
      }
    } finally {
      if (!this._closed) this.closeSync();
    }
  }
  [SymbolAsyncIterator]() {
    return this.entries();
  }
}

function opendirSync(path, options) {
  options = getOptions(options, { encoding: 'utf8' });
  path = getPath(path);
  return new Dir(path, readdirSync(path, { ...options, withFileTypes: true }));
}

// ---- callback and promise forms

// Whether `err` is an operation's failure (delivered to the callback / rejection) rather
// than a bad argument (thrown synchronously, as Node validates before dispatching).
function isOperationalError(err) {
  return err !== null && typeof err === 'object' && (typeof err.syscall === 'string' || err.code === 'ERR_AMBER_POLICY' ||
    err.code === 'ERR_FS_EISDIR' || err.code === 'ERR_FS_CP_EEXIST');
}

function settle(fn) {
  return new Promise((resolve, reject) => {
    let result;
    let error;
    let failed = false;
    try {
      result = fn();
    } catch (e) {
      failed = true;
      error = e;
    }
    defer(() => (failed ? reject(error) : resolve(result)));
  });
}

// fs.x(...args, cb) from xSync(...args): the callback is required and called later with
// (err) or (null, result).
// `arity` is the number of required arguments before the callback: a call with no more
// than that reports the callback as undefined, as Node does.
function callbackForm(syncFn, { noResult = false, arity = 1 } = {}) {
  return function (...args) {
    if (args.length <= arity || typeof args[args.length - 1] !== 'function') {
      throw ERR_INVALID_ARG_TYPE('cb', 'Function', args.length <= arity ? undefined : args[args.length - 1]);
    }
    const cb = ArrayPrototypePop(args);
    let result;
    let error = null;
    try {
      result = syncFn(...args);
    } catch (e) {
      if (!isOperationalError(e)) throw e;
      error = e;
    }
    defer(() => {
      if (error) cb(error);
      else if (noResult) cb(null);
      else cb(null, result);
    });
  };
}

const readFile = callbackForm(readFileSync);
const writeFile = callbackForm(writeFileSync, { noResult: true, arity: 2 });
const appendFile = callbackForm(appendFileSync, { noResult: true, arity: 2 });
const access = function access(path, mode, cb) {
  if (typeof mode === 'function') return callbackForm(accessSync, { noResult: true })(path, mode);
  return callbackForm(accessSync, { noResult: true })(path, mode, cb);
};
const stat = callbackForm(statSync);
const lstat = callbackForm(lstatSync);
const fstat = callbackForm(fstatSync);
const open = function open(path, flags, mode, cb) {
  if (typeof flags === 'function') return callbackForm(openSync)(path, flags);
  if (typeof mode === 'function') return callbackForm(openSync)(path, flags, mode);
  return callbackForm(openSync)(path, flags, mode, cb);
};
const close = function close(fd, cb = () => {}) {
  return callbackForm(closeSync, { noResult: true })(fd, cb);
};
const readdir = callbackForm(readdirSync);
const mkdir = callbackForm(mkdirSync);
// Deletes, when the program manifest has the first one wait for a human's approval
// (approve_capabilities: FsDelete): the callback and promise forms ask for it and delete once
// it is given; the synchronous forms cannot wait and throw ERR_AMBER_APPROVAL_REQUIRED.
// Without the gate, `effects.gate` answers undefined and nothing waits.
const effects = require('node:internal/net');

function approvalOf(syscall, args) {
  let path;
  try {
    path = getPath(args[0]);
  } catch {
    return undefined; // the delete itself reports the bad argument
  }
  return effects.gate('FsDelete', path, syscall);
}

function gatedCallback(syscall, syncFn) {
  const plain = callbackForm(syncFn, { noResult: true });
  return function (...args) {
    const cb = args[args.length - 1];
    const wait = typeof cb === 'function' ? approvalOf(syscall, args) : undefined;
    if (wait === undefined) return plain(...args);
    PromisePrototypeThen(wait, () => plain(...args), (e) => cb(e));
  };
}

function gatedPromise(syscall, syncFn) {
  return function (...args) {
    const wait = approvalOf(syscall, args);
    if (wait === undefined) return settle(() => syncFn(...args));
    return PromisePrototypeThen(wait, () => settle(() => syncFn(...args)));
  };
}

const rmdir = gatedCallback('rmdir', rmdirSync);
const rm = gatedCallback('rm', rmSync);
const unlink = gatedCallback('unlink', unlinkSync);
const rename = callbackForm(renameSync, { noResult: true, arity: 2 });
const copyFile = callbackForm(copyFileSync, { noResult: true, arity: 2 });
const cp = callbackForm(cpSync, { noResult: true, arity: 2 });
const symlink = callbackForm(symlinkSync, { noResult: true, arity: 2 });
const readlink = callbackForm(readlinkSync);
const link = callbackForm(linkSync, { noResult: true, arity: 2 });
const realpath = callbackForm(realpathSync);
realpath.native = realpath;
const mkdtemp = callbackForm(mkdtempSync);
const truncate = callbackForm(truncateSync, { noResult: true });
const ftruncate = callbackForm(ftruncateSync, { noResult: true });
const chmod = callbackForm(chmodSync, { noResult: true, arity: 2 });
const fchmod = callbackForm(fchmodSync, { noResult: true, arity: 2 });
const chown = callbackForm(chownSync, { noResult: true, arity: 3 });
const lchown = callbackForm(lchownSync, { noResult: true, arity: 3 });
const fchown = callbackForm(fchownSync, { noResult: true, arity: 3 });
const utimes = callbackForm(utimesSync, { noResult: true, arity: 3 });
const lutimes = callbackForm(lutimesSync, { noResult: true, arity: 3 });
const futimes = callbackForm(futimesSync, { noResult: true, arity: 3 });
const fsync = callbackForm(fsyncSync, { noResult: true });
const fdatasync = fsync;
const opendir = callbackForm(opendirSync);
const statfs = callbackForm(statfsSync);

function exists(path, cb) {
  validateFunction(cb, 'cb');
  const result = existsSync(path);
  defer(() => cb(result));
}

function read(fd, buffer, offset, length, position, cb) {
  const args = ArrayPrototypeSlice(arguments);
  cb = validateFunction(ArrayPrototypePop(args), 'cb');
  if (args.length === 1) buffer = Buffer.alloc(16384);
  if (args.length <= 2 && buffer !== null && typeof buffer === 'object' && !ArrayBufferIsView(buffer)) {
    const opts = buffer;
    buffer = opts.buffer || Buffer.alloc(16384);
    ArrayPrototypeSplice(args, 1, args.length - 1, buffer, opts.offset, opts.length, opts.position);
  } else if (args.length === 1) {
    ArrayPrototypePush(args, buffer);
  }
  let n;
  let error = null;
  try {
    n = readSync(...args);
  } catch (e) {
    if (!isOperationalError(e)) throw e;
    error = e;
  }
  const target = args[1];
  defer(() => (error ? cb(error) : cb(null, n, target)));
}

function write(fd, buffer, ...rest) {
  const cb = validateFunction(ArrayPrototypePop(rest), 'cb');
  let n;
  let error = null;
  try {
    n = writeSync(fd, buffer, ...rest);
  } catch (e) {
    if (!isOperationalError(e)) throw e;
    error = e;
  }
  defer(() => (error ? cb(error) : cb(null, n, buffer)));
}

// readv/writev callback forms: run the sync form now, report on the next turn.
function vectored(name, sync) {
  const fn = function (fd, buffers, position, cb) {
    if (typeof position === 'function') {
      cb = position;
      position = null;
    }
    validateFunction(cb, 'cb');
    let n;
    let error = null;
    try {
      n = sync(fd, buffers, position);
    } catch (e) {
      if (!isOperationalError(e)) throw e;
      error = e;
    }
    defer(() => (error ? cb(error) : cb(null, n, buffers)));
  };
  return ObjectDefineProperty(fn, 'name', { value: name });
}

const readv = vectored('readv', readvSync);
const writev = vectored('writev', writevSync);

function unavailable(name, why) {
  return function () {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `fs.${name} is not available in Amber: ${why}`);
  };
}
const kNoWatch = 'the virtual filesystem changes only through this program, so there is nothing to watch ' +
  '(and a durable agent must not wait on host file events)';
const watch = unavailable('watch', kNoWatch);
const watchFile = unavailable('watchFile', kNoWatch);
const unwatchFile = unavailable('unwatchFile', kNoWatch);
// fs.openAsBlob: the file's bytes as a Blob. Read at once (a first read of a lower file is
// captured like any other), where Node reads lazily; the Blob cannot see later writes.
function openAsBlob(path, options = {}) {
  if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
  const type = options.type ?? '';
  if (typeof type !== 'string') throw ERR_INVALID_ARG_TYPE('options.type', 'string', type);
  path = getPath(path);
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'Unable to open file as blob');
  }
  const { Blob } = require('node:internal/blob');
  return PromiseResolve(new Blob([bytes], { type }));
}

// ---- promises API and FileHandle

class FileHandle extends EventEmitter {
  constructor(fd) {
    super();
    this._fd = fd;
  }
  get fd() {
    return this._fd;
  }
  _check(syscall) {
    if (this._fd === -1) {
      const err = makeError(Error, 'EBADF', `EBADF: bad file descriptor, ${syscall}`);
      err.errno = -9;
      err.syscall = syscall;
      throw err;
    }
    return this._fd;
  }
  getAsyncId() { return this._fd; }
  appendFile(data, options) { return settle(() => writeFileSync(this._check('write'), data, options)); }
  chmod(mode) { return settle(() => fchmodSync(this._check('fchmod'), mode)); }
  chown(uid, gid) { return settle(() => fchownSync(this._check('fchown'), uid, gid)); }
  datasync() { return settle(() => fsyncSync(this._check('fdatasync'))); }
  sync() { return settle(() => fsyncSync(this._check('fsync'))); }
  read(buffer, offset, length, position) {
    return settle(() => {
      const fd = this._check('read');
      if (buffer === undefined || (buffer !== null && typeof buffer === 'object' && !ArrayBufferIsView(buffer))) {
        const opts = buffer || {};
        buffer = opts.buffer || Buffer.alloc(16384);
        offset = opts.offset;
        length = opts.length;
        position = opts.position;
      } else if (offset !== null && typeof offset === 'object') {
        ({ offset, length, position } = offset);
      }
      const bytesRead = readSync(fd, buffer, offset || 0, length === undefined ? buffer.byteLength - (offset || 0) : length,
        position === undefined ? null : position);
      return { bytesRead, buffer };
    });
  }
  readv(buffers, position) {
    return settle(() => ({ bytesRead: readvSync(this._check('read'), buffers, position), buffers }));
  }
  readFile(options) { return settle(() => readFileSync(this._check('read'), options)); }
  async *readLines(options) {
    const text = readFileSync(this._check('read'), { encoding: (options && options.encoding) || 'utf8' });
    const lines = StringPrototypeSplit(text, /\r?\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '') ArrayPrototypePop(lines);
    for (const line of lines) yield line;
  }
  stat(options) { return settle(() => fstatSync(this._check('fstat'), options)); }
  truncate(len) { return settle(() => ftruncateSync(this._check('ftruncate'), len)); }
  utimes(atime, mtime) { return settle(() => futimesSync(this._check('futime'), atime, mtime)); }
  write(buffer, ...rest) {
    return settle(() => ({ bytesWritten: writeSync(this._check('write'), buffer, ...rest), buffer }));
  }
  writev(buffers, position) {
    return settle(() => ({ bytesWritten: writevSync(this._check('write'), buffers, position), buffers }));
  }
  writeFile(data, options) { return settle(() => writeFileSync(this._check('write'), data, options)); }
  createReadStream(options) { return new ReadStream(null, { ...options, fd: this }); }
  createWriteStream(options) { return new WriteStream(null, { ...options, fd: this }); }
  close() {
    return settle(() => {
      if (this._fd === -1) return undefined;
      const fd = this._fd;
      this._fd = -1;
      closeSync(fd);
      this.emit('close');
      return undefined;
    });
  }
  [SymbolAsyncDispose]() { return this.close(); }
}

function promiseForm(syncFn) {
  return function (...args) {
    return settle(() => syncFn(...args));
  };
}

const promises = {
  access: promiseForm(accessSync),
  appendFile: promiseForm((path, data, options) => appendFileSync(path instanceof FileHandle ? path.fd : path, data, options)),
  chmod: promiseForm(chmodSync),
  chown: promiseForm(chownSync),
  copyFile: promiseForm(copyFileSync),
  cp: promiseForm(cpSync),
  lchmod: unavailable('promises.lchmod', 'lchmod is not implemented on Linux'),
  lchown: promiseForm(lchownSync),
  link: promiseForm(linkSync),
  lstat: promiseForm(lstatSync),
  lutimes: promiseForm(lutimesSync),
  mkdir: promiseForm(mkdirSync),
  mkdtemp: promiseForm(mkdtempSync),
  open: promiseForm((path, flags, mode) => new FileHandle(openSync(path, flags, mode))),
  opendir: promiseForm(opendirSync),
  readdir: promiseForm(readdirSync),
  readFile: promiseForm((path, options) => readFileSync(path instanceof FileHandle ? path.fd : path, options)),
  readlink: promiseForm(readlinkSync),
  realpath: promiseForm(realpathSync),
  rename: promiseForm(renameSync),
  rm: gatedPromise('rm', rmSync),
  rmdir: gatedPromise('rmdir', rmdirSync),
  stat: promiseForm(statSync),
  statfs: promiseForm(statfsSync),
  symlink: promiseForm(symlinkSync),
  truncate: promiseForm(truncateSync),
  unlink: gatedPromise('unlink', unlinkSync),
  utimes: promiseForm(utimesSync),
  watch: unavailable('promises.watch', kNoWatch),
  writeFile: promiseForm((path, data, options) => writeFileSync(path instanceof FileHandle ? path.fd : path, data, options)),
  constants,
};

// ---- streams

const kDefaultHighWaterMark = 64 * 1024;

// File streams are node:stream Readable/Writable subclasses; node:stream is loaded (and the
// prototypes linked) on first construction so plain fs users do not pay for it.
let streamModule = null;
function lazyStream() {
  if (streamModule === null) {
    streamModule = require('stream');
    ObjectSetPrototypeOf(ReadStream.prototype, streamModule.Readable.prototype);
    ObjectSetPrototypeOf(ReadStream, streamModule.Readable);
    ObjectSetPrototypeOf(WriteStream.prototype, streamModule.Writable.prototype);
    ObjectSetPrototypeOf(WriteStream, streamModule.Writable);
  }
  return streamModule;
}

function streamFd(fd) {
  return fd instanceof FileHandle ? fd.fd : (fd === undefined || fd === null ? null : validateFd(fd));
}

// Open in _construct (the stream machinery defers it), then 'open' and 'ready' as Node emits them.
function constructFileStream(stream, callback) {
  if (stream.fd !== null) {
    callback();
    return;
  }
  try {
    stream.fd = openSync(stream.path, stream.flags, stream.mode);
  } catch (err) {
    callback(err);
    return;
  }
  callback();
  stream.emit('open', stream.fd);
  stream.emit('ready');
}

function destroyFileStream(stream, err, cb) {
  if (stream.fd !== null && stream.fd !== undefined && stream.autoClose) {
    try { closeSync(stream.fd); } catch { /* already closed */ }
    stream.fd = null;
  }
  cb(err);
}

function ReadStream(path, options) {
  if (!(this instanceof ReadStream)) return new ReadStream(path, options);
  const { Readable } = lazyStream();
  options = getOptions(options, { flags: 'r', highWaterMark: kDefaultHighWaterMark, autoClose: true, emitClose: true });
  options = { ...options };
  if (options.highWaterMark === undefined) options.highWaterMark = kDefaultHighWaterMark;
  this.path = path === null ? undefined : getPath(path);
  this.flags = options.flags === undefined ? 'r' : options.flags;
  this.mode = options.mode === undefined ? 0o666 : options.mode;
  this.start = options.start;
  this.end = options.end === undefined ? Infinity : options.end;
  this.pos = options.start;
  this.bytesRead = 0;
  this.autoClose = options.autoClose === undefined ? true : options.autoClose;
  if (this.start !== undefined) validateInteger(this.start, 'start', 0);
  if (options.end !== undefined) validateInteger(options.end, 'end', 0);
  if (this.start !== undefined && this.start > this.end) {
    throw ERR_OUT_OF_RANGE('start', `<= "end" (here: ${this.end})`, this.start);
  }
  if (options.encoding) validateEncoding(options.encoding);
  this.fd = streamFd(options.fd);
  options.autoDestroy = this.autoClose;
  delete options.fd;
  FunctionPrototypeCall(Readable, this, options);
}
ReadStream.prototype._construct = function (callback) {
  constructFileStream(this, callback);
};
ReadStream.prototype._read = function (n) {
  const want = this.end === Infinity ? n
    : MathMin(n, this.end - (this.pos === undefined ? this.bytesRead : this.pos) + 1);
  if (want <= 0) {
    this.push(null);
    return;
  }
  let bytes;
  const buf = Buffer.allocUnsafe(want);
  try {
    bytes = internal.read(this.fd, buf, 0, want, this.pos === undefined ? null : this.pos);
  } catch (err) {
    this.destroy(err);
    return;
  }
  if (bytes === 0) {
    this.push(null);
    return;
  }
  if (this.pos !== undefined) this.pos += bytes;
  this.bytesRead += bytes;
  this.push(bytes < want ? buf.subarray(0, bytes) : buf);
};
ReadStream.prototype._destroy = function (err, cb) {
  destroyFileStream(this, err, cb);
};
ReadStream.prototype.close = function (cb) {
  if (typeof cb === 'function') lazyStream().finished(this, cb);
  this.destroy();
};
ObjectDefineProperty(ReadStream.prototype, 'pending', {
  get() { return this.fd === null; },
  configurable: true,
});

function WriteStream(path, options) {
  if (!(this instanceof WriteStream)) return new WriteStream(path, options);
  const { Writable } = lazyStream();
  options = getOptions(options, { flags: 'w', encoding: 'utf8', autoClose: true, emitClose: true });
  options = { ...options };
  this.path = path === null ? undefined : getPath(path);
  this.flags = options.flags === undefined ? 'w' : options.flags;
  this.mode = options.mode === undefined ? 0o666 : options.mode;
  this.start = options.start;
  this.pos = options.start;
  this.bytesWritten = 0;
  this.autoClose = options.autoClose === undefined ? true : options.autoClose;
  if (this.start !== undefined) validateInteger(this.start, 'start', 0);
  if (options.encoding) validateEncoding(options.encoding);
  this.fd = streamFd(options.fd);
  options.decodeStrings = true;
  options.defaultEncoding = options.encoding || 'utf8';
  options.autoDestroy = this.autoClose;
  delete options.fd;
  delete options.encoding;
  FunctionPrototypeCall(Writable, this, options);
}
WriteStream.prototype._construct = function (callback) {
  constructFileStream(this, callback);
};
WriteStream.prototype._write = function (chunk, encoding, cb) {
  try {
    writeAll(this.fd, chunk, this.pos === undefined ? null : this.pos);
  } catch (err) {
    if (!isOperationalError(err)) throw err;
    cb(err);
    return;
  }
  if (this.pos !== undefined) this.pos += chunk.byteLength;
  this.bytesWritten += chunk.byteLength;
  cb();
};
WriteStream.prototype._destroy = function (err, cb) {
  destroyFileStream(this, err, cb);
};
WriteStream.prototype.close = function (cb) {
  if (typeof cb === 'function') {
    if (this.closed) {
      process.nextTick(cb);
      return;
    }
    this.on('close', cb);
  }
  if (!this.autoClose) this.on('finish', this.destroy);
  this.end();
};
WriteStream.prototype.destroySoon = WriteStream.prototype.end;
ObjectDefineProperty(WriteStream.prototype, 'pending', {
  get() { return this.fd === null; },
  configurable: true,
});

function createReadStream(path, options) {
  return new ReadStream(path, options);
}

function createWriteStream(path, options) {
  return new WriteStream(path, options);
}

module.exports = {
  appendFile, appendFileSync, access, accessSync, chown, chownSync, chmod, chmodSync, close, closeSync,
  copyFile, copyFileSync, cp, cpSync, createReadStream, createWriteStream, exists, existsSync,
  fchown, fchownSync, fchmod, fchmodSync, fdatasync, fdatasyncSync: fsyncSync, fstat, fstatSync, fsync, fsyncSync,
  ftruncate, ftruncateSync, futimes, futimesSync, lchown, lchownSync, link, linkSync, lstat, lstatSync,
  lutimes, lutimesSync, mkdir, mkdirSync, mkdtemp, mkdtempSync, open, openSync, openAsBlob, readdir, readdirSync,
  read, readSync, readv, readvSync, readFile, readFileSync, readlink, readlinkSync, realpath, realpathSync,
  rename, renameSync, rm, rmSync, rmdir, rmdirSync, stat, statfs, statSync, statfsSync, symlink, symlinkSync,
  truncate, truncateSync, unwatchFile, unlink, unlinkSync, utimes, utimesSync, watch, watchFile,
  writeFile, writeFileSync, write, writeSync, writev, writevSync,
  Dirent, Stats, ReadStream, WriteStream, FileReadStream: ReadStream, FileWriteStream: WriteStream,
  Dir, opendir, opendirSync,
  F_OK: constants.F_OK, R_OK: constants.R_OK, W_OK: constants.W_OK, X_OK: constants.X_OK,
  constants,
  promises,
};
