// Recursion: naive Fibonacci, Ackermann, Takeuchi and a recursive permutation count with
// memo-free backtracking (N-queens).
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function ack(m, n) { return m === 0 ? n + 1 : n === 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
function tak(x, y, z) { return y >= x ? z : tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)); }
function queens(n) {
  var count = 0;
  function place(row, cols, d1, d2) {
    if (row === n) { count++; return; }
    for (var c = 0; c < n; c++) {
      var a = 1 << c, b = 1 << (row + c), e = 1 << (row - c + n);
      if ((cols & a) || (d1 & b) || (d2 & e)) continue;
      place(row + 1, cols | a, d1 | b, d2 | e);
    }
  }
  place(0, 0, 0, 0);
  return count;
}
console.log("fib(34) = " + fib(34));
console.log("ack(2, 1000) = " + ack(2, 1000) + ", ack(3, 8) = " + ack(3, 8));
console.log("tak(24, 16, 8) = " + tak(24, 16, 8));
console.log("queens(10) = " + queens(10));
