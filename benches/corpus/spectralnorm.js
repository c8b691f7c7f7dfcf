// Spectral norm (the Computer Language Benchmarks Game kernel), written from its description:
// power iteration on A^T A for the infinite matrix a(i,j) = 1/((i+j)(i+j+1)/2+i+1).
var N = 550;

function a(i, j) { return 1 / (((i + j) * (i + j + 1)) / 2 + i + 1); }

function multiplyAv(n, v, av) {
  for (var i = 0; i < n; i++) {
    var sum = 0;
    for (var j = 0; j < n; j++) sum += a(i, j) * v[j];
    av[i] = sum;
  }
}
function multiplyAtv(n, v, atv) {
  for (var i = 0; i < n; i++) {
    var sum = 0;
    for (var j = 0; j < n; j++) sum += a(j, i) * v[j];
    atv[i] = sum;
  }
}
function multiplyAtAv(n, v, atav, tmp) { multiplyAv(n, v, tmp); multiplyAtv(n, tmp, atav); }

var u = new Float64Array(N), v = new Float64Array(N), w = new Float64Array(N);
for (var i = 0; i < N; i++) u[i] = 1;
for (var k = 0; k < 10; k++) { multiplyAtAv(N, u, v, w); multiplyAtAv(N, v, u, w); }
var vBv = 0, vv = 0;
for (var m = 0; m < N; m++) { vBv += u[m] * v[m]; vv += v[m] * v[m]; }
console.log(Math.sqrt(vBv / vv).toFixed(9));
