// Intl.ListFormat in en-US, de-DE, ja-JP and ar-EG: conjunctions, disjunctions and unit
// lists in every style, with formatToParts.
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const lists = [[], ["a"], ["a", "b"], ["a", "b", "c"], ["one", "two", "three", "four"]];
for (const locale of locales) {
  for (const type of ["conjunction", "disjunction", "unit"]) {
    for (const style of ["long", "short", "narrow"]) {
      const lf = new Intl.ListFormat(locale, { type, style });
      console.log(locale, type, style, lists.map((l) => lf.format(l)).join(" | "));
    }
  }
  const parts = new Intl.ListFormat(locale).formatToParts(["x", "y", "z"]);
  console.log(locale, parts.map((p) => `${p.type}:${p.value}`).join(","));
  console.log(locale, JSON.stringify(new Intl.ListFormat(locale, { style: "short" }).resolvedOptions()));
}
console.log(new Intl.ListFormat("es").format(["agua", "hielo"]), new Intl.ListFormat("es", { type: "disjunction" }).format(["siete", "ocho"]));
console.log(new Intl.ListFormat("en").format(new Set(["x", "y"])));
for (const bad of [() => new Intl.ListFormat("en").format(["a", 1]), () => Intl.ListFormat(), () => new Intl.ListFormat("en", { type: "x" }), () => new Intl.ListFormat("en", 5)]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}
