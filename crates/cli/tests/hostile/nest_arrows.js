// Nesting a million levels deep is a clean SyntaxError, never a native stack overflow.
// exit: 0
// stdout: SyntaxError
for (const compile of [eval, (s) => new Function(s)]) {
  try { compile("a=>".repeat(1e6) + "1"); console.log('compiled'); } catch (e) { console.log(e.name); }
}
