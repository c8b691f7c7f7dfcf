//! The Date object (ECMA-262 §21.4): https://tc39.es/ecma262/#sec-date-objects
//!
//! - **Local time is UTC.** The engine has no time-zone database: LocalTime(t) = UTC(t) = t,
//!   `getTimezoneOffset()` is 0, and the string forms print `GMT+0000 (Coordinated Universal
//!   Time)` — exactly what Node prints with `TZ=UTC`. A program therefore behaves the same on
//!   every machine, and on replay.
//! - **No clock of its own.** `Date.now()` and `new Date()` read the logical clock the embedder
//!   keeps in `vm.host_state` under [`CLOCK_KEY`] (8 bytes, a little-endian f64 of epoch
//!   milliseconds). The durable layer owns that clock (DESIGN §6: captured at start, advanced
//!   by timers and host-operation durations); a VM without the entry reads time 0.
//! - **Parsing** follows V8's date parser: the ISO format (§21.4.1.32) plus the legacy forms
//!   V8 accepts, which include everything `toString`, `toUTCString` and `toISOString` print.
//! - **Locale methods** ignore their `locales`/`options` arguments and print Node's `en-US`
//!   forms (`1/2/2024, 3:04:05 PM`); Intl is a later stage.

use crate::atoms::PropertyKey;
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{invoke, prototype_from_constructor};
use crate::runtime::convert::{ordinary_to_primitive, to_number, to_object, to_primitive, to_js_str, Hint};
use crate::string::{is_js_whitespace, JsStr};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Date", 7, constructor),
    native!("Date.now", 0, now),
    native!("Date.parse", 1, parse),
    native!("Date.UTC", 7, utc),
    native!("Date.prototype.getDate", 0, get_date),
    native!("Date.prototype.getDay", 0, get_day),
    native!("Date.prototype.getFullYear", 0, get_full_year),
    native!("Date.prototype.getHours", 0, get_hours),
    native!("Date.prototype.getMilliseconds", 0, get_milliseconds),
    native!("Date.prototype.getMinutes", 0, get_minutes),
    native!("Date.prototype.getMonth", 0, get_month),
    native!("Date.prototype.getSeconds", 0, get_seconds),
    native!("Date.prototype.getTime", 0, get_time),
    native!("Date.prototype.getTimezoneOffset", 0, get_timezone_offset),
    native!("Date.prototype.getUTCDate", 0, get_date),
    native!("Date.prototype.getUTCDay", 0, get_day),
    native!("Date.prototype.getUTCFullYear", 0, get_full_year),
    native!("Date.prototype.getUTCHours", 0, get_hours),
    native!("Date.prototype.getUTCMilliseconds", 0, get_milliseconds),
    native!("Date.prototype.getUTCMinutes", 0, get_minutes),
    native!("Date.prototype.getUTCMonth", 0, get_month),
    native!("Date.prototype.getUTCSeconds", 0, get_seconds),
    native!("Date.prototype.getYear", 0, get_year),
    native!("Date.prototype.setDate", 1, set_date),
    native!("Date.prototype.setFullYear", 3, set_full_year),
    native!("Date.prototype.setHours", 4, set_hours),
    native!("Date.prototype.setMilliseconds", 1, set_milliseconds),
    native!("Date.prototype.setMinutes", 3, set_minutes),
    native!("Date.prototype.setMonth", 2, set_month),
    native!("Date.prototype.setSeconds", 2, set_seconds),
    native!("Date.prototype.setTime", 1, set_time),
    native!("Date.prototype.setUTCDate", 1, set_date),
    native!("Date.prototype.setUTCFullYear", 3, set_full_year),
    native!("Date.prototype.setUTCHours", 4, set_hours),
    native!("Date.prototype.setUTCMilliseconds", 1, set_milliseconds),
    native!("Date.prototype.setUTCMinutes", 3, set_minutes),
    native!("Date.prototype.setUTCMonth", 2, set_month),
    native!("Date.prototype.setUTCSeconds", 2, set_seconds),
    native!("Date.prototype.setYear", 1, set_year),
    native!("Date.prototype.toDateString", 0, to_date_string),
    native!("Date.prototype.toISOString", 0, to_iso_string),
    native!("Date.prototype.toJSON", 1, to_json),
    native!("Date.prototype.toLocaleDateString", 0, to_locale_date_string),
    native!("Date.prototype.toLocaleString", 0, to_locale_string),
    native!("Date.prototype.toLocaleTimeString", 0, to_locale_time_string),
    native!("Date.prototype.toString", 0, to_string),
    native!("Date.prototype.toTimeString", 0, to_time_string),
    native!("Date.prototype.toUTCString", 0, to_utc_string),
    native!("Date.prototype.valueOf", 0, get_time),
    native!("Date.prototype[Symbol.toPrimitive]", 1, to_primitive_method),
];

/// The `vm.host_state` entry holding the embedder's logical clock: 8 bytes, a little-endian
/// f64 of milliseconds since the epoch.
pub const CLOCK_KEY: &str = "clock.now_ms";

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.date_prototype;
    // 21.4.4: the Date prototype object is an ordinary object (not a Date instance).
    vm.heap.obj_mut(proto).proto = Some(vm.realm.object_prototype);
    let ctor = make_constructor(vm, "Date", "Date", proto);
    install(vm, proto, "Date.prototype", NATIVES);
    install(vm, ctor, "Date", NATIVES);

    // B.2.3.3: the initial value of "toGMTString" is %Date.prototype.toUTCString%.
    let utc_key = vm.key("toUTCString");
    let to_utc = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, utc_key).map(|(v, _)| v);
    if let Some(f) = to_utc {
        let key = vm.key("toGMTString");
        vm.define_builtin(proto, key, f, PropFlags::HIDDEN);
    }
    // 21.4.4.45: Date.prototype[%Symbol.toPrimitive%] is { [[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: true }.
    let key = PropertyKey::Symbol(vm.symbols.toPrimitive);
    let f = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, key).map(|(v, _)| v);
    if let Some(f) = f {
        vm.define_builtin(proto, key, f, PropFlags(PropFlags::CONFIGURABLE));
    }
}

// ---- 21.4.1 Abstract operations for time values

const MS_PER_DAY: f64 = 86_400_000.0;
const MS_PER_HOUR: f64 = 3_600_000.0;
const MS_PER_MINUTE: f64 = 60_000.0;
const MS_PER_SECOND: f64 = 1_000.0;
/// The largest time value magnitude (§21.4.1.1): 100,000,000 days either side of the epoch.
const MAX_TIME: f64 = 8.64e15;

/// Day ( t ) (§21.4.1.3).
fn day(t: f64) -> f64 {
    (t / MS_PER_DAY).floor()
}

/// TimeWithinDay ( t ) (§21.4.1.4).
fn time_within_day(t: f64) -> f64 {
    t.rem_euclid(MS_PER_DAY)
}

/// The proleptic Gregorian (year, month 1–12, day 1–31) of a day number (days since the
/// epoch): YearFromTime, MonthFromTime + 1 and DateFromTime (§21.4.1.8–21.4.1.10).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The day number of a proleptic Gregorian date (month 1–12): the inverse of
/// [`civil_from_days`] (DayFromYear plus the days of the preceding months).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The fields of a finite time value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fields {
    year: i64,
    /// 0–11.
    month: u32,
    /// 1–31.
    date: u32,
    /// 0 = Sunday.
    week_day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    ms: u32,
}

/// YearFromTime, MonthFromTime, DateFromTime, WeekDay, HourFromTime, MinFromTime, SecFromTime
/// and msFromTime (§21.4.1.8–21.4.1.14) of a finite time value.
fn fields(t: f64) -> Fields {
    let d = day(t) as i64;
    let (year, m, date) = civil_from_days(d);
    let within = time_within_day(t) as u64;
    Fields {
        year,
        month: m - 1,
        date,
        // WeekDay ( t ) = (Day(t) + 4) modulo 7.
        week_day: (d + 4).rem_euclid(7) as u32,
        hour: (within / 3_600_000) as u32,
        minute: (within / 60_000 % 60) as u32,
        second: (within / 1000 % 60) as u32,
        ms: (within % 1000) as u32,
    }
}

/// LocalTime ( t ) (§21.4.1.25): local time is UTC.
fn local_time(t: f64) -> f64 {
    t
}

/// UTC ( t ) (§21.4.1.26): local time is UTC.
fn utc_of(t: f64) -> f64 {
    t
}

/// MakeTime ( hour, min, sec, ms ) (§21.4.1.27).
fn make_time(hour: f64, min: f64, sec: f64, ms: f64) -> f64 {
    // 1. If hour, min, sec, or ms is not finite, return NaN.
    if !(hour.is_finite() && min.is_finite() && sec.is_finite() && ms.is_finite()) {
        return f64::NAN;
    }
    // 2–5. Let h, m, s, milli be 𝔽(! ToIntegerOrInfinity(…)).
    let (h, m, s, milli) = (hour.trunc(), min.trunc(), sec.trunc(), ms.trunc());
    // 6. Return ((h × msPerHour + m × msPerMinute) + s × msPerSecond) + milli, performing the
    //    arithmetic according to IEEE 754-2019 rules.
    ((h * MS_PER_HOUR + m * MS_PER_MINUTE) + s * MS_PER_SECOND) + milli
}

/// MakeDay ( year, month, date ) (§21.4.1.28).
fn make_day(year: f64, month: f64, date: f64) -> f64 {
    // 1. If year, month, or date is not finite, return NaN.
    if !(year.is_finite() && month.is_finite() && date.is_finite()) {
        return f64::NAN;
    }
    // 2–4. Let y, m, dt be 𝔽(! ToIntegerOrInfinity(…)).
    let (y, m, dt) = (year.trunc(), month.trunc(), date.trunc());
    // Out of range for any time value (V8's bounds): the "not possible" case of step 7.
    if y.abs() > 1_000_000.0 || m.abs() > 10_000_000.0 {
        return f64::NAN;
    }
    // 5. Let ym be y + 𝔽(floor(ℝ(m) / 12)).
    let ym = y as i64 + (m / 12.0).floor() as i64;
    // 6. Let mn be 𝔽(ℝ(m) modulo 12).
    let mn = m.rem_euclid(12.0) as u32;
    // 7. Find a finite time value t such that YearFromTime(t) is ym, MonthFromTime(t) is mn,
    //    and DateFromTime(t) is 1𝔽.
    let first = days_from_civil(ym, mn + 1, 1) as f64;
    // 8. Return Day(t) + dt - 1𝔽.
    first + dt - 1.0
}

/// MakeDate ( day, time ) (§21.4.1.29).
fn make_date(day: f64, time: f64) -> f64 {
    // 1. If day is not finite or time is not finite, return NaN.
    if !(day.is_finite() && time.is_finite()) {
        return f64::NAN;
    }
    // 2. Let tv be day × msPerDay + time.
    let tv = day * MS_PER_DAY + time;
    // 3. If tv is not finite, return NaN. 4. Return tv.
    if tv.is_finite() {
        tv
    } else {
        f64::NAN
    }
}

/// MakeFullYear ( year ) (§21.4.1.30).
fn make_full_year(year: f64) -> f64 {
    // 1. If year is NaN, return NaN.
    if year.is_nan() {
        return f64::NAN;
    }
    // 2. Let truncated be ! ToIntegerOrInfinity(year).
    let truncated = year.trunc();
    // 3. If truncated is in the inclusive interval from 0 to 99, return 1900𝔽 + 𝔽(truncated).
    if (0.0..=99.0).contains(&truncated) {
        return 1900.0 + truncated;
    }
    // 4. Return year.
    year
}

/// TimeClip ( time ) (§21.4.1.31).
fn time_clip(time: f64) -> f64 {
    // 1. If time is not finite, return NaN.
    // 2. If abs(ℝ(time)) > 8.64 × 10^15, return NaN.
    if !time.is_finite() || time.abs() > MAX_TIME {
        return f64::NAN;
    }
    // 3. Return 𝔽(! ToIntegerOrInfinity(time)) (-0 becomes +0).
    time.trunc() + 0.0
}

/// The current time value: the embedder's logical clock, or 0 when it set none.
fn current_time(vm: &Vm) -> f64 {
    let bytes = vm.host_state.iter().find(|(k, _)| k == CLOCK_KEY).map(|(_, v)| v.as_slice());
    let ms = match bytes.and_then(|b| <[u8; 8]>::try_from(b).ok()) {
        Some(b) => f64::from_le_bytes(b),
        None => 0.0,
    };
    let t = time_clip(ms);
    if t.is_nan() {
        0.0
    } else {
        t
    }
}

/// thisTimeValue: the [[DateValue]] of `this`, or a TypeError.
fn this_time_value(vm: &mut Vm, this: Value) -> JsResult<f64> {
    match this.as_object().map(|o| &vm.heap.obj(o).class) {
        Some(Class::Date(t)) => Ok(*t),
        _ => Err(vm.type_error("this is not a Date object.")),
    }
}

/// The Date object `this` and its time value.
fn this_date(vm: &mut Vm, this: Value) -> JsResult<(ObjectId, f64)> {
    if let Some(o) = this.as_object() {
        if let Class::Date(t) = vm.heap.obj(o).class {
            return Ok((o, t));
        }
    }
    Err(vm.type_error("this is not a Date object."))
}

fn set_date_value(vm: &mut Vm, o: ObjectId, t: f64) {
    if let Class::Date(v) = &mut vm.heap.obj_mut(o).class {
        *v = t;
    }
}

// ---- 21.4.2 The Date constructor

/// ### 21.4.2.1 Date ( ...values )
/// https://tc39.es/ecma262/#sec-date
fn constructor(vm: &mut Vm, _this: Value, values: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, then
    if new_target.is_undefined() {
        // a. Let now be the time value (UTC) identifying the current time.
        let now = current_time(vm);
        // b. Return ToDateString(now).
        return Ok(vm.str(&to_date_string_of(now)));
    }
    // 2. Let numberOfArgs be the number of elements in values.
    let dv = match values.len() {
        // 3. If numberOfArgs = 0, let dv be the time value identifying the current time.
        0 => current_time(vm),
        // 4. Else if numberOfArgs = 1, then
        1 => {
            // a. Let value be values[0].
            let value = values[0];
            // b. If value is an Object and value has a [[DateValue]] internal slot, then
            let own = value.as_object().and_then(|o| match vm.heap.obj(o).class {
                Class::Date(t) => Some(t),
                _ => None,
            });
            let tv = match own {
                // i. Let tv be value.[[DateValue]].
                Some(t) => t,
                None => {
                    // c. i. Let v be ? ToPrimitive(value).
                    let v = to_primitive(vm, value, Hint::Default)?;
                    match v.as_string() {
                        // ii. If v is a String, let tv be the result of parsing v as a date.
                        Some(s) => parse_date(vm.heap.flat(s)),
                        // iii. Else, let tv be ? ToNumber(v).
                        None => to_number(vm, v)?,
                    }
                }
            };
            // d. Let dv be TimeClip(tv).
            time_clip(tv)
        }
        // 5. Else,
        n => {
            // b–h. Let y, m, dt (default 1), h, min, s, milli (default 0) be ? ToNumber(…).
            let mut nums = [f64::NAN, f64::NAN, 1.0, 0.0, 0.0, 0.0, 0.0];
            for (i, slot) in nums.iter_mut().enumerate().take(n.min(7)) {
                *slot = to_number(vm, values[i])?;
            }
            let [y, m, dt, h, min, s, milli] = nums;
            // i. Let yr be MakeFullYear(y).
            let yr = make_full_year(y);
            // j. Let finalDate be MakeDate(MakeDay(yr, m, dt), MakeTime(h, min, s, milli)).
            let final_date = make_date(make_day(yr, m, dt), make_time(h, min, s, milli));
            // k. Let dv be TimeClip(UTC(finalDate)).
            time_clip(utc_of(final_date))
        }
    };
    // 6. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%Date.prototype%", « [[DateValue]] »).
    let default = vm.realm.date_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 7. Set O.[[DateValue]] to dv.
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Date(dv)));
    // 8. Return O.
    Ok(Value::object(o))
}

/// ### 21.4.3.1 Date.now ( )
/// https://tc39.es/ecma262/#sec-date.now
fn now(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // Returns the time value designating the UTC date and time of the call: the embedder's
    // logical clock (see the module doc).
    Ok(Value::number(current_time(vm)))
}

/// ### 21.4.3.2 Date.parse ( string )
/// https://tc39.es/ecma262/#sec-date.parse
fn parse(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    Ok(Value::number(parse_date(&s)))
}

/// ### 21.4.3.4 Date.UTC ( year [ , month [ , date [ , hours [ , minutes [ , seconds [ , ms ] ] ] ] ] ] )
/// https://tc39.es/ecma262/#sec-date.utc
fn utc(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let y be ? ToNumber(year).
    // 2–7. m (default +0), dt (default 1), h, min, s, milli (default +0): ? ToNumber if present.
    let mut nums = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    nums[0] = to_number(vm, arg(args, 0))?;
    for (i, slot) in nums.iter_mut().enumerate().skip(1).take(args.len().min(7).saturating_sub(1)) {
        *slot = to_number(vm, args[i])?;
    }
    let [y, m, dt, h, min, s, milli] = nums;
    // 8. Let yr be MakeFullYear(y).
    let yr = make_full_year(y);
    // 9. Return TimeClip(MakeDate(MakeDay(yr, m, dt), MakeTime(h, min, s, milli))).
    Ok(Value::number(time_clip(make_date(make_day(yr, m, dt), make_time(h, min, s, milli)))))
}

// ---- 21.4.4 Properties of the Date prototype object: getters

/// A getter: `f` of the (local = UTC) fields, or NaN for an invalid date.
fn field_getter(vm: &mut Vm, this: Value, f: fn(&Fields) -> f64) -> JsResult<Value> {
    // 1. Let dateObject be the this value.
    // 2. Perform ? RequireInternalSlot(dateObject, [[DateValue]]).
    // 3. Let t be dateObject.[[DateValue]].
    let t = this_time_value(vm, this)?;
    // 4. If t is NaN, return NaN.
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    // 5. Return the field of LocalTime(t).
    Ok(Value::number(f(&fields(local_time(t)))))
}

/// ### 21.4.4.2 Date.prototype.getDate ( ) and 21.4.4.12 getUTCDate ( )
fn get_date(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.date))
}

/// ### 21.4.4.3 Date.prototype.getDay ( ) and 21.4.4.13 getUTCDay ( )
fn get_day(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.week_day))
}

/// ### 21.4.4.4 Date.prototype.getFullYear ( ) and 21.4.4.14 getUTCFullYear ( )
fn get_full_year(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f.year as f64)
}

/// ### 21.4.4.5 Date.prototype.getHours ( ) and 21.4.4.15 getUTCHours ( )
fn get_hours(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.hour))
}

/// ### 21.4.4.6 Date.prototype.getMilliseconds ( ) and 21.4.4.16 getUTCMilliseconds ( )
fn get_milliseconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.ms))
}

/// ### 21.4.4.7 Date.prototype.getMinutes ( ) and 21.4.4.17 getUTCMinutes ( )
fn get_minutes(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.minute))
}

/// ### 21.4.4.8 Date.prototype.getMonth ( ) and 21.4.4.18 getUTCMonth ( )
fn get_month(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.month))
}

/// ### 21.4.4.9 Date.prototype.getSeconds ( ) and 21.4.4.19 getUTCSeconds ( )
fn get_seconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    field_getter(vm, this, |f| f64::from(f.second))
}

/// ### 21.4.4.10 Date.prototype.getTime ( ) and 21.4.4.44 Date.prototype.valueOf ( )
fn get_time(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1–3. Return dateObject.[[DateValue]].
    let t = this_time_value(vm, this)?;
    Ok(Value::number(t))
}

/// ### 21.4.4.11 Date.prototype.getTimezoneOffset ( )
fn get_timezone_offset(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let t = this_time_value(vm, this)?;
    // 4. If t is NaN, return NaN.
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    // 5. Return (t - LocalTime(t)) / msPerMinute.
    Ok(Value::number((t - local_time(t)) / MS_PER_MINUTE))
}

/// ### B.2.3.1 Date.prototype.getYear ( )
fn get_year(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 5. Return YearFromTime(LocalTime(t)) - 1900𝔽.
    field_getter(vm, this, |f| f.year as f64 - 1900.0)
}

// ---- setters

/// The time setters (setHours, setMinutes, setSeconds, setMilliseconds and their UTC forms,
/// §21.4.4.22–21.4.4.31): `first` is the first field the setter takes (0 hour … 3 ms); the
/// rest of hour, min, sec, ms are optional arguments. Local time is UTC, so the local and UTC
/// forms are one algorithm.
fn set_time_fields(vm: &mut Vm, this: Value, args: &[Value], first: usize) -> JsResult<Value> {
    // 1–2. Let dateObject be the this value; ? RequireInternalSlot(dateObject, [[DateValue]]).
    // 3. Let t be dateObject.[[DateValue]].
    let (o, t) = this_date(vm, this)?;
    // 4–7. Convert each supplied argument with ? ToNumber, in order (the first always).
    let mut given: [Option<f64>; 4] = [None; 4];
    for (i, slot) in given.iter_mut().enumerate().skip(first) {
        let k = i - first;
        if k == 0 || k < args.len() {
            *slot = Some(to_number(vm, arg(args, k))?);
        }
    }
    // 8. If t is NaN, return NaN.
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    // 9. Set t to LocalTime(t).
    let t = local_time(t);
    let f = fields(t);
    // 10–13. Missing fields come from t.
    let h = given[0].unwrap_or(f64::from(f.hour));
    let m = given[1].unwrap_or(f64::from(f.minute));
    let s = given[2].unwrap_or(f64::from(f.second));
    let milli = given[3].unwrap_or(f64::from(f.ms));
    // 14. Let date be MakeDate(Day(t), MakeTime(h, m, s, milli)).
    let date = make_date(day(t), make_time(h, m, s, milli));
    // 15. Let u be TimeClip(UTC(date)).
    let u = time_clip(utc_of(date));
    // 16. Set dateObject.[[DateValue]] to u. 17. Return u.
    set_date_value(vm, o, u);
    Ok(Value::number(u))
}

/// ### 21.4.4.22 Date.prototype.setHours ( hour [ , min [ , sec [ , ms ] ] ] ) (and setUTCHours)
fn set_hours(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_time_fields(vm, this, args, 0)
}

/// ### 21.4.4.24 Date.prototype.setMinutes ( min [ , sec [ , ms ] ] ) (and setUTCMinutes)
fn set_minutes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_time_fields(vm, this, args, 1)
}

/// ### 21.4.4.26 Date.prototype.setSeconds ( sec [ , ms ] ) (and setUTCSeconds)
fn set_seconds(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_time_fields(vm, this, args, 2)
}

/// ### 21.4.4.23 Date.prototype.setMilliseconds ( ms ) (and setUTCMilliseconds)
fn set_milliseconds(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_time_fields(vm, this, args, 3)
}

/// The date setters (setFullYear, setMonth, setDate and their UTC forms, §21.4.4.20–21.4.4.31):
/// `first` is the first field taken (0 year, 1 month, 2 date).
fn set_date_fields(vm: &mut Vm, this: Value, args: &[Value], first: usize) -> JsResult<Value> {
    // 1–3. Let t be dateObject.[[DateValue]].
    let (o, t) = this_date(vm, this)?;
    // 4. Convert the first argument with ? ToNumber.
    let mut given: [Option<f64>; 3] = [None; 3];
    given[first] = Some(to_number(vm, arg(args, 0))?);
    let t = if first == 0 {
        // setFullYear 5. If t is NaN, set t to +0𝔽; otherwise, set t to LocalTime(t).
        if t.is_nan() {
            0.0
        } else {
            local_time(t)
        }
    } else {
        t
    };
    // Then each further supplied argument, in order.
    for i in first + 1..3 {
        let k = i - first;
        if k < args.len() {
            given[i] = Some(to_number(vm, args[k])?);
        }
    }
    // setMonth/setDate: If t is NaN, return NaN. Set t to LocalTime(t).
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    let t = local_time(t);
    let f = fields(t);
    // Missing fields come from t.
    let y = given[0].unwrap_or(f.year as f64);
    let m = given[1].unwrap_or(f64::from(f.month));
    let dt = given[2].unwrap_or(f64::from(f.date));
    // Let newDate be MakeDate(MakeDay(y, m, dt), TimeWithinDay(t)).
    let new_date = make_date(make_day(y, m, dt), time_within_day(t));
    // Let u be TimeClip(UTC(newDate)).
    let u = time_clip(utc_of(new_date));
    // Set dateObject.[[DateValue]] to u. Return u.
    set_date_value(vm, o, u);
    Ok(Value::number(u))
}

/// ### 21.4.4.21 Date.prototype.setFullYear ( year [ , month [ , date ] ] ) (and setUTCFullYear)
fn set_full_year(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_date_fields(vm, this, args, 0)
}

/// ### 21.4.4.25 Date.prototype.setMonth ( month [ , date ] ) (and setUTCMonth)
fn set_month(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_date_fields(vm, this, args, 1)
}

/// ### 21.4.4.20 Date.prototype.setDate ( date ) (and setUTCDate)
fn set_date(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    set_date_fields(vm, this, args, 2)
}

/// ### 21.4.4.27 Date.prototype.setTime ( time )
fn set_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1–2. Perform ? RequireInternalSlot(dateObject, [[DateValue]]).
    let (o, _) = this_date(vm, this)?;
    // 3. Let t be ? ToNumber(time).
    let t = to_number(vm, arg(args, 0))?;
    // 4. Let v be TimeClip(t).
    let v = time_clip(t);
    // 5. Set dateObject.[[DateValue]] to v. 6. Return v.
    set_date_value(vm, o, v);
    Ok(Value::number(v))
}

/// ### B.2.3.2 Date.prototype.setYear ( year )
fn set_year(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 3. Let t be dateObject.[[DateValue]].
    let (o, t) = this_date(vm, this)?;
    // 4. Let y be ? ToNumber(year).
    let y = to_number(vm, arg(args, 0))?;
    // 5. If t is NaN, set t to +0𝔽; otherwise, set t to LocalTime(t).
    let t = if t.is_nan() { 0.0 } else { local_time(t) };
    // 6. Let yyyy be MakeFullYear(y).
    let yyyy = make_full_year(y);
    // 7. Let d be MakeDay(yyyy, MonthFromTime(t), DateFromTime(t)).
    let f = fields(t);
    let d = make_day(yyyy, f64::from(f.month), f64::from(f.date));
    // 8. Let date be MakeDate(d, TimeWithinDay(t)).
    let date = make_date(d, time_within_day(t));
    // 9. Let u be TimeClip(UTC(date)). 10. Set dateObject.[[DateValue]] to u. 11. Return u.
    let u = time_clip(utc_of(date));
    set_date_value(vm, o, u);
    Ok(Value::number(u))
}

// ---- string forms

const WEEK_DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

fn week_day_name(f: &Fields) -> &'static str {
    WEEK_DAYS.get(f.week_day as usize).copied().unwrap_or("")
}

fn month_name(f: &Fields) -> &'static str {
    MONTHS.get(f.month as usize).copied().unwrap_or("")
}

/// The year as DateString writes it: a "-" for years before 1 BCE+1, at least four digits.
fn padded_year(year: i64) -> String {
    if year >= 0 {
        format!("{year:04}")
    } else {
        format!("-{:04}", -year)
    }
}

/// TimeString ( tv ) (§21.4.4.41.1): "HH:mm:ss GMT".
fn time_string(f: &Fields) -> String {
    format!("{:02}:{:02}:{:02} GMT", f.hour, f.minute, f.second)
}

/// DateString ( tv ) (§21.4.4.41.2): "Www Mmm DD YYYY".
fn date_string(f: &Fields) -> String {
    format!("{} {} {:02} {}", week_day_name(f), month_name(f), f.date, padded_year(f.year))
}

/// TimeZoneString ( tv ) (§21.4.4.41.3): the offset and the zone's name — always UTC.
const TIME_ZONE_STRING: &str = "+0000 (Coordinated Universal Time)";

/// ToDateString ( tv ) (§21.4.4.41.4).
fn to_date_string_of(tv: f64) -> String {
    // 1. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return "Invalid Date".into();
    }
    // 2. Let t be LocalTime(tv).
    let f = fields(local_time(tv));
    // 3. Return DateString(t) + " " + TimeString(t) + TimeZoneString(tv).
    format!("{} {}{}", date_string(&f), time_string(&f), TIME_ZONE_STRING)
}

/// ### 21.4.4.35 Date.prototype.toDateString ( )
fn to_date_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 3. Let tv be dateObject.[[DateValue]].
    let tv = this_time_value(vm, this)?;
    // 4. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return Ok(vm.str("Invalid Date"));
    }
    // 5. Let t be LocalTime(tv). 6. Return DateString(t).
    Ok(vm.str(&date_string(&fields(local_time(tv)))))
}

/// ### 21.4.4.36 Date.prototype.toISOString ( )
/// https://tc39.es/ecma262/#sec-date.prototype.toisostring
fn to_iso_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    // If tv is not finite, throw a RangeError exception.
    if !tv.is_finite() {
        return Err(vm.range_error("Invalid time value"));
    }
    // The Date Time String Format (§21.4.1.32) in UTC, with expanded years outside 0–9999.
    let f = fields(tv);
    let year = if (0..=9999).contains(&f.year) {
        format!("{:04}", f.year)
    } else if f.year < 0 {
        format!("-{:06}", -f.year)
    } else {
        format!("+{:06}", f.year)
    };
    let s = format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        year,
        f.month + 1,
        f.date,
        f.hour,
        f.minute,
        f.second,
        f.ms
    );
    Ok(vm.str(&s))
}

/// ### 21.4.4.37 Date.prototype.toJSON ( key )
/// https://tc39.es/ecma262/#sec-date.prototype.tojson
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? ToObject(this value).
    let o = to_object(vm, this)?;
    let ov = Value::object(o);
    vm.roots.push(ov);
    // 2. Let tv be ? ToPrimitive(O, number).
    let tv = to_primitive(vm, ov, Hint::Number)?;
    // 3. If tv is a Number and tv is not finite, return null.
    if let Some(n) = tv.as_number() {
        if !n.is_finite() {
            return Ok(Value::NULL);
        }
    }
    // 4. Return ? Invoke(O, "toISOString").
    let key = vm.key("toISOString");
    invoke(vm, ov, key, &[])
}

/// The `en-US` date part Node prints: "M/D/Y" with the era year (1 BCE is year 1).
fn locale_date(f: &Fields) -> String {
    let era_year = if f.year <= 0 { 1 - f.year } else { f.year };
    format!("{}/{}/{}", f.month + 1, f.date, era_year)
}

/// The `en-US` time part Node prints: "h:mm:ss AM".
fn locale_time(f: &Fields) -> String {
    let h12 = if f.hour % 12 == 0 { 12 } else { f.hour % 12 };
    let ampm = if f.hour < 12 { "AM" } else { "PM" };
    format!("{}:{:02}:{:02} {}", h12, f.minute, f.second, ampm)
}

/// ### 21.4.4.38 Date.prototype.toLocaleDateString ( [ reserved1 [ , reserved2 ] ] )
fn to_locale_date_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    let s = if tv.is_nan() { "Invalid Date".to_string() } else { locale_date(&fields(local_time(tv))) };
    Ok(vm.str(&s))
}

/// ### 21.4.4.39 Date.prototype.toLocaleString ( [ reserved1 [ , reserved2 ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    let s = if tv.is_nan() {
        "Invalid Date".to_string()
    } else {
        let f = fields(local_time(tv));
        format!("{}, {}", locale_date(&f), locale_time(&f))
    };
    Ok(vm.str(&s))
}

/// ### 21.4.4.40 Date.prototype.toLocaleTimeString ( [ reserved1 [ , reserved2 ] ] )
fn to_locale_time_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    let s = if tv.is_nan() { "Invalid Date".to_string() } else { locale_time(&fields(local_time(tv))) };
    Ok(vm.str(&s))
}

/// ### 21.4.4.41 Date.prototype.toString ( )
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 3. Let tv be dateObject.[[DateValue]]. 4. Return ToDateString(tv).
    let tv = this_time_value(vm, this)?;
    Ok(vm.str(&to_date_string_of(tv)))
}

/// ### 21.4.4.42 Date.prototype.toTimeString ( )
fn to_time_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    // 4. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return Ok(vm.str("Invalid Date"));
    }
    // 5. Let t be LocalTime(tv). 6. Return TimeString(t) + TimeZoneString(tv).
    let f = fields(local_time(tv));
    Ok(vm.str(&format!("{}{}", time_string(&f), TIME_ZONE_STRING)))
}

/// ### 21.4.4.43 Date.prototype.toUTCString ( ) (also B.2.3.3 toGMTString)
fn to_utc_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    // 4. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return Ok(vm.str("Invalid Date"));
    }
    // 5–11. weekday + ", " + day + " " + month + " " + yearSign + paddedYear + " " + TimeString(tv).
    let f = fields(tv);
    let s = format!("{}, {:02} {} {} {}", week_day_name(&f), f.date, month_name(&f), padded_year(f.year), time_string(&f));
    Ok(vm.str(&s))
}

/// ### 21.4.4.45 Date.prototype [ %Symbol.toPrimitive% ] ( hint )
/// https://tc39.es/ecma262/#sec-date.prototype-%symbol.toprimitive%
fn to_primitive_method(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    let Some(o) = this.as_object() else {
        return Err(vm.type_error("Date.prototype[Symbol.toPrimitive] called on non-object"));
    };
    // 3–5. "string" or "default" → string; "number" → number; else TypeError.
    let hint = arg(args, 0);
    let text = hint.as_string().map(|s| vm.heap.flat(s).to_rust_string());
    let try_first = match text.as_deref() {
        Some("string") | Some("default") => Hint::String,
        Some("number") => Hint::Number,
        _ => return Err(vm.type_error("Invalid hint")),
    };
    // 6. Return ? OrdinaryToPrimitive(O, tryFirst).
    ordinary_to_primitive(vm, o, try_first)
}

// ---- parsing (V8's date parser)

/// Parse a date string as `Date.parse` does: the ISO format, then V8's legacy forms. NaN
/// when unrecognised.
pub fn parse_date(s: &JsStr) -> f64 {
    let units = s.units();
    let Some(out) = DateParser::parse(&units) else { return f64::NAN };
    let day = make_day(out.year as f64, f64::from(out.month), f64::from(out.day));
    let time = make_time(f64::from(out.hour), f64::from(out.minute), f64::from(out.second), f64::from(out.ms));
    let mut date = make_date(day, time);
    match out.utc_offset_seconds {
        // No offset: local time, which is UTC.
        None => {
            if date.abs() > MAX_TIME + 10.0 * MS_PER_DAY {
                return f64::NAN;
            }
            date = utc_of(date);
        }
        Some(offset) => {
            date -= f64::from(offset) * 1000.0;
            if date.abs() > MAX_TIME {
                return f64::NAN;
            }
        }
    }
    time_clip(date)
}

/// What a successful parse produces.
struct ParsedDate {
    year: i32,
    /// 0-based.
    month: i32,
    day: i32,
    hour: i32,
    minute: i32,
    second: i32,
    ms: i32,
    utc_offset_seconds: Option<i32>,
}

/// Marks a missing component.
const NONE: i32 = i32::MAX;
/// Digits beyond this many in a numeral are ignored.
const MAX_SIGNIFICANT_DIGITS: usize = 9;

fn between(x: i32, lo: i32, hi: i32) -> bool {
    (lo..=hi).contains(&x)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KeywordType {
    Invalid,
    MonthName,
    TimeZoneName,
    TimeSeparator,
    AmPm,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token {
    Invalid,
    Unknown,
    WhiteSpace,
    Number { value: i32, length: usize },
    Symbol(u16),
    Keyword { kind: KeywordType, value: i32, length: usize },
    End,
}

impl Token {
    fn is_number(self) -> bool {
        matches!(self, Token::Number { .. })
    }
    fn number(self) -> i32 {
        match self {
            Token::Number { value, .. } => value,
            _ => 0,
        }
    }
    fn is_fixed_length_number(self, n: usize) -> bool {
        matches!(self, Token::Number { length, .. } if length == n)
    }
    fn is_symbol(self, c: u8) -> bool {
        self == Token::Symbol(u16::from(c))
    }
    fn is_ascii_sign(self) -> bool {
        self.is_symbol(b'+') || self.is_symbol(b'-')
    }
    fn ascii_sign(self) -> i32 {
        if self.is_symbol(b'-') {
            -1
        } else {
            1
        }
    }
    fn is_keyword_type(self, t: KeywordType) -> bool {
        matches!(self, Token::Keyword { kind, .. } if kind == t)
    }
    fn is_keyword_z(self) -> bool {
        matches!(self, Token::Keyword { kind: KeywordType::TimeZoneName, value: 0, length: 1 })
    }
}

/// V8's keyword table: a three-letter lower-case prefix, its type and value.
const KEYWORDS: &[(&[u8; 3], KeywordType, i32)] = &[
    (b"jan", KeywordType::MonthName, 1),
    (b"feb", KeywordType::MonthName, 2),
    (b"mar", KeywordType::MonthName, 3),
    (b"apr", KeywordType::MonthName, 4),
    (b"may", KeywordType::MonthName, 5),
    (b"jun", KeywordType::MonthName, 6),
    (b"jul", KeywordType::MonthName, 7),
    (b"aug", KeywordType::MonthName, 8),
    (b"sep", KeywordType::MonthName, 9),
    (b"oct", KeywordType::MonthName, 10),
    (b"nov", KeywordType::MonthName, 11),
    (b"dec", KeywordType::MonthName, 12),
    (b"am\0", KeywordType::AmPm, 0),
    (b"pm\0", KeywordType::AmPm, 12),
    (b"ut\0", KeywordType::TimeZoneName, 0),
    (b"utc", KeywordType::TimeZoneName, 0),
    (b"z\0\0", KeywordType::TimeZoneName, 0),
    (b"gmt", KeywordType::TimeZoneName, 0),
    (b"cdt", KeywordType::TimeZoneName, -5),
    (b"cst", KeywordType::TimeZoneName, -6),
    (b"edt", KeywordType::TimeZoneName, -4),
    (b"est", KeywordType::TimeZoneName, -5),
    (b"mdt", KeywordType::TimeZoneName, -6),
    (b"mst", KeywordType::TimeZoneName, -7),
    (b"pdt", KeywordType::TimeZoneName, -7),
    (b"pst", KeywordType::TimeZoneName, -8),
    (b"t\0\0", KeywordType::TimeSeparator, 0),
];

/// The tokenizer over UTF-16 code units, with one token of lookahead.
struct Scanner<'a> {
    input: &'a [u16],
    pos: usize,
    next: Token,
}

impl<'a> Scanner<'a> {
    fn new(input: &'a [u16]) -> Scanner<'a> {
        let mut s = Scanner { input, pos: 0, next: Token::End };
        s.next = s.scan();
        s
    }

    /// The current character; NUL (and the end) read as 0, which ends the input.
    fn ch(&self) -> u16 {
        self.input.get(self.pos).copied().unwrap_or(0)
    }

    fn next(&mut self) -> Token {
        let t = self.next;
        self.next = self.scan();
        t
    }

    fn peek(&self) -> Token {
        self.next
    }

    fn skip_symbol(&mut self, c: u8) -> bool {
        if self.next.is_symbol(c) {
            self.next = self.scan();
            true
        } else {
            false
        }
    }

    fn scan(&mut self) -> Token {
        let start = self.pos;
        let c = self.ch();
        if c == 0 {
            return Token::End;
        }
        if (0x30..=0x39).contains(&c) {
            let mut value: i32 = 0;
            let mut i = 0;
            while (0x30..=0x39).contains(&self.ch()) {
                if i < MAX_SIGNIFICANT_DIGITS {
                    value = value * 10 + i32::from(self.ch() - 0x30);
                }
                i += 1;
                self.pos += 1;
            }
            return Token::Number { value, length: self.pos - start };
        }
        if matches!(c, 0x3A | 0x2D | 0x2B | 0x2E | 0x29) {
            // ':' '-' '+' '.' ')'
            self.pos += 1;
            return Token::Symbol(c);
        }
        if c >= u16::from(b'A') && !is_js_whitespace(c) {
            let mut prefix = [0u16; 3];
            let mut len = 0;
            while self.ch() >= u16::from(b'A') && !is_js_whitespace(self.ch()) {
                if len < 3 {
                    prefix[len] = self.ch() | 0x20;
                }
                len += 1;
                self.pos += 1;
            }
            let entry = KEYWORDS.iter().find(|(p, kind, _)| {
                p.iter().zip(prefix.iter()).all(|(&a, &b)| u16::from(a) == b) && (len <= 3 || *kind == KeywordType::MonthName)
            });
            let (kind, value) = entry.map_or((KeywordType::Invalid, 0), |&(_, k, v)| (k, v));
            return Token::Keyword { kind, value, length: len };
        }
        if is_js_whitespace(c) {
            self.pos += 1;
            return Token::WhiteSpace;
        }
        if c == u16::from(b'(') {
            // Skip a balanced parenthesised comment (or to the end).
            let mut balance = 0;
            loop {
                let ch = self.ch();
                if ch == u16::from(b')') {
                    balance -= 1;
                } else if ch == u16::from(b'(') {
                    balance += 1;
                }
                self.pos += 1;
                if balance <= 0 || self.ch() == 0 {
                    break;
                }
            }
            return Token::Unknown;
        }
        self.pos += 1;
        Token::Unknown
    }
}

#[derive(Default)]
struct DayComposer {
    comp: [i32; 3],
    index: usize,
    named_month: Option<i32>,
    is_iso_date: bool,
}

impl DayComposer {
    fn add(&mut self, n: i32) -> bool {
        if self.index < 3 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }

    fn is_month(x: i32) -> bool {
        between(x, 1, 12)
    }

    fn is_day(x: i32) -> bool {
        between(x, 1, 31)
    }

    /// (year, 0-based month, day).
    fn write(&mut self) -> Option<(i32, i32, i32)> {
        if self.index < 1 {
            return None;
        }
        // Day and month default to 1.
        while self.index < 3 {
            self.comp[self.index] = 1;
            self.index += 1;
        }
        let mut year = 0; // Default year is 0 (=> 2000) for KJS compatibility.
        let (month, day);
        match self.named_month {
            None => {
                if self.is_iso_date || (self.index == 3 && !Self::is_day(self.comp[0])) {
                    // YMD
                    year = self.comp[0];
                    month = self.comp[1];
                    day = self.comp[2];
                } else {
                    // MD(Y)
                    month = self.comp[0];
                    day = self.comp[1];
                    if self.index == 3 {
                        year = self.comp[2];
                    }
                }
            }
            Some(named) => {
                month = named;
                if self.index == 1 {
                    day = self.comp[0];
                } else if !Self::is_day(self.comp[0]) {
                    // YMD, MYD, or YDM
                    year = self.comp[0];
                    day = self.comp[1];
                } else {
                    // DMY, MDY, or DYM
                    day = self.comp[0];
                    year = self.comp[1];
                }
            }
        }
        if !self.is_iso_date {
            if between(year, 0, 49) {
                year += 2000;
            } else if between(year, 50, 99) {
                year += 1900;
            }
        }
        if !Self::is_month(month) || !Self::is_day(day) {
            return None;
        }
        Some((year, month - 1, day))
    }
}

struct TimeComposer {
    comp: [i32; 4],
    index: usize,
    hour_offset: i32,
}

impl TimeComposer {
    fn new() -> TimeComposer {
        TimeComposer { comp: [0; 4], index: 0, hour_offset: NONE }
    }
    fn is_empty(&self) -> bool {
        self.index == 0
    }
    fn is_minute(x: i32) -> bool {
        between(x, 0, 59)
    }
    fn is_hour(x: i32) -> bool {
        between(x, 0, 23)
    }
    fn is_second(x: i32) -> bool {
        between(x, 0, 59)
    }
    fn is_millisecond(x: i32) -> bool {
        between(x, 0, 999)
    }
    fn is_expecting(&self, n: i32) -> bool {
        (self.index == 1 && Self::is_minute(n))
            || (self.index == 2 && Self::is_second(n))
            || (self.index == 3 && Self::is_millisecond(n))
    }
    fn add(&mut self, n: i32) -> bool {
        if self.index < 4 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }
    fn add_final(&mut self, n: i32) -> bool {
        if !self.add(n) {
            return false;
        }
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        true
    }
    /// (hour, minute, second, ms).
    fn write(&mut self) -> Option<(i32, i32, i32, i32)> {
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        let [mut hour, minute, second, ms] = self.comp;
        if self.hour_offset != NONE {
            if !between(hour, 0, 12) {
                return None;
            }
            hour %= 12;
            hour += self.hour_offset;
        }
        if !Self::is_hour(hour) || !Self::is_minute(minute) || !Self::is_second(second) || !Self::is_millisecond(ms) {
            // A 24th hour is allowed if minutes, seconds, and milliseconds are 0.
            if hour != 24 || minute != 0 || second != 0 || ms != 0 {
                return None;
            }
        }
        Some((hour, minute, second, ms))
    }
}

struct TimeZoneComposer {
    sign: i32,
    hour: i32,
    minute: i32,
}

impl TimeZoneComposer {
    fn new() -> TimeZoneComposer {
        TimeZoneComposer { sign: NONE, hour: NONE, minute: NONE }
    }
    fn set(&mut self, offset_in_hours: i32) {
        self.sign = if offset_in_hours < 0 { -1 } else { 1 };
        self.hour = offset_in_hours * self.sign;
        self.minute = 0;
    }
    fn set_sign(&mut self, sign: i32) {
        self.sign = if sign < 0 { -1 } else { 1 };
    }
    fn is_expecting(&self, n: i32) -> bool {
        self.hour != NONE && self.minute == NONE && TimeComposer::is_minute(n)
    }
    fn is_utc(&self) -> bool {
        self.hour == 0 && self.minute == 0
    }
    fn is_empty(&self) -> bool {
        self.hour == NONE
    }
    /// The offset in seconds, or None for local time; Err for an out-of-range offset.
    fn write(&mut self) -> Result<Option<i32>, ()> {
        if self.sign == NONE {
            return Ok(None);
        }
        if self.hour == NONE {
            self.hour = 0;
        }
        if self.minute == NONE {
            self.minute = 0;
        }
        let total = i64::from(self.hour) * 3600 + i64::from(self.minute) * 60;
        if total > i64::from(i32::MAX >> 1) {
            return Err(());
        }
        let total = total as i32;
        Ok(Some(if self.sign < 0 { -total } else { total }))
    }
}

/// The three most significant digits of a fraction numeral (V8's ReadMilliseconds).
fn read_milliseconds(token: Token) -> i32 {
    let (mut number, mut length) = match token {
        Token::Number { value, length } => (value, length),
        _ => (0, 0),
    };
    if length < 3 {
        if length == 1 {
            number *= 100;
        } else if length == 2 {
            number *= 10;
        }
    } else if length > 3 {
        if length > MAX_SIGNIFICANT_DIGITS {
            length = MAX_SIGNIFICANT_DIGITS;
        }
        let mut factor = 1;
        while length > 3 {
            factor *= 10;
            length -= 1;
        }
        number /= factor;
    }
    number
}

struct DateParser;

impl DateParser {
    fn parse(input: &[u16]) -> Option<ParsedDate> {
        let mut scanner = Scanner::new(input);
        let mut day = DayComposer::default();
        let mut time = TimeComposer::new();
        let mut tz = TimeZoneComposer::new();
        // First get as far as possible with the ES5 Date Time String format.
        let next_unhandled = Self::parse_es5_date_time(&mut scanner, &mut day, &mut time, &mut tz);
        if next_unhandled == Token::Invalid {
            return None;
        }
        let mut has_read_number = day.index > 0;
        // Continue with the legacy parser for anything left.
        let mut token = next_unhandled;
        while token != Token::End {
            match token {
                Token::Number { value: n, .. } => {
                    has_read_number = true;
                    if scanner.skip_symbol(b':') {
                        if scanner.skip_symbol(b':') {
                            // n + "::"
                            if !time.is_empty() {
                                return None;
                            }
                            time.add(n);
                            time.add(0);
                        } else {
                            // n + ":"
                            if !time.add(n) {
                                return None;
                            }
                            if scanner.peek().is_symbol(b'.') {
                                scanner.next();
                            }
                        }
                    } else if scanner.skip_symbol(b'.') && time.is_expecting(n) {
                        time.add(n);
                        if !scanner.peek().is_number() {
                            return None;
                        }
                        let ms = read_milliseconds(scanner.next());
                        if ms < 0 {
                            return None;
                        }
                        time.add_final(ms);
                    } else if tz.is_expecting(n) {
                        tz.minute = n;
                    } else if time.is_expecting(n) {
                        time.add_final(n);
                        // Require end, white space, "Z", "+" or "-" right after the time.
                        let peek = scanner.peek();
                        if peek != Token::End && peek != Token::WhiteSpace && !peek.is_keyword_z() && !peek.is_ascii_sign() {
                            return None;
                        }
                    } else {
                        if !day.add(n) {
                            return None;
                        }
                        scanner.skip_symbol(b'-');
                    }
                }
                Token::Keyword { kind, value, .. } => {
                    if kind == KeywordType::AmPm && !time.is_empty() {
                        time.hour_offset = value;
                    } else if kind == KeywordType::MonthName {
                        day.named_month = Some(value);
                        scanner.skip_symbol(b'-');
                    } else if kind == KeywordType::TimeZoneName && has_read_number {
                        tz.set(value);
                    } else {
                        // Garbage words are illegal once a number has been read, and must be
                        // separated from the first number.
                        if has_read_number || scanner.peek().is_number() {
                            return None;
                        }
                    }
                }
                t if t.is_ascii_sign() && (tz.is_utc() || !time.is_empty()) => {
                    // A UTC offset (only after UTC or a time).
                    tz.set_sign(t.ascii_sign());
                    let (mut n, mut length) = (0, 0);
                    if scanner.peek().is_number() {
                        if let Token::Number { value, length: l } = scanner.next() {
                            n = value;
                            length = l;
                        }
                    }
                    has_read_number = true;
                    if scanner.peek().is_symbol(b':') {
                        tz.hour = n;
                        tz.minute = NONE;
                    } else if length == 2 || length == 1 {
                        // Time zones like GMT-8.
                        tz.hour = n;
                        tz.minute = 0;
                    } else if length == 4 || length == 3 {
                        // Time zones like GMT-0800.
                        tz.hour = n / 100;
                        tz.minute = n % 100;
                    } else {
                        return None;
                    }
                }
                t if (t.is_ascii_sign() || t.is_symbol(b')')) && has_read_number => return None,
                // Ignore other characters and whitespace.
                _ => {}
            }
            token = scanner.next();
        }
        let (year, month, d) = day.write()?;
        let (hour, minute, second, ms) = time.write()?;
        let utc_offset_seconds = tz.write().ok()?;
        Some(ParsedDate { year, month, day: d, hour, minute, second, ms, utc_offset_seconds })
    }

    /// `[('-'|'+')yy]yyyy[-MM[-DD]][THH:mm[:ss[.sss]][Z|(+|-)hh:mm]]`: returns the next token
    /// for the legacy parser, End when complete, Invalid when it cannot be a date.
    fn parse_es5_date_time(
        scanner: &mut Scanner<'_>,
        day: &mut DayComposer,
        time: &mut TimeComposer,
        tz: &mut TimeZoneComposer,
    ) -> Token {
        // Mandatory date: [('-'|'+')yy]yyyy[':'MM[':'DD]].
        if scanner.peek().is_ascii_sign() {
            // Keep the sign token for the legacy parser if it is not used here.
            let sign_token = scanner.next();
            if !scanner.peek().is_fixed_length_number(6) {
                return sign_token;
            }
            let sign = sign_token.ascii_sign();
            let year = scanner.next().number();
            if sign < 0 && year == 0 {
                return sign_token;
            }
            day.add(sign * year);
        } else if scanner.peek().is_fixed_length_number(4) {
            let y = scanner.next().number();
            day.add(y);
        } else {
            return scanner.next();
        }
        if scanner.skip_symbol(b'-') {
            if !scanner.peek().is_fixed_length_number(2) || !DayComposer::is_month(scanner.peek().number()) {
                return scanner.next();
            }
            let m = scanner.next().number();
            day.add(m);
            if scanner.skip_symbol(b'-') {
                if !scanner.peek().is_fixed_length_number(2) || !DayComposer::is_day(scanner.peek().number()) {
                    return scanner.next();
                }
                let d = scanner.next().number();
                day.add(d);
            }
        }
        // Optional time: 'T'HH':'mm[':'ss['.'sss]]Z.
        if !scanner.peek().is_keyword_type(KeywordType::TimeSeparator) {
            if scanner.peek() != Token::End {
                return scanner.next();
            }
        } else {
            scanner.next();
            if !scanner.peek().is_fixed_length_number(2) || !between(scanner.peek().number(), 0, 24) {
                return Token::Invalid;
            }
            // Allow 24:00[:00[.000]], but no other time starting with 24.
            let hour_is_24 = scanner.peek().number() == 24;
            let h = scanner.next().number();
            time.add(h);
            if !scanner.skip_symbol(b':') {
                return Token::Invalid;
            }
            if !scanner.peek().is_fixed_length_number(2)
                || !TimeComposer::is_minute(scanner.peek().number())
                || (hour_is_24 && scanner.peek().number() > 0)
            {
                return Token::Invalid;
            }
            let m = scanner.next().number();
            time.add(m);
            if scanner.skip_symbol(b':') {
                if !scanner.peek().is_fixed_length_number(2)
                    || !TimeComposer::is_second(scanner.peek().number())
                    || (hour_is_24 && scanner.peek().number() > 0)
                {
                    return Token::Invalid;
                }
                let s = scanner.next().number();
                time.add(s);
                if scanner.skip_symbol(b'.') {
                    if !scanner.peek().is_number() || (hour_is_24 && scanner.peek().number() > 0) {
                        return Token::Invalid;
                    }
                    // More or fewer than the mandated three digits are allowed.
                    let ms = read_milliseconds(scanner.next());
                    time.add(ms);
                }
            }
            // Optional zone: 'Z' | ('+'|'-')hh':'mm | ('+'|'-')hhmm.
            if scanner.peek().is_keyword_z() {
                scanner.next();
                tz.set(0);
            } else if scanner.peek().is_ascii_sign() {
                let sign = scanner.next().ascii_sign();
                tz.set_sign(sign);
                if scanner.peek().is_fixed_length_number(4) {
                    let hourmin = scanner.next().number();
                    let (hour, min) = (hourmin / 100, hourmin % 100);
                    if !TimeComposer::is_hour(hour) || !TimeComposer::is_minute(min) {
                        return Token::Invalid;
                    }
                    tz.hour = hour;
                    tz.minute = min;
                } else {
                    if !scanner.peek().is_fixed_length_number(2) || !TimeComposer::is_hour(scanner.peek().number()) {
                        return Token::Invalid;
                    }
                    tz.hour = scanner.next().number();
                    if !scanner.skip_symbol(b':') {
                        return Token::Invalid;
                    }
                    if !scanner.peek().is_fixed_length_number(2) || !TimeComposer::is_minute(scanner.peek().number()) {
                        return Token::Invalid;
                    }
                    tz.minute = scanner.next().number();
                }
            }
            if scanner.peek() != Token::End {
                return Token::Invalid;
            }
        }
        // A complete ES5 Date Time String. Date-only forms are UTC, date-time forms local.
        if tz.is_empty() && time.is_empty() {
            tz.set(0);
        }
        day.is_iso_date = true;
        Token::End
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> f64 {
        parse_date(&JsStr::from_str(s))
    }

    #[test]
    fn civil_round_trips() {
        for d in [-719_468i64, -1, 0, 1, 59, 365, 10_957, 100_000_000, -100_000_000] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(fields(8.64e15).year, 275_760);
    }

    #[test]
    fn parses_like_v8() {
        assert_eq!(p("2019-01-31"), 1_548_892_800_000.0);
        assert_eq!(p("Thu, 01 Jan 1970 00:00:00 GMT+0100"), -3_600_000.0);
        assert_eq!(p("Jan 1 2000"), 946_684_800_000.0);
        assert_eq!(p("2000/01/02 10:00"), 946_807_200_000.0);
        assert_eq!(p("1/2/2000"), 946_771_200_000.0);
        assert_eq!(p("Sat Sep 13 275760 00:00:00 GMT+0000 (Coordinated Universal Time)"), 8.64e15);
        assert_eq!(p("2000-01-01T00:00:00+01:00"), 946_681_200_000.0);
        assert_eq!(p("2000-1-1"), 946_684_800_000.0);
        assert!(p("foo").is_nan());
        assert_eq!(p("2000"), 946_684_800_000.0);
        assert_eq!(p("12 March 2001 10:00 PM"), 984_434_400_000.0);
        assert!(p("Fri Jan 01 -0001 00:00:00 GMT+0000").is_nan());
    }

    #[test]
    fn formats_like_node() {
        assert_eq!(to_date_string_of(0.0), "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(to_date_string_of(-62_198_755_200_000.0), "Fri Jan 01 -0001 00:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(locale_date(&fields(-62_198_755_200_000.0)), "1/1/2");
    }
}
