// JSON.rawJSON / JSON.isRawJSON (json-parse-with-source). Node 20 lacks them: the expected
// output follows the spec by hand.
const big = JSON.rawJSON("12345678901234567890");
console.log(JSON.isRawJSON(big), JSON.isRawJSON({ rawJSON: "1" }), Object.isFrozen(big), Object.getPrototypeOf(big));
console.log(JSON.stringify({ id: big, list: [JSON.rawJSON('"s"'), JSON.rawJSON("null")] }));
console.log(JSON.stringify(10n, (k, v) => (typeof v === "bigint" ? JSON.rawJSON(String(v)) : v)));
for (const bad of ["", " 1", "1 ", "{}", "[1]", "nope"]) {
  try {
    JSON.rawJSON(bad);
    console.log("accepted", JSON.stringify(bad));
  } catch (e) {
    console.log(e.constructor.name, JSON.stringify(bad));
  }
}

// JSON.parse hands the reviver a context: an unmodified primitive's source text.
const sources = [];
JSON.parse('{"a": 1.0, "b": [2e0, "x", null], "c": {}}', function (key, value, context) {
  sources.push(key + "=" + (context.source === undefined ? "-" : context.source));
  if (key === "a") this.b[0] = 3; // a later value changes: it has no source any more
  return value;
});
console.log(sources.join(" "));
const precise = JSON.parse('{"big": 12345678901234567890}', (k, v, { source }) => (k === "big" ? BigInt(source) : v));
console.log(typeof precise.big, String(precise.big));
