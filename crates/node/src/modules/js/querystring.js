'use strict';
// node:querystring: Node's legacy query-string codec (its own escaping rules, not WHATWG).

const noEscape = new Int8Array(128);
for (const c of "!'()*-._~") noEscape[c.charCodeAt(0)] = 1;
for (let i = 48; i < 58; i++) noEscape[i] = 1;
for (let i = 65; i < 91; i++) noEscape[i] = 1;
for (let i = 97; i < 123; i++) noEscape[i] = 1;
const hex = Array.from({ length: 256 }, (_, i) => `%${i < 16 ? '0' : ''}${i.toString(16).toUpperCase()}`);

function encodeStr(str) {
  let out = '';
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    let c = str.charCodeAt(i);
    if (c < 0x80) {
      if (noEscape[c] === 1) continue;
      out += str.slice(last, i) + hex[c];
      last = i + 1;
      continue;
    }
    out += str.slice(last, i);
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
      const c2 = str.charCodeAt(i) & 0x3FF;
      c = 0x10000 + (((c & 0x3FF) << 10) | c2);
      out += hex[0xF0 | (c >> 18)] + hex[0x80 | ((c >> 12) & 0x3F)] + hex[0x80 | ((c >> 6) & 0x3F)] + hex[0x80 | (c & 0x3F)];
    }
    last = i + 1;
  }
  if (last === 0) return str;
  if (last < str.length) return out + str.slice(last);
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
  const c = ch.charCodeAt(0);
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
      out += String.fromCharCode(b);
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
      i += Math.max(1, j);
      continue;
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

function unescapeBuffer(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length + 0 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      for (const b of utf8Encode(s[i])) bytes.push(b);
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
    const keys = Object.keys(obj);
    const fields = [];
    for (const k of keys) {
      const v = obj[k];
      const ks = convert(k) + eq;
      if (Array.isArray(v)) {
        for (const item of v) fields.push(ks + convert(item));
      } else {
        fields.push(ks + convert(v));
      }
    }
    return fields.join(sep);
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
  let parts = qs.split(sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = parts.slice(0, maxKeys);
  for (const part of parts) {
    if (part.length === 0) continue;
    const idx = part.indexOf(eq);
    let k;
    let v;
    if (idx >= 0) {
      k = part.slice(0, idx);
      v = part.slice(idx + eq.length);
    } else {
      k = part;
      v = '';
    }
    const dec = (s) => {
      s = s.replace(/\+/g, ' ');
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
      if (Array.isArray(cur)) cur.push(v);
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
