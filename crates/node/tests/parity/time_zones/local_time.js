// Date's local time in the run's time zone: node_parity.rs also runs this file under
// several zones (node with TZ=zone, amber with --tz zone), daylight-saving transitions
// included. Dates before 1980 are left out: for them V8 names a zone by its current
// metazone ("Lord Howe Standard Time" in 1970) where CLDR follows the zone's history
// ("Australian Eastern Standard Time").
const fields = (d) =>
  [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(),
    d.getMilliseconds(), d.getTimezoneOffset()].join(",");
const show = (label, d) => console.log(label.padEnd(24), d.getTime(), fields(d), "|", d.toString());

// Instants on both sides of the 2024 transitions of the northern and southern zones.
for (const iso of ["2024-01-15T12:00:00Z", "2024-03-10T06:59:59.999Z", "2024-03-10T07:00:00Z",
  "2024-03-31T00:59:59Z", "2024-03-31T01:00:00Z", "2024-04-06T15:30:00Z", "2024-04-07T16:00:00Z",
  "2024-07-04T18:30:00Z", "2024-09-29T13:59:59Z", "2024-10-05T15:00:00Z", "2024-10-27T00:59:59Z",
  "2024-10-27T01:00:00Z", "2024-11-03T05:59:59Z", "2024-11-03T06:00:00Z", "1990-01-01T00:00:00Z",
  "1999-12-31T23:59:59.999Z", "2038-01-19T03:14:08Z"]) {
  show(iso, new Date(iso));
}

// Local times that fall in a gap (read with the offset before it) or occur twice (the
// earlier instant), in the constructor, Date.parse and the setters.
for (const [y, m, d, h, min] of [[2024, 2, 10, 2, 30], [2024, 10, 3, 1, 30], [2024, 2, 31, 2, 30],
  [2024, 9, 27, 2, 30], [2024, 3, 7, 2, 15], [2024, 9, 6, 2, 15], [2024, 8, 29, 2, 45], [2024, 0, 1, 0, 0],
  [1995, 5, 15, 12, 0], [2100, 6, 1, 12, 0]]) {
  show(`new Date(${y},${m},${d},${h},${min})`, new Date(y, m, d, h, min));
}
for (const s of ["2024-03-10T02:30", "2024-11-03T01:30:00", "2024-07-04", "2024-07-04T12:00:00Z",
  "July 4, 2024 10:00", "Sun Mar 10 2024 02:30:00", "2024/10/27 02:30", "Thu, 04 Jul 2024 10:00:00 GMT",
  "2024-07-04T12:00:00+05:30"]) {
  console.log(JSON.stringify(s).padEnd(36), Date.parse(s));
}

const d = new Date(2024, 0, 31, 12);
d.setMonth(2); show("setMonth(2)", d);
d.setDate(10); show("setDate(10)", d);
d.setHours(2, 30); show("setHours(2,30)", d);
d.setUTCHours(23); show("setUTCHours(23)", d);
d.setMinutes(-30); show("setMinutes(-30)", d);
d.setFullYear(2025, 9, 26); show("setFullYear(2025,9,26)", d);
d.setTime(Date.UTC(2024, 10, 3, 5, 30)); show("setTime", d);
d.setSeconds(3600 * 2); show("setSeconds(7200)", d);
const n = new Date(NaN);
n.setFullYear(2024); show("NaN.setFullYear", n);
console.log(new Date(2024, 6, 1).toDateString(), "|", new Date(2024, 6, 1, 9).toTimeString());
console.log(Date.UTC(2024, 6, 1) - new Date(2024, 6, 1).getTime());
console.log(new Date(2024, 6, 1, 15, 4, 5).toLocaleString("en-GB"), new Date(2024, 11, 24, 23, 59).toLocaleString("de-DE"));
console.log(new Date(2024, 6, 1, 15).toLocaleTimeString("en-US", { hour12: false, timeZoneName: "short" }));
