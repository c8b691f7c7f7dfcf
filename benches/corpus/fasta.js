// Fasta (the Computer Language Benchmarks Game kernel), written from its description: a
// repeated sequence, then two sequences drawn by cumulative probability from the benchmark's
// linear congruential generator, 60 characters a line. Prints line count, length and a hash of
// the output instead of the output.
var N = 250000;
var IM = 139968, IA = 3877, IC = 29573;
var last = 42;
function random(max) { last = (last * IA + IC) % IM; return (max * last) / IM; }

var ALU =
  "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGGGAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGACCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAATACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCAGCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCCGGGAGGCGGAGGTTGCAGTGAGCCGAGATCGCGCCACTGCACTCCAGCCTGGGCGACAGAGCGAGACTCCGTCTCAAAAA";
var IUB = [["a", 0.27], ["c", 0.12], ["g", 0.12], ["t", 0.27], ["B", 0.02], ["D", 0.02], ["H", 0.02],
  ["K", 0.02], ["M", 0.02], ["N", 0.02], ["R", 0.02], ["S", 0.02], ["V", 0.02], ["W", 0.02], ["Y", 0.02]];
var HOMO = [["a", 0.3029549426680], ["c", 0.1979883004921], ["g", 0.1975473066391], ["t", 0.3015094502008]];

var lines = 0, total = 0, hash = 0;
function emit(line) {
  lines++;
  total += line.length + 1;
  for (var i = 0; i < line.length; i++) hash = (Math.imul(hash, 16777619) ^ line.charCodeAt(i)) | 0;
  hash = (Math.imul(hash, 16777619) ^ 10) | 0;
}

function repeat(header, seq, n) {
  emit(header);
  var doubled = seq + seq, pos = 0;
  while (n > 0) {
    var len = n < 60 ? n : 60;
    emit(doubled.substr(pos, len));
    pos = (pos + len) % seq.length;
    n -= len;
  }
}

function randomSeq(header, table, n) {
  emit(header);
  var probs = [], chars = [], cum = 0;
  for (var i = 0; i < table.length; i++) { cum += table[i][1]; probs.push(cum); chars.push(table[i][0]); }
  while (n > 0) {
    var len = n < 60 ? n : 60, line = "";
    for (var k = 0; k < len; k++) {
      var r = random(1), j = 0;
      while (probs[j] < r) j++;
      line += chars[j];
    }
    emit(line);
    n -= len;
  }
}

repeat(">ONE Homo sapiens alu", ALU, 2 * N);
randomSeq(">TWO IUB ambiguity codes", IUB, 3 * N);
randomSeq(">THREE Homo sapiens frequency", HOMO, 5 * N);
console.log("lines " + lines + " bytes " + total + " hash " + hash);
