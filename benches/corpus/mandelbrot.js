// Mandelbrot (the Computer Language Benchmarks Game kernel), written from its description:
// the N x N bitmap of [-1.5,0.5] x [-1,1], 50 iterations, limit 2; prints a checksum of the
// packed bytes instead of the PBM image.
var N = 600;

function mandelbrot(n) {
  var bytes = new Uint8Array(((n + 7) >> 3) * n);
  var pos = 0, hash = 0, bits = 0, bitNum = 0;
  for (var y = 0; y < n; y++) {
    var ci = (2 * y) / n - 1;
    for (var x = 0; x < n; x++) {
      var cr = (2 * x) / n - 1.5;
      var zr = 0, zi = 0, tr = 0, ti = 0, i = 0;
      while (i < 50 && tr + ti <= 4) {
        zi = 2 * zr * zi + ci;
        zr = tr - ti + cr;
        tr = zr * zr;
        ti = zi * zi;
        i++;
      }
      bits = (bits << 1) | (tr + ti <= 4 ? 1 : 0);
      bitNum++;
      if (bitNum === 8 || x === n - 1) {
        if (bitNum !== 8) bits <<= 8 - bitNum;
        bytes[pos++] = bits;
        bits = 0; bitNum = 0;
      }
    }
  }
  for (var k = 0; k < pos; k++) hash = (Math.imul(hash, 31) + bytes[k]) | 0;
  var ones = 0;
  for (var m = 0; m < pos; m++) for (var b = bytes[m]; b; b &= b - 1) ones++;
  return [pos, ones, hash];
}

var r = mandelbrot(N);
console.log("bytes " + r[0] + " set " + r[1] + " hash " + r[2]);
