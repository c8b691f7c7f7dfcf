// Typed-array numeric kernels: Float64Array matrix multiply, Int32Array prefix sums and
// histogram, a 1-D convolution on Float32Array, and a Uint8Array sieve of Eratosthenes.
var M = 110;

function matmul(a, b, c, n) {
  for (var i = 0; i < n; i++) {
    for (var j = 0; j < n; j++) {
      var sum = 0;
      for (var k = 0; k < n; k++) sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
  }
}

var n = M;
var a = new Float64Array(n * n), b = new Float64Array(n * n), c = new Float64Array(n * n);
for (var i = 0; i < n * n; i++) { a[i] = (i % 13) / 7; b[i] = ((i * 7) % 11) / 5; }
for (var rep = 0; rep < 3; rep++) { matmul(a, b, c, n); matmul(c, a, b, n); for (var q = 0; q < n * n; q++) b[q] = b[q] / 1000; }
var trace = 0;
for (var d = 0; d < n; d++) trace += b[d * n + d];
console.log("trace " + trace.toFixed(6));

var ints = new Int32Array(1 << 18);
var seed = 1;
for (var p = 0; p < ints.length; p++) { seed = (Math.imul(seed, 48271) + 11) | 0; ints[p] = seed >> 20; }
var hist = new Int32Array(64);
for (var round = 0; round < 8; round++) {
  for (var x = 1; x < ints.length; x++) ints[x] = (ints[x] + ints[x - 1]) | 0;
  for (var y = 0; y < ints.length; y++) hist[(ints[y] >>> 26) & 63]++;
}
var hsum = 0;
for (var h = 0; h < 64; h++) hsum = (Math.imul(hsum, 31) + hist[h]) | 0;
console.log("prefix " + ints[ints.length - 1] + " hist " + hsum);

var signal = new Float32Array(100000), kernel = new Float32Array([0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05]);
for (var s = 0; s < signal.length; s++) signal[s] = ((s * 37) % 101) / 101;
var out = new Float32Array(signal.length);
for (var pass = 0; pass < 4; pass++) {
  for (var t = 3; t < signal.length - 3; t++) {
    var acc = 0;
    for (var kk = 0; kk < 7; kk++) acc += signal[t - 3 + kk] * kernel[kk];
    out[t] = acc;
  }
  signal.set(out);
}
var csum = 0;
for (var z = 0; z < out.length; z++) csum += out[z];
console.log("conv " + csum.toFixed(3));

var limit = 2000000, sieve = new Uint8Array(limit + 1), primes = 0;
for (var m = 2; m <= limit; m++) {
  if (sieve[m] === 0) { primes++; for (var mm = m * 2; mm <= limit; mm += m) sieve[mm] = 1; }
}
console.log("primes " + primes);
