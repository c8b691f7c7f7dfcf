// RegExp.prototype.exec / test: lastIndex, global and sticky, captures, named groups, the
// d flag's indices, and code-unit indices under u and v.
const log = (...a) => console.log(a.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" "));
const show = (m) => (m === null ? "null" : JSON.stringify({ a: [...m], index: m.index, input: m.input, groups: m.groups, indices: m.indices }));

log(show(/b(c)?/.exec("abcd")), show(/b(x)?/.exec("abd")), show(/z/.exec("abc")));
const g = /a./g;
log(show(g.exec("a1a2a3")), g.lastIndex, show(g.exec("a1a2a3")), g.lastIndex, show(g.exec("a1a2a3")), g.lastIndex, show(g.exec("a1a2a3")), g.lastIndex);
const y = /a/y;
log(y.test("ba"), y.lastIndex, (y.lastIndex = 1, y.test("ba")), y.lastIndex, y.test("ba"), y.lastIndex);
const yb = /(a)\1/y;
yb.lastIndex = 1;
log(yb.test("xaa"), yb.lastIndex, yb.test("xaa"), yb.lastIndex);
const sticky = /foo|bar/y;
const words = [];
sticky.lastIndex = 0;
for (let m; (m = sticky.exec("foobarfoo")); ) words.push(m[0] + "@" + m.index);
log(words.join(","), sticky.lastIndex);
const li = /x/g;
li.lastIndex = 10;
log(li.exec("xx"), li.lastIndex);
li.lastIndex = -5;
log(show(li.exec("xx")), li.lastIndex);
li.lastIndex = "1";
log(show(li.exec("xx")), li.lastIndex);
const nonGlobal = /x/;
nonGlobal.lastIndex = 7;
log(show(nonGlobal.exec("xx")), nonGlobal.lastIndex);

const date = /(?<year>\d{4})-(?<month>\d{2})(?:-(?<day>\d{2}))?/;
const dm = date.exec("on 2024-03 and");
log(show(dm), Object.getPrototypeOf(dm.groups), Object.keys(dm.groups));
log(show(/a(?<Z>z)?(b)/d.exec("xxab")));
log(show(/(a)(?<n>b)?/d.exec("a")));

log(show(/./u.exec("😀x")), show(/./.exec("😀x")), show(/\u{1F600}/u.exec("a😀")), show(/^.$/u.exec("😀")), show(/^.$/.exec("😀")));
const ug = /./gu;
ug.lastIndex = 1;
log(show(ug.exec("😀x")), ug.lastIndex);
log(show(/[\p{L}]+/u.exec("123héllo!")), show(/\p{Lu}/v.exec("abC")), show(/[\p{L}--[a-z]]/v.exec("abcD")));
log(show(/A/i.exec("xa")), show(/^b/m.exec("a\nb")), show(/a.b/s.exec("a\nb")), show(/a.b/.exec("a\nb")));
log(show(/(?<=\$)\d+/.exec("cost $42")), show(/(?<!\$)\b\d+/.exec("$42 17")), show(/(\w)\1/.exec("abccd")));
log(/\bfoo\b/.test("a foo b"), /^\s*$/.test(" \t\n"), /[^]/.test(""), /(?:)/.test(""));
log(show(/\udc00/.exec("\ud800\udc00")), show(/\udc00/u.exec("\ud800\udc00")), show(/\ud800/.exec("\ud800")));
log(show(/a*?/.exec("aaa")), show(/(a|ab)(c|bcd)(d*)/.exec("abcd")), show(/(z)((a+)?(b+)?(c))*/.exec("zaacbbbcac")));

const m = /b/.exec("abc");
log(Array.isArray(m), m.length, Object.keys(m), "indices" in m);
log(RegExp.prototype.exec.length, RegExp.prototype.test.length);
try { RegExp.prototype.exec.call({}, "a"); } catch (e) { log(e.constructor.name); }
try { RegExp.prototype.test.call(1, "a"); } catch (e) { log(e.constructor.name); }
const frozen = Object.freeze(/a/g);
try { frozen.exec("a"); } catch (e) { log(e.constructor.name); }
const ro = /a/y;
Object.defineProperty(ro, "lastIndex", { writable: false, value: 0 });
try { ro.exec("b"); } catch (e) { log("ro", e.constructor.name); }
log(/a/.exec({ toString() { return "xa"; } }).index, /undefined/.test(), /null/.test(null));
