// Unicode: normalization, well-formedness, the code-point iterator, case mapping, collation.
const log = (...a) => console.log(a.map(String).join(" "));
const units = (s) => [...s].map((c) => c.codePointAt(0).toString(16)).join(" ");

const cafe = "cafe\u0301";
log(cafe.length, cafe.normalize().length, cafe.normalize("NFC") === "café", "é".normalize("NFD").length, units("ﬁ²".normalize("NFKC")), units("ﬁ²".normalize("NFKD")), units("Å".normalize("NFD")));
try { "x".normalize("nfc"); } catch (e) { log(e.constructor.name, e.message); }
const lone = "a\ud800b\udc00";
log(lone.isWellFormed(), "a😀".isWellFormed(), units(lone.toWellFormed()), lone.normalize().length, "\ud800".toUpperCase().charCodeAt(0));
log([..."a😀b\ud800"].length, JSON.stringify([..."a😀"].map((c) => c.length)), Array.from("héllo").join("|"));
const it = "ab"[Symbol.iterator]();
log(Object.prototype.toString.call(it), typeof it.next, JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()));
log(Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
try { it.next.call({}); } catch (e) { log(e.constructor.name); }
log("İstanbul".toLowerCase().length, "ß".toUpperCase(), "ǆ".toUpperCase(), "Ⓐ".toLowerCase(), "ΌΣΟΣ".toLowerCase());
const words = ["b", "A", "a", "B", "á", "Á", "ab", "aB", "Ab", "a b", "a_b", "a-b", "a1", "a10", "a2", "résumé", "resume", "Resume", "zebra", "Zebra", "éclair", "eclair", "10", "9", "", "æon", "aeon"];
log(words.sort((x, y) => x.localeCompare(y)).join("|"));
log("a".localeCompare("b"), "b".localeCompare("a"), "a".localeCompare("a"), "e\u0301".localeCompare("é"), "a".localeCompare("A"), "ä".localeCompare("b"));
