//! Temporal.PlainDate (proposal-temporal §3): a calendar date with no time or zone.
//! https://tc39.es/proposal-temporal/#sec-temporal-plaindate-objects

use temporal_rs::partial::PartialDate;
use temporal_rs::{Calendar, PlainDate};

use super::duration::to_temporal_duration;
use super::fields::{
    calendar_with_iso_default, clamp_i32, partial_temporal_object, prepare, require_string, to_calendar,
    to_integer_with_truncation, to_time_zone, Want,
};
use super::options::{calendar_name, difference_settings, get_options_object, overflow_of, UnitGroup};
use super::plain_time::to_temporal_time;
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::property::get;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.PlainDate", 3, constructor),
    native!("Temporal.PlainDate.from", 1, from),
    native!("Temporal.PlainDate.compare", 2, compare),
    native!("get Temporal.PlainDate.prototype.calendarId", 0, calendar_id),
    native!("get Temporal.PlainDate.prototype.era", 0, era),
    native!("get Temporal.PlainDate.prototype.eraYear", 0, era_year),
    native!("get Temporal.PlainDate.prototype.year", 0, year),
    native!("get Temporal.PlainDate.prototype.month", 0, month),
    native!("get Temporal.PlainDate.prototype.monthCode", 0, month_code),
    native!("get Temporal.PlainDate.prototype.day", 0, day),
    native!("get Temporal.PlainDate.prototype.dayOfWeek", 0, day_of_week),
    native!("get Temporal.PlainDate.prototype.dayOfYear", 0, day_of_year),
    native!("get Temporal.PlainDate.prototype.weekOfYear", 0, week_of_year),
    native!("get Temporal.PlainDate.prototype.yearOfWeek", 0, year_of_week),
    native!("get Temporal.PlainDate.prototype.daysInWeek", 0, days_in_week),
    native!("get Temporal.PlainDate.prototype.daysInMonth", 0, days_in_month),
    native!("get Temporal.PlainDate.prototype.daysInYear", 0, days_in_year),
    native!("get Temporal.PlainDate.prototype.monthsInYear", 0, months_in_year),
    native!("get Temporal.PlainDate.prototype.inLeapYear", 0, in_leap_year),
    native!("Temporal.PlainDate.prototype.toPlainYearMonth", 0, to_plain_year_month),
    native!("Temporal.PlainDate.prototype.toPlainMonthDay", 0, to_plain_month_day),
    native!("Temporal.PlainDate.prototype.add", 1, add),
    native!("Temporal.PlainDate.prototype.subtract", 1, subtract),
    native!("Temporal.PlainDate.prototype.with", 1, with),
    native!("Temporal.PlainDate.prototype.withCalendar", 1, with_calendar),
    native!("Temporal.PlainDate.prototype.until", 1, until),
    native!("Temporal.PlainDate.prototype.since", 1, since),
    native!("Temporal.PlainDate.prototype.equals", 1, equals),
    native!("Temporal.PlainDate.prototype.toPlainDateTime", 0, to_plain_date_time),
    native!("Temporal.PlainDate.prototype.toZonedDateTime", 1, to_zoned_date_time),
    native!("Temporal.PlainDate.prototype.toString", 0, to_string),
    native!("Temporal.PlainDate.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.PlainDate.prototype.toJSON", 0, to_json),
    native!("Temporal.PlainDate.prototype.valueOf", 0, value_of),
];

fn this_date(vm: &mut Vm, this: Value) -> JsResult<PlainDate> {
    this_slots!(vm, this, PlainDate, to_date, "PlainDate")
}

/// A new Temporal.PlainDate with %Temporal.PlainDate.prototype%.
pub(crate) fn make(vm: &mut Vm, d: &PlainDate) -> Value {
    let proto = vm.realm.temporal_plain_date_prototype;
    create(vm, proto, TemporalSlots::of_date(d))
}

/// The calendar argument of a constructor: undefined is ISO 8601; otherwise a String that
/// is a calendar identifier (not an ISO string), case-insensitively.
pub(crate) fn constructor_calendar(vm: &mut Vm, v: Value) -> JsResult<Calendar> {
    if v.is_undefined() {
        return Ok(Calendar::ISO);
    }
    let Some(s) = v.as_string() else {
        return Err(vm.type_error("calendar must be a string"));
    };
    let s = vm.heap.flat(s).to_rust_string();
    let calendar = Calendar::try_from_utf8(s.as_bytes()).or_throw(vm)?;
    super::fields::reject_islamic_fallback(vm, &s)?;
    Ok(calendar)
}

/// ### 3.1.1 Temporal.PlainDate ( isoYear, isoMonth, isoDay [ , calendar ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.PlainDate requires 'new'"));
    }
    // 2-4. Let y, m, d be ? ToIntegerWithTruncation of the arguments.
    let y = to_integer_with_truncation(vm, arg(args, 0))?;
    let m = to_integer_with_truncation(vm, arg(args, 1))?;
    let d = to_integer_with_truncation(vm, arg(args, 2))?;
    // 5-6. The calendar.
    let calendar = constructor_calendar(vm, arg(args, 3))?;
    // 7. If IsValidISODate(y, m, d) is false, throw a RangeError exception.
    if !(1.0..=12.0).contains(&m) || !(1.0..=31.0).contains(&d) {
        return Err(vm.range_error("invalid ISO date"));
    }
    let date = PlainDate::try_new(clamp_i32(y), m as u8, d as u8, calendar).or_throw(vm)?;
    // 8-9. CreateTemporalDate(isoDate, calendar, NewTarget).
    let default = vm.realm.temporal_plain_date_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_date(&date)))
}

/// ### ToTemporalDate ( item [ , options ] )
pub(crate) fn to_temporal_date(vm: &mut Vm, item: Value, options: Value) -> JsResult<PlainDate> {
    // 2. If item is an Object, then
    if let Some(obj) = item.as_object() {
        // a-c. A PlainDate, ZonedDateTime or PlainDateTime gives its date (after the
        //      options are read).
        let known = match slots_of(vm, item) {
            Some(s @ TemporalSlots::PlainDate { .. }) => Some(s.to_date()),
            Some(s @ TemporalSlots::PlainDateTime { .. }) => Some(s.to_date_time().map(|dt| dt.to_plain_date())),
            Some(s @ TemporalSlots::ZonedDateTime { .. }) => Some(s.to_zoned().map(|z| z.to_plain_date())),
            _ => None,
        };
        if let Some(r) = known {
            let d = r.or_throw(vm)?;
            overflow_of(vm, options)?;
            return Ok(d);
        }
        // d. Let calendar be ? GetTemporalCalendarIdentifierWithISODefault(item).
        let calendar = calendar_with_iso_default(vm, obj)?;
        // e. Let fields be ? PrepareCalendarFields(calendar, item, « year, month, month-code, day », «», «»).
        let bag = prepare(vm, obj, &calendar, Want::DATE)?;
        // f-g. overflow; h. CalendarDateFromFields(calendar, fields, overflow).
        let overflow = overflow_of(vm, options)?;
        let partial = PartialDate { calendar_fields: bag.calendar_fields(), calendar };
        return PlainDate::from_partial(partial, overflow).or_throw(vm);
    }
    // 3. If item is not a String, throw a TypeError exception.
    let s = require_string(vm, item, "PlainDate")?;
    // 4-…: ParseISODateTime, then the options are read.
    let d = PlainDate::from_utf8(s.as_bytes()).or_throw(vm)?;
    overflow_of(vm, options)?;
    Ok(d)
}

/// ### 3.2.2 Temporal.PlainDate.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let d = to_temporal_date(vm, arg(args, 0), arg(args, 1))?;
    Ok(make(vm, &d))
}

/// ### 3.2.3 Temporal.PlainDate.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_date(vm, arg(args, 0), Value::UNDEFINED)?;
    let two = to_temporal_date(vm, arg(args, 1), Value::UNDEFINED)?;
    Ok(Value::int(one.compare_iso(&two) as i32))
}

getters!(this_date => calendar_id, era, era_year, year, month, month_code, day, day_of_week, day_of_year,
    week_of_year, year_of_week, days_in_week, days_in_month, days_in_year, months_in_year, in_leap_year);

/// ### 3.3.18 Temporal.PlainDate.prototype.toPlainYearMonth ( )
fn to_plain_year_month(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let ym = d.to_plain_year_month().or_throw(vm)?;
    Ok(super::plain_year_month::make(vm, &ym))
}

/// ### 3.3.19 Temporal.PlainDate.prototype.toPlainMonthDay ( )
fn to_plain_month_day(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let md = d.to_plain_month_day().or_throw(vm)?;
    Ok(super::plain_month_day::make(vm, &md))
}

/// ### 3.3.20 Temporal.PlainDate.prototype.add ( temporalDurationLike [ , options ] )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let duration = to_temporal_duration(vm, arg(args, 0))?;
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = d.add(&duration, overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 3.3.21 Temporal.PlainDate.prototype.subtract ( temporalDurationLike [ , options ] )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let duration = to_temporal_duration(vm, arg(args, 0))?;
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = d.subtract(&duration, overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 3.3.22 Temporal.PlainDate.prototype.with ( temporalDateLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    // 3. If ? IsPartialTemporalObject(temporalDateLike) is false, throw a TypeError.
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    // 4-6. PrepareCalendarFields(calendar, temporalDateLike, « year, month, month-code, day », «», partial).
    let bag = prepare(vm, obj, d.calendar(), Want::DATE)?;
    if !bag.any {
        return Err(vm.type_error("a date-like object needs at least one date field"));
    }
    // 7-9. overflow, CalendarMergeFields, CalendarDateFromFields.
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = d.with(bag.calendar_fields(), overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 3.3.23 Temporal.PlainDate.prototype.withCalendar ( calendarLike )
fn with_calendar(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let calendar = to_calendar(vm, arg(args, 0))?;
    Ok(make(vm, &d.with_calendar(calendar)))
}

/// ### 3.3.24 Temporal.PlainDate.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let other = to_temporal_date(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Date)?;
    let r = d.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 3.3.25 Temporal.PlainDate.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let other = to_temporal_date(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Date)?;
    let r = d.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 3.3.26 Temporal.PlainDate.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let other = to_temporal_date(vm, arg(args, 0), Value::UNDEFINED)?;
    let same = d.compare_iso(&other).is_eq() && d.calendar().identifier() == other.calendar().identifier();
    Ok(Value::bool(same))
}

/// ### 3.3.27 Temporal.PlainDate.prototype.toPlainDateTime ( [ temporalTime ] )
fn to_plain_date_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    // 3. Let time be ? ToTimeRecordOrMidnight(temporalTime).
    let time = arg(args, 0);
    let time = if time.is_undefined() { None } else { Some(to_temporal_time(vm, time, Value::UNDEFINED)?) };
    let dt = d.to_plain_date_time(time).or_throw(vm)?;
    Ok(super::plain_date_time::make(vm, &dt))
}

/// ### 3.3.28 Temporal.PlainDate.prototype.toZonedDateTime ( item )
fn to_zoned_date_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let item = arg(args, 0);
    // 3. If item is an Object, then
    let (tz, time) = if let Some(obj) = item.as_object() {
        // a. Let timeZoneLike be ? Get(item, "timeZone").
        let key = vm.key("timeZone");
        let tz_like = get(vm, obj, key, item)?;
        if tz_like.is_undefined() {
            // b. If timeZoneLike is undefined, the item itself is the time zone.
            (to_time_zone(vm, item)?, Value::UNDEFINED)
        } else {
            // c. Else, the time zone, and d. the plainTime property.
            let tz = to_time_zone(vm, tz_like)?;
            let key = vm.key("plainTime");
            (tz, get(vm, obj, key, item)?)
        }
    } else {
        (to_time_zone(vm, item)?, Value::UNDEFINED)
    };
    let time = if time.is_undefined() { None } else { Some(to_temporal_time(vm, time, Value::UNDEFINED)?) };
    let z = d.to_zoned_date_time(tz, time).or_throw(vm)?;
    super::zoned_date_time::make(vm, &z)
}

/// ### 3.3.29 Temporal.PlainDate.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    let show = calendar_name(vm, options)?;
    let s = d.to_ixdtf_string(show);
    Ok(vm.str(&s))
}

/// ### 3.3.30 Temporal.PlainDate.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_date(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 3.3.31 Temporal.PlainDate.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_date(vm, this)?;
    let s = d.to_ixdtf_string(Default::default());
    Ok(vm.str(&s))
}
