// Map and Set heavy code: word frequencies, breadth-first search over a generated graph with
// adjacency in a Map of Sets, set algebra, and object keys in a Map used as an LRU cache.
var NODES = 6000;

var seed = 99;
function rnd(n) { seed = (Math.imul(seed, 1103515245) + 12345) | 0; return (seed >>> 8) % n; }

var graph = new Map();
for (var i = 0; i < NODES; i++) graph.set("n" + i, new Set());
for (var e = 0; e < NODES * 4; e++) {
  var a = "n" + rnd(NODES), b = "n" + rnd(NODES);
  graph.get(a).add(b); graph.get(b).add(a);
}
function bfs(start) {
  var dist = new Map([[start, 0]]), queue = [start], head = 0;
  while (head < queue.length) {
    var node = queue[head++], d = dist.get(node);
    for (var next of graph.get(node)) if (!dist.has(next)) { dist.set(next, d + 1); queue.push(next); }
  }
  return dist;
}
var far = 0, reach = 0;
for (var s = 0; s < 6; s++) {
  var dist = bfs("n" + s * 7);
  reach += dist.size;
  dist.forEach(function (d) { if (d > far) far = d; });
}
console.log("reach " + reach + " eccentricity " + far);

var words = [];
for (var w = 0; w < 100000; w++) words.push("w" + rnd(5000));
var freq = new Map();
for (var x = 0; x < words.length; x++) freq.set(words[x], (freq.get(words[x]) || 0) + 1);
var top = Array.from(freq.entries()).sort(function (p, q) { return q[1] - p[1] || (p[0] < q[0] ? -1 : 1); }).slice(0, 3);
console.log("distinct " + freq.size + " top " + JSON.stringify(top));

var evens = new Set(), threes = new Set();
for (var k = 0; k < 100000; k++) { if (k % 2 === 0) evens.add(k); if (k % 3 === 0) threes.add(k); }
var both = 0, either = new Set(evens);
threes.forEach(function (v) { if (evens.has(v)) both++; either.add(v); });
for (var del = 0; del < 100000; del += 5) either.delete(del);
console.log("both " + both + " either " + either.size);

var cache = new Map(), hits = 0, misses = 0, keys = [];
for (var kk = 0; kk < 300; kk++) keys.push({ id: kk });
for (var t = 0; t < 100000; t++) {
  var key = keys[rnd(300)];
  if (cache.has(key)) { hits++; var v = cache.get(key); cache.delete(key); cache.set(key, v); }
  else {
    misses++; cache.set(key, key.id * 2);
    if (cache.size > 200) cache.delete(cache.keys().next().value);
  }
}
console.log("lru hits " + hits + " misses " + misses);
