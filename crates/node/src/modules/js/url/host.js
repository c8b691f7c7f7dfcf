'use strict';
// Hosts (URL Standard §3): special schemes and their ports, the IPv4 and IPv6 parsers and
// serializers, and domain to ASCII (IDNA with Punycode, UTS #46 mapping as Node's does it).
const {
  ArrayFrom, ArrayPrototypeJoin, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeSplice,
  ArrayPrototypeUnshift, MathFloor, NumberIsNaN, ObjectPrototypeHasOwnProperty, RegExpPrototypeTest,
  Set, String, StringFromCharCode, StringFromCodePoint, StringPrototypeCharCodeAt,
  StringPrototypeCodePointAt, StringPrototypeLastIndexOf, StringPrototypeNormalize,
  StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith,
  StringPrototypeToLowerCase,
} = primordials;

const {
  encodeStr,
  hexVal,
  inC0,
  isHexCode,
  percentDecodeBytes,
  stringBytes,
  utf8Decode,
} = require('node:internal/url/encoding');

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

module.exports = {
  FAIL, defaultPort, domainToASCIIInternal, isSpecialScheme, parseHost, punyDecode,
};
