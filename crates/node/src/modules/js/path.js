'use strict';
// node:path, POSIX flavour. Pure string work except `resolve`, whose base is the VFS working
// directory (internal.cwd()). `path.win32` is a stub: its separators are there (code compares
// them), its functions throw ERR_FEATURE_UNAVAILABLE_ON_PLATFORM.
const {
  ArrayPrototypeConcat, ArrayPrototypeFilter, ArrayPrototypeJoin, ArrayPrototypePop,
  ArrayPrototypePush, ArrayPrototypeSlice, MathMax, StringPrototypeIndexOf,
  StringPrototypeLastIndexOf, StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit,
} = primordials;

const { ERR_INVALID_ARG_TYPE, makeError } = require('node:internal/errors');

function validateString(value, name) {
  if (typeof value !== 'string') throw ERR_INVALID_ARG_TYPE(name, 'string', value);
}

// Resolve `.` and `..` segments of `path` (slashes already meaningful). With
// `allowAboveRoot`, `..` segments that climb above the start are kept (relative paths);
// otherwise they are dropped (absolute paths clamp at the root). The result has no leading or
// trailing slash.
function normalizeSegments(path, allowAboveRoot) {
  const out = [];
  let ups = 0;
  for (const seg of StringPrototypeSplit(path, '/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0) ArrayPrototypePop(out);
      else if (allowAboveRoot) ups++;
      continue;
    }
    ArrayPrototypePush(out, seg);
  }
  const prefix = allowAboveRoot ? Array(ups).fill('..') : [];
  return ArrayPrototypeJoin(ArrayPrototypeConcat(prefix, out), '/');
}

// The end (exclusive) of `path` with trailing slashes removed, never below `min`.
function trimTrailingSlashes(path, min = 0) {
  let end = path.length;
  while (end > min && path[end - 1] === '/') end--;
  return end;
}

// The last segment's extension: from its last dot, unless the dot starts the segment or the
// segment is `..`.
function extOf(segment) {
  const dot = StringPrototypeLastIndexOf(segment, '.');
  if (dot <= 0 || segment === '..') return '';
  return StringPrototypeSlice(segment, dot);
}

// basename(path, suffix) as Node computes it: the suffix is matched backwards from the end of
// the last segment. A full match ends the name where the suffix starts (unless that leaves
// nothing); a mismatch keeps the whole segment; a partial match (the segment ran out first)
// keeps everything to the end of the path, trailing slashes included.
function basenameWithSuffix(path, suffix, start, segEnd) {
  let k = suffix.length - 1;
  let end = -1;
  for (let j = segEnd - 1; j >= start && k >= 0; j--) {
    if (path[j] === suffix[k]) {
      k--;
      if (k === -1) end = j;
    } else {
      k = -1;
      end = segEnd;
    }
  }
  if (start === end) end = segEnd;
  else if (end === -1) end = path.length;
  return StringPrototypeSlice(path, start, end);
}

const posix = {
  sep: '/',
  delimiter: ':',

  resolve(...args) {
    let resolved = '';
    let absolute = false;
    for (let i = args.length - 1; i >= -1 && !absolute; i--) {
      const p = i >= 0 ? args[i] : internal.cwd();
      validateString(p, `paths[${i}]`);
      if (p.length === 0) continue;
      resolved = `${p}/${resolved}`;
      absolute = p[0] === '/';
    }
    resolved = normalizeSegments(resolved, !absolute);
    if (absolute) return `/${resolved}`;
    return resolved.length > 0 ? resolved : '.';
  },

  normalize(path) {
    validateString(path, 'path');
    if (path.length === 0) return '.';
    const absolute = path[0] === '/';
    const trailing = path[path.length - 1] === '/';
    let out = normalizeSegments(path, !absolute);
    if (out.length === 0) {
      if (absolute) return '/';
      return trailing ? './' : '.';
    }
    if (trailing) out += '/';
    return absolute ? `/${out}` : out;
  },

  isAbsolute(path) {
    validateString(path, 'path');
    return path.length > 0 && path[0] === '/';
  },

  join(...args) {
    const parts = [];
    for (const arg of args) {
      validateString(arg, 'path');
      if (arg.length > 0) ArrayPrototypePush(parts, arg);
    }
    if (parts.length === 0) return '.';
    return posix.normalize(ArrayPrototypeJoin(parts, '/'));
  },

  relative(from, to) {
    validateString(from, 'from');
    validateString(to, 'to');
    if (from === to) return '';
    from = posix.resolve(from);
    to = posix.resolve(to);
    if (from === to) return '';
    const fromSegs = ArrayPrototypeFilter(StringPrototypeSplit(from, '/'), Boolean);
    const toSegs = ArrayPrototypeFilter(StringPrototypeSplit(to, '/'), Boolean);
    let common = 0;
    while (common < fromSegs.length && common < toSegs.length && fromSegs[common] === toSegs[common]) common++;
    const ups = Array(fromSegs.length - common).fill('..');
    return ArrayPrototypeJoin(ArrayPrototypeConcat(ups, ArrayPrototypeSlice(toSegs, common)), '/');
  },

  toNamespacedPath(path) {
    return path;
  },

  dirname(path) {
    validateString(path, 'path');
    if (path.length === 0) return '.';
    const rooted = path[0] === '/';
    // Skip the trailing slashes, then the last segment; what precedes the slash before it is
    // the directory (kept as spelled, inner repeated slashes included).
    let i = trimTrailingSlashes(path, 1);
    while (i > 1 && path[i - 1] !== '/') i--;
    if (i <= 1) return rooted ? '/' : '.';
    const end = i - 1;
    if (rooted && end === 1) return '//';
    return StringPrototypeSlice(path, 0, end);
  },

  basename(path, suffix) {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(path, 'path');
    const end = trimTrailingSlashes(path);
    const start = end === 0 ? 0 : StringPrototypeLastIndexOf(path, '/', end - 1) + 1;
    if (suffix === undefined || suffix.length === 0 || suffix.length > path.length) return StringPrototypeSlice(path, start, end);
    if (suffix === path) return '';
    return basenameWithSuffix(path, suffix, start, end);
  },

  extname(path) {
    validateString(path, 'path');
    const end = trimTrailingSlashes(path);
    const start = StringPrototypeLastIndexOf(path, '/', end - 1) + 1;
    return extOf(StringPrototypeSlice(path, start, end));
  },

  format(pathObject) {
    if (pathObject === null || typeof pathObject !== 'object') {
      throw ERR_INVALID_ARG_TYPE('pathObject', 'Object', pathObject);
    }
    const dir = pathObject.dir || pathObject.root;
    let base = pathObject.base;
    if (!base) {
      const ext = pathObject.ext || '';
      base = `${pathObject.name || ''}${ext && ext[0] !== '.' ? `.${ext}` : ext}`;
    }
    if (!dir) return base;
    return dir === pathObject.root ? `${dir}${base}` : `${dir}/${base}`;
  },

  parse(path) {
    validateString(path, 'path');
    const ret = { root: '', dir: '', base: '', ext: '', name: '' };
    if (path.length === 0) return ret;
    const absolute = path[0] === '/';
    if (absolute) ret.root = '/';
    const end = trimTrailingSlashes(path, absolute ? 1 : 0);
    const start = StringPrototypeLastIndexOf(path, '/', end - 1) + 1;
    const base = StringPrototypeSlice(path, MathMax(start, absolute ? 1 : 0), end);
    if (base.length > 0) {
      ret.base = base;
      // Node quirk: `..` right after the root (`/..`) is not exempt from the extension rule.
      ret.ext = absolute && start === 1 && base === '..' ? '.' : extOf(base);
      ret.name = StringPrototypeSlice(base, 0, base.length - ret.ext.length);
    }
    if (start > 1) ret.dir = StringPrototypeSlice(path, 0, start - 1);
    else if (absolute) ret.dir = '/';
    return ret;
  },

  matchesGlob(path, pattern) {
    validateString(path, 'path');
    validateString(pattern, 'pattern');
    return globToRegExp(pattern).test(path);
  },
};

// A small glob matcher for matchesGlob: `*` (within a segment), `**` (any segments), `?`,
// `[...]` classes and `{a,b}` alternatives.
function globToRegExp(pattern) {
  let re = '^';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        if (pattern[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else {
          re += '.*';
        }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = StringPrototypeIndexOf(pattern, ']', i + 1);
      if (close === -1) {
        re += '\\[';
      } else {
        let cls = StringPrototypeReplace(StringPrototypeSlice(pattern, i + 1, close), /\\/g, '\\\\');
        if (cls[0] === '!') cls = `^${cls.slice(1)}`;
        re += `[${cls}]`;
        i = close;
      }
    } else if (c === '{') {
      depth++;
      re += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      re += ')';
    } else if (c === ',' && depth > 0) {
      re += '|';
    } else {
      re += StringPrototypeReplace(c, /[.+^$()|\\\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`${re}$`);
}

posix.posix = posix;

function win32Unavailable(name) {
  return function () {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM',
      `path.win32.${name} is not available in Amber: the virtual filesystem is POSIX`);
  };
}

const win32 = { sep: '\\', delimiter: ';' };
for (const name of ['resolve', 'normalize', 'isAbsolute', 'join', 'relative', 'toNamespacedPath',
  'dirname', 'basename', 'extname', 'format', 'parse', 'matchesGlob']) {
  win32[name] = win32Unavailable(name);
}
win32.win32 = win32;
win32.posix = posix;
posix.win32 = win32;

module.exports = posix;
