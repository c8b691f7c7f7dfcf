// Collation order (Intl.Collator, String.prototype.localeCompare) of a mixed list in en-US,
// de-DE, ja-JP and ar-EG, with the sensitivity, numeric, caseFirst and collation options.
const words = [
  "z", "ä", "a", "Z", "b", "A", "ö", "o", "ß", "ss", "résumé", "resume", "Resume", "æ", "ae",
  "a10", "a2", "a1", "a-b", "a b", "a_b", "ñ", "n", "カ", "か", "が", "漢字", "ひらがな", "عربي", "ب", "ا", "1", "١", "!",
];
for (const locale of ["en-US", "de-DE", "ja-JP", "ar-EG", "sv-SE"]) {
  console.log(locale, [...words].sort(new Intl.Collator(locale).compare).join(" "));
  console.log(locale, "numeric", [...words].sort(new Intl.Collator(locale, { numeric: true }).compare).join(" "));
}
const variants = ["a", "A", "á", "Á"];
for (const sensitivity of ["base", "accent", "case", "variant"]) {
  const c = new Intl.Collator("en", { sensitivity });
  console.log(sensitivity, variants.map((x) => variants.map((y) => c.compare(x, y)).join(",")).join(" "));
}
console.log("upper", [...variants, "b", "B"].sort(new Intl.Collator("en", { caseFirst: "upper" }).compare).join(" "));
console.log("lower", [...variants, "b", "B"].sort(new Intl.Collator("en", { caseFirst: "lower" }).compare).join(" "));
console.log("phonebk", ["Müller", "Mueller", "Muller", "Mzz"].sort(new Intl.Collator("de-u-co-phonebk").compare).join(" "));
console.log("punct", new Intl.Collator("en", { ignorePunctuation: true }).compare("a-b", "ab"));
console.log("localeCompare", "ä".localeCompare("z", "de"), "ä".localeCompare("z", "sv"), "a10".localeCompare("a2", "en", { numeric: true }));
const ro = new Intl.Collator("de-u-co-phonebk-kn", { sensitivity: "base" }).resolvedOptions();
console.log(ro.locale, ro.usage, ro.sensitivity, ro.ignorePunctuation, ro.collation, ro.numeric, ro.caseFirst);
console.log(Intl.getCanonicalLocales(["EN-us", "iw", "de-u-kn-true", "zh-hant-tw", "und-u-ca-islamicc"]).join(" "));
