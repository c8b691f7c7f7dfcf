'use strict';
// Deep equality as Node defines it for assert.deepEqual / deepStrictEqual and
// util.isDeepStrictEqual (lib/internal/util/comparisons.js), written afresh: same rules,
// same results for the common cases.

const { classOf } = require('node:internal/util/natives');

const toStr = (v) => Object.prototype.toString.call(v);
const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isTypedArrayClass = (c) => c.endsWith('Array') && c !== 'Array';
const isBoxed = (c) => c === 'Number' || c === 'String' || c === 'Boolean' || c === 'BigInt' || c === 'Symbol';

function nonIndexKeys(o, strict) {
  const keys = Object.keys(o).filter((k) => !(String(k >>> 0) === k && (k >>> 0) !== 4294967295));
  if (strict) {
    for (const s of Object.getOwnPropertySymbols(o)) if (isEnumerable(o, s)) keys.push(s);
  }
  return keys;
}

function boxedEqual(a, b) {
  const ca = classOf(a);
  if (ca !== classOf(b)) return false;
  switch (ca) {
    case 'Number': return Object.is(Number.prototype.valueOf.call(a), Number.prototype.valueOf.call(b));
    case 'String': return String.prototype.valueOf.call(a) === String.prototype.valueOf.call(b);
    case 'Boolean': return Boolean.prototype.valueOf.call(a) === Boolean.prototype.valueOf.call(b);
    case 'BigInt': return BigInt.prototype.valueOf.call(a) === BigInt.prototype.valueOf.call(b);
    case 'Symbol': return Symbol.prototype.valueOf.call(a) === Symbol.prototype.valueOf.call(b);
    default: return false;
  }
}

function bytesOf(v) {
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return new Uint8Array(v);
}

function bytesEqual(a, b) {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function innerDeepEqual(a, b, strict, memos) {
  if (a === b) {
    if (a !== 0) return true;
    return strict ? Object.is(a, b) : true;
  }
  if (strict) {
    if (typeof a !== 'object') return typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b);
    if (typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== 'object') {
      if (b === null || typeof b !== 'object') {
        // eslint-disable-next-line eqeqeq
        return a == b || (Number.isNaN(a) && Number.isNaN(b));
      }
      return false;
    }
    if (b === null || typeof b !== 'object') return false;
  }
  if (toStr(a) !== toStr(b)) return false;
  const ca = classOf(a);
  const cb = classOf(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    const ka = nonIndexKeys(a, strict);
    const kb = nonIndexKeys(b, strict);
    if (ka.length !== kb.length) return false;
    return keyCheck(a, b, strict, memos, 'array', ka);
  }
  if (toStr(a) === '[object Object]' && ca === 'Object' && cb === 'Object') {
    return keyCheck(a, b, strict, memos, 'none');
  }
  if (ca === 'Date') {
    if (cb !== 'Date' || Date.prototype.getTime.call(a) !== Date.prototype.getTime.call(b)) return false;
  } else if (ca === 'RegExp') {
    if (cb !== 'RegExp' || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (ca === 'Error' || a instanceof Error) {
    if ((cb !== 'Error' && !(b instanceof Error)) || a.message !== b.message || a.name !== b.name) return false;
  } else if (isTypedArrayClass(ca) || ca === 'DataView') {
    if (ca !== cb) return false;
    if (!strict && (ca === 'Float32Array' || ca === 'Float64Array')) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    } else if (!bytesEqual(a, b)) return false;
    const ka = nonIndexKeys(a, strict);
    const kb = nonIndexKeys(b, strict);
    if (ka.length !== kb.length) return false;
    return keyCheck(a, b, strict, memos, 'none', ka);
  } else if (ca === 'Set') {
    if (cb !== 'Set' || a.size !== b.size) return false;
    return keyCheck(a, b, strict, memos, 'set');
  } else if (ca === 'Map') {
    if (cb !== 'Map' || a.size !== b.size) return false;
    return keyCheck(a, b, strict, memos, 'map');
  } else if (ca === 'ArrayBuffer' || ca === 'SharedArrayBuffer') {
    if (cb !== ca || !bytesEqual(a, b)) return false;
  } else if (isBoxed(ca)) {
    if (!boxedEqual(a, b)) return false;
  } else if (Array.isArray(b) || isTypedArrayClass(cb) || cb === 'DataView' || cb === 'Set' || cb === 'Map' ||
      cb === 'Date' || cb === 'RegExp' || cb === 'ArrayBuffer' || cb === 'SharedArrayBuffer' || isBoxed(cb) ||
      cb === 'Error' || b instanceof Error) {
    return false;
  }
  return keyCheck(a, b, strict, memos, 'none');
}

function keyCheck(a, b, strict, memos, kind, aKeys) {
  if (aKeys === undefined) {
    aKeys = Object.keys(a);
    const bKeys = Object.keys(b);
    if (aKeys.length !== bKeys.length) return false;
    for (const k of aKeys) if (!isEnumerable(b, k)) return false;
    if (strict) {
      const symA = Object.getOwnPropertySymbols(a);
      let count = 0;
      for (const s of symA) {
        if (isEnumerable(a, s)) {
          if (!isEnumerable(b, s)) return false;
          aKeys.push(s);
          count++;
        } else if (isEnumerable(b, s)) return false;
      }
      const symB = Object.getOwnPropertySymbols(b);
      if (symB.filter((s) => isEnumerable(b, s)).length !== count) return false;
    }
  } else {
    for (const k of aKeys) if (!isEnumerable(b, k)) return false;
  }
  if (aKeys.length === 0 && (kind === 'none' || (kind === 'array' && a.length === 0) ||
      ((kind === 'set' || kind === 'map') && a.size === 0))) {
    return true;
  }
  if (memos === undefined) {
    memos = { a: new Map(), b: new Map(), position: 0 };
  } else {
    const ma = memos.a.get(a);
    if (ma !== undefined) {
      const mb = memos.b.get(b);
      if (mb !== undefined) return ma === mb;
    }
    memos.position++;
  }
  memos.a.set(a, memos.position);
  memos.b.set(b, memos.position);
  const result = objEquiv(a, b, strict, aKeys, memos, kind);
  memos.a.delete(a);
  memos.b.delete(b);
  return result;
}

function setEquiv(a, b, strict, memos) {
  const pending = [];
  for (const v of a) {
    if (typeof v === 'object' && v !== null) pending.push(v);
    else if (!b.has(v)) {
      if (strict) return false;
      let found = false;
      for (const w of b) {
        if (typeof w !== 'object' && innerDeepEqual(v, w, false, memos)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
  }
  if (pending.length === 0) return true;
  const candidates = [];
  for (const w of b) if (typeof w === 'object' && w !== null) candidates.push(w);
  for (const v of pending) {
    const i = candidates.findIndex((w) => innerDeepEqual(v, w, strict, memos));
    if (i === -1) return false;
    candidates.splice(i, 1);
  }
  return true;
}

function mapEquiv(a, b, strict, memos) {
  const pending = [];
  for (const [k, v] of a) {
    if (typeof k === 'object' && k !== null) pending.push([k, v]);
    else {
      if (b.has(k) && innerDeepEqual(v, b.get(k), strict, memos)) continue;
      if (strict) return false;
      let found = false;
      for (const [k2, v2] of b) {
        if (typeof k2 !== 'object' && innerDeepEqual(k, k2, false, memos) && innerDeepEqual(v, v2, false, memos)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
  }
  if (pending.length === 0) return true;
  const candidates = [];
  for (const e of b) if (typeof e[0] === 'object' && e[0] !== null) candidates.push(e);
  for (const [k, v] of pending) {
    const i = candidates.findIndex(([k2, v2]) => innerDeepEqual(k, k2, strict, memos) && innerDeepEqual(v, v2, strict, memos));
    if (i === -1) return false;
    candidates.splice(i, 1);
  }
  return true;
}

function objEquiv(a, b, strict, keys, memos, kind) {
  if (kind === 'set') {
    if (!setEquiv(a, b, strict, memos)) return false;
  } else if (kind === 'map') {
    if (!mapEquiv(a, b, strict, memos)) return false;
  } else if (kind === 'array') {
    for (let i = 0; i < a.length; i++) {
      if (hasOwn(a, i)) {
        if (!hasOwn(b, i) || !innerDeepEqual(a[i], b[i], strict, memos)) return false;
      } else if (hasOwn(b, i)) {
        return false;
      } else {
        const ka = Object.keys(a);
        for (; i < ka.length; i++) {
          const key = ka[i];
          if (!hasOwn(b, key) || !innerDeepEqual(a[key], b[key], strict, memos)) return false;
        }
        return ka.length === Object.keys(b).length;
      }
    }
  }
  for (const key of keys) {
    if (!innerDeepEqual(a[key], b[key], strict, memos)) return false;
  }
  return true;
}

module.exports = {
  isDeepEqual: (a, b) => innerDeepEqual(a, b, false),
  isDeepStrictEqual: (a, b) => innerDeepEqual(a, b, true),
};
