// Fannkuch-redux (the Computer Language Benchmarks Game kernel), written from its description:
// every permutation of 1..n in the benchmark's order, the flips to bring 1 to the front, the
// maximum flips and the alternating-sign checksum.
var N = 9;

function fannkuch(n) {
  var perm = new Array(n), perm1 = new Array(n), count = new Array(n);
  var maxFlips = 0, checksum = 0, permCount = 0;
  for (var i = 0; i < n; i++) perm1[i] = i;
  var r = n;
  while (true) {
    while (r !== 1) { count[r - 1] = r; r--; }
    for (var a = 0; a < n; a++) perm[a] = perm1[a];
    var flips = 0, k;
    while ((k = perm[0]) !== 0) {
      var lo = 0, hi = k;
      while (lo < hi) { var t = perm[lo]; perm[lo] = perm[hi]; perm[hi] = t; lo++; hi--; }
      flips++;
    }
    if (flips > maxFlips) maxFlips = flips;
    checksum += permCount % 2 === 0 ? flips : -flips;
    // Next permutation: rotate the first r+1 elements until a counter is left over.
    while (true) {
      if (r === n) return [checksum, maxFlips];
      var p0 = perm1[0];
      for (var m = 0; m < r; m++) perm1[m] = perm1[m + 1];
      perm1[r] = p0;
      count[r]--;
      if (count[r] > 0) break;
      r++;
    }
    permCount++;
  }
}

var result = fannkuch(N);
console.log(result[0]);
console.log("Pfannkuchen(" + N + ") = " + result[1]);
