// Bit-operation hashing: 32-bit FNV-1a, MurmurHash3 (x86_32) and a 53-bit cyrb53-style mix
// over generated strings and byte arrays; prints the combined digests.
var ROUNDS = 60;

function fnv1a(str) {
  var h = 0x811c9dc5;
  for (var i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function murmur3(bytes, seed) {
  var h = seed | 0, len = bytes.length, nblocks = len >> 2;
  var c1 = 0xcc9e2d51, c2 = 0x1b873593;
  for (var i = 0; i < nblocks; i++) {
    var o = i << 2;
    var k = bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24);
    k = Math.imul(k, c1); k = (k << 15) | (k >>> 17); k = Math.imul(k, c2);
    h ^= k; h = (h << 13) | (h >>> 19); h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  var tail = nblocks << 2, k1 = 0;
  switch (len & 3) {
    case 3: k1 ^= bytes[tail + 2] << 16;
    case 2: k1 ^= bytes[tail + 1] << 8;
    case 1: k1 ^= bytes[tail]; k1 = Math.imul(k1, c1); k1 = (k1 << 15) | (k1 >>> 17); k1 = Math.imul(k1, c2); h ^= k1;
  }
  h ^= len;
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function cyrb53(str, seed) {
  var h1 = 0xdeadbeef ^ seed, h2 = 0x41c6ce57 ^ seed;
  for (var i = 0; i < str.length; i++) {
    var ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

var words = [];
for (var w = 0; w < 2000; w++) words.push("key-" + w + "-" + (w * 7919 % 1000) + "-value");
var bytes = new Uint8Array(64 * 1024);
var x = 12345;
for (var b = 0; b < bytes.length; b++) { x = (Math.imul(x, 1103515245) + 12345) | 0; bytes[b] = x >>> 24; }

var acc1 = 0, acc2 = 0, acc3 = 0;
for (var r = 0; r < ROUNDS; r++) {
  for (var i = 0; i < words.length; i++) {
    acc1 = (acc1 + fnv1a(words[i]) + r) >>> 0;
    acc3 = (acc3 + cyrb53(words[i], r)) % 9007199254740881;
  }
  acc2 = (acc2 ^ murmur3(bytes, r)) >>> 0;
}
console.log("fnv1a " + acc1.toString(16));
console.log("murmur3 " + acc2.toString(16));
console.log("cyrb53 " + acc3);
console.log("check " + fnv1a("hello") + " " + murmur3(new Uint8Array([104, 101, 108, 108, 111]), 0));
