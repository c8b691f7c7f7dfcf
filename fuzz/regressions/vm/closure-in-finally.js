function f() {
  try { } finally { (() => { let w = 5; return w; })(); }
}
