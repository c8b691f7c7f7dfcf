//! Temporal.PlainDateTime (proposal-temporal §5): a calendar date and wall-clock time with
//! no zone. https://tc39.es/proposal-temporal/#sec-temporal-plaindatetime-objects

use temporal_rs::fields::DateTimeFields;
use temporal_rs::options::{Disambiguation, Overflow};
use temporal_rs::partial::PartialDateTime;
use temporal_rs::{PlainDateTime, PlainTime};

use super::duration::to_temporal_duration;
use super::fields::{
    calendar_with_iso_default, clamp_i32, partial_temporal_object, prepare, require_string, to_calendar,
    to_integer_with_truncation, to_time_zone, Want,
};
use super::options::{
    calendar_name, difference_settings, disambiguation, get_options_object, overflow_of, round_to,
    to_string_rounding_check, to_string_rounding_read, UnitGroup,
};
use super::plain_date::constructor_calendar;
use super::plain_time::to_temporal_time;
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.PlainDateTime", 3, constructor),
    native!("Temporal.PlainDateTime.from", 1, from),
    native!("Temporal.PlainDateTime.compare", 2, compare),
    native!("get Temporal.PlainDateTime.prototype.calendarId", 0, calendar_id),
    native!("get Temporal.PlainDateTime.prototype.era", 0, era),
    native!("get Temporal.PlainDateTime.prototype.eraYear", 0, era_year),
    native!("get Temporal.PlainDateTime.prototype.year", 0, year),
    native!("get Temporal.PlainDateTime.prototype.month", 0, month),
    native!("get Temporal.PlainDateTime.prototype.monthCode", 0, month_code),
    native!("get Temporal.PlainDateTime.prototype.day", 0, day),
    native!("get Temporal.PlainDateTime.prototype.hour", 0, hour),
    native!("get Temporal.PlainDateTime.prototype.minute", 0, minute),
    native!("get Temporal.PlainDateTime.prototype.second", 0, second),
    native!("get Temporal.PlainDateTime.prototype.millisecond", 0, millisecond),
    native!("get Temporal.PlainDateTime.prototype.microsecond", 0, microsecond),
    native!("get Temporal.PlainDateTime.prototype.nanosecond", 0, nanosecond),
    native!("get Temporal.PlainDateTime.prototype.dayOfWeek", 0, day_of_week),
    native!("get Temporal.PlainDateTime.prototype.dayOfYear", 0, day_of_year),
    native!("get Temporal.PlainDateTime.prototype.weekOfYear", 0, week_of_year),
    native!("get Temporal.PlainDateTime.prototype.yearOfWeek", 0, year_of_week),
    native!("get Temporal.PlainDateTime.prototype.daysInWeek", 0, days_in_week),
    native!("get Temporal.PlainDateTime.prototype.daysInMonth", 0, days_in_month),
    native!("get Temporal.PlainDateTime.prototype.daysInYear", 0, days_in_year),
    native!("get Temporal.PlainDateTime.prototype.monthsInYear", 0, months_in_year),
    native!("get Temporal.PlainDateTime.prototype.inLeapYear", 0, in_leap_year),
    native!("Temporal.PlainDateTime.prototype.with", 1, with),
    native!("Temporal.PlainDateTime.prototype.withPlainTime", 0, with_plain_time),
    native!("Temporal.PlainDateTime.prototype.withCalendar", 1, with_calendar),
    native!("Temporal.PlainDateTime.prototype.add", 1, add),
    native!("Temporal.PlainDateTime.prototype.subtract", 1, subtract),
    native!("Temporal.PlainDateTime.prototype.until", 1, until),
    native!("Temporal.PlainDateTime.prototype.since", 1, since),
    native!("Temporal.PlainDateTime.prototype.round", 1, round),
    native!("Temporal.PlainDateTime.prototype.equals", 1, equals),
    native!("Temporal.PlainDateTime.prototype.toString", 0, to_string),
    native!("Temporal.PlainDateTime.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.PlainDateTime.prototype.toJSON", 0, to_json),
    native!("Temporal.PlainDateTime.prototype.valueOf", 0, value_of),
    native!("Temporal.PlainDateTime.prototype.toZonedDateTime", 1, to_zoned_date_time),
    native!("Temporal.PlainDateTime.prototype.toPlainDate", 0, to_plain_date),
    native!("Temporal.PlainDateTime.prototype.toPlainTime", 0, to_plain_time),
];

fn this_date_time(vm: &mut Vm, this: Value) -> JsResult<PlainDateTime> {
    this_slots!(vm, this, PlainDateTime, to_date_time, "PlainDateTime")
}

/// A new Temporal.PlainDateTime with %Temporal.PlainDateTime.prototype%.
pub(crate) fn make(vm: &mut Vm, dt: &PlainDateTime) -> Value {
    let proto = vm.realm.temporal_plain_date_time_prototype;
    create(vm, proto, TemporalSlots::of_date_time(dt))
}

/// ### 5.1.1 Temporal.PlainDateTime ( isoYear, isoMonth, isoDay [ , hour [ , minute [ , second [ , millisecond [ , microsecond [ , nanosecond [ , calendar ] ] ] ] ] ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.PlainDateTime requires 'new'"));
    }
    // 2-4. The ISO date, each ? ToIntegerWithTruncation.
    let y = to_integer_with_truncation(vm, arg(args, 0))?;
    let m = to_integer_with_truncation(vm, arg(args, 1))?;
    let d = to_integer_with_truncation(vm, arg(args, 2))?;
    // 5-10. The time: 0 if undefined, else ? ToIntegerWithTruncation.
    let mut t = [0.0f64; 6];
    for (i, slot) in t.iter_mut().enumerate() {
        let v = arg(args, 3 + i);
        if !v.is_undefined() {
            *slot = to_integer_with_truncation(vm, v)?;
        }
    }
    // 11-12. The calendar.
    let calendar = constructor_calendar(vm, arg(args, 9))?;
    // 13-14. IsValidISODate and IsValidTime, else a RangeError.
    let max = [23.0, 59.0, 59.0, 999.0, 999.0, 999.0];
    if !(1.0..=12.0).contains(&m)
        || !(1.0..=31.0).contains(&d)
        || t.iter().zip(max).any(|(v, mx)| !(0.0..=mx).contains(v))
    {
        return Err(vm.range_error("invalid ISO date-time"));
    }
    let dt = PlainDateTime::try_new(
        clamp_i32(y),
        m as u8,
        d as u8,
        t[0] as u8,
        t[1] as u8,
        t[2] as u8,
        t[3] as u16,
        t[4] as u16,
        t[5] as u16,
        calendar,
    )
    .or_throw(vm)?;
    // 15-16. CreateTemporalDateTime(isoDateTime, calendar, NewTarget).
    let default = vm.realm.temporal_plain_date_time_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_date_time(&dt)))
}

/// ### ToTemporalDateTime ( item [ , options ] )
pub(crate) fn to_temporal_date_time(vm: &mut Vm, item: Value, options: Value) -> JsResult<PlainDateTime> {
    // 2. If item is an Object, then
    if let Some(obj) = item.as_object() {
        // a-c. A PlainDateTime, ZonedDateTime or PlainDate gives its date-time (after the
        //      options are read).
        let known = match slots_of(vm, item) {
            Some(s @ TemporalSlots::PlainDateTime { .. }) => Some(s.to_date_time()),
            Some(s @ TemporalSlots::ZonedDateTime { .. }) => Some(s.to_zoned().map(|z| z.to_plain_date_time())),
            Some(s @ TemporalSlots::PlainDate { .. }) => Some(s.to_date().and_then(|d| d.to_plain_date_time(None))),
            _ => None,
        };
        if let Some(r) = known {
            let dt = r.or_throw(vm)?;
            overflow_of(vm, options)?;
            return Ok(dt);
        }
        // d-e. The calendar and the fields.
        let calendar = calendar_with_iso_default(vm, obj)?;
        let bag = prepare(vm, obj, &calendar, Want::DATE_TIME)?;
        // f-h. overflow; InterpretTemporalDateTimeFields.
        let overflow = overflow_of(vm, options)?;
        let time = bag.partial_time(vm, overflow.unwrap_or(Overflow::Constrain))?;
        let partial =
            PartialDateTime { fields: DateTimeFields { calendar_fields: bag.calendar_fields(), time }, calendar };
        return PlainDateTime::from_partial(partial, overflow).or_throw(vm);
    }
    // 3. If item is not a String, throw a TypeError exception.
    let s = require_string(vm, item, "PlainDateTime")?;
    let dt = PlainDateTime::from_utf8(s.as_bytes()).or_throw(vm)?;
    overflow_of(vm, options)?;
    Ok(dt)
}

/// ### 5.2.2 Temporal.PlainDateTime.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = to_temporal_date_time(vm, arg(args, 0), arg(args, 1))?;
    Ok(make(vm, &dt))
}

/// ### 5.2.3 Temporal.PlainDateTime.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let two = to_temporal_date_time(vm, arg(args, 1), Value::UNDEFINED)?;
    Ok(Value::int(one.compare_iso(&two) as i32))
}

getters!(this_date_time => calendar_id, era, era_year, year, month, month_code, day, hour, minute, second,
    millisecond, microsecond, nanosecond, day_of_week, day_of_year, week_of_year, year_of_week, days_in_week,
    days_in_month, days_in_year, months_in_year, in_leap_year);

/// ### 5.3.25 Temporal.PlainDateTime.prototype.with ( temporalDateTimeLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    let bag = prepare(vm, obj, dt.calendar(), Want::DATE_TIME)?;
    if !bag.any {
        return Err(vm.type_error("a date-time-like object needs at least one field"));
    }
    let overflow = overflow_of(vm, arg(args, 1))?;
    let time = bag.partial_time(vm, overflow.unwrap_or(Overflow::Constrain))?;
    let fields = DateTimeFields { calendar_fields: bag.calendar_fields(), time };
    let r = dt.with(fields, overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 5.3.26 Temporal.PlainDateTime.prototype.withPlainTime ( [ plainTimeLike ] )
fn with_plain_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let time = arg(args, 0);
    let time: Option<PlainTime> =
        if time.is_undefined() { None } else { Some(to_temporal_time(vm, time, Value::UNDEFINED)?) };
    let r = dt.with_time(time).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 5.3.27 Temporal.PlainDateTime.prototype.withCalendar ( calendarLike )
fn with_calendar(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let calendar = to_calendar(vm, arg(args, 0))?;
    Ok(make(vm, &dt.with_calendar(calendar)))
}

/// ### 5.3.28 Temporal.PlainDateTime.prototype.add ( temporalDurationLike [ , options ] )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = dt.add(&d, overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 5.3.29 Temporal.PlainDateTime.prototype.subtract ( temporalDurationLike [ , options ] )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = dt.subtract(&d, overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 5.3.30 Temporal.PlainDateTime.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let other = to_temporal_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::DateTime)?;
    let r = dt.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 5.3.31 Temporal.PlainDateTime.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let other = to_temporal_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::DateTime)?;
    let r = dt.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 5.3.32 Temporal.PlainDateTime.prototype.round ( roundTo )
fn round(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let options = round_to(vm, arg(args, 0), true)?;
    let r = dt.round(options).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 5.3.33 Temporal.PlainDateTime.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let other = to_temporal_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let same = dt.compare_iso(&other).is_eq() && dt.calendar().identifier() == other.calendar().identifier();
    Ok(Value::bool(same))
}

/// ### 5.3.34 Temporal.PlainDateTime.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    // calendarName, fractionalSecondDigits, roundingMode, smallestUnit.
    let show = calendar_name(vm, options)?;
    let read = to_string_rounding_read(vm, options)?;
    let rounding = to_string_rounding_check(vm, read)?;
    let s = dt.to_ixdtf_string(rounding, show).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 5.3.35 Temporal.PlainDateTime.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_date_time(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 5.3.36 Temporal.PlainDateTime.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let s = dt.to_ixdtf_string(Default::default(), Default::default()).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 5.3.38 Temporal.PlainDateTime.prototype.toZonedDateTime ( temporalTimeZoneLike [ , options ] )
fn to_zoned_date_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    let tz = to_time_zone(vm, arg(args, 0))?;
    let options = get_options_object(vm, arg(args, 1))?;
    let disambiguation = disambiguation(vm, options)?.unwrap_or(Disambiguation::Compatible);
    let z = dt.to_zoned_date_time(tz, disambiguation).or_throw(vm)?;
    super::zoned_date_time::make(vm, &z)
}

/// ### 5.3.39 Temporal.PlainDateTime.prototype.toPlainDate ( )
fn to_plain_date(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    Ok(super::plain_date::make(vm, &dt.to_plain_date()))
}

/// ### 5.3.40 Temporal.PlainDateTime.prototype.toPlainTime ( )
fn to_plain_time(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let dt = this_date_time(vm, this)?;
    Ok(super::plain_time::make(vm, &dt.to_plain_time()))
}
