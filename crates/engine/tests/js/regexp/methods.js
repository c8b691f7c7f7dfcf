// The Symbol.match / matchAll / replace / search / split methods, through String.prototype
// and directly, with global, sticky and unicode regexps.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));

log("a1b22c333".match(/\d+/g), "abc".match(/z/g), "abc".match(/b/).index, "".match(/^/g), "aaa".match(/a*?/g), "😀😀".match(/(?:)/gu), "😀".match(/(?:)/g));
const re = /o/g;
re.lastIndex = 5;
log("foo".match(re), re.lastIndex);
log([..."a1b22c333".matchAll(/\d+/g)].map((m) => m[0] + "@" + m.index), [..."xyz".matchAll(/(?<c>[xz])/g)].map((m) => m.groups.c));
const it = /a/g[Symbol.matchAll]("aa");
log(Object.prototype.toString.call(it), typeof it.next, it[Symbol.iterator]() === it, JSON.stringify(it.next()), JSON.stringify(it.next().value.index), JSON.stringify(it.next()), JSON.stringify(it.next()));
const single = /a/[Symbol.matchAll]("aaa");
log([...single].length);
log(Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
const empties = [..."ab".matchAll(/(?:)/g)].map((m) => m.index);
log(empties);

log("John Smith".replace(/(\w+)\s(\w+)/, "$2, $1"), "aaa".replace(/a/g, "[$&]"), "abc".replace(/b/, "$`|$'|$$|$0|$1|$01|$<n>"));
log("2020-01-05".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>|$<zz>|$<d"), "abc".replace(/(b)/, "$11|$10|$2"));
log("a-b-c".replace(/-/g, (m, off, s) => `<${m}${off}${s.length}>`), "x1y2".replace(/(\d)/g, (m, d, off) => d * 10 + off));
log("k=v".replace(/(?<key>\w)=(?<val>\w)/, (...args) => JSON.stringify(args)));
log("aaa".replace(/a*?/g, "-"), "abc".replace(/(?:)/g, "-"), "😀".replace(/(?:)/gu, "-"), "😀".replace(/(?:)/g, "-").length);
log("abc".replace(/b/y, "X"), "bbc".replace(/b/y, "X"), "bbc".replace(/b/gy, "X"), "abb".replace(/b/gy, "X"));
const yr = /b/y;
yr.lastIndex = 1;
log("abc".replace(yr, "X"), yr.lastIndex, "abc".replace(yr, "X"), yr.lastIndex);
log("aXbX".replaceAll(/x/gi, "-"), "test".replace(/t/g, "$"), "x".replace(/x/, "$<"), "x".replace(/(?<a>x)/, "$<a"));

log("abc".search(/c/), "abc".search(/z/), "abcabc".search(/c/g));
const sr = /b/g;
sr.lastIndex = 2;
log("abc".search(sr), sr.lastIndex);

log("a1b2c3".split(/\d/), "a1b2c3".split(/(\d)/), "a1b2c3".split(/\d/, 2), "abc".split(/(?:)/), "".split(/x/), "".split(/(?:)/));
log("a, b,c".split(/\s*,\s*/), "abc".split(/(b)|(x)/), "😀😀".split(/(?:)/u), "😀".split(/(?:)/).length, "test".split(/(?=t)/));
log("aXbxc".split(/x/i), "a1b".split(/\d/y), "one  two".split(/ /), "a--b".split(/-/, 0), "ab".split(/$/m));

log(String(/a\/b/), String(new RegExp("a/b")), String(new RegExp("")), new RegExp("\n").source, /[/]/.source, String(/x/gimsuyd));
log(/a/gimsyd.flags, /a/v.flags, new RegExp("a", "dgimsvy").flags, RegExp.prototype.flags, RegExp.prototype.source, String(RegExp.prototype));
log(/a/g.global, /a/.global, RegExp.prototype.global, /a/d.hasIndices, /a/i.ignoreCase, /a/m.multiline, /a/s.dotAll, /a/u.unicode, /a/v.unicodeSets, /a/y.sticky);
try { Object.getOwnPropertyDescriptor(RegExp.prototype, "global").get.call({}); } catch (e) { log(e.constructor.name); }
try { Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get.call(1); } catch (e) { log(e.constructor.name); }
log(Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get.call({ global: 1, sticky: "y", hasIndices: 0, unicode: null }));
log(RegExp.prototype.toString.call({ source: "S", flags: "F" }));
