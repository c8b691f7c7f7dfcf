'use strict';
// URL strings and bytes: USVString conversion, UTF-8 encode/decode and the URL Standard's
// percent-encode sets (§1.3).
const {
  ArrayPrototypePush, StringFromCharCode, StringFromCodePoint, StringPrototypeCharCodeAt,
  StringPrototypeCodePointAt, StringPrototypeSlice,
} = primordials;

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

module.exports = {
  encodeCp, encodeStr, hexVal, inC0, inFragment, inPath, inQuery, inSpecialQuery, inUserinfo,
  isHexCode, pctByte, percentDecodeBytes, stringBytes, toUSVString, utf8Bytes, utf8Decode,
};
