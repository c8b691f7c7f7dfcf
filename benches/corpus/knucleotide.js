// k-nucleotide-like hashing (after the Computer Language Benchmarks Game kernel): generate a
// DNA sequence with the fasta generator, count every k-mer for k = 1, 2 (sorted frequencies)
// and the counts of five fixed oligonucleotides, in a Map keyed by substring.
var N = 150000;
var IM = 139968, IA = 3877, IC = 29573;
var last = 42;
function random(max) { last = (last * IA + IC) % IM; return (max * last) / IM; }

function makeSequence(n) {
  var probs = [0.3029549426680, 0.1979883004921, 0.1975473066391, 0.3015094502008];
  var chars = "ACGT", parts = [], cum = 0, cums = [];
  for (var i = 0; i < 4; i++) { cum += probs[i]; cums.push(cum); }
  for (var k = 0; k < n; k++) {
    var r = random(1), j = 0;
    while (j < 3 && cums[j] < r) j++;
    parts.push(chars[j]);
  }
  return parts.join("");
}

function frequencies(seq, k) {
  var counts = new Map();
  for (var i = 0; i + k <= seq.length; i++) {
    var key = seq.substring(i, i + k);
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

var seq = makeSequence(N);
for (var k = 1; k <= 2; k++) {
  var counts = frequencies(seq, k), total = seq.length - k + 1, rows = [];
  counts.forEach(function (count, key) { rows.push([key, count]); });
  rows.sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); });
  for (var r = 0; r < rows.length; r++) console.log(rows[r][0] + " " + ((100 * rows[r][1]) / total).toFixed(3));
  console.log("");
}
var oligos = ["GGT", "GGTA", "GGTATT", "GGTATTTTAATT", "GGTATTTTAATTTATAGT"];
for (var o = 0; o < oligos.length; o++) {
  var c = frequencies(seq, oligos[o].length).get(oligos[o]) || 0;
  console.log(c + "\t" + oligos[o]);
}
