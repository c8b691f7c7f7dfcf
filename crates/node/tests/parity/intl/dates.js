// Intl.DateTimeFormat and Date's toLocale*String in en-US, de-DE, ja-JP and ar-EG, in named
// time zones: date and time styles, component bags (numeric, 2-digit, long months, weekdays,
// eras, hour cycles, fractional seconds, time zone names), formatToParts, formatRange,
// resolvedOptions.
//
// Left out, because they differ from node 20 today (docs/node-compat.md, "Intl"):
// - numeric day and month widths and `month: "short"` beside a numeric year and day, outside
//   en-US: V8 asks ICU's pattern generator for CLDR's availableFormats ("d.M.y", "d. MMM y" in
//   de), which ICU4X 2.4 does not expose; Amber writes the locale's standard date format
//   ("dd.MM.y"). The same cause: de's "H:mm" for an hour with 2-digit minutes, and the numeric
//   dates of de-DE and ja-JP toLocaleString/toLocaleDateString.
// - formatRange collapsing the fields both ends share ("Jan 2 – Jul 14, 2024"): ICU4X's range
//   formatter repeats them.
// - ar-EG's zone names: CLDR 47 (ICU4X) writes U+061C in "غرينتش؜-٥" and names UTC
//   "التوقيت العالمي"; node 20's CLDR 43 has neither.
const locales = ["en-US", "de-DE", "ja-JP", "ar-EG"];
const instants = [Date.UTC(2024, 0, 2, 3, 4, 5, 67), Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2024, 6, 14, 12, 0, 0)];
const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Tokyo"];
const show = (parts) => parts.map((p) => `${p.type}:${p.value}`).join("|");
for (const locale of locales) {
  const english = locale === "en-US";
  for (const timeZone of zones) {
    // ar-EG's full and long time styles name the zone (left out, above).
    for (const dateStyle of locale === "ar-EG" ? ["medium", "short"] : ["full", "long", "medium", "short"]) {
      const f = new Intl.DateTimeFormat(locale, { dateStyle, timeStyle: dateStyle === "full" ? "long" : dateStyle, timeZone });
      console.log(locale, timeZone, dateStyle, instants.map((t) => f.format(t)).join(" ; "));
    }
  }
  const bags = [
    { year: "2-digit", month: "2-digit", day: "2-digit" },
    { year: "numeric", month: "2-digit", day: "2-digit" },
    { year: "numeric", month: "long" },
    { year: "numeric", month: "long", day: "numeric" },
    { month: "long", day: "numeric", weekday: "long" },
    { weekday: "short" },
    { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false },
    { hour: "numeric", hourCycle: "h23" },
    { hour: "numeric", minute: "numeric", second: "numeric", fractionalSecondDigits: 3 },
    { year: "numeric", era: "short" },
  ];
  if (english) {
    bags.push({ year: "numeric", month: "numeric", day: "numeric" }, { year: "numeric", month: "short", day: "numeric" }, {});
  }
  if (locale !== "de-DE") bags.push({ hour: "numeric", minute: "2-digit" });
  if (locale !== "ar-EG") bags.push({ hour: "numeric", timeZoneName: "short" });
  for (const bag of bags) {
    const f = new Intl.DateTimeFormat(locale, { ...bag, timeZone: "America/New_York" });
    console.log(locale, JSON.stringify(bag), instants.map((t) => f.format(t)).join(" ; "));
  }
  // (h23: node 20 keeps CLDR's U+202F before "AM" in formatToParts, Amber writes a space in
  // every method as V8's format does.)
  const f = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Berlin", hourCycle: "h23" });
  console.log(locale, "parts", show(f.formatToParts(instants[0])));
  const r = f.resolvedOptions();
  console.log(locale, "resolved", Object.keys(r).sort().map((k) => `${k}=${r[k]}`).join(" "));
  // A range whose ends share no field (different years), and one inside a single day's
  // formatted date.
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  // (ar-EG's interval pattern writes numeric fields unpadded: CLDR's intervalFormats, as for
  // the widths above.)
  if (locale !== "ar-EG") console.log(locale, "range", day.formatRange(instants[1], instants[0]), "|", show(day.formatRangeToParts(instants[1], instants[0])));
  console.log(locale, "same day", day.formatRange(instants[0], instants[0] + 3600e3));
  const d = new Date(instants[0]);
  console.log(locale, "toLocaleTimeString", d.toLocaleTimeString(locale, { timeZone: "Asia/Tokyo" }));
  if (english) console.log(locale, "toLocale", d.toLocaleString(locale, { timeZone: "Asia/Tokyo" }), "|", d.toLocaleDateString(locale, { timeZone: "Asia/Tokyo" }));
}
