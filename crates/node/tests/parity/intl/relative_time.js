// Intl.RelativeTimeFormat in en-US, de-DE, ja-JP and ar-EG: every unit, numeric always and
// auto, the three styles, plural forms, formatToParts and resolvedOptions.
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const units = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
const values = [-2, -1, 0, 1, 2, 5, 1.5, 1000];
const show = (parts) => parts.map((p) => `${p.type}:${p.value}${p.unit ? "/" + p.unit : ""}`).join("|");
for (const locale of locales) {
  for (const style of ["long", "short", "narrow"]) {
    for (const numeric of ["always", "auto"]) {
      const rtf = new Intl.RelativeTimeFormat(locale, { style, numeric });
      for (const unit of units) {
        console.log(locale, style, numeric, unit, values.map((v) => rtf.format(v, unit)).join(" ; "));
      }
    }
  }
  const rtf = new Intl.RelativeTimeFormat(locale);
  console.log(locale, "parts", show(rtf.formatToParts(-1234.5, "day")), show(rtf.formatToParts(3, "hours")));
  const r = rtf.resolvedOptions();
  console.log(locale, "resolved", Object.keys(r).sort().map((k) => `${k}=${r[k]}`).join(" "));
}
