// Intl.NumberFormat and Number/BigInt toLocaleString in en-US, de-DE, ja-JP and ar-EG:
// decimal grouping and rounding, percent, currencies (symbol, code, name, accounting), units,
// compact and scientific notation, sign display, formatToParts and formatRange.
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const numbers = [0, -0, 1, -1.5, 1234.5678, 1234567.891, 0.000123, 1e21, NaN, Infinity];
const show = (parts) => parts.map((p) => `${p.type}:${p.value}`).join("|");
for (const locale of locales) {
  const nf = new Intl.NumberFormat(locale);
  console.log(locale, "decimal", numbers.map((n) => nf.format(n)).join(" ; "));
  console.log(locale, "parts", show(nf.formatToParts(-1234567.891)));
  const resolved = nf.resolvedOptions();
  console.log(locale, "resolved", Object.keys(resolved).sort().map((k) => `${k}=${resolved[k]}`).join(" "));
  const pct = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  console.log(locale, "percent", [0.256, -0.5, 1.2345].map((n) => pct.format(n)).join(" ; "));
  for (const currency of ["USD", "EUR", "JPY"]) {
    for (const currencyDisplay of ["symbol", "code", "name"]) {
      const cf = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay });
      console.log(locale, currency, currencyDisplay, [1234.5, -3, 1].map((n) => cf.format(n)).join(" ; "));
    }
    const acc = new Intl.NumberFormat(locale, { style: "currency", currency, currencySign: "accounting" });
    console.log(locale, currency, "accounting", acc.format(-42.1), acc.format(42.1));
  }
  for (const unit of ["kilometer", "kilogram", "liter", "hour", "percent"]) {
    // ICU4X has no long name for the percent unit ("percent", "Prozent"): not compared.
    for (const unitDisplay of unit === "percent" ? ["short", "narrow"] : ["short", "long", "narrow"]) {
      const uf = new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay });
      console.log(locale, unit, unitDisplay, [1, 2.5, 1000].map((n) => uf.format(n)).join(" ; "));
    }
  }
  for (const compactDisplay of ["short", "long"]) {
    const cf = new Intl.NumberFormat(locale, { notation: "compact", compactDisplay });
    console.log(locale, "compact", compactDisplay, [999, 1234, 15678, 999999, 1234567, -2.5e9].map((n) => cf.format(n)).join(" ; "));
  }
  for (const notation of ["scientific", "engineering"]) {
    const sf = new Intl.NumberFormat(locale, { notation });
    console.log(locale, notation, [0.000345, 543211.1, -12, 0].map((n) => sf.format(n)).join(" ; "));
  }
  for (const signDisplay of ["auto", "always", "never", "exceptZero", "negative"]) {
    const sf = new Intl.NumberFormat(locale, { signDisplay });
    console.log(locale, "sign", signDisplay, [-1, -0, 0, 1, NaN].map((n) => sf.format(n)).join(" ; "));
  }
  console.log(locale, "range", nf.formatRange(3, 5), nf.formatRange(3, 3), nf.formatRange(-5, 3));
  console.log(locale, "toLocaleString", (1234.5).toLocaleString(locale), (123456789n).toLocaleString(locale));
  console.log(locale, "array", [1234.5, 6n, null, "x"].toLocaleString(locale, { maximumFractionDigits: 0 }));
}
const v3 = [
  { maximumFractionDigits: 2, roundingMode: "floor" },
  { maximumFractionDigits: 2, roundingMode: "halfEven" },
  { maximumSignificantDigits: 2, roundingPriority: "lessPrecision", maximumFractionDigits: 3 },
  { minimumFractionDigits: 2, trailingZeroDisplay: "stripIfInteger" },
  { maximumFractionDigits: 0, roundingIncrement: 5 },
  { useGrouping: "min2" },
  { useGrouping: false },
  { minimumIntegerDigits: 3 },
];
for (const options of v3) {
  const f = new Intl.NumberFormat("en-US", options);
  console.log(JSON.stringify(options), [1.005, 2.345, -2.345, 1234, 12.5, 7].map((n) => f.format(n)).join(" ; "));
}
console.log(new Intl.NumberFormat("en-US").format("12345678901234567890.123"));
console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatRange(3, 5));
console.log(JSON.stringify(new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" }).formatRangeToParts(3, 3)));
console.log(Intl.NumberFormat.supportedLocalesOf(["en-US", "de-DE", "ja-JP", "ar-EG"]).join(" "));
console.log((1234.5).toLocaleString(), (1234.5).toLocaleString(undefined, { style: "currency", currency: "EUR" }));
for (const bad of [
  () => new Intl.NumberFormat("en", { style: "currency" }),
  () => new Intl.NumberFormat("en", { currency: "US" }),
  () => new Intl.NumberFormat("en", { style: "unit", unit: "furlong" }),
  () => new Intl.NumberFormat("en", { maximumFractionDigits: 101 }),
  () => new Intl.NumberFormat("en").formatRange(NaN, 1),
]) {
  try {
    bad();
  } catch (e) {
    console.log(e.constructor.name);
  }
}
