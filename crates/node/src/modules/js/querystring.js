'use strict';
// node:querystring: Node's legacy query-string codec (its own escaping rules, not WHATWG).
const {
  ArrayFrom, ArrayIsArray, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSlice, MathMax,
  ObjectKeys, StringFromCharCode, StringFromCodePoint, StringPrototypeCharCodeAt,
  StringPrototypeIndexOf, StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit,
} = primordials;

const noEscape = new Int8Array(128);
for (const c of "!'()*-._~") noEscape[c.charCodeAt(0)] = 1;
for (let i = 48; i < 58; i++) noEscape[i] = 1;
for (let i = 65; i < 91; i++) noEscape[i] = 1;
for (let i = 97; i < 123; i++) noEscape[i] = 1;
const hex = ArrayFrom({ length: 256 }, (_, i) => `%${i < 16 ? '0' : ''}${i.toString(16).toUpperCase()}`);

function encodeStr(str) {
  let out = '';
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    let c = StringPrototypeCharCodeAt(str, i);
    if (c < 0x80) {
      if (noEscape[c] === 1) continue;
      out += StringPrototypeSlice(str, last, i) + hex[c];
      last = i + 1;
      continue;
    }
    out += StringPrototypeSlice(str, last, i);
    if (c < 0x800) {
      out += hex[0xC0 | (c >> 6)] + hex[0x80 | (c & 0x3F)];
    } else if (c < 0xD800 || c >= 0xE000) {
      out += hex[0xE0 | (c >> 12)] + hex[0x80 | ((c >> 6) & 0x3F)] + hex[0x80 | (c & 0x3F)];
    } else {
      ++i;
      if (i >= str.length) {
        const err = new URIError('URI malformed');
        err.code = 'ERR_INVALID_URI';
        throw err;
      }
      const c2 = StringPrototypeCharCodeAt(str, i) & 0x3FF;
      c = 0x10000 + (((c & 0x3FF) << 10) | c2);
      out += hex[0xF0 | (c >> 18)] + hex[0x80 | ((c >> 12) & 0x3F)] + hex[0x80 | ((c >> 6) & 0x3F)] + hex[0x80 | (c & 0x3F)];
    }
    last = i + 1;
  }
  if (last === 0) return str;
  if (last < str.length) return out + StringPrototypeSlice(str, last);
  return out;
}

function escape(str) {
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str += '';
  }
  return encodeStr(str);
}

function utf8Encode(ch) {
  const c = StringPrototypeCharCodeAt(ch, 0);
  if (c < 0x800) return [0xC0 | (c >> 6), 0x80 | (c & 0x3F)];
  return [0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)];
}

// UTF-8 bytes to a string, U+FFFD for each invalid sequence (as Buffer#toString does).
function utf8Decode(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    let need = 0;
    let cp = 0;
    let min = 0;
    if (b < 0x80) {
      out += StringFromCharCode(b);
      i++;
      continue;
    } else if (b >= 0xC2 && b < 0xE0) {
      need = 1; cp = b & 0x1F; min = 0x80;
    } else if (b >= 0xE0 && b < 0xF0) {
      need = 2; cp = b & 0x0F; min = 0x800;
    } else if (b >= 0xF0 && b < 0xF5) {
      need = 3; cp = b & 0x07; min = 0x10000;
    } else {
      out += '\uFFFD';
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const n = bytes[i + j];
      if (n === undefined || (n & 0xC0) !== 0x80) break;
      cp = (cp << 6) | (n & 0x3F);
    }
    if (j <= need || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) {
      out += '\uFFFD';
      i += MathMax(1, j);
      continue;
    }
    out += StringFromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

function unescapeBuffer(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = StringPrototypeCharCodeAt(s, i);
    if (c === 37 && i + 2 < s.length + 0 && /^[0-9a-fA-F]{2}$/.test(StringPrototypeSlice(s, i + 1, i + 3))) {
      ArrayPrototypePush(bytes, parseInt(StringPrototypeSlice(s, i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      ArrayPrototypePush(bytes, c);
    } else {
      for (const b of utf8Encode(s[i])) ArrayPrototypePush(bytes, b);
    }
  }
  return typeof Buffer === 'function' ? Buffer.from(bytes) : Uint8Array.from(bytes);
}

function unescape(s, decodeSpaces) {
  try {
    return decodeURIComponent(s);
  } catch {
    return utf8Decode(unescapeBuffer(s));
  }
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && isFinite(v)) return `${v}`;
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep, eq, options) {
  sep = sep || '&';
  eq = eq || '=';
  let encode = escape;
  if (options && typeof options.encodeURIComponent === 'function') encode = options.encodeURIComponent;
  const convert = (v) => encode(stringifyPrimitive(v));
  if (obj !== null && typeof obj === 'object') {
    const keys = ObjectKeys(obj);
    const fields = [];
    for (const k of keys) {
      const v = obj[k];
      const ks = convert(k) + eq;
      if (ArrayIsArray(v)) {
        for (const item of v) ArrayPrototypePush(fields, ks + convert(item));
      } else {
        ArrayPrototypePush(fields, ks + convert(v));
      }
    }
    return ArrayPrototypeJoin(fields, sep);
  }
  return '';
}

function parse(qs, sep, eq, options) {
  const obj = { __proto__: null };
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  sep = sep ? String(sep) : '&';
  eq = eq ? String(eq) : '=';
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  let decode = unescape;
  if (options && typeof options.decodeURIComponent === 'function') decode = options.decodeURIComponent;
  let parts = StringPrototypeSplit(qs, sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = ArrayPrototypeSlice(parts, 0, maxKeys);
  for (const part of parts) {
    if (part.length === 0) continue;
    const idx = StringPrototypeIndexOf(part, eq);
    let k;
    let v;
    if (idx >= 0) {
      k = StringPrototypeSlice(part, 0, idx);
      v = StringPrototypeSlice(part, idx + eq.length);
    } else {
      k = part;
      v = '';
    }
    const dec = (s) => {
      s = StringPrototypeReplace(s, /\+/g, ' ');
      try {
        return decode(s);
      } catch {
        return unescape(s, true);
      }
    };
    k = dec(k);
    v = dec(v);
    if (k in obj) {
      const cur = obj[k];
      if (ArrayIsArray(cur)) ArrayPrototypePush(cur, v);
      else obj[k] = [cur, v];
    } else {
      obj[k] = v;
    }
  }
  return obj;
}

module.exports = {
  unescapeBuffer, unescape, escape, stringify, encode: stringify, parse, decode: parse,
};
