// RegExp.escape (ES2025). Node 20 has no RegExp.escape: expected output written from the spec.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));
for (const s of ["foo", "The Quick", "(*)", "_abc", "1.5", ",-=<>#&!%:;@~'`\"", "\n\t\u2028", "\ud800x", "😀", "a/b\\c", "é\u00a0", "$^|?+{}[]"]) {
  log(RegExp.escape(s));
}
log(new RegExp(RegExp.escape("1.5$")).test("x1.5$"), new RegExp(RegExp.escape("1.5")).test("105"));
try { RegExp.escape(1); } catch (e) { log(e.constructor.name); }
log(RegExp.escape.length, RegExp.escape.name);
