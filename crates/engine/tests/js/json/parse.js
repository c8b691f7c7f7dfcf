// JSON.parse: grammar, numbers, escapes, duplicate keys, __proto__, reviver order, errors.
const log = (...a) => console.log(a.map(String).join(" "));
const j = (v) => JSON.stringify(v);

log(j(JSON.parse(' {"a": [1, 2.5, -0.5e2, true, false, null, "s"], "b": {}} ')), JSON.parse("1E+2"), Object.is(JSON.parse("-0"), -0), JSON.parse(" \t\n\r 7 "));
log(j(JSON.parse('"\\u0041\\n\\t\\"\\\\\\/\\b\\f\\r"')), JSON.parse('"\\ud83d\\ude00"').length, JSON.parse('"\\ud800"').charCodeAt(0), JSON.parse('"\u2028"').length);
log(JSON.parse("1e400"), JSON.parse("123456789012345678901234567890"), JSON.parse("0.1e-400"), JSON.parse("2.2250738585072011e-308"), JSON.parse('"' + "x".repeat(5) + '"'));
const dup = JSON.parse('{"a":1,"b":2,"a":3}');
log(j(dup), Object.keys(dup).join(","));
const proto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
log(Object.getPrototypeOf(proto) === Object.prototype, j(Object.keys(proto)), proto.x, j(proto.__proto__));
log(Object.keys(JSON.parse('{"b":1,"2":1,"a":1,"1":1}')).join(","));
const deep = "[".repeat(5000) + "]".repeat(5000);
let d = JSON.parse(deep), depth = 0;
while (Array.isArray(d) && d.length) { d = d[0]; depth++; }
log(depth);

const seen = [];
const revived = JSON.parse('{"a": {"b": [1, 2]}, "c": 3, "d": 4}', function (k, v) {
  seen.push(`${k}:${typeof v}:${Array.isArray(this) ? "arr" : typeof this}`);
  if (k === "c") return undefined;
  if (typeof v === "number") return v * 10;
  return v;
});
log(seen.join(" "));
log(j(revived), "c" in revived);
log(JSON.parse("[1,2,3]", (k, v) => (k === "1" ? undefined : v)).length, j(JSON.parse("[1,2,3]", (k, v) => (k === "1" ? undefined : v))));
log(JSON.parse('"x"', (k, v) => k === "" ? v + "!" : v), j(JSON.parse("[]", () => 5)), JSON.parse("1", null), JSON.parse("2", {}));
log(JSON.parse(" [1] ".trim())[0], JSON.parse(true), JSON.parse(null), JSON.parse({ toString: () => "[5]" })[0]);

for (const bad of ["", " ", "abc", '{"a":1,}', "[1,]", "{a:1}", "[1 2]", '"abc', '"a\\x"', "01", "1.", "-", "tru", "[1]x", '{"a" 1}', '"\u0001"', "{", "[", "nul", "1e", '"\\u12"', '{"a":1 "b":2}', "x".repeat(50), "[" + "1,".repeat(30) + "x]", "trux", "nul1", '["a" "b"]', '"a" "b"', '{"a":}', "-x", "1.e5", "1e+", "+1", ".5", "undefined", "NaN", "[1,\n2,", '"\\u00zz"', '{"a":1,"b"}', "[1,2]]", '"\t"', "[1", '{"a":1', '{"a"', '{"a":1,', '"ab\\', "[1,2", "1e5x", "'a'", "[-]", "NaN1"]) {
  try { JSON.parse(bad); log("parsed", j(bad)); } catch (e) { log(e.constructor.name + ":", e.message); }
}
log(JSON.parse.length, JSON.parse.name, Object.prototype.toString.call(JSON), JSON[Symbol.toStringTag]);
