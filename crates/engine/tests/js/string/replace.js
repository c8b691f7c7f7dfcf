// replace / replaceAll / split / match / search with string patterns, $-substitutions and
// the Symbol.replace/split/match/search delegation protocol.
const log = (...a) => console.log(a.map(String).join(" "));

log("aXbXc".replace("X", "-"), "aXbXc".replaceAll("X", "-"), "abc".replace("z", "-"), "abc".replace("", "_"), "abc".replaceAll("", "_"));
log("abc".replace("b", "[$&|$`|$'|$$|$1|$<x>|$]"), "abc".replaceAll("b", "$$$&$"), "aaa".replaceAll("aa", "b"));
log("xyz".replace("y", (m, off, str) => `(${m},${off},${str})`), "a.b.c".replaceAll(".", (m, i) => i));
log("abc".replace("b", { toString() { return "B"; } }), "abc".replace("b", 12), "abc".replace("b", undefined));
log("John Smith".replace(/(\w+)\s(\w+)/, "$2, $1"), "aaa".replace(/a/g, "$&$&"), "2020-01-05".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>"));
log("a1b2c3".replaceAll(/\d/g, (d) => d * 2), JSON.stringify("a1b2".split(/\d/)), JSON.stringify("a1b2".split(/(\d)/)));
try { "x".replaceAll(/x/, "y"); } catch (e) { log(e.constructor.name, e.message); }
try { "x".matchAll(/x/); } catch (e) { log(e.constructor.name, e.message); }

const fake = {
  [Symbol.replace](s, r) { return `replace(${s},${r})`; },
  [Symbol.split](s, lim) { return `split(${s},${lim})`; },
  [Symbol.match](s) { return `match(${s})`; },
  [Symbol.matchAll](s) { return `matchAll(${s})`; },
  [Symbol.search](s) { return `search(${s})`; },
};
log("str".replace(fake, "R"), "str".split(fake, 3), "str".match(fake), "str".search(fake));
const noMatch = { [Symbol.replace]: fake[Symbol.replace], [Symbol.matchAll]: fake[Symbol.matchAll] };
log("str".replaceAll(noMatch, "R"), "str".matchAll(noMatch));
try { "str".replaceAll(fake, "R"); } catch (e) { log(e.constructor.name, e.message); }
try { "str".matchAll(fake); } catch (e) { log(e.constructor.name, e.message); }
log(JSON.stringify("a.b".match(".")), JSON.stringify("abcabc".match(/b/g)), "abc".search("c"), "abc".search(/z/), JSON.stringify([..."a1b22".matchAll(/\d+/g)].map((m) => m[0] + "@" + m.index)));
log(JSON.stringify("x".match(null)), JSON.stringify("null".match(null)), "undefined".search(), JSON.stringify("ab".match()));
const sep = { toString() { return ","; } };
log(JSON.stringify("a,b".split(sep)), JSON.stringify("a,b,c".split(",", -1)), JSON.stringify("a,b,c".split(",", 4294967297)));
