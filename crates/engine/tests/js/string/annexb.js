// Annex B string methods: substr and the HTML methods.
const log = (...a) => console.log(a.map(String).join(" "));
log("x".anchor('a"b'), "x".big(), "x".blink(), "x".bold(), "x".fixed(), "x".fontcolor("red"), "x".fontsize(7));
log("x".italics(), "x".link("http://a?b=\"c\""), "x".small(), "x".strike(), "x".sub(), "x".sup(), "x".anchor());
log(String.prototype.anchor.length, String.prototype.big.length, String.prototype.substr.length);
try { String.prototype.bold.call(null); } catch (e) { log(e.constructor.name); }
log("abcdef".substr(1, 2), "abcdef".substr(-2), "abcdef".substr(2, Infinity), "abcdef".substr(NaN, 2));
