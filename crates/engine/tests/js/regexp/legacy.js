// Annex B legacy static properties: RegExp.$1-$9, input ($_), lastMatch ($&), lastParen ($+),
// leftContext ($`), rightContext ($'), after exec and the String methods' fast loops.
function log() { console.log(Array.prototype.map.call(arguments, (x) => JSON.stringify(x)).join(" ")); }
log(RegExp.$1, RegExp.input, RegExp.lastMatch);
/(\w)(\d)?-(x)/.exec("ab-x yz");
log(RegExp.$1, RegExp.$2, RegExp.$3, RegExp.$4, RegExp.input, RegExp.$_, RegExp.lastMatch, RegExp["$&"], RegExp.lastParen, RegExp["$+"], RegExp.leftContext, RegExp["$`"], RegExp.rightContext, RegExp["$'"]);
"a1b2c3".replace(/(\d)/g, "-");
log(RegExp.$1, RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext);
"a,b;c".split(/([,;])/);
log(RegExp.$1, RegExp.lastMatch, RegExp.leftContext);
"ab".split(/(?:)/);
log(RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext);
"xyz".match(/(y)/g);
log(RegExp.$1, RegExp.input);
/nomatch/.test("abc");
log(RegExp.$1);
RegExp.input = 42;
log(RegExp.input, RegExp.$_, RegExp.$1);
class Sub extends RegExp {}
new Sub("(q)").exec("q");
log(RegExp.$1, RegExp.input);
"w".replace(/(w)/, function () { return RegExp.$1 + RegExp.lastMatch; });
log("k".replace(/(k)/, () => RegExp.$1), [..."ab".matchAll(/(.)/g)].length, RegExp.$1);
log(Object.getOwnPropertyNames(RegExp).filter((k) => k !== "escape").sort().join());
const d = Object.getOwnPropertyDescriptor(RegExp, "$1");
log(d.set, typeof d.get, d.enumerable, d.configurable, typeof Object.getOwnPropertyDescriptor(RegExp, "input").set);
