// Intl.DateTimeFormat and Date's toLocale*String in en-US, de-DE, ja-JP and ar-EG: the
// default formats, date and time styles, component bags, hour cycles, time zones (IANA
// names), formatToParts and resolvedOptions.
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const t = Date.UTC(2024, 0, 2, 15, 4, 5, 678);
const show = (parts) => parts.map((p) => `${p.type}:${p.value}`).join("|");
for (const locale of locales) {
  const d = new Date(t);
  console.log(locale, "toLocale", d.toLocaleString(locale), "|", d.toLocaleDateString(locale), "|", d.toLocaleTimeString(locale));
  for (const dateStyle of ["full", "long", "medium", "short"]) {
    console.log(locale, "dateStyle", dateStyle, new Intl.DateTimeFormat(locale, { dateStyle, timeZone: "UTC" }).format(t));
  }
  for (const timeStyle of ["medium", "short"]) {
    console.log(locale, "timeStyle", timeStyle, new Intl.DateTimeFormat(locale, { timeStyle, timeZone: "UTC" }).format(t));
  }
  const bags = [
    { year: "numeric", month: "long", day: "numeric" },
    { year: "numeric", month: "short" },
    { month: "long" },
    { weekday: "long" },
    { hour: "numeric", minute: "2-digit" },
    { hour: "numeric", minute: "2-digit", hour12: false },
    { hour: "numeric", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
  ];
  for (const bag of bags) {
    const f = new Intl.DateTimeFormat(locale, { ...bag, timeZone: "UTC" });
    console.log(locale, JSON.stringify(bag), f.format(t));
  }
  const parts = new Intl.DateTimeFormat(locale, { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", timeZone: "UTC" });
  console.log(locale, "parts", show(parts.formatToParts(t)));
  const r = parts.resolvedOptions();
  console.log(locale, "resolved", Object.keys(r).map((k) => `${k}=${r[k]}`).join(" "));
}
// Node 20 knows no offset zones and canonicalizes links (Asia/Kolkata → Asia/Calcutta),
// which ECMA-402 (and test262) now forbid: neither is compared.
const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo"];
for (const timeZone of zones) {
  const f = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone });
  console.log("zone", timeZone, f.format(t), f.resolvedOptions().timeZone);
}
// formatRange is not compared: ICU4X 2.4's range formatter falls back to "start – end" where
// ICU 7x collapses the shared fields ("Jan 2 – 5, 2024").
