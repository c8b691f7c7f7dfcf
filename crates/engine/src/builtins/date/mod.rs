//! The Date object (ECMA-262 §21.4): https://tc39.es/ecma262/#sec-date-objects
//!
//! - **Local time is the run's time zone** (`VmOptions::time_zone`, UTC unless configured —
//!   `amber run --tz`), never the host's `TZ`: offsets come from the compiled time-zone data
//!   Temporal and Intl use ([`zone`]), so a program behaves the same on every machine, and on
//!   replay. Under UTC the string forms print `GMT+0000 (Coordinated Universal Time)`,
//!   exactly what Node prints with `TZ=UTC`; in another zone what Node prints with that `TZ`.
//! - **No clock of its own.** `Date.now()` and `new Date()` read the VM's one logical clock,
//!   `vm.clock_ms` (epoch milliseconds), which timers, `performance` and the VFS read too. The
//!   durable layer owns it (DESIGN §6: captured at start, advanced by timers and
//!   host-operation durations); a VM whose embedder never set it reads time 0.
//! - **Parsing** follows V8's date parser: the ISO format (§21.4.1.32) plus the legacy forms
//!   V8 accepts, which include everything `toString`, `toUTCString` and `toISOString` print.
//! - **Locale methods** format through Intl.DateTimeFormat (ECMA-402 §21.4.4.38-40,
//!   `builtins/intl/date_time_format.rs`), in the run's locale and time zone by default.
//!
//! Layout: this file holds the time arithmetic (§21.4.1), the constructor and the prototype;
//! `parse.rs` the string parser, `zone.rs` LocalTime and UTC in the run's zone.

use crate::atoms::PropertyKey;
use crate::builtins::{arg, install, intl, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{invoke, prototype_from_constructor};
use crate::runtime::convert::{ordinary_to_primitive, to_js_str, to_number, to_object, to_primitive, Hint};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

mod parse;
mod zone;

pub(crate) use parse::parse_date;
use zone::SystemZone;

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
    native!("Date.prototype.getUTCDate", 0, get_utc_date),
    native!("Date.prototype.getUTCDay", 0, get_utc_day),
    native!("Date.prototype.getUTCFullYear", 0, get_utc_full_year),
    native!("Date.prototype.getUTCHours", 0, get_utc_hours),
    native!("Date.prototype.getUTCMilliseconds", 0, get_utc_milliseconds),
    native!("Date.prototype.getUTCMinutes", 0, get_utc_minutes),
    native!("Date.prototype.getUTCMonth", 0, get_utc_month),
    native!("Date.prototype.getUTCSeconds", 0, get_utc_seconds),
    native!("Date.prototype.getYear", 0, get_year),
    native!("Date.prototype.setDate", 1, set_date),
    native!("Date.prototype.setFullYear", 3, set_full_year),
    native!("Date.prototype.setHours", 4, set_hours),
    native!("Date.prototype.setMilliseconds", 1, set_milliseconds),
    native!("Date.prototype.setMinutes", 3, set_minutes),
    native!("Date.prototype.setMonth", 2, set_month),
    native!("Date.prototype.setSeconds", 2, set_seconds),
    native!("Date.prototype.setTime", 1, set_time),
    native!("Date.prototype.setUTCDate", 1, set_utc_date),
    native!("Date.prototype.setUTCFullYear", 3, set_utc_full_year),
    native!("Date.prototype.setUTCHours", 4, set_utc_hours),
    native!("Date.prototype.setUTCMilliseconds", 1, set_utc_milliseconds),
    native!("Date.prototype.setUTCMinutes", 3, set_utc_minutes),
    native!("Date.prototype.setUTCMonth", 2, set_utc_month),
    native!("Date.prototype.setUTCSeconds", 2, set_utc_seconds),
    native!("Date.prototype.setYear", 1, set_year),
    native!("Date.prototype.toDateString", 0, to_date_string),
    native!("Date.prototype.toISOString", 0, to_iso_string),
    native!("Date.prototype.toJSON", 1, to_json),
    native!("Date.prototype.toLocaleDateString", 0, to_locale_date_string),
    native!("Date.prototype.toLocaleString", 0, to_locale_string),
    native!("Date.prototype.toLocaleTimeString", 0, to_locale_time_string),
    native!("Date.prototype.toString", 0, to_string),
    native!("Date.prototype.toTimeString", 0, to_time_string),
    native!("Date.prototype.toTemporalInstant", 0, to_temporal_instant),
    native!("Date.prototype.toUTCString", 0, to_utc_string),
    native!("Date.prototype.valueOf", 0, get_time),
    native!("Date.prototype[Symbol.toPrimitive]", 1, to_primitive_method),
];

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

pub(crate) const MS_PER_DAY: f64 = 86_400_000.0;
const MS_PER_HOUR: f64 = 3_600_000.0;
const MS_PER_MINUTE: f64 = 60_000.0;
const MS_PER_SECOND: f64 = 1_000.0;
/// The largest time value magnitude (§21.4.1.1): 100,000,000 days either side of the epoch.
pub(crate) const MAX_TIME: f64 = 8.64e15;

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

/// MakeTime ( hour, min, sec, ms ) (§21.4.1.27).
pub(crate) fn make_time(hour: f64, min: f64, sec: f64, ms: f64) -> f64 {
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
pub(crate) fn make_day(year: f64, month: f64, date: f64) -> f64 {
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
pub(crate) fn make_date(day: f64, time: f64) -> f64 {
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
pub(crate) fn time_clip(time: f64) -> f64 {
    // 1. If time is not finite, return NaN.
    // 2. If abs(ℝ(time)) > 8.64 × 10^15, return NaN.
    if !time.is_finite() || time.abs() > MAX_TIME {
        return f64::NAN;
    }
    // 3. Return 𝔽(! ToIntegerOrInfinity(time)) (-0 becomes +0).
    time.trunc() + 0.0
}

/// The current time value: the embedder's logical clock, or 0 when it set none.
pub(crate) fn current_time(vm: &mut Vm) -> f64 {
    vm.mark_clock_read();
    // The logical clock (DESIGN §6), the VM's one clock.
    let t = time_clip(vm.clock_ms);
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
        let s = to_date_string_of(vm, now);
        return Ok(vm.str(&s));
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
                        Some(s) => {
                            let zone = SystemZone::of(vm);
                            parse_date(vm.heap.flat(s), &zone)
                        }
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
            time_clip(SystemZone::of(vm).utc(final_date))
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
    Ok(Value::number(parse_date(&s, &SystemZone::of(vm))))
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

/// Which fields a getter or setter reads and writes: local time in the run's zone, or UTC.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Local,
    Utc,
}

impl Form {
    fn zone(self, vm: &Vm) -> SystemZone {
        match self {
            Form::Local => SystemZone::of(vm),
            Form::Utc => SystemZone::Utc,
        }
    }
}

/// A getter: `f` of the local or UTC fields, or NaN for an invalid date.
fn field_getter(vm: &mut Vm, this: Value, form: Form, f: fn(&Fields) -> f64) -> JsResult<Value> {
    // 1. Let dateObject be the this value.
    // 2. Perform ? RequireInternalSlot(dateObject, [[DateValue]]).
    // 3. Let t be dateObject.[[DateValue]].
    let t = this_time_value(vm, this)?;
    // 4. If t is NaN, return NaN.
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    // 5. Return the field of LocalTime(t) (the UTC forms: of t).
    Ok(Value::number(f(&fields(form.zone(vm).local_time(t)))))
}

/// The local getter and its UTC twin over one field of [`Fields`].
macro_rules! getters {
    ($($(#[$doc:meta])* $local:ident, $utc:ident => $field:expr;)*) => {$(
        $(#[$doc])*
        fn $local(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
            field_getter(vm, this, Form::Local, $field)
        }
        $(#[$doc])*
        fn $utc(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
            field_getter(vm, this, Form::Utc, $field)
        }
    )*};
}

getters! {
    /// ### 21.4.4.2 Date.prototype.getDate ( ) and 21.4.4.12 getUTCDate ( )
    get_date, get_utc_date => |f| f64::from(f.date);
    /// ### 21.4.4.3 Date.prototype.getDay ( ) and 21.4.4.13 getUTCDay ( )
    get_day, get_utc_day => |f| f64::from(f.week_day);
    /// ### 21.4.4.4 Date.prototype.getFullYear ( ) and 21.4.4.14 getUTCFullYear ( )
    get_full_year, get_utc_full_year => |f| f.year as f64;
    /// ### 21.4.4.5 Date.prototype.getHours ( ) and 21.4.4.15 getUTCHours ( )
    get_hours, get_utc_hours => |f| f64::from(f.hour);
    /// ### 21.4.4.6 Date.prototype.getMilliseconds ( ) and 21.4.4.16 getUTCMilliseconds ( )
    get_milliseconds, get_utc_milliseconds => |f| f64::from(f.ms);
    /// ### 21.4.4.7 Date.prototype.getMinutes ( ) and 21.4.4.17 getUTCMinutes ( )
    get_minutes, get_utc_minutes => |f| f64::from(f.minute);
    /// ### 21.4.4.8 Date.prototype.getMonth ( ) and 21.4.4.18 getUTCMonth ( )
    get_month, get_utc_month => |f| f64::from(f.month);
    /// ### 21.4.4.9 Date.prototype.getSeconds ( ) and 21.4.4.19 getUTCSeconds ( )
    get_seconds, get_utc_seconds => |f| f64::from(f.second);
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
    // 5. Return (t - LocalTime(t)) / msPerMinute — truncated to whole minutes as V8 does,
    // which matters only for the local mean time offsets of the 19th century (-4:56:02).
    Ok(Value::number(((t - SystemZone::of(vm).local_time(t)) / MS_PER_MINUTE).trunc() + 0.0))
}

/// ### B.2.3.1 Date.prototype.getYear ( )
fn get_year(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 5. Return YearFromTime(LocalTime(t)) - 1900𝔽.
    field_getter(vm, this, Form::Local, |f| f.year as f64 - 1900.0)
}

// ---- setters

/// The time setters (setHours, setMinutes, setSeconds, setMilliseconds and their UTC forms,
/// §21.4.4.22–21.4.4.31): `first` is the first field the setter takes (0 hour … 3 ms); the
/// rest of hour, min, sec, ms are optional arguments. The local and UTC forms differ only in
/// the zone (`form`).
fn set_time_fields(vm: &mut Vm, this: Value, args: &[Value], first: usize, form: Form) -> JsResult<Value> {
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
    // 9. Set t to LocalTime(t) (the UTC forms keep t).
    let zone = form.zone(vm);
    let t = zone.local_time(t);
    let f = fields(t);
    // 10–13. Missing fields come from t.
    let h = given[0].unwrap_or(f64::from(f.hour));
    let m = given[1].unwrap_or(f64::from(f.minute));
    let s = given[2].unwrap_or(f64::from(f.second));
    let milli = given[3].unwrap_or(f64::from(f.ms));
    // 14. Let date be MakeDate(Day(t), MakeTime(h, m, s, milli)).
    let date = make_date(day(t), make_time(h, m, s, milli));
    // 15. Let u be TimeClip(UTC(date)) (the UTC forms: TimeClip(date)).
    let u = time_clip(zone.utc(date));
    // 16. Set dateObject.[[DateValue]] to u. 17. Return u.
    set_date_value(vm, o, u);
    Ok(Value::number(u))
}

/// The local setter and its UTC twin over [`set_time_fields`] or [`set_date_fields`].
macro_rules! setters {
    ($($(#[$doc:meta])* $local:ident, $utc:ident => $algorithm:ident($first:expr);)*) => {$(
        $(#[$doc])*
        fn $local(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
            $algorithm(vm, this, args, $first, Form::Local)
        }
        $(#[$doc])*
        fn $utc(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
            $algorithm(vm, this, args, $first, Form::Utc)
        }
    )*};
}

setters! {
    /// ### 21.4.4.22 Date.prototype.setHours ( hour [ , min [ , sec [ , ms ] ] ] ) (and setUTCHours)
    set_hours, set_utc_hours => set_time_fields(0);
    /// ### 21.4.4.24 Date.prototype.setMinutes ( min [ , sec [ , ms ] ] ) (and setUTCMinutes)
    set_minutes, set_utc_minutes => set_time_fields(1);
    /// ### 21.4.4.26 Date.prototype.setSeconds ( sec [ , ms ] ) (and setUTCSeconds)
    set_seconds, set_utc_seconds => set_time_fields(2);
    /// ### 21.4.4.23 Date.prototype.setMilliseconds ( ms ) (and setUTCMilliseconds)
    set_milliseconds, set_utc_milliseconds => set_time_fields(3);
    /// ### 21.4.4.21 Date.prototype.setFullYear ( year [ , month [ , date ] ] ) (and setUTCFullYear)
    set_full_year, set_utc_full_year => set_date_fields(0);
    /// ### 21.4.4.25 Date.prototype.setMonth ( month [ , date ] ) (and setUTCMonth)
    set_month, set_utc_month => set_date_fields(1);
    /// ### 21.4.4.20 Date.prototype.setDate ( date ) (and setUTCDate)
    set_date, set_utc_date => set_date_fields(2);
}

/// The date setters (setFullYear, setMonth, setDate and their UTC forms, §21.4.4.20–21.4.4.31):
/// `first` is the first field taken (0 year, 1 month, 2 date).
fn set_date_fields(vm: &mut Vm, this: Value, args: &[Value], first: usize, form: Form) -> JsResult<Value> {
    // 1–3. Let t be dateObject.[[DateValue]].
    let (o, t) = this_date(vm, this)?;
    let zone = form.zone(vm);
    // 4. Convert the first argument with ? ToNumber.
    let mut given: [Option<f64>; 3] = [None; 3];
    given[first] = Some(to_number(vm, arg(args, 0))?);
    let t = if first == 0 {
        // setFullYear 5. If t is NaN, set t to +0𝔽; otherwise, set t to LocalTime(t).
        if t.is_nan() {
            0.0
        } else {
            zone.local_time(t)
        }
    } else {
        t
    };
    // Then each further supplied argument, in order.
    for (i, slot) in given.iter_mut().enumerate().skip(first + 1) {
        let k = i - first;
        if k < args.len() {
            *slot = Some(to_number(vm, args[k])?);
        }
    }
    // setMonth/setDate: If t is NaN, return NaN. Set t to LocalTime(t).
    if t.is_nan() {
        return Ok(Value::NAN);
    }
    let t = if first == 0 { t } else { zone.local_time(t) };
    let f = fields(t);
    // Missing fields come from t.
    let y = given[0].unwrap_or(f.year as f64);
    let m = given[1].unwrap_or(f64::from(f.month));
    let dt = given[2].unwrap_or(f64::from(f.date));
    // Let newDate be MakeDate(MakeDay(y, m, dt), TimeWithinDay(t)).
    let new_date = make_date(make_day(y, m, dt), time_within_day(t));
    // Let u be TimeClip(UTC(newDate)).
    let u = time_clip(zone.utc(new_date));
    // Set dateObject.[[DateValue]] to u. Return u.
    set_date_value(vm, o, u);
    Ok(Value::number(u))
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
    let zone = SystemZone::of(vm);
    let t = if t.is_nan() { 0.0 } else { zone.local_time(t) };
    // 6. Let yyyy be MakeFullYear(y).
    let yyyy = make_full_year(y);
    // 7. Let d be MakeDay(yyyy, MonthFromTime(t), DateFromTime(t)).
    let f = fields(t);
    let d = make_day(yyyy, f64::from(f.month), f64::from(f.date));
    // 8. Let date be MakeDate(d, TimeWithinDay(t)).
    let date = make_date(d, time_within_day(t));
    // 9. Let u be TimeClip(UTC(date)). 10. Set dateObject.[[DateValue]] to u. 11. Return u.
    let u = time_clip(zone.utc(date));
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

/// ToDateString ( tv ) (§21.4.4.41.4).
fn to_date_string_of(vm: &Vm, tv: f64) -> String {
    // 1. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return "Invalid Date".into();
    }
    // 2. Let t be LocalTime(tv).
    let zone = SystemZone::of(vm);
    let f = fields(zone.local_time(tv));
    // 3. Return DateString(t) + " " + TimeString(t) + TimeZoneString(tv).
    format!("{} {}{}", date_string(&f), time_string(&f), zone.time_zone_string(vm, tv))
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
    Ok(vm.str(&date_string(&fields(SystemZone::of(vm).local_time(tv)))))
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
    let s =
        format!("{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", year, f.month + 1, f.date, f.hour, f.minute, f.second, f.ms);
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

/// The locale methods' steps 1-3: "Invalid Date" for NaN, else the time value formatted by
/// a new Intl.DateTimeFormat (ECMA-402 §21.4.4.38-40).
fn to_locale_with(vm: &mut Vm, this: Value, args: &[Value], which: intl::DateTimeWhich) -> JsResult<Value> {
    // 1-2. Let x be ? thisTimeValue(this value).
    let tv = this_time_value(vm, this)?;
    // 3. If x is NaN, return "Invalid Date".
    if tv.is_nan() {
        return Ok(vm.str("Invalid Date"));
    }
    intl::date_to_locale_string(vm, tv, arg(args, 0), arg(args, 1), which)
}

/// ### 21.4.4.38 Date.prototype.toLocaleDateString ( [ locales [ , options ] ] )
fn to_locale_date_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    to_locale_with(vm, this, args, intl::DateTimeWhich::Date)
}

/// ### 21.4.4.39 Date.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    to_locale_with(vm, this, args, intl::DateTimeWhich::All)
}

/// ### 21.4.4.40 Date.prototype.toLocaleTimeString ( [ locales [ , options ] ] )
fn to_locale_time_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    to_locale_with(vm, this, args, intl::DateTimeWhich::Time)
}

/// ### 21.4.4.41 Date.prototype.toString ( )
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 3. Let tv be dateObject.[[DateValue]]. 4. Return ToDateString(tv).
    let tv = this_time_value(vm, this)?;
    let s = to_date_string_of(vm, tv);
    Ok(vm.str(&s))
}

/// ### 21.4.4.42 Date.prototype.toTimeString ( )
fn to_time_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tv = this_time_value(vm, this)?;
    // 4. If tv is NaN, return "Invalid Date".
    if tv.is_nan() {
        return Ok(vm.str("Invalid Date"));
    }
    // 5. Let t be LocalTime(tv). 6. Return TimeString(t) + TimeZoneString(tv).
    let zone = SystemZone::of(vm);
    let f = fields(zone.local_time(tv));
    Ok(vm.str(&format!("{}{}", time_string(&f), zone.time_zone_string(vm, tv))))
}

/// ### Date.prototype.toTemporalInstant ( ) (proposal-temporal §14.1)
/// https://tc39.es/proposal-temporal/#sec-date.prototype.totemporalinstant
fn to_temporal_instant(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let t be ? thisTimeValue(this value).
    let t = this_time_value(vm, this)?;
    // 3. Let ns be ? NumberToBigInt(t) × 10⁶ (NaN is a RangeError).
    if t.is_nan() {
        return Err(vm.range_error("Invalid Date"));
    }
    // 4. Return ! CreateTemporalInstant(ns).
    crate::builtins::temporal::to_temporal_instant_from_epoch_ms(vm, t)
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
    let s =
        format!("{}, {:02} {} {} {}", week_day_name(&f), f.date, month_name(&f), padded_year(f.year), time_string(&f));
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

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
    fn formats_like_node() {
        let vm = Vm::new(crate::vm::VmOptions::default());
        assert_eq!(to_date_string_of(&vm, 0.0), "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(
            to_date_string_of(&vm, -62_198_755_200_000.0),
            "Fri Jan 01 -0001 00:00:00 GMT+0000 (Coordinated Universal Time)"
        );
    }
}
