'use strict';
// node:url — the WHATWG URL Standard (`URL`, `URLSearchParams`: the basic URL parser as the
// standard's state machine, host parsing with IPv4/IPv6, percent-encode sets, setters with
// state overrides) plus Node's helpers (fileURLToPath, pathToFileURL, urlToHttpOptions,
// domainToASCII/Unicode) and the legacy `url.parse` / `url.format` / `url.resolve`.
//
// A URL's state is a plain record (scheme, username, password, host, port, path, query,
// fragment) on a non-enumerable symbol-keyed property, so URL objects ride images like any
// other JS data. Hosts are stored already serialized (IPv6 in brackets).
const {
  ArrayFrom, ArrayIsArray, ArrayPrototypeFilter, ArrayPrototypeFindIndex, ArrayPrototypeJoin,
  ArrayPrototypeMap, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift,
  ArrayPrototypeSlice, ArrayPrototypeSome, ArrayPrototypeSort, ArrayPrototypeSplice,
  ArrayPrototypeUnshift, FunctionPrototypeCall, MathFloor, NumberIsNaN, ObjectAssign, ObjectCreate,
  ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf, ObjectKeys,
  ObjectPrototypeHasOwnProperty, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys,
  RegExpPrototypeTest, StringFromCharCode, StringFromCodePoint, StringPrototypeCharCodeAt,
  StringPrototypeCodePointAt, StringPrototypeEndsWith, StringPrototypeIncludes,
  StringPrototypeIndexOf, StringPrototypeLastIndexOf, StringPrototypeNormalize,
  StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith,
  StringPrototypeToLowerCase, SymbolFor, SymbolIterator, SymbolToStringTag,
} = primordials;

const { makeError, ERR_INVALID_ARG_TYPE } = require('node:internal/errors');

const kContext = Symbol('context');
const kQuery = Symbol('query');
const kList = Symbol('list');
const kURL = Symbol('url');
const customInspect = SymbolFor('nodejs.util.inspect.custom');

function invalidURL(input, base) {
  const err = makeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

// ---------------------------------------------------------------------------------------
// Strings, UTF-8, percent-encoding

function toUSVString(v) {
  const s = `${v}`;
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = StringPrototypeCharCodeAt(s, i);
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = StringPrototypeCharCodeAt(s, i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
      out += StringPrototypeSlice(s, start, i) + '\ufffd';
      start = i + 1;
    }
  }
  return start === 0 ? s : out + StringPrototypeSlice(s, start);
}

function utf8Bytes(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

function stringBytes(s) {
  const out = [];
  for (const ch of s) {
    const b = utf8Bytes(StringPrototypeCodePointAt(ch, 0));
    for (let i = 0; i < b.length; i++) ArrayPrototypePush(out, b[i]);
  }
  return out;
}

// UTF-8 decode without BOM, replacing invalid sequences (WHATWG decoder: maximal subparts).
function utf8Decode(bytes) {
  let out = '';
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      out += StringFromCharCode(b);
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
      need = 2;
      cp = b & 0xf;
    } else if (b >= 0xf0 && b <= 0xf4) {
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
      need = 3;
      cp = b & 7;
    } else {
      out += '\ufffd';
      i++;
      continue;
    }
    let j = i + 1;
    let ok = true;
    for (let k = 0; k < need; k++, j++) {
      const c = j < n ? bytes[j] : -1;
      if (c < lower || c > upper) {
        ok = false;
        break;
      }
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (c & 63);
    }
    if (!ok) {
      out += '\ufffd';
      i = j;
      continue;
    }
    out += StringFromCodePoint(cp);
    i = j;
  }
  if (StringPrototypeCharCodeAt(out, 0) === 0xfeff) out = StringPrototypeSlice(out, 1);
  return out;
}

const HEX = '0123456789ABCDEF';
function pctByte(b) {
  return '%' + HEX[b >> 4] + HEX[b & 15];
}

function isHexCode(c) {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
function hexVal(c) {
  return c <= 57 ? c - 48 : (c | 0x20) - 87;
}

function percentDecodeBytes(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 37 && i + 2 < bytes.length && isHexCode(bytes[i + 1]) && isHexCode(bytes[i + 2])) {
      ArrayPrototypePush(out, hexVal(bytes[i + 1]) * 16 + hexVal(bytes[i + 2]));
      i += 2;
    } else {
      ArrayPrototypePush(out, b);
    }
  }
  return out;
}

// Percent-encode sets, as predicates over a code point.
function inC0(c) {
  return c < 0x20 || c > 0x7e;
}
function inFragment(c) {
  return inC0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
}
function inQuery(c) {
  return inC0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
}
function inSpecialQuery(c) {
  return inQuery(c) || c === 0x27;
}
function inPath(c) {
  return inQuery(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
}
function inUserinfo(c) {
  return (
    inPath(c) ||
    c === 0x2f ||
    c === 0x3a ||
    c === 0x3b ||
    c === 0x3d ||
    c === 0x40 ||
    (c >= 0x5b && c <= 0x5e) ||
    c === 0x7c
  );
}

function encodeCp(ch, set) {
  const c = StringPrototypeCodePointAt(ch, 0);
  if (!set(c)) return ch;
  const b = utf8Bytes(c);
  let s = '';
  for (let i = 0; i < b.length; i++) s += pctByte(b[i]);
  return s;
}

function encodeStr(s, set) {
  let out = '';
  for (const ch of s) out += encodeCp(ch, set);
  return out;
}

// ---------------------------------------------------------------------------------------
// Hosts

const SPECIAL = { 'ftp:': 21, 'file:': null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };
function isSpecialScheme(s) {
  return ObjectPrototypeHasOwnProperty(SPECIAL, s + ':');
}
function defaultPort(s) {
  const p = SPECIAL[s + ':'];
  return p === undefined ? null : p;
}

function isForbiddenHost(c) {
  return (
    c === 0 ||
    c === 9 ||
    c === 0xa ||
    c === 0xd ||
    c === 0x20 ||
    c === 0x23 ||
    c === 0x2f ||
    c === 0x3a ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x3f ||
    c === 0x40 ||
    c === 0x5b ||
    c === 0x5c ||
    c === 0x5d ||
    c === 0x5e ||
    c === 0x7c
  );
}
function isForbiddenDomain(c) {
  return isForbiddenHost(c) || (c <= 0x1f) || c === 0x25 || c === 0x7f;
}

const FAIL = null;

function parseIPv4Number(s) {
  if (s === '') return NaN;
  let radix = 10;
  if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) {
    s = StringPrototypeSlice(s, 2);
    radix = 16;
  } else if (s.length >= 2 && s[0] === '0') {
    s = StringPrototypeSlice(s, 1);
    radix = 8;
  }
  if (s === '') return 0;
  const re = radix === 10 ? /^[0-9]+$/ : radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/;
  if (!RegExpPrototypeTest(re, s)) return NaN;
  return parseInt(s, radix);
}

function endsInNumber(s) {
  const parts = StringPrototypeSplit(s, '.');
  if (parts[parts.length - 1] === '') {
    if (parts.length === 1) return false;
    ArrayPrototypePop(parts);
  }
  const last = parts[parts.length - 1];
  if (last !== '' && /^[0-9]+$/.test(last)) return true;
  return !NumberIsNaN(parseIPv4Number(last));
}

function parseIPv4(s) {
  const parts = StringPrototypeSplit(s, '.');
  if (parts[parts.length - 1] === '' && parts.length > 1) ArrayPrototypePop(parts);
  if (parts.length > 4) return FAIL;
  const nums = [];
  for (const p of parts) {
    const n = parseIPv4Number(p);
    if (NumberIsNaN(n)) return FAIL;
    ArrayPrototypePush(nums, n);
  }
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return FAIL;
  if (nums[nums.length - 1] >= 256 ** (5 - nums.length)) return FAIL;
  let ipv4 = nums[nums.length - 1];
  for (let i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * 256 ** (3 - i);
  const out = [];
  for (let i = 0; i < 4; i++) {
    ArrayPrototypeUnshift(out, String(ipv4 % 256));
    ipv4 = MathFloor(ipv4 / 256);
  }
  return ArrayPrototypeJoin(out, '.');
}

function parseIPv6(s) {
  const addr = [0, 0, 0, 0, 0, 0, 0, 0];
  let piece = 0;
  let compress = null;
  let p = 0;
  const n = s.length;
  const at = (i) => (i < n ? StringPrototypeCharCodeAt(s, i) : -1);
  if (at(p) === 0x3a) {
    if (at(p + 1) !== 0x3a) return FAIL;
    p += 2;
    piece++;
    compress = piece;
  }
  while (at(p) !== -1) {
    if (piece === 8) return FAIL;
    if (at(p) === 0x3a) {
      if (compress !== null) return FAIL;
      p++;
      piece++;
      compress = piece;
      continue;
    }
    let value = 0;
    let len = 0;
    while (len < 4 && isHexCode(at(p))) {
      value = value * 16 + hexVal(at(p));
      p++;
      len++;
    }
    if (at(p) === 0x2e) {
      if (len === 0) return FAIL;
      p -= len;
      if (piece > 6) return FAIL;
      let seen = 0;
      while (at(p) !== -1) {
        let v4 = null;
        if (seen > 0) {
          if (at(p) === 0x2e && seen < 4) p++;
          else return FAIL;
        }
        if (!(at(p) >= 48 && at(p) <= 57)) return FAIL;
        while (at(p) >= 48 && at(p) <= 57) {
          const d = at(p) - 48;
          if (v4 === null) v4 = d;
          else if (v4 === 0) return FAIL;
          else v4 = v4 * 10 + d;
          if (v4 > 255) return FAIL;
          p++;
        }
        addr[piece] = addr[piece] * 256 + v4;
        seen++;
        if (seen === 2 || seen === 4) piece++;
      }
      if (seen !== 4) return FAIL;
      break;
    } else if (at(p) === 0x3a) {
      p++;
      if (at(p) === -1) return FAIL;
    } else if (at(p) !== -1) {
      return FAIL;
    }
    addr[piece] = value;
    piece++;
  }
  if (compress !== null) {
    let swaps = piece - compress;
    piece = 7;
    while (piece !== 0 && swaps > 0) {
      const t = addr[compress + swaps - 1];
      addr[compress + swaps - 1] = addr[piece];
      addr[piece] = t;
      piece--;
      swaps--;
    }
  } else if (piece !== 8) {
    return FAIL;
  }
  return addr;
}

function serializeIPv6(addr) {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (addr[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && addr[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  let ignore0 = false;
  for (let i = 0; i < 8; i++) {
    if (ignore0 && addr[i] === 0) continue;
    ignore0 = false;
    if (best === i) {
      out += i === 0 ? '::' : ':';
      ignore0 = true;
      continue;
    }
    out += addr[i].toString(16);
    if (i !== 7) out += ':';
  }
  return '[' + out + ']';
}

// Punycode (RFC 3492) for IDNA labels.
const PUNY = { base: 36, tmin: 1, tmax: 26, skew: 38, damp: 700, initialBias: 72, initialN: 128 };
function adapt(delta, numPoints, first) {
  delta = first ? MathFloor(delta / PUNY.damp) : delta >> 1;
  delta += MathFloor(delta / numPoints);
  let k = 0;
  while (delta > ((PUNY.base - PUNY.tmin) * PUNY.tmax) >> 1) {
    delta = MathFloor(delta / (PUNY.base - PUNY.tmin));
    k += PUNY.base;
  }
  return k + MathFloor(((PUNY.base - PUNY.tmin + 1) * delta) / (delta + PUNY.skew));
}
function digitChar(d) {
  return StringFromCharCode(d < 26 ? d + 97 : d + 22);
}
function punyEncode(input) {
  const cps = ArrayFrom(input, (c) => StringPrototypeCodePointAt(c, 0));
  let n = PUNY.initialN;
  let delta = 0;
  let bias = PUNY.initialBias;
  let out = '';
  for (const c of cps) if (c < 0x80) out += StringFromCharCode(c);
  const b = out.length;
  let h = b;
  if (b > 0) out += '-';
  while (h < cps.length) {
    let m = 0x7fffffff;
    for (const c of cps) if (c >= n && c < m) m = c;
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of cps) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = PUNY.base; ; k += PUNY.base) {
          const t = k <= bias ? PUNY.tmin : k >= bias + PUNY.tmax ? PUNY.tmax : k - bias;
          if (q < t) break;
          out += digitChar(t + ((q - t) % (PUNY.base - t)));
          q = MathFloor((q - t) / (PUNY.base - t));
        }
        out += digitChar(q);
        bias = adapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
    }
    delta++;
    n++;
  }
  return out;
}
function punyDecode(input) {
  const out = [];
  let n = PUNY.initialN;
  let bias = PUNY.initialBias;
  let i = 0;
  let basic = StringPrototypeLastIndexOf(input, '-');
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) {
    if (StringPrototypeCharCodeAt(input, j) >= 0x80) return null;
    ArrayPrototypePush(out, StringPrototypeCharCodeAt(input, j));
  }
  for (let idx = basic > 0 ? basic + 1 : 0; idx < input.length; ) {
    const oldi = i;
    let w = 1;
    for (let k = PUNY.base; ; k += PUNY.base) {
      if (idx >= input.length) return null;
      const c = StringPrototypeCharCodeAt(input, idx++);
      const d = c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : PUNY.base;
      if (d >= PUNY.base) return null;
      i += d * w;
      const t = k <= bias ? PUNY.tmin : k >= bias + PUNY.tmax ? PUNY.tmax : k - bias;
      if (d < t) break;
      w *= PUNY.base - t;
      if (w > 0x7fffffff) return null;
    }
    bias = adapt(i - oldi, out.length + 1, oldi === 0);
    n += MathFloor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff) return null;
    ArrayPrototypeSplice(out, i, 0, n);
    i++;
  }
  return StringFromCodePoint(...out);
}

// Code points of canonical combining class 9 (virama): the only place UTS #46's CheckJoiners
// (RFC 5892 CONTEXTJ, as the URL Standard asks) lets a zero-width joiner or non-joiner stand.
const viramas = new Set([0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d3b, 0x0d3c,
  0x0d4d, 0x0dca, 0x0e3a, 0x0eba, 0x0f84, 0x1039, 0x103a, 0x1714, 0x1715, 0x1734, 0x17d2, 0x1a60, 0x1b44,
  0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa82c, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f,
  0x11046, 0x11070, 0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d, 0x11442,
  0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b, 0x11839, 0x1193d, 0x1193e, 0x119e0, 0x11a34, 0x11a47,
  0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97]);

// CheckJoiners: each U+200C/U+200D must follow a virama. (RFC 5892 also lets U+200C stand
// between joining letters, by Arabic joining types; that context is not modelled, so such a
// label fails here where a full UTS #46 implementation accepts it.)
function joinersValid(label) {
  const cps = ArrayFrom(label, (c) => StringPrototypeCodePointAt(c, 0));
  for (let i = 0; i < cps.length; i++) {
    if ((cps[i] === 0x200c || cps[i] === 0x200d) && !(i > 0 && viramas.has(cps[i - 1]))) return false;
  }
  return true;
}

// domain to ASCII (UTS #46, partial: case folding via toLowerCase + NFC, the ideographic
// full stops, dropping soft hyphen and the ignored zero-width characters, the joiner rule,
// punycode for non-ASCII labels).
function domainToASCIIInternal(domain) {
  let d = domain;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(d)) {
    d = StringPrototypeReplace(StringPrototypeReplace(d, /[\u3002\uff0e\uff61]/g, '.'), /[\u00ad\u200b\u2060\ufeff]/g, '');
    d = StringPrototypeNormalize(StringPrototypeToLowerCase(StringPrototypeNormalize(d, 'NFKC')), 'NFC');
  } else {
    d = StringPrototypeToLowerCase(d);
  }
  const labels = StringPrototypeSplit(d, '.');
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (!joinersValid(label)) return FAIL;
    if (StringPrototypeStartsWith(label, 'xn--')) {
      const dec = punyDecode(StringPrototypeSlice(label, 4));
      if (dec === null || dec === '' || !/[^\x00-\x7f]/.test(dec)) return FAIL;
      // The decoded label must already be in mapped form (approximates UTS #46 validity).
      if (StringPrototypeNormalize(StringPrototypeToLowerCase(StringPrototypeNormalize(dec, 'NFKC')), 'NFC') !== dec) return FAIL;
    } else if (/[^\x00-\x7f]/.test(label)) {
      labels[i] = 'xn--' + punyEncode(label);
    }
  }
  d = ArrayPrototypeJoin(labels, '.');
  if (d === '') return FAIL;
  return d;
}

function parseOpaqueHost(s) {
  for (let i = 0; i < s.length; i++) if (isForbiddenHost(StringPrototypeCharCodeAt(s, i))) return FAIL;
  return encodeStr(s, inC0);
}

function parseHost(input, notSpecial) {
  if (input[0] === '[') {
    if (input[input.length - 1] !== ']') return FAIL;
    const a = parseIPv6(StringPrototypeSlice(input, 1, -1));
    return a === FAIL ? FAIL : serializeIPv6(a);
  }
  if (notSpecial) return parseOpaqueHost(input);
  const domain = utf8Decode(percentDecodeBytes(stringBytes(input)));
  const ascii = domainToASCIIInternal(domain);
  if (ascii === FAIL) return FAIL;
  for (let i = 0; i < ascii.length; i++) if (isForbiddenDomain(StringPrototypeCharCodeAt(ascii, i))) return FAIL;
  if (endsInNumber(ascii)) return parseIPv4(ascii);
  return ascii;
}

// ---------------------------------------------------------------------------------------
// The basic URL parser

const S = {
  SCHEME_START: 1,
  SCHEME: 2,
  NO_SCHEME: 3,
  SPECIAL_RELATIVE_OR_AUTHORITY: 4,
  PATH_OR_AUTHORITY: 5,
  RELATIVE: 6,
  RELATIVE_SLASH: 7,
  SPECIAL_AUTHORITY_SLASHES: 8,
  SPECIAL_AUTHORITY_IGNORE_SLASHES: 9,
  AUTHORITY: 10,
  HOST: 11,
  HOSTNAME: 12,
  PORT: 13,
  FILE: 14,
  FILE_SLASH: 15,
  FILE_HOST: 16,
  PATH_START: 17,
  PATH: 18,
  OPAQUE_PATH: 19,
  QUERY: 20,
  FRAGMENT: 21,
};

function newRecord() {
  return { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
}

function isAlpha(c) {
  return c !== undefined && /^[A-Za-z]$/.test(c);
}
function isDigit(c) {
  return c !== undefined && c >= '0' && c <= '9';
}
function isWinDrive(s, normalizedOnly) {
  return s.length === 2 && isAlpha(s[0]) && (s[1] === ':' || (!normalizedOnly && s[1] === '|'));
}
function startsWithWinDrive(cps, p) {
  if (cps.length - p < 2) return false;
  if (!isAlpha(cps[p]) || (cps[p + 1] !== ':' && cps[p + 1] !== '|')) return false;
  if (cps.length - p === 2) return true;
  const c = cps[p + 2];
  return c === '/' || c === '\\' || c === '?' || c === '#';
}
function isSingleDot(s) {
  return s === '.' || StringPrototypeToLowerCase(s) === '%2e';
}
function isDoubleDot(s) {
  const l = StringPrototypeToLowerCase(s);
  return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
}
function shortenPath(url) {
  const path = url.path;
  if (url.scheme === 'file' && path.length === 1 && isWinDrive(path[0], true)) return;
  ArrayPrototypePop(path);
}
function includesCredentials(url) {
  return url.username !== '' || url.password !== '';
}
function hasOpaquePath(url) {
  return typeof url.path === 'string';
}

function basicParse(inputStr, base, url, override) {
  let input = inputStr;
  if (!url) {
    url = newRecord();
    // eslint-disable-next-line no-control-regex
    input = StringPrototypeReplace(input, /^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  }
  input = StringPrototypeReplace(input, /[\t\n\r]/g, '');
  let state = override || S.SCHEME_START;
  let buffer = '';
  let atSignSeen = false;
  let insideBrackets = false;
  let passwordTokenSeen = false;
  const cps = ArrayFrom(input);
  const len = cps.length;
  const special = () => isSpecialScheme(url.scheme);
  for (let p = 0; ; p++) {
    const c = p < len ? cps[p] : undefined; // undefined = EOF
    switch (state) {
      case S.SCHEME_START:
        if (isAlpha(c)) {
          buffer += StringPrototypeToLowerCase(c);
          state = S.SCHEME;
        } else if (!override) {
          state = S.NO_SCHEME;
          p--;
        } else {
          return FAIL;
        }
        break;
      case S.SCHEME:
        if (c !== undefined && (/^[A-Za-z0-9]$/.test(c) || c === '+' || c === '-' || c === '.')) {
          buffer += StringPrototypeToLowerCase(c);
        } else if (c === ':') {
          if (override) {
            if (isSpecialScheme(url.scheme) !== isSpecialScheme(buffer)) return url;
            if ((includesCredentials(url) || url.port !== null) && buffer === 'file') return url;
            if (url.scheme === 'file' && url.host === '') return url;
          }
          url.scheme = buffer;
          if (override) {
            if (url.port === defaultPort(url.scheme)) url.port = null;
            return url;
          }
          buffer = '';
          if (url.scheme === 'file') {
            state = S.FILE;
          } else if (special() && base && base.scheme === url.scheme) {
            state = S.SPECIAL_RELATIVE_OR_AUTHORITY;
          } else if (special()) {
            state = S.SPECIAL_AUTHORITY_SLASHES;
          } else if (cps[p + 1] === '/') {
            state = S.PATH_OR_AUTHORITY;
            p++;
          } else {
            url.path = '';
            state = S.OPAQUE_PATH;
          }
        } else if (!override) {
          buffer = '';
          state = S.NO_SCHEME;
          p = -1;
        } else {
          return FAIL;
        }
        break;
      case S.NO_SCHEME:
        if (!base || (hasOpaquePath(base) && c !== '#')) return FAIL;
        if (hasOpaquePath(base) && c === '#') {
          url.scheme = base.scheme;
          url.path = base.path;
          url.query = base.query;
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (base.scheme !== 'file') {
          state = S.RELATIVE;
          p--;
        } else {
          state = S.FILE;
          p--;
        }
        break;
      case S.SPECIAL_RELATIVE_OR_AUTHORITY:
        if (c === '/' && cps[p + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p++;
        } else {
          state = S.RELATIVE;
          p--;
        }
        break;
      case S.PATH_OR_AUTHORITY:
        if (c === '/') {
          state = S.AUTHORITY;
        } else {
          state = S.PATH;
          p--;
        }
        break;
      case S.RELATIVE:
        url.scheme = base.scheme;
        if (c === '/' || (special() && c === '\\')) {
          state = S.RELATIVE_SLASH;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          url.path = ArrayPrototypeSlice(base.path);
          url.query = base.query;
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            shortenPath(url);
            state = S.PATH;
            p--;
          }
        }
        break;
      case S.RELATIVE_SLASH:
        if (special() && (c === '/' || c === '\\')) {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        } else if (c === '/') {
          state = S.AUTHORITY;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          state = S.PATH;
          p--;
        }
        break;
      case S.SPECIAL_AUTHORITY_SLASHES:
        if (c === '/' && cps[p + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p++;
        } else {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p--;
        }
        break;
      case S.SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== '/' && c !== '\\') {
          state = S.AUTHORITY;
          p--;
        }
        break;
      case S.AUTHORITY:
        if (c === '@') {
          if (atSignSeen) buffer = '%40' + buffer;
          atSignSeen = true;
          for (const ch of buffer) {
            if (ch === ':' && !passwordTokenSeen) {
              passwordTokenSeen = true;
              continue;
            }
            const enc = encodeCp(ch, inUserinfo);
            if (passwordTokenSeen) url.password += enc;
            else url.username += enc;
          }
          buffer = '';
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          if (atSignSeen && buffer === '') return FAIL;
          p -= ArrayFrom(buffer).length + 1;
          buffer = '';
          state = S.HOST;
        } else {
          buffer += c;
        }
        break;
      case S.HOST:
      case S.HOSTNAME:
        if (override && url.scheme === 'file') {
          p--;
          state = S.FILE_HOST;
        } else if (c === ':' && !insideBrackets) {
          if (buffer === '') return FAIL;
          if (override === S.HOSTNAME) return FAIL;
          const host = parseHost(buffer, !special());
          if (host === FAIL) return FAIL;
          url.host = host;
          buffer = '';
          state = S.PORT;
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          p--;
          if (special() && buffer === '') return FAIL;
          if (override && buffer === '' && (includesCredentials(url) || url.port !== null)) return FAIL;
          const host = parseHost(buffer, !special());
          if (host === FAIL) return FAIL;
          url.host = host;
          buffer = '';
          state = S.PATH_START;
          if (override) return url;
        } else {
          if (c === '[') insideBrackets = true;
          if (c === ']') insideBrackets = false;
          buffer += c;
        }
        break;
      case S.PORT:
        if (isDigit(c)) {
          buffer += c;
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\') || override) {
          if (buffer !== '') {
            const port = parseInt(buffer, 10);
            if (port > 65535) return FAIL;
            url.port = port === defaultPort(url.scheme) ? null : port;
            buffer = '';
          }
          if (override) return url;
          state = S.PATH_START;
          p--;
        } else {
          return FAIL;
        }
        break;
      case S.FILE:
        url.scheme = 'file';
        url.host = '';
        if (c === '/' || c === '\\') {
          state = S.FILE_SLASH;
        } else if (base && base.scheme === 'file') {
          url.host = base.host;
          url.path = ArrayPrototypeSlice(base.path);
          url.query = base.query;
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            if (!startsWithWinDrive(cps, p)) shortenPath(url);
            else url.path = [];
            state = S.PATH;
            p--;
          }
        } else {
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_SLASH:
        if (c === '/' || c === '\\') {
          state = S.FILE_HOST;
        } else {
          if (base && base.scheme === 'file') {
            url.host = base.host;
            if (!startsWithWinDrive(cps, p) && base.path.length > 0 && isWinDrive(base.path[0], true)) {
              ArrayPrototypePush(url.path, base.path[0]);
            }
          }
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_HOST:
        if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
          p--;
          if (!override && isWinDrive(buffer, false)) {
            state = S.PATH;
          } else if (buffer === '') {
            url.host = '';
            if (override) return url;
            state = S.PATH_START;
          } else {
            let host = parseHost(buffer, !special());
            if (host === FAIL) return FAIL;
            if (host === 'localhost') host = '';
            url.host = host;
            if (override) return url;
            buffer = '';
            state = S.PATH_START;
          }
        } else {
          buffer += c;
        }
        break;
      case S.PATH_START:
        if (special()) {
          state = S.PATH;
          if (c !== '/' && c !== '\\') p--;
        } else if (!override && c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (!override && c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          state = S.PATH;
          if (c !== '/') p--;
        } else if (override && url.host === null) {
          ArrayPrototypePush(url.path, '');
        }
        break;
      case S.PATH: {
        const slashLike = c === '/' || (special() && c === '\\');
        if (c === undefined || slashLike || (!override && (c === '?' || c === '#'))) {
          if (isDoubleDot(buffer)) {
            shortenPath(url);
            if (!slashLike) ArrayPrototypePush(url.path, '');
          } else if (isSingleDot(buffer) && !slashLike) {
            ArrayPrototypePush(url.path, '');
          } else if (!isSingleDot(buffer)) {
            if (url.scheme === 'file' && url.path.length === 0 && isWinDrive(buffer, false)) {
              buffer = buffer[0] + ':';
            }
            ArrayPrototypePush(url.path, buffer);
          }
          buffer = '';
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          }
          if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += encodeCp(c, inPath);
        }
        break;
      }
      case S.OPAQUE_PATH:
        if (c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          url.path += encodeCp(c, inC0);
        }
        break;
      case S.QUERY:
        if ((!override && c === '#') || c === undefined) {
          url.query += encodeStr(buffer, special() ? inSpecialQuery : inQuery);
          buffer = '';
          if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += c;
        }
        break;
      case S.FRAGMENT:
        if (c !== undefined) url.fragment += encodeCp(c, inFragment);
        break;
      default:
        return FAIL;
    }
    if (p >= len) break;
  }
  return url;
}

function serializePath(url) {
  if (hasOpaquePath(url)) return url.path;
  let out = '';
  for (const seg of url.path) out += '/' + seg;
  return out;
}

function serialize(url, excludeFragment) {
  let out = url.scheme + ':';
  if (url.host !== null) {
    out += '//';
    if (includesCredentials(url)) {
      out += url.username;
      if (url.password !== '') out += ':' + url.password;
      out += '@';
    }
    out += url.host;
    if (url.port !== null) out += ':' + url.port;
  }
  if (url.host === null && !hasOpaquePath(url) && url.path.length > 1 && url.path[0] === '') out += '/.';
  out += serializePath(url);
  if (url.query !== null) out += '?' + url.query;
  if (!excludeFragment && url.fragment !== null) out += '#' + url.fragment;
  return out;
}

function origin(url) {
  switch (url.scheme) {
    case 'blob': {
      if (hasOpaquePath(url) || true) {
        const inner = basicParse(serializePath(url), null);
        if (inner !== FAIL && (inner.scheme === 'http' || inner.scheme === 'https')) return origin(inner);
      }
      return 'null';
    }
    case 'ftp':
    case 'http':
    case 'https':
    case 'ws':
    case 'wss':
      return url.scheme + '://' + url.host + (url.port !== null ? ':' + url.port : '');
    default:
      return 'null';
  }
}

function stripTrailingSpacesFromOpaquePath(url) {
  if (!hasOpaquePath(url)) return;
  if (url.fragment !== null) return;
  if (url.query !== null) return;
  url.path = StringPrototypeReplace(url.path, / +$/, '');
}

// ---------------------------------------------------------------------------------------
// application/x-www-form-urlencoded

function parseParams(input) {
  const out = [];
  for (const seq of StringPrototypeSplit(input, '&')) {
    if (seq === '') continue;
    const eq = StringPrototypeIndexOf(seq, '=');
    let name = eq < 0 ? seq : StringPrototypeSlice(seq, 0, eq);
    let value = eq < 0 ? '' : StringPrototypeSlice(seq, eq + 1);
    name = utf8Decode(percentDecodeBytes(stringBytes(StringPrototypeReplace(name, /\+/g, ' '))));
    value = utf8Decode(percentDecodeBytes(stringBytes(StringPrototypeReplace(value, /\+/g, ' '))));
    ArrayPrototypePush(out, [name, value]);
  }
  return out;
}

function formEncode(s) {
  let out = '';
  for (const ch of s) {
    const c = StringPrototypeCodePointAt(ch, 0);
    if (c === 0x20) out += '+';
    else if (
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x2a ||
      c === 0x2d ||
      c === 0x2e ||
      c === 0x5f
    )
      out += ch;
    else {
      const b = utf8Bytes(c);
      for (let i = 0; i < b.length; i++) out += pctByte(b[i]);
    }
  }
  return out;
}

function serializeParams(list) {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out += '&';
    out += formEncode(list[i][0]) + '=' + formEncode(list[i][1]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// URLSearchParams

function missingArgs(...names) {
  let msg;
  if (names.length === 1) msg = `The "${names[0]}" argument must be specified`;
  else msg = `The "${names[0]}" and "${names[1]}" arguments must be specified`;
  return makeError(TypeError, 'ERR_MISSING_ARGS', msg);
}

function checkParams(self) {
  if (self === null || typeof self !== 'object' || !ObjectPrototypeHasOwnProperty(self, kList)) {
    throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParams');
  }
}

function updateParams(self) {
  const url = self[kURL];
  if (!url) return;
  const ctx = url[kContext];
  const s = serializeParams(self[kList]);
  ctx.query = s === '' ? null : s;
  if (ctx.query === null) stripTrailingSpacesFromOpaquePath(ctx);
}

class URLSearchParams {
  constructor(init = undefined) {
    ObjectDefineProperty(this, kList, { value: [], writable: true });
    ObjectDefineProperty(this, kURL, { value: null, writable: true });
    const list = this[kList];
    if (init == null) {
      // empty
    } else if (typeof init === 'object' || typeof init === 'function') {
      const method = init[SymbolIterator];
      if (method != null) {
        if (typeof method !== 'function') {
          throw makeError(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
        }
        for (const pair of init) {
          if (
            pair == null ||
            (typeof pair !== 'object' && typeof pair !== 'function') ||
            typeof pair[SymbolIterator] !== 'function'
          ) {
            throw makeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          const conv = [];
          for (const el of pair) ArrayPrototypePush(conv, toUSVString(el));
          if (conv.length !== 2) {
            throw makeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          ArrayPrototypePush(list, conv);
        }
      } else {
        for (const key of ReflectOwnKeys(init)) {
          const desc = ReflectGetOwnPropertyDescriptor(init, key);
          if (desc !== undefined && desc.enumerable) {
            const k = toUSVString(key);
            const v = toUSVString(init[key]);
            const idx = ArrayPrototypeFindIndex(list, (e) => e[0] === k);
            if (idx >= 0) list[idx][1] = v;
            else ArrayPrototypePush(list, [k, v]);
          }
        }
      }
    } else {
      let s = toUSVString(init);
      if (s[0] === '?') s = StringPrototypeSlice(s, 1);
      this[kList] = parseParams(s);
    }
  }

  get size() {
    checkParams(this);
    return this[kList].length;
  }

  append(name, value) {
    checkParams(this);
    if (arguments.length < 2) throw missingArgs('name', 'value');
    ArrayPrototypePush(this[kList], [toUSVString(name), toUSVString(value)]);
    updateParams(this);
  }

  delete(name, value = undefined) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    const list = this[kList];
    if (value !== undefined) {
      value = toUSVString(value);
      this[kList] = ArrayPrototypeFilter(list, (e) => !(e[0] === name && e[1] === value));
    } else {
      this[kList] = ArrayPrototypeFilter(list, (e) => e[0] !== name);
    }
    updateParams(this);
  }

  get(name) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    for (const e of this[kList]) if (e[0] === name) return e[1];
    return null;
  }

  getAll(name) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    const out = [];
    for (const e of this[kList]) if (e[0] === name) ArrayPrototypePush(out, e[1]);
    return out;
  }

  has(name, value = undefined) {
    checkParams(this);
    if (arguments.length < 1) throw missingArgs('name');
    name = toUSVString(name);
    if (value !== undefined) {
      value = toUSVString(value);
      return ArrayPrototypeSome(this[kList], (e) => e[0] === name && e[1] === value);
    }
    return ArrayPrototypeSome(this[kList], (e) => e[0] === name);
  }

  set(name, value) {
    checkParams(this);
    if (arguments.length < 2) throw missingArgs('name', 'value');
    name = toUSVString(name);
    value = toUSVString(value);
    const list = this[kList];
    let found = false;
    const out = [];
    for (const e of list) {
      if (e[0] === name) {
        if (!found) {
          ArrayPrototypePush(out, [name, value]);
          found = true;
        }
      } else {
        ArrayPrototypePush(out, e);
      }
    }
    if (!found) ArrayPrototypePush(out, [name, value]);
    this[kList] = out;
    updateParams(this);
  }

  sort() {
    checkParams(this);
    ArrayPrototypeSort(this[kList], (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    updateParams(this);
  }

  entries() {
    checkParams(this);
    return makeIterator(this, 'key+value');
  }

  forEach(callback, thisArg = undefined) {
    checkParams(this);
    if (typeof callback !== 'function') throw ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
    let list = this[kList];
    for (let i = 0; i < list.length; i++) {
      const [k, v] = list[i];
      FunctionPrototypeCall(callback, thisArg, v, k, this);
      list = this[kList];
    }
  }

  keys() {
    checkParams(this);
    return makeIterator(this, 'key');
  }

  values() {
    checkParams(this);
    return makeIterator(this, 'value');
  }

  toString() {
    checkParams(this);
    return serializeParams(this[kList]);
  }

  [customInspect](depth, opts) {
    if (typeof depth === 'number' && depth < 0) return '[Object]';
    const inspect = require('util').inspect;
    const parts = ArrayPrototypeMap(this[kList], ([k, v]) => `${inspect(k, opts)} => ${inspect(v, opts)}`);
    if (parts.length === 0) return 'URLSearchParams {}';
    const one = `URLSearchParams { ${parts.join(', ')} }`;
    const breakLength = opts && typeof opts.breakLength === 'number' ? opts.breakLength : 80;
    if (one.length <= breakLength) return one;
    return `URLSearchParams {\n  ${parts.join(',\n  ')} }`;
  }
}

ObjectDefineProperty(URLSearchParams.prototype, SymbolIterator, {
  value: URLSearchParams.prototype.entries,
  writable: true,
  configurable: true,
});
ObjectDefineProperty(URLSearchParams.prototype, SymbolToStringTag, {
  value: 'URLSearchParams',
  configurable: true,
});

const IteratorProto = ObjectGetPrototypeOf(ObjectGetPrototypeOf([][SymbolIterator]()));
const URLSearchParamsIteratorPrototype = ObjectCreate(IteratorProto, {
  next: {
    value: function next() {
      const st = this && this[kQuery];
      if (!st) {
        throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      }
      const list = st.target[kList];
      if (st.index >= list.length) return { value: undefined, done: true };
      const [k, v] = list[st.index++];
      const value = st.kind === 'key' ? k : st.kind === 'value' ? v : [k, v];
      return { value, done: false };
    },
    writable: true,
    configurable: true,
    enumerable: true,
  },
  [SymbolToStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
});

function makeIterator(target, kind) {
  const it = ObjectCreate(URLSearchParamsIteratorPrototype);
  ObjectDefineProperty(it, kQuery, { value: { target, kind, index: 0 } });
  return it;
}

// ---------------------------------------------------------------------------------------
// URL

function checkURL(self) {
  if (self === null || typeof self !== 'object' || !ObjectPrototypeHasOwnProperty(self, kContext)) {
    throw makeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URL');
  }
}

function parseWithBase(input, base) {
  let baseRec = null;
  if (base !== undefined) {
    baseRec = basicParse(base, null);
    if (baseRec === FAIL) return FAIL;
  }
  return basicParse(input, baseRec);
}

function syncSearchParams(self) {
  const sp = self[kQuery];
  if (sp) {
    const q = self[kContext].query;
    sp[kList] = q ? parseParams(q) : [];
  }
}

class URL {
  constructor(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    input = toUSVString(input);
    if (base !== undefined) base = toUSVString(base);
    const rec = parseWithBase(input, base);
    if (rec === FAIL) throw invalidURL(input, base);
    ObjectDefineProperty(this, kContext, { value: rec, writable: true });
    ObjectDefineProperty(this, kQuery, { value: null, writable: true });
  }

  static canParse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    input = toUSVString(input);
    if (base !== undefined) base = toUSVString(base);
    return parseWithBase(input, base) !== FAIL;
  }

  static createObjectURL(obj) {
    const blobs = require('node:internal/blob').internals;
    if (!blobs.isBlob(obj)) throw ERR_INVALID_ARG_TYPE('obj', 'Blob', obj);
    const id = require('node:crypto').randomUUID();
    blobs.storeObjectURL(id, obj);
    return `blob:nodedata:${id}`;
  }

  static revokeObjectURL(url) {
    if (arguments.length === 0) throw missingArgs('url');
    require('node:internal/blob').internals.revokeObjectURL(url);
  }

  static parse(input, base = undefined) {
    if (arguments.length === 0) throw missingArgs('url');
    try {
      return new URL(input, base);
    } catch {
      return null;
    }
  }

  toString() {
    checkURL(this);
    return serialize(this[kContext], false);
  }

  get href() {
    checkURL(this);
    return serialize(this[kContext], false);
  }
  set href(value) {
    checkURL(this);
    value = toUSVString(value);
    const rec = basicParse(value, null);
    if (rec === FAIL) throw invalidURL(value);
    this[kContext] = rec;
    syncSearchParams(this);
  }

  get origin() {
    checkURL(this);
    return origin(this[kContext]);
  }

  get protocol() {
    checkURL(this);
    return this[kContext].scheme + ':';
  }
  set protocol(value) {
    checkURL(this);
    basicParse(toUSVString(value) + ':', null, this[kContext], S.SCHEME_START);
  }

  get username() {
    checkURL(this);
    return this[kContext].username;
  }
  set username(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    ctx.username = encodeStr(toUSVString(value), inUserinfo);
  }

  get password() {
    checkURL(this);
    return this[kContext].password;
  }
  set password(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    ctx.password = encodeStr(toUSVString(value), inUserinfo);
  }

  get host() {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null) return '';
    if (ctx.port === null) return ctx.host;
    return ctx.host + ':' + ctx.port;
  }
  set host(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    setWith(ctx, toUSVString(value), S.HOST);
  }

  get hostname() {
    checkURL(this);
    const h = this[kContext].host;
    return h === null ? '' : h;
  }
  set hostname(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    setWith(ctx, toUSVString(value), S.HOSTNAME);
  }

  get port() {
    checkURL(this);
    const p = this[kContext].port;
    return p === null ? '' : String(p);
  }
  set port(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (ctx.host === null || ctx.host === '' || ctx.scheme === 'file') return;
    value = toUSVString(value);
    if (value === '') ctx.port = null;
    else setWith(ctx, value, S.PORT);
  }

  get pathname() {
    checkURL(this);
    return serializePath(this[kContext]);
  }
  set pathname(value) {
    checkURL(this);
    const ctx = this[kContext];
    if (hasOpaquePath(ctx)) return;
    const copy = { ...ctx, path: [] };
    const r = basicParse(toUSVString(value), null, copy, S.PATH_START);
    if (r !== FAIL) this[kContext] = copy;
  }

  get search() {
    checkURL(this);
    const q = this[kContext].query;
    return q === null || q === '' ? '' : '?' + q;
  }
  set search(value) {
    checkURL(this);
    const ctx = this[kContext];
    value = toUSVString(value);
    if (value === '') {
      ctx.query = null;
      if (this[kQuery]) this[kQuery][kList] = [];
      stripTrailingSpacesFromOpaquePath(ctx);
      return;
    }
    const input = value[0] === '?' ? StringPrototypeSlice(value, 1) : value;
    const copy = { ...ctx, query: '' };
    basicParse(input, null, copy, S.QUERY);
    this[kContext] = copy;
    if (this[kQuery]) this[kQuery][kList] = parseParams(input);
  }

  get searchParams() {
    checkURL(this);
    if (this[kQuery] === null) {
      const sp = new URLSearchParams(this[kContext].query || '');
      sp[kURL] = this;
      this[kQuery] = sp;
    }
    return this[kQuery];
  }

  get hash() {
    checkURL(this);
    const f = this[kContext].fragment;
    return f === null || f === '' ? '' : '#' + f;
  }
  set hash(value) {
    checkURL(this);
    const ctx = this[kContext];
    value = toUSVString(value);
    if (value === '') {
      ctx.fragment = null;
      stripTrailingSpacesFromOpaquePath(ctx);
      return;
    }
    const input = value[0] === '#' ? StringPrototypeSlice(value, 1) : value;
    const copy = { ...ctx, fragment: '' };
    basicParse(input, null, copy, S.FRAGMENT);
    this[kContext] = copy;
  }

  toJSON() {
    checkURL(this);
    return serialize(this[kContext], false);
  }

  [customInspect](depth, opts) {
    if (typeof depth === 'number' && depth < 0) return this;
    const inspect = require('util').inspect;
    const obj = {
      href: this.href,
      origin: this.origin,
      protocol: this.protocol,
      username: this.username,
      password: this.password,
      host: this.host,
      hostname: this.hostname,
      port: this.port,
      pathname: this.pathname,
      search: this.search,
      searchParams: this.searchParams,
      hash: this.hash,
    };
    const name = (this.constructor && this.constructor.name) || 'URL';
    return `${name} ${inspect(obj, opts)}`;
  }
}

// Setters with a state override run on a copy so a failure leaves the URL unchanged.
function setWith(ctx, value, state) {
  const copy = { ...ctx, path: ArrayIsArray(ctx.path) ? ArrayPrototypeSlice(ctx.path) : ctx.path };
  const r = basicParse(value, null, copy, state);
  if (r !== FAIL) ObjectAssign(ctx, copy);
}

for (const name of [
  'toString',
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'searchParams',
  'hash',
  'toJSON',
]) {
  const d = ObjectGetOwnPropertyDescriptor(URL.prototype, name);
  d.enumerable = true;
  ObjectDefineProperty(URL.prototype, name, d);
}
for (const name of ['size', 'append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'entries', 'forEach', 'keys', 'values', 'toString']) {
  const d = ObjectGetOwnPropertyDescriptor(URLSearchParams.prototype, name);
  d.enumerable = true;
  ObjectDefineProperty(URLSearchParams.prototype, name, d);
}
ObjectDefineProperty(URL.prototype, SymbolToStringTag, { value: 'URL', configurable: true });

// ---------------------------------------------------------------------------------------
// Node helpers

function isURL(v) {
  return v != null && typeof v === 'object' && ObjectPrototypeHasOwnProperty(v, kContext);
}

function fileURLToPath(path) {
  if (typeof path === 'string') path = new URL(path);
  else if (!isURL(path)) throw ERR_INVALID_ARG_TYPE('path', ['string', 'URL'], path);
  if (path.protocol !== 'file:') throw makeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (path.hostname !== '') {
    throw makeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', `File URL host must be "localhost" or empty on ${process.platform}`);
  }
  const pathname = path.pathname;
  for (let n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%') {
      const third = StringPrototypeCodePointAt(pathname, n + 2) | 0x20;
      if (pathname[n + 1] === '2' && third === 102) {
        throw makeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
    }
  }
  return decodeURIComponent(pathname);
}

function pathToFileURL(filepath) {
  if (typeof filepath !== 'string') throw ERR_INVALID_ARG_TYPE('path', 'string', filepath);
  const path = require('path');
  let resolved = path.resolve(filepath);
  if (StringPrototypeCharCodeAt(filepath, filepath.length - 1) === 47 && resolved[resolved.length - 1] !== path.sep) resolved += '/';
  let enc = '';
  for (const ch of resolved) {
    if (ch === '%') enc += '%25';
    else if (ch === '\\') enc += '%5C';
    else if (ch === '\n') enc += '%0A';
    else if (ch === '\r') enc += '%0D';
    else if (ch === '\t') enc += '%09';
    else if (ch === '?') enc += '%3F';
    else if (ch === '#') enc += '%23';
    else enc += ch;
  }
  return new URL('file://' + enc);
}

function urlToHttpOptions(url) {
  const options = {
    __proto__: null,
    protocol: url.protocol,
    hostname: typeof url.hostname === 'string' && StringPrototypeStartsWith(url.hostname, '[') ? StringPrototypeSlice(url.hostname, 1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) {
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  }
  return options;
}

function domainToASCII(domain) {
  if (arguments.length < 1) throw missingArgs('domain');
  const h = parseHost(`${domain}`, false);
  return h === FAIL ? '' : h;
}

function domainToUnicode(domain) {
  if (arguments.length < 1) throw missingArgs('domain');
  const h = parseHost(`${domain}`, false);
  if (h === FAIL) return '';
  const labels = ArrayPrototypeMap(StringPrototypeSplit(h, '.'), (l) => {
    if (!StringPrototypeStartsWith(l, 'xn--')) return l;
    const d = punyDecode(StringPrototypeSlice(l, 4));
    return d === null ? l : d;
  });
  return ArrayPrototypeJoin(labels, '.');
}

// ---------------------------------------------------------------------------------------
// Legacy API

// Node's legacy URL API (`url.parse`, `url.format`, `url.resolve`, `url.resolveObject`,
// `Url`): Node's own lenient, pre-WHATWG parsing, reimplemented from its documented and
// observed behaviour. Partial: url.resolve follows RFC 3986 reference resolution over the
// legacy parse; Node's quirks for bases in non-slashed schemes (mailto:, foo://) where the
// host acts as the first path segment are only approximated; no DEP0170 warning is emitted.

const SLASHED = new Set(['http', 'https', 'ftp', 'gopher', 'file', 'http:', 'https:', 'ftp:', 'gopher:', 'file:', 'ws:', 'wss:', 'ws', 'wss']);
const HOSTLESS = new Set(['javascript', 'javascript:']);
const UNSAFE = new Set(['javascript', 'javascript:']);
const AUTO_ESCAPE = {
  '\t': '%09', '\n': '%0A', '\r': '%0D', ' ': '%20', '"': '%22', "'": '%27', '<': '%3C', '>': '%3E',
  '\\': '%5C', '^': '%5E', '`': '%60', '{': '%7B', '|': '%7C', '}': '%7D',
};
const NON_HOST = new Set(['\t', '\n', '\r', ' ', '"', '%', "'", ';', '<', '>', '\\', '^', '`', '{', '|', '}']);
// eslint-disable-next-line no-control-regex
const FORBIDDEN_HOST = /[\0\t\n\r #%/:<>?@[\\\]^|]/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_HOST_V6 = /[\0\t\n\r #%/<>?@\\^|]/;

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  const u = new Url();
  u.parse(url, parseQueryString, slashesDenoteHost);
  return u;
}

function isWs(c) {
  return c < 33 || c === 0xa0 || c === 0xfeff;
}

Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
  if (typeof url !== 'string') throw ERR_INVALID_ARG_TYPE('url', 'string', url);
  // Trim whitespace; turn backslashes before the first ? or # into slashes.
  let start = 0;
  let end = url.length;
  while (start < end && isWs(StringPrototypeCharCodeAt(url, start))) start++;
  while (end > start && isWs(StringPrototypeCharCodeAt(url, end - 1))) end--;
  let rest = '';
  let split = false;
  let hasHash = false;
  let hasAt = false;
  for (let i = start; i < end; i++) {
    const ch = url[i];
    if (!split) {
      if (ch === '@') hasAt = true;
      else if (ch === '#' || ch === '?') {
        split = true;
        if (ch === '#') hasHash = true;
      } else if (ch === '\\') {
        rest += '/';
        continue;
      }
    } else if (ch === '#') {
      hasHash = true;
    }
    rest += ch;
  }

  if (!slashesDenoteHost && !hasHash && !hasAt) {
    const simple = /^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/.exec(rest);
    if (simple) {
      this.path = rest;
      this.href = rest;
      this.pathname = simple[1];
      if (simple[2]) {
        this.search = simple[2];
        this.query = parseQueryString ? require('querystring').parse(StringPrototypeSlice(this.search, 1)) : StringPrototypeSlice(this.search, 1);
      } else if (parseQueryString) {
        this.search = null;
        this.query = { __proto__: null };
      }
      return this;
    }
  }

  let lowerProto;
  const protoMatch = /^[a-z0-9.+-]+:/i.exec(rest);
  let proto;
  if (protoMatch) {
    proto = protoMatch[0];
    lowerProto = StringPrototypeToLowerCase(proto);
    this.protocol = lowerProto;
    rest = StringPrototypeSlice(rest, proto.length);
  }

  let slashes;
  if (slashesDenoteHost || proto || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
    slashes = StringPrototypeStartsWith(rest, '//');
    if (slashes && !(proto && HOSTLESS.has(lowerProto))) {
      rest = StringPrototypeSlice(rest, 2);
      this.slashes = true;
    }
  }

  if (!HOSTLESS.has(lowerProto) && (slashes || (proto && !SLASHED.has(proto)))) {
    let hostEnd = -1;
    let atSign = -1;
    let nonHost = -1;
    for (let i = 0; i < rest.length && hostEnd === -1; i++) {
      const ch = rest[i];
      if (NON_HOST.has(ch)) {
        if (nonHost === -1) nonHost = i;
      } else if (ch === '#' || ch === '/' || ch === '?') {
        if (nonHost === -1) nonHost = i;
        hostEnd = i;
      } else if (ch === '@') {
        atSign = i;
        nonHost = -1;
      }
    }
    let hstart = 0;
    if (atSign !== -1) {
      this.auth = decodeURIComponent(StringPrototypeSlice(rest, 0, atSign));
      hstart = atSign + 1;
    }
    if (nonHost === -1) {
      this.host = StringPrototypeSlice(rest, hstart);
      rest = '';
    } else {
      this.host = StringPrototypeSlice(rest, hstart, nonHost);
      rest = StringPrototypeSlice(rest, nonHost);
    }
    this.parseHost();
    if (typeof this.hostname !== 'string') this.hostname = '';
    const hostname = this.hostname;
    const ipv6 = hostname[0] === '[' && hostname[hostname.length - 1] === ']';
    if (!ipv6) {
      for (let i = 0; i < hostname.length; i++) {
        const ch = hostname[i];
        if (ch === '/' || ch === '\\' || ch === '#' || ch === '?' || ch === ':') {
          this.hostname = StringPrototypeSlice(hostname, 0, i);
          rest = `/${hostname.slice(i)}${rest}`;
          break;
        }
      }
    }
    if (this.hostname.length > 255) this.hostname = '';
    else this.hostname = StringPrototypeToLowerCase(this.hostname);
    if (this.hostname !== '') {
      if (ipv6) {
        if (RegExpPrototypeTest(FORBIDDEN_HOST_V6, this.hostname)) throw invalidURL(url);
      } else {
        // eslint-disable-next-line no-control-regex
        if (/[^\x00-\x7f]/.test(this.hostname)) {
          const a = domainToASCIIInternal(this.hostname);
          this.hostname = a === FAIL ? '' : a;
        }
        if (RegExpPrototypeTest(FORBIDDEN_HOST, this.hostname)) throw invalidURL(url);
      }
    }
    const p = this.port ? ':' + this.port : '';
    this.host = (this.hostname || '') + p;
    if (ipv6) {
      this.hostname = StringPrototypeSlice(this.hostname, 1, -1);
      if (rest[0] !== '/') rest = '/' + rest;
    }
  }

  if (!UNSAFE.has(lowerProto)) {
    let esc = '';
    for (const ch of rest) esc += AUTO_ESCAPE[ch] || ch;
    rest = esc;
  }

  let q = -1;
  let h = -1;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '#') {
      this.hash = StringPrototypeSlice(rest, i);
      h = i;
      break;
    } else if (rest[i] === '?' && q === -1) {
      q = i;
    }
  }
  if (q !== -1) {
    this.search = h === -1 ? StringPrototypeSlice(rest, q) : StringPrototypeSlice(rest, q, h);
    this.query = h === -1 ? StringPrototypeSlice(rest, q + 1) : StringPrototypeSlice(rest, q + 1, h);
    if (parseQueryString) this.query = require('querystring').parse(this.query);
  } else if (parseQueryString) {
    this.search = null;
    this.query = { __proto__: null };
  }
  const first = q !== -1 && (h === -1 || q < h) ? q : h;
  if (first === -1) {
    if (rest.length > 0) this.pathname = rest;
  } else if (first > 0) {
    this.pathname = StringPrototypeSlice(rest, 0, first);
  }
  if (SLASHED.has(lowerProto) && this.hostname && !this.pathname) this.pathname = '/';
  if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
  this.href = this.format();
  return this;
};

Url.prototype.parseHost = function parseHost() {
  let host = this.host;
  const m = /:[0-9]*$/.exec(host);
  if (m) {
    const port = m[0];
    if (port !== ':') this.port = StringPrototypeSlice(port, 1);
    host = StringPrototypeSlice(host, 0, host.length - port.length);
  }
  if (host) this.hostname = host;
};

function escapeAuth(auth) {
  let out = '';
  for (const ch of auth) {
    if (/^[A-Za-z0-9!'()*\-._~:]$/.test(ch)) out += ch;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  }
  return out;
}

Url.prototype.format = function format() {
  let auth = this.auth || '';
  if (auth) auth = escapeAuth(auth) + '@';
  let protocol = this.protocol || '';
  let pathname = this.pathname || '';
  let hash = this.hash || '';
  let host = '';
  let query = '';
  if (this.host) {
    host = auth + this.host;
  } else if (this.hostname) {
    const hn = this.hostname;
    host = auth + (StringPrototypeIncludes(hn, ':') && !(hn[0] === '[' && hn[hn.length - 1] === ']') ? '[' + hn + ']' : hn);
    if (this.port) host += ':' + this.port;
  }
  if (this.query !== null && typeof this.query === 'object') query = require('querystring').stringify(this.query);
  let search = this.search || (query && '?' + query) || '';
  if (protocol && protocol[protocol.length - 1] !== ':') protocol += ':';
  pathname = StringPrototypeReplace(pathname, /[?#]/g, (c) => (c === '#' ? '%23' : '%3F'));
  if (this.slashes || SLASHED.has(protocol)) {
    if (this.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = '/' + pathname;
      host = '//' + host;
    } else if (protocol.length >= 4 && StringPrototypeStartsWith(protocol, 'file')) {
      host = '//';
    }
  }
  search = StringPrototypeReplace(search, /#/g, '%23');
  if (hash && hash[0] !== '#') hash = '#' + hash;
  if (search && search[0] !== '?') search = '?' + search;
  return protocol + host + pathname + search + hash;
};

// RFC 3986 remove_dot_segments; a relative path keeps the `..` it cannot resolve (as Node).
function removeDots(path) {
  const abs = StringPrototypeStartsWith(path, '/');
  const segs = StringPrototypeSplit(path, '/');
  const out = [];
  let up = 0;
  for (let i = abs ? 1 : 0; i < segs.length; i++) {
    const s = segs[i];
    const last = i === segs.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..') {
        if (out.length > 0) ArrayPrototypePop(out);
        else if (!abs) up++;
      }
      if (last) ArrayPrototypePush(out, '');
    } else {
      ArrayPrototypePush(out, s);
    }
  }
  for (; up > 0; up--) ArrayPrototypeUnshift(out, '..');
  const r = (abs ? '/' : '') + ArrayPrototypeJoin(out, '/');
  return r === '' && StringPrototypeEndsWith(path, '/') ? '/' : r;
}

Url.prototype.resolveObject = function resolveObject(relative) {
  const rel = typeof relative === 'string' ? urlParse(relative, false, true) : relative;
  const result = new Url();
  ObjectAssign(result, this);
  result.hash = rel.hash;
  if (rel.href === '') {
    result.href = result.format();
    return result;
  }
  if (rel.protocol && rel.host) {
    ObjectAssign(result, rel);
    result.href = result.format();
    return result;
  }
  if (rel.protocol && rel.protocol !== result.protocol) {
    if (!SLASHED.has(rel.protocol) || rel.host || rel.protocol === 'file:') {
      ObjectAssign(result, rel);
      result.href = result.format();
      return result;
    }
    // `https:g` against another scheme: the first path segment is the host.
    const segs = StringPrototypeSplit(rel.pathname || '', '/');
    let host = '';
    while (segs.length && !(host = ArrayPrototypeShift(segs)));
    if (segs[0] !== '') ArrayPrototypeUnshift(segs, '');
    if (segs.length < 2) ArrayPrototypeUnshift(segs, '');
    ObjectAssign(result, rel);
    result.host = result.hostname = host;
    result.pathname = ArrayPrototypeJoin(segs, '/');
    result.path = result.pathname + (result.search || '');
    result.slashes = true;
    result.href = result.format();
    return result;
  }
  if (rel.slashes && rel.host !== null) {
    for (const k of ObjectKeys(rel)) if (k !== 'protocol') result[k] = rel[k];
    if (SLASHED.has(result.protocol) && result.hostname && !result.pathname) result.pathname = result.path = '/';
    result.href = result.format();
    return result;
  }
  // Non-slashed schemes (mailto:) keep their host as the first path segment.
  const psychotic = result.protocol && !SLASHED.has(result.protocol) && !result.slashes;
  let basePath = result.pathname || '';
  if (psychotic) basePath = (result.host || '') + (basePath ? '/' + basePath : '');
  let path;
  if (!rel.pathname) {
    path = basePath;
    if (rel.search !== null) {
      result.search = rel.search;
      result.query = rel.query;
    }
  } else {
    if (StringPrototypeStartsWith(rel.pathname, '/')) {
      path = rel.pathname;
    } else if (result.host && !basePath && !psychotic) {
      path = '/' + rel.pathname;
    } else {
      const slash = StringPrototypeLastIndexOf(basePath, '/');
      path = StringPrototypeSlice(basePath, 0, slash + 1) + rel.pathname;
    }
    path = removeDots(path);
    result.search = rel.search;
    result.query = rel.query;
  }
  if (psychotic) {
    const slash = StringPrototypeIndexOf(path, '/');
    const host = slash < 0 ? path : StringPrototypeSlice(path, 0, slash);
    path = slash < 0 ? '' : StringPrototypeSlice(path, slash + 1);
    result.host = result.hostname = host;
    result.port = null;
  }
  result.pathname = path === '' ? null : path;
  if (SLASHED.has(result.protocol) && result.hostname && !result.pathname) result.pathname = '/';
  result.path = result.pathname || result.search ? (result.pathname || '') + (result.search || '') : null;
  result.auth = rel.auth || result.auth;
  result.slashes = result.slashes || rel.slashes;
  result.href = result.format();
  return result;
};

Url.prototype.resolve = function resolve(relative) {
  return this.resolveObject(urlParse(relative, false, true)).format();
};

function urlResolve(source, relative) {
  return urlParse(source, false, true).resolve(relative);
}

function urlResolveObject(source, relative) {
  if (!source) return relative;
  return urlParse(source, false, true).resolveObject(relative);
}

function urlFormat(urlObject, options) {
  if (typeof urlObject === 'string') {
    urlObject = urlParse(urlObject);
  } else if (typeof urlObject !== 'object' || urlObject === null) {
    throw ERR_INVALID_ARG_TYPE('urlObject', ['Object', 'string'], urlObject);
  } else if (isURL(urlObject)) {
    let fragment = true;
    let unicode = false;
    let search = true;
    let auth = true;
    if (options !== undefined) {
      if (options === null || typeof options !== 'object') throw ERR_INVALID_ARG_TYPE('options', 'Object', options);
      if (options.fragment !== undefined) fragment = Boolean(options.fragment);
      if (options.unicode !== undefined) unicode = Boolean(options.unicode);
      if (options.search !== undefined) search = Boolean(options.search);
      if (options.auth !== undefined) auth = Boolean(options.auth);
    }
    const ctx = { ...urlObject[kContext] };
    if (!auth) {
      ctx.username = '';
      ctx.password = '';
    }
    if (!fragment) ctx.fragment = null;
    if (!search) ctx.query = null;
    if (unicode && ctx.host) ctx.host = domainToUnicode(ctx.host);
    return serialize(ctx, false);
  }
  return FunctionPrototypeCall(Url.prototype.format, urlObject);
}

module.exports = {
  Url,
  parse: urlParse,
  resolve: urlResolve,
  resolveObject: urlResolveObject,
  format: urlFormat,
  URL,
  URLSearchParams,
  domainToASCII,
  domainToUnicode,
  pathToFileURL,
  fileURLToPath,
  urlToHttpOptions,
};
