//! Property bags and the conversions every Temporal type shares: PrepareCalendarFields
//! (proposal-temporal §12.3), ToTemporalCalendarIdentifier, ToTemporalTimeZoneIdentifier,
//! and the integer conversions of field values.

use std::str::FromStr;

use temporal_rs::fields::CalendarFields;
use temporal_rs::options::Overflow;
use temporal_rs::partial::PartialTime;
use temporal_rs::{Calendar, MonthCode, TimeZone, TinyAsciiStr, UtcOffset};

use super::slots::TemporalSlots;
use super::{slots_of, OrThrow};
use crate::error::JsResult;
use crate::runtime::convert::{to_number, to_primitive, to_rust_string, Hint};
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ### ToIntegerWithTruncation ( argument )
pub(crate) fn to_integer_with_truncation(vm: &mut Vm, v: Value) -> JsResult<f64> {
    // 1. Let number be ? ToNumber(argument).
    let n = to_number(vm, v)?;
    // 2. If number is NaN, +∞𝔽 or -∞𝔽, throw a RangeError exception.
    if !n.is_finite() {
        return Err(vm.range_error("a Temporal field must be a finite number"));
    }
    // 3. Return truncate(ℝ(number)).
    Ok(n.trunc() + 0.0)
}

/// ### ToPositiveIntegerWithTruncation ( argument )
fn to_positive_integer_with_truncation(vm: &mut Vm, v: Value) -> JsResult<f64> {
    let n = to_integer_with_truncation(vm, v)?;
    if n <= 0.0 {
        return Err(vm.range_error("a Temporal field must be a positive integer"));
    }
    Ok(n)
}

/// ### ToIntegerIfIntegral ( argument )
pub(crate) fn to_integer_if_integral(vm: &mut Vm, v: Value) -> JsResult<f64> {
    let n = to_number(vm, v)?;
    if !n.is_finite() || n.trunc() != n {
        return Err(vm.range_error("a Temporal duration field must be an integer"));
    }
    Ok(n + 0.0)
}

/// An integer value clamped into `i32` (out-of-range years fail later, in `temporal_rs`'s
/// range checks, as RangeErrors).
pub(crate) fn clamp_i32(n: f64) -> i32 {
    n.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
}

/// A positive integer clamped into `u8` (day and month: anything past 255 constrains to the
/// same last day or month, and rejects the same way).
fn clamp_u8(n: f64) -> u8 {
    n.clamp(0.0, 255.0) as u8
}

/// Which fields a bag is read for (PrepareCalendarFields' fieldNames).
#[derive(Clone, Copy)]
pub(crate) struct Want {
    pub year: bool,
    pub month: bool,
    pub day: bool,
    pub time: bool,
    pub offset: bool,
    pub time_zone: bool,
}

impl Want {
    pub const DATE: Want = Want { year: true, month: true, day: true, time: false, offset: false, time_zone: false };
    pub const DATE_TIME: Want = Want { time: true, ..Want::DATE };
    pub const ZONED: Want = Want { time: true, offset: true, time_zone: true, ..Want::DATE };
    pub const YEAR_MONTH: Want = Want { day: false, ..Want::DATE };
    pub const TIME: Want = Want { year: false, month: false, day: false, time: true, offset: false, time_zone: false };
}

/// A property bag's fields after PrepareCalendarFields, each converted as it was read.
#[derive(Default)]
pub(crate) struct Bag {
    pub day: Option<u8>,
    pub era: Option<TinyAsciiStr<19>>,
    pub era_year: Option<i32>,
    /// hour, minute, second, millisecond, microsecond, nanosecond (truncated integers).
    pub time: [Option<f64>; 6],
    pub month: Option<u8>,
    pub month_code: Option<MonthCode>,
    pub offset: Option<UtcOffset>,
    pub time_zone: Option<TimeZone>,
    pub year: Option<i32>,
    /// Whether any field was present (PrepareCalendarFields' partial check).
    pub any: bool,
}

const TIME_NAMES: [&str; 6] = ["hour", "minute", "second", "millisecond", "microsecond", "nanosecond"];
const TIME_MAX: [f64; 6] = [23.0, 59.0, 59.0, 999.0, 999.0, 999.0];

/// Whether `calendar` has eras (its bags read `era` and `eraYear`).
fn has_eras(calendar: &Calendar) -> bool {
    !matches!(calendar.identifier(), "iso8601" | "chinese" | "dangi")
}

/// ### PrepareCalendarFields ( calendar, fields, calendarFieldNames, nonCalendarFieldNames, requiredFieldNames )
/// Reads the wanted fields in property-name order: day, era, eraYear, hour, microsecond,
/// millisecond, minute, month, monthCode, nanosecond, offset, second, timeZone, year.
pub(crate) fn prepare(vm: &mut Vm, obj: ObjectId, calendar: &Calendar, want: Want) -> JsResult<Bag> {
    let mut bag = Bag::default();
    let eras = want.year && has_eras(calendar);
    let read = |vm: &mut Vm, name: &str| -> JsResult<Value> {
        let key = vm.key(name);
        get(vm, obj, key, Value::object(obj))
    };
    // Alphabetical order; the time units sort as hour, microsecond, millisecond, minute,
    // nanosecond, second.
    let order: [&str; 14] = [
        "day",
        "era",
        "eraYear",
        "hour",
        "microsecond",
        "millisecond",
        "minute",
        "month",
        "monthCode",
        "nanosecond",
        "offset",
        "second",
        "timeZone",
        "year",
    ];
    for name in order {
        let wanted = match name {
            "day" => want.day,
            "era" | "eraYear" => eras,
            "month" | "monthCode" => want.month,
            "offset" => want.offset,
            "timeZone" => want.time_zone,
            "year" => want.year,
            _ => want.time,
        };
        if !wanted {
            continue;
        }
        let value = read(vm, name)?;
        if value.is_undefined() {
            continue;
        }
        bag.any = true;
        match name {
            "day" => bag.day = Some(clamp_u8(to_positive_integer_with_truncation(vm, value)?)),
            "era" => {
                let s = to_rust_string(vm, value)?;
                match TinyAsciiStr::<19>::try_from_str(&s) {
                    Ok(e) => bag.era = Some(e),
                    Err(_) => return Err(vm.range_error(format!("{s} is not a valid era"))),
                }
            }
            "eraYear" => bag.era_year = Some(clamp_i32(to_integer_with_truncation(vm, value)?)),
            "month" => bag.month = Some(clamp_u8(to_positive_integer_with_truncation(vm, value)?)),
            "monthCode" => {
                // ToMonthCode: a String of the form M01…M13, optionally followed by "L".
                let p = to_primitive(vm, value, Hint::String)?;
                let Some(s) = p.as_string() else {
                    return Err(vm.type_error("monthCode must be a string"));
                };
                let s = vm.heap.flat(s).to_rust_string();
                let code = MonthCode::from_str(&s).or_throw(vm)?;
                bag.month_code = Some(code);
            }
            "offset" => {
                // ToOffsetString: a String that parses as a UTC offset.
                let p = to_primitive(vm, value, Hint::String)?;
                let Some(s) = p.as_string() else {
                    return Err(vm.type_error("offset must be a string"));
                };
                let s = vm.heap.flat(s).to_rust_string();
                bag.offset = Some(UtcOffset::from_str(&s).or_throw(vm)?);
            }
            "timeZone" => bag.time_zone = Some(to_time_zone(vm, value)?),
            "year" => bag.year = Some(clamp_i32(to_integer_with_truncation(vm, value)?)),
            unit => {
                let i = TIME_NAMES.iter().position(|&n| n == unit).unwrap_or(0);
                bag.time[i] = Some(to_integer_with_truncation(vm, value)?);
            }
        }
    }
    Ok(bag)
}

impl Bag {
    /// The calendar fields, for `temporal_rs`'s CalendarDateFromFields and friends.
    pub fn calendar_fields(&self) -> CalendarFields {
        let mut f = CalendarFields::new();
        f.year = self.year;
        f.month = self.month;
        f.month_code = self.month_code;
        f.day = self.day;
        f.era = self.era;
        f.era_year = self.era_year;
        f
    }

    /// The time fields regulated by `overflow` (RegulateTime): constrain clamps each into
    /// its range, reject throws for a value outside it.
    pub fn partial_time(&self, vm: &mut Vm, overflow: Overflow) -> JsResult<PartialTime> {
        let mut out = [None; 6];
        for i in 0..6 {
            if let Some(v) = self.time[i] {
                if overflow == Overflow::Reject && !(0.0..=TIME_MAX[i]).contains(&v) {
                    return Err(vm.range_error(format!("{} out of range", TIME_NAMES[i])));
                }
                out[i] = Some(v.clamp(0.0, TIME_MAX[i]) as u16);
            }
        }
        let mut p = PartialTime::new();
        p.hour = out[0].map(|v| v as u8);
        p.minute = out[1].map(|v| v as u8);
        p.second = out[2].map(|v| v as u8);
        p.millisecond = out[3];
        p.microsecond = out[4];
        p.nanosecond = out[5];
        Ok(p)
    }
}

/// ### ToTemporalCalendarIdentifier ( temporalCalendarLike )
pub(crate) fn to_calendar(vm: &mut Vm, v: Value) -> JsResult<Calendar> {
    // 1. If temporalCalendarLike is an Object and has a [[Calendar]] slot, return it.
    if let Some(id) = slots_of(vm, v).and_then(TemporalSlots::calendar_id) {
        let id = id.to_string();
        return super::slots::calendar_of(&id).or_throw(vm);
    }
    // 2. If temporalCalendarLike is not a String, throw a TypeError exception.
    let Some(s) = v.as_string() else {
        return Err(vm.type_error("calendar must be a string or a Temporal object with a calendar"));
    };
    // 3-5. ParseTemporalCalendarString; CanonicalizeCalendar.
    let s = vm.heap.flat(s).to_rust_string();
    if s.is_empty() {
        return Err(vm.range_error("the empty string is not a calendar"));
    }
    let calendar = Calendar::from_str(&s).or_throw(vm)?;
    reject_islamic_fallback(vm, &s)?;
    Ok(calendar)
}

/// "islamic" names a calendar only for Intl.DateTimeFormat's fallback (ECMA-402
/// CanonicalizeCalendar); Temporal refuses it, bare or as an annotation (`temporal_rs`
/// would map it to the tabular Hijri calendar).
pub(crate) fn reject_islamic_fallback(vm: &mut Vm, text: &str) -> JsResult<()> {
    let lower = text.to_ascii_lowercase();
    if lower == "islamic" || lower.contains("u-ca=islamic]") {
        return Err(vm.range_error("the islamic calendar is not supported by Temporal; name a specific variant"));
    }
    Ok(())
}

/// ### GetTemporalCalendarIdentifierWithISODefault ( item )
pub(crate) fn calendar_with_iso_default(vm: &mut Vm, item: ObjectId) -> JsResult<Calendar> {
    if let Some(id) = slots_of(vm, Value::object(item)).and_then(TemporalSlots::calendar_id) {
        let id = id.to_string();
        return super::slots::calendar_of(&id).or_throw(vm);
    }
    let key = vm.key("calendar");
    let calendar_like = get(vm, item, key, Value::object(item))?;
    if calendar_like.is_undefined() {
        return Ok(Calendar::ISO);
    }
    to_calendar(vm, calendar_like)
}

/// ### ToTemporalTimeZoneIdentifier ( temporalTimeZoneLike )
pub(crate) fn to_time_zone(vm: &mut Vm, v: Value) -> JsResult<TimeZone> {
    // 1. If temporalTimeZoneLike is an Object with [[InitializedTemporalZonedDateTime]],
    //    return its [[TimeZone]].
    if let Some(TemporalSlots::ZonedDateTime { time_zone, .. }) = slots_of(vm, v) {
        let id = time_zone.clone();
        return super::slots::time_zone_of(&id).or_throw(vm);
    }
    // 2. If temporalTimeZoneLike is not a String, throw a TypeError exception.
    let Some(s) = v.as_string() else {
        return Err(vm.type_error("timeZone must be a string or a Temporal.ZonedDateTime"));
    };
    // 3-…: ParseTemporalTimeZoneString, then GetAvailableNamedTimeZoneIdentifier.
    let s = vm.heap.flat(s).to_rust_string();
    TimeZone::try_from_str(&s).or_throw(vm)
}

/// ### IsPartialTemporalObject ( value ): an object that is no Temporal date/time and has
/// neither `calendar` nor `timeZone`; otherwise a TypeError for `with`.
pub(crate) fn partial_temporal_object(vm: &mut Vm, value: Value) -> JsResult<ObjectId> {
    let Some(obj) = value.as_object() else {
        return Err(vm.type_error("with() requires an object of fields"));
    };
    if slots_of(vm, value).is_some_and(|s| !matches!(s, TemporalSlots::Duration { .. } | TemporalSlots::Instant { .. }))
    {
        return Err(vm.type_error("with() does not accept a Temporal object"));
    }
    for name in ["calendar", "timeZone"] {
        let key = vm.key(name);
        let v = get(vm, obj, key, value)?;
        if !v.is_undefined() {
            return Err(vm.type_error(format!("with() does not accept a {name} property")));
        }
    }
    Ok(obj)
}

/// A JS string argument as Rust text, or a TypeError (the ISO-string branch of
/// ToTemporal…: "If item is not a String, throw a TypeError exception").
pub(crate) fn require_string(vm: &mut Vm, item: Value, what: &str) -> JsResult<String> {
    match item.as_string() {
        Some(s) => Ok(vm.heap.flat(s).to_rust_string()),
        None => Err(vm.type_error(format!("cannot convert this value to a Temporal.{what}"))),
    }
}
