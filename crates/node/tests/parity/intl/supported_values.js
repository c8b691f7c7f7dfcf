// Intl.supportedValuesOf: each list is an Array, sorted, without duplicates and new on each
// call, and it holds the values node 20's ICU and CLDR 47 (ICU4X 2.4) agree on. The lists
// differ in full between the two data sets (node's ICU has `islamic`, `islamic-rgsa` and
// CLDR's zone aliases such as Asia/Calcutta), so only shared values and the sanctioned unit
// table (fixed by ECMA-402) are printed; node 20 also leaves out UTC and the Etc/GMT±N zones
// that ECMA-402 now lists, so those are not asked about.
for (const key of ["calendar", "collation", "currency", "numberingSystem", "timeZone", "unit"]) {
  const list = Intl.supportedValuesOf(key);
  const sorted = [...list].sort();
  console.log(
    key,
    Array.isArray(list),
    Object.getPrototypeOf(list) === Array.prototype,
    list.every((v, i) => v === sorted[i]),
    new Set(list).size === list.length,
    list !== Intl.supportedValuesOf(key),
    list.length > 0,
  );
}
console.log(Intl.supportedValuesOf("unit").join(" "));
const has = (key, values) => {
  const list = Intl.supportedValuesOf(key);
  console.log(key, values.map((v) => `${v}=${list.includes(v)}`).join(" "));
};
has("calendar", ["buddhist", "chinese", "gregory", "hebrew", "iso8601", "japanese", "persian", "roc", "islamic-civil", "gregorian", "standard"]);
has("collation", ["phonebk", "pinyin", "trad", "stroke", "zhuyin", "emoji", "standard", "search", "default"]);
has("currency", ["EUR", "USD", "JPY", "CHF", "EGP", "GBP", "ABC", "usd"]);
has("numberingSystem", ["latn", "arab", "arabext", "deva", "thai", "hanidec", "fullwide", "native", "traditio", "finance"]);
has("timeZone", ["Etc/UTC", "Etc/GMT", "GMT", "America/New_York", "Europe/Paris", "Europe/Berlin", "Asia/Tokyo", "Africa/Cairo", "America/Los_Angeles", "Australia/Sydney", "US/Eastern"]);
for (const key of ["calendar", "collation", "currency", "numberingSystem", "timeZone", "unit"]) {
  const dtf = key === "timeZone" ? Intl.supportedValuesOf(key).slice(0, 40).every((timeZone) => new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone === timeZone) : true;
  console.log(key, "accepted", dtf);
}
for (const bad of ["calendars", "", "Unit", undefined]) {
  try {
    Intl.supportedValuesOf(bad);
    console.log(bad, "no error");
  } catch (e) {
    console.log(String(bad), e.constructor.name);
  }
}
console.log(Intl.supportedValuesOf.length, Intl.supportedValuesOf.name);
