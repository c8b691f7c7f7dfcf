// String constructor, statics and the simple prototype methods.
const log = (...a) => console.log(a.map(String).join(" "));
const show = (v) => (typeof v === "string" ? JSON.stringify(v) : String(v));
const err = (f) => { try { return show(f()); } catch (e) { return e.constructor.name + ": " + e.message; } };

log(String(), String(123), String(null), String(undefined), String(Symbol("desc")), String(-0), String([1, [2, 3]]));
const boxed = new String("abc");
log(typeof boxed, boxed.length, boxed[1], boxed.valueOf(), Object.keys(boxed).join(","), boxed instanceof String);
log(err(() => new String(Symbol("x"))), err(() => `${Symbol()}`));
log(String.fromCharCode(72, 105, 0x10041), String.fromCharCode(), String.fromCodePoint(0x1F600).length, String.fromCodePoint(97, 0x10FFFF).codePointAt(1));
log(err(() => String.fromCodePoint(-1)), err(() => String.fromCodePoint(1.5)), err(() => String.fromCodePoint(0x110000)));
log(String.raw`a\n${1 + 1}b\t${"x"}`, String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3, 4), String.raw({ raw: "abc" }, "-", "+"));

const s = "Hello, World";
log(s.at(0), s.at(-1), s.at(100), s.charAt(4), show(s.charAt(99)), s.charCodeAt(1), s.charCodeAt(99), s.codePointAt(0), s.codePointAt(50));
log("😀x".codePointAt(0), "😀x".codePointAt(1), "😀x".at(0).length, "😀".charCodeAt(0));
log(s.concat("!", 1, null), "".concat(), s.includes("World"), s.includes("world"), s.includes("", 100), s.includes("H", 1));
log(s.indexOf("o"), s.indexOf("o", 5), s.indexOf("z"), s.indexOf("", 3), s.indexOf("", 99), s.lastIndexOf("o"), s.lastIndexOf("o", 5), s.lastIndexOf("", 4), s.lastIndexOf("l", -5), s.lastIndexOf("World", NaN));
log(s.startsWith("Hell"), s.startsWith("World", 7), s.startsWith("", 99), s.endsWith("World"), s.endsWith("Hello", 5), s.endsWith("H", -1));
log(err(() => s.startsWith(/H/)), err(() => s.includes(/H/)), err(() => s.endsWith(/d/)));
const re = /H/; re[Symbol.match] = false;
log(s.startsWith(re), "/H/".startsWith(re));
log(s.slice(7), s.slice(-5, -1), s.slice(3, 1), show(s.slice(100)), s.substring(7), s.substring(5, 0), s.substring(-3, 2), s.substr(-5, 3), s.substr(2), show(s.substr(3, -1)));
log(show("abc".padStart(6)), "abc".padStart(8, "12"), "abc".padEnd(7, "xy"), "abc".padStart(2), "abc".padEnd(6, ""), "7".padStart(3, 0));
log(show("ab".repeat(3)), show("x".repeat(0)), show("".repeat(5)), err(() => "a".repeat(-1)), err(() => "a".repeat(Infinity)), err(() => "a".repeat(2 ** 40)), err(() => "a".padEnd(2 ** 40)));
log(show("  \t\n hi \u00a0\ufeff".trim()), show("  hi  ".trimStart()), show("  hi  ".trimEnd()), String.prototype.trimLeft === String.prototype.trimStart, String.prototype.trimRight.name);
log("Straße ǅ İ".toUpperCase(), "ΣΊΣΥΦΟΣ ΑΣ".toLowerCase(), "ÀÉÎ".toLowerCase(), "abc".toLocaleUpperCase(), "ABC".toLocaleLowerCase());
log(JSON.stringify("a,b,,c".split(",")), JSON.stringify("abc".split("")), JSON.stringify("abc".split()), JSON.stringify("a,b,c".split(",", 2)), JSON.stringify("".split(",")), JSON.stringify("".split("")), JSON.stringify("abc".split("", 0)), JSON.stringify("a--b--".split("--")));
log(err(() => String.prototype.trim.call(null)), err(() => String.prototype.at.call(undefined)), err(() => String.prototype.toString.call(1)), err(() => String.prototype.valueOf.call({})));
log(String.prototype.toString.call(new String("w")), String.prototype.length, Object.prototype.toString.call(String.prototype), "abc".length);
log(String.prototype.concat.call(1, 2), String.prototype.slice.call(12345, 1, 3), String.prototype.indexOf.call(true, "u"));
log(String.length, String.name, String.prototype.padStart.length, String.prototype.replace.length, String.fromCodePoint.length, String.raw.length, String.prototype.at.length);
