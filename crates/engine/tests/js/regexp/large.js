// Long subjects through the global loops (replace, split, match, matchAll, exec), Latin-1
// and UTF-16, so the fast paths and the generic paths agree.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));
const latin = "abc déf ".repeat(20000);
const wide = "abc 日本 ".repeat(20000);
for (const s of [latin, wide]) {
  const r1 = s.replace(/\w+/g, (m) => m.length);
  const r2 = s.replace(/(\w)(\w)/g, "$2$1");
  log(s.length, r1.length, r1.slice(0, 20), r2.slice(0, 16), s.split(/\s+/).length, s.match(/c/g).length, [...s.matchAll(/b(c)/g)].length);
  let n = 0;
  const g = /\S+/g;
  while (g.exec(s)) n++;
  log(n, g.lastIndex, s.search(/$/), s.replace(/(?:)/g, "").length);
}
const sticky = /\w+|\s+|./y;
let tokens = 0;
const text = "let x = 1 + 2; ".repeat(5000);
while (sticky.lastIndex < text.length && sticky.exec(text)) tokens++;
log(tokens, sticky.lastIndex);
const re = /(a)(b)?/g;
re.exec = RegExp.prototype.exec;
log("ab a ".repeat(1000).replace(re, "$2").length);
