// Date: constructor forms, MakeDay/MakeTime arithmetic, getters and setters (local = UTC),
// string forms and their edge years. Run with TZ=UTC (amber's default zone).
const log = (...a) => console.log(a.map(String).join(" "));
const d = new Date(2024, 1, 29, 13, 45, 30, 123);
log(d.getTime(), d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds(), d.getTimezoneOffset());
log(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds(), d.getYear());
log(String(d), d.toDateString(), d.toTimeString(), d.toUTCString(), d.toGMTString(), d.toISOString(), JSON.stringify(d));
log(d.toLocaleDateString(), new Date(Date.UTC(2020, 0, 1, 12)).toLocaleDateString());
log(d.toLocaleString(), d.toLocaleTimeString(), d.toLocaleTimeString("en-US", { hour: "numeric" }));
log(new Date(0).getTime(), new Date(-1).toISOString(), new Date(8.64e15).toISOString(), new Date(8.64e15 + 1).getTime(), new Date(-8.64e15).toISOString(), new Date(NaN).getTime());
log(new Date(99, 0).getFullYear(), new Date(100, 0).getFullYear(), new Date(-1, 0).getFullYear(), new Date(2020, 12, 1).getMonth(), new Date(2020, -1, 1).toISOString(), new Date(2020, 0, 0).getDate());
log(new Date(2020, 0, 1, 24).toISOString(), new Date(2020, 0, 1, 0, 0, 0, -1).toISOString(), new Date(2020.7, 0.9, 1.5).toISOString(), new Date(1e6, 0).getTime(), new Date(275760, 8, 13).getTime(), new Date(275760, 8, 13, 0, 0, 0, 1).getTime());
log(Date.UTC(2020), Date.UTC(2020, 1), Date.UTC(), Date.UTC(99, 11, 31), Date.UTC(NaN), Date.UTC(2020, 0, 1, 0, 0, 0, 0.9), Date.UTC(-271821, 3, 20), Date.UTC(-271821, 3, 19, 23, 59, 59, 999));
log(new Date(new Date(5)).getTime(), new Date("1970-01-01T00:00:00.007Z").getTime(), new Date(true).getTime(), new Date(null).getTime(), new Date(undefined).getTime(), new Date({ valueOf() { return 42; } }).getTime(), new Date({ toString() { return "1970"; }, valueOf: undefined }).getTime());
log(typeof Date(), Date().length > 20, typeof Date.now(), Date.length, Date.name, Date.prototype.constructor === Date, Object.prototype.toString.call(new Date(0)));

const s = new Date(0);
log(s.setMilliseconds(5), s.setSeconds(61), s.setMinutes(2, 3, 4), s.setHours(25), s.setDate(0), s.setMonth(13, 2), s.setFullYear(2001), s.setFullYear(2002, 5, 6), s.toISOString());
log(s.setUTCMilliseconds(1), s.setUTCSeconds(2, 3), s.setUTCMinutes(4), s.setUTCHours(5, 6, 7, 8), s.setUTCDate(9), s.setUTCMonth(10), s.setUTCFullYear(2011, 11), s.toISOString());
log(s.setTime(1e12), s.setTime("x"), s.getTime(), s.setHours(1), s.setFullYear(2000), s.toISOString(), s.setYear(99), s.getFullYear(), s.setYear(2005), s.setYear(NaN));
const inv = new Date(NaN);
log(inv.setMonth(1), inv.setDate(1), inv.setHours(1), inv.setUTCFullYear(1999, 1), inv.toISOString(), new Date(NaN).setYear(5));
const order = [];
const spy = (v) => ({ valueOf() { order.push(v); return v; } });
new Date(0).setHours(spy(1), spy(2), spy(3), spy(4));
new Date(spy(2000), spy(1), spy(2), spy(3), spy(4), spy(5), spy(6), spy(7));
log(order.join(","));

log(String(new Date(NaN)), new Date(NaN).toDateString(), new Date(NaN).toUTCString(), new Date(NaN).toLocaleString(), JSON.stringify({ d: new Date(NaN) }));
try { new Date(NaN).toISOString(); } catch (e) { log(e.constructor.name, e.message); }
try { Date.prototype.getTime.call({}); } catch (e) { log(e.constructor.name, e.message); }
try { Date.prototype.valueOf.call(Date.prototype); } catch (e) { log(e.constructor.name); }
log(Date.prototype.toJSON.call({ toISOString() { return "iso"; } }), Date.prototype.toJSON.call({ valueOf() { return Infinity; }, toISOString() { return 1; } }));
log(new Date(0) + 1, new Date(0) - 1, `${new Date(0)}` === String(new Date(0)), new Date(0)[Symbol.toPrimitive]("number"), new Date(0)[Symbol.toPrimitive]("default"));
try { new Date(0)[Symbol.toPrimitive]("bogus"); } catch (e) { log(e.constructor.name); }
log(JSON.stringify(Object.getOwnPropertyDescriptor(Date.prototype, Symbol.toPrimitive)), Date.prototype.toGMTString === Date.prototype.toUTCString, Date.prototype[Symbol.toPrimitive].name);
for (const t of [-62198755200000, -62135596800000, -1e15, 253402300800000, -377705116800000]) {
  const x = new Date(t);
  log(String(x), "|", x.toUTCString(), "|", x.toISOString());
}
