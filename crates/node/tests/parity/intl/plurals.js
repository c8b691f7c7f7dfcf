// Plural categories (Intl.PluralRules) in en-US, de-DE, ja-JP and ar-EG, cardinal and
// ordinal, including the digit options that change the operands (1 vs 1.0).
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const numbers = [0, 1, 2, 3, 5, 11, 21, 22, 23, 100, 101, 102, 1.5, 0.1, -1, 1e6];
for (const locale of locales) {
  for (const type of ["cardinal", "ordinal"]) {
    const pr = new Intl.PluralRules(locale, { type });
    console.log(locale, type, numbers.map((n) => pr.select(n)).join(" "));
    console.log(locale, type, "categories", [...pr.resolvedOptions().pluralCategories].sort().join(" "));
  }
  const fixed = new Intl.PluralRules(locale, { minimumFractionDigits: 1 });
  console.log(locale, "mnfd=1", [0, 1, 2].map((n) => fixed.select(n)).join(" "));
  const sig = new Intl.PluralRules(locale, { maximumSignificantDigits: 1 });
  console.log(locale, "mxsd=1", [1.4, 2.6, 15].map((n) => sig.select(n)).join(" "));
  console.log(locale, "range", new Intl.PluralRules(locale).selectRange(1, 2), new Intl.PluralRules(locale).selectRange(0, 1));
}
console.log(Intl.PluralRules.supportedLocalesOf(["en-US", "de-DE", "ja-JP", "ar-EG"]).join(" "));
for (const bad of [() => new Intl.PluralRules("en", { type: "x" }), () => Intl.PluralRules(), () => new Intl.PluralRules("en_US")]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}
