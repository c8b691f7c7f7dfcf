//! Temporal.ZonedDateTime (proposal-temporal §6): an exact time in a time zone and
//! calendar. https://tc39.es/proposal-temporal/#sec-temporal-zoneddatetime-objects

use num_bigint::BigInt;
use temporal_rs::fields::ZonedDateTimeFields;
use temporal_rs::options::{Disambiguation, OffsetDisambiguation, Overflow};
use temporal_rs::parsed_intermediates::ParsedZonedDateTime;
use temporal_rs::partial::PartialZonedDateTime;
use temporal_rs::{Calendar, PlainTime, TimeZone, ZonedDateTime};

use super::duration::to_temporal_duration;
use super::fields::{
    calendar_with_iso_default, partial_temporal_object, prepare, require_string, to_calendar, to_time_zone, Want,
};
use super::instant::epoch_ns_value;
use super::options::{
    calendar_name, difference_settings, direction, disambiguation, get_options_object, offset_option, overflow,
    round_to, show_offset, show_time_zone, to_string_rounding_check, UnitGroup,
};
use super::plain_time::to_temporal_time;
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::bigint::to_bigint;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.ZonedDateTime", 2, constructor),
    native!("Temporal.ZonedDateTime.from", 1, from),
    native!("Temporal.ZonedDateTime.compare", 2, compare),
    native!("get Temporal.ZonedDateTime.prototype.calendarId", 0, calendar_id),
    native!("get Temporal.ZonedDateTime.prototype.timeZoneId", 0, time_zone_id),
    native!("get Temporal.ZonedDateTime.prototype.era", 0, era),
    native!("get Temporal.ZonedDateTime.prototype.eraYear", 0, era_year),
    native!("get Temporal.ZonedDateTime.prototype.year", 0, year),
    native!("get Temporal.ZonedDateTime.prototype.month", 0, month),
    native!("get Temporal.ZonedDateTime.prototype.monthCode", 0, month_code),
    native!("get Temporal.ZonedDateTime.prototype.day", 0, day),
    native!("get Temporal.ZonedDateTime.prototype.hour", 0, hour),
    native!("get Temporal.ZonedDateTime.prototype.minute", 0, minute),
    native!("get Temporal.ZonedDateTime.prototype.second", 0, second),
    native!("get Temporal.ZonedDateTime.prototype.millisecond", 0, millisecond),
    native!("get Temporal.ZonedDateTime.prototype.microsecond", 0, microsecond),
    native!("get Temporal.ZonedDateTime.prototype.nanosecond", 0, nanosecond),
    native!("get Temporal.ZonedDateTime.prototype.epochMilliseconds", 0, epoch_milliseconds),
    native!("get Temporal.ZonedDateTime.prototype.epochNanoseconds", 0, epoch_nanoseconds),
    native!("get Temporal.ZonedDateTime.prototype.dayOfWeek", 0, day_of_week),
    native!("get Temporal.ZonedDateTime.prototype.dayOfYear", 0, day_of_year),
    native!("get Temporal.ZonedDateTime.prototype.weekOfYear", 0, week_of_year),
    native!("get Temporal.ZonedDateTime.prototype.yearOfWeek", 0, year_of_week),
    native!("get Temporal.ZonedDateTime.prototype.hoursInDay", 0, hours_in_day),
    native!("get Temporal.ZonedDateTime.prototype.daysInWeek", 0, days_in_week),
    native!("get Temporal.ZonedDateTime.prototype.daysInMonth", 0, days_in_month),
    native!("get Temporal.ZonedDateTime.prototype.daysInYear", 0, days_in_year),
    native!("get Temporal.ZonedDateTime.prototype.monthsInYear", 0, months_in_year),
    native!("get Temporal.ZonedDateTime.prototype.inLeapYear", 0, in_leap_year),
    native!("get Temporal.ZonedDateTime.prototype.offsetNanoseconds", 0, offset_nanoseconds),
    native!("get Temporal.ZonedDateTime.prototype.offset", 0, offset),
    native!("Temporal.ZonedDateTime.prototype.with", 1, with),
    native!("Temporal.ZonedDateTime.prototype.withPlainTime", 0, with_plain_time),
    native!("Temporal.ZonedDateTime.prototype.withTimeZone", 1, with_time_zone),
    native!("Temporal.ZonedDateTime.prototype.withCalendar", 1, with_calendar),
    native!("Temporal.ZonedDateTime.prototype.add", 1, add),
    native!("Temporal.ZonedDateTime.prototype.subtract", 1, subtract),
    native!("Temporal.ZonedDateTime.prototype.until", 1, until),
    native!("Temporal.ZonedDateTime.prototype.since", 1, since),
    native!("Temporal.ZonedDateTime.prototype.round", 1, round),
    native!("Temporal.ZonedDateTime.prototype.equals", 1, equals),
    native!("Temporal.ZonedDateTime.prototype.toString", 0, to_string),
    native!("Temporal.ZonedDateTime.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.ZonedDateTime.prototype.toJSON", 0, to_json),
    native!("Temporal.ZonedDateTime.prototype.valueOf", 0, value_of),
    native!("Temporal.ZonedDateTime.prototype.startOfDay", 0, start_of_day),
    native!("Temporal.ZonedDateTime.prototype.getTimeZoneTransition", 1, get_time_zone_transition),
    native!("Temporal.ZonedDateTime.prototype.toInstant", 0, to_instant),
    native!("Temporal.ZonedDateTime.prototype.toPlainDate", 0, to_plain_date),
    native!("Temporal.ZonedDateTime.prototype.toPlainTime", 0, to_plain_time),
    native!("Temporal.ZonedDateTime.prototype.toPlainDateTime", 0, to_plain_date_time),
];

fn this_zoned(vm: &mut Vm, this: Value) -> JsResult<ZonedDateTime> {
    this_slots!(vm, this, ZonedDateTime, to_zoned, "ZonedDateTime")
}

/// A new Temporal.ZonedDateTime with %Temporal.ZonedDateTime.prototype%.
pub(crate) fn make(vm: &mut Vm, z: &ZonedDateTime) -> JsResult<Value> {
    let slots = TemporalSlots::of_zoned(z).or_throw(vm)?;
    let proto = vm.realm.temporal_zoned_date_time_prototype;
    Ok(create(vm, proto, slots))
}

/// ### 6.1.1 Temporal.ZonedDateTime ( epochNanoseconds, timeZone [ , calendar ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.ZonedDateTime requires 'new'"));
    }
    // 2. Set epochNanoseconds to ? ToBigInt(epochNanoseconds).
    let b: BigInt = to_bigint(vm, arg(args, 0))?;
    // 3. If IsValidEpochNanoseconds(epochNanoseconds) is false, throw a RangeError exception.
    let Ok(ns) = i128::try_from(&b) else {
        return Err(vm.range_error("epoch nanoseconds out of range"));
    };
    // 4. If timeZone is not a String, throw a TypeError exception.
    let Some(tz) = arg(args, 1).as_string() else {
        return Err(vm.type_error("timeZone must be a string"));
    };
    // 5-…: ParseTimeZoneIdentifier (an identifier or offset, not an ISO string).
    let tz = vm.heap.flat(tz).to_rust_string();
    let tz = TimeZone::try_from_identifier_str(&tz).or_throw(vm)?;
    // 10-12. The calendar: undefined is ISO 8601; otherwise a calendar identifier.
    let calendar = super::plain_date::constructor_calendar(vm, arg(args, 2))?;
    let z = ZonedDateTime::try_new(ns, tz, calendar).or_throw(vm)?;
    // 13. Return ? CreateTemporalZonedDateTime(epochNanoseconds, timeZone, calendar, NewTarget).
    let slots = TemporalSlots::of_zoned(&z).or_throw(vm)?;
    let default = vm.realm.temporal_zoned_date_time_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, slots))
}

/// The disambiguation, offset and overflow options, read in that order.
fn zoned_options(
    vm: &mut Vm,
    options: Option<ObjectId>,
    offset_default: OffsetDisambiguation,
) -> JsResult<(Disambiguation, OffsetDisambiguation, Option<Overflow>)> {
    let d = disambiguation(vm, options)?.unwrap_or(Disambiguation::Compatible);
    let o = offset_option(vm, options)?.unwrap_or(offset_default);
    let of = overflow(vm, options)?;
    Ok((d, o, of))
}

/// ### ToTemporalZonedDateTime ( item [ , options ] )
pub(crate) fn to_temporal_zoned_date_time(vm: &mut Vm, item: Value, options: Value) -> JsResult<ZonedDateTime> {
    // 2. If item is an Object, then
    if let Some(obj) = item.as_object() {
        // a. A ZonedDateTime: the options are read, then a copy.
        if let Some(s @ TemporalSlots::ZonedDateTime { .. }) = slots_of(vm, item) {
            let r = s.to_zoned();
            let z = r.or_throw(vm)?;
            let options = get_options_object(vm, options)?;
            zoned_options(vm, options, OffsetDisambiguation::Reject)?;
            return Ok(z);
        }
        // b-c. The calendar and the fields (the time zone is required).
        let calendar = calendar_with_iso_default(vm, obj)?;
        let bag = prepare(vm, obj, &calendar, Want::ZONED)?;
        let Some(tz) = bag.time_zone else {
            return Err(vm.type_error("a ZonedDateTime-like object needs a timeZone"));
        };
        // d-g. The options.
        let options = get_options_object(vm, options)?;
        let (d, o, of) = zoned_options(vm, options, OffsetDisambiguation::Reject)?;
        let time = bag.partial_time(vm, of.unwrap_or(Overflow::Constrain))?;
        let mut partial = PartialZonedDateTime::new()
            .with_calendar_fields(bag.calendar_fields())
            .with_time(time)
            .with_timezone(Some(tz));
        if let Some(offset) = bag.offset {
            partial = partial.with_offset(offset);
        }
        partial.calendar = calendar;
        return ZonedDateTime::from_partial(partial, of, Some(d), Some(o)).or_throw(vm);
    }
    // 3. If item is not a String, throw a TypeError exception.
    let s = require_string(vm, item, "ZonedDateTime")?;
    // 4-…: ParseISODateTime (a time-zone annotation is required), then the options.
    let parsed = ParsedZonedDateTime::from_utf8(s.as_bytes()).or_throw(vm)?;
    let options = get_options_object(vm, options)?;
    let (d, o, _) = zoned_options(vm, options, OffsetDisambiguation::Reject)?;
    ZonedDateTime::from_parsed(parsed, d, o).or_throw(vm)
}

/// ### 6.2.2 Temporal.ZonedDateTime.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let z = to_temporal_zoned_date_time(vm, arg(args, 0), arg(args, 1))?;
    make(vm, &z)
}

/// ### 6.2.3 Temporal.ZonedDateTime.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_zoned_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let two = to_temporal_zoned_date_time(vm, arg(args, 1), Value::UNDEFINED)?;
    Ok(Value::int(one.compare_instant(&two) as i32))
}

getters!(this_zoned => calendar_id, era, era_year, year, month, month_code, day, hour, minute, second,
    millisecond, microsecond, nanosecond, epoch_milliseconds, day_of_week, day_of_year, week_of_year,
    year_of_week, days_in_week, days_in_month, days_in_year, months_in_year, in_leap_year, offset_nanoseconds,
    offset);

/// ### get Temporal.ZonedDateTime.prototype.timeZoneId
fn time_zone_id(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    match slots_of(vm, this) {
        Some(TemporalSlots::ZonedDateTime { time_zone, .. }) => {
            let id = time_zone.clone();
            Ok(vm.str(&id))
        }
        _ => Err(vm.type_error("receiver is not a Temporal.ZonedDateTime")),
    }
}

/// ### get Temporal.ZonedDateTime.prototype.epochNanoseconds
fn epoch_nanoseconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    Ok(epoch_ns_value(vm, z.epoch_nanoseconds().as_i128()))
}

/// ### get Temporal.ZonedDateTime.prototype.hoursInDay
fn hours_in_day(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let h = z.hours_in_day().or_throw(vm)?;
    Ok(Value::number(h))
}

/// ### 6.3.31 Temporal.ZonedDateTime.prototype.with ( temporalZonedDateTimeLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    let want = Want { time_zone: false, ..Want::ZONED };
    let bag = prepare(vm, obj, z.calendar(), want)?;
    if !bag.any {
        return Err(vm.type_error("a ZonedDateTime-like object needs at least one field"));
    }
    let options = get_options_object(vm, arg(args, 1))?;
    let (d, o, of) = zoned_options(vm, options, OffsetDisambiguation::Prefer)?;
    let time = bag.partial_time(vm, of.unwrap_or(Overflow::Constrain))?;
    let fields = ZonedDateTimeFields { calendar_fields: bag.calendar_fields(), time, offset: bag.offset };
    let r = z.with(fields, Some(d), Some(o), of).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.32 Temporal.ZonedDateTime.prototype.withPlainTime ( [ plainTimeLike ] )
fn with_plain_time(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let time = arg(args, 0);
    let time: Option<PlainTime> =
        if time.is_undefined() { None } else { Some(to_temporal_time(vm, time, Value::UNDEFINED)?) };
    let r = z.with_plain_time(time).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.33 Temporal.ZonedDateTime.prototype.withTimeZone ( timeZoneLike )
fn with_time_zone(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let tz = to_time_zone(vm, arg(args, 0))?;
    let r = z.with_timezone(tz).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.34 Temporal.ZonedDateTime.prototype.withCalendar ( calendarLike )
fn with_calendar(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let calendar: Calendar = to_calendar(vm, arg(args, 0))?;
    make(vm, &z.with_calendar(calendar))
}

/// ### 6.3.35 Temporal.ZonedDateTime.prototype.add ( temporalDurationLike [ , options ] )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let options = get_options_object(vm, arg(args, 1))?;
    let of = overflow(vm, options)?;
    let r = z.add(&d, of).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.36 Temporal.ZonedDateTime.prototype.subtract ( temporalDurationLike [ , options ] )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let options = get_options_object(vm, arg(args, 1))?;
    let of = overflow(vm, options)?;
    let r = z.subtract(&d, of).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.37 Temporal.ZonedDateTime.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let other = to_temporal_zoned_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::DateTime)?;
    let r = z.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 6.3.38 Temporal.ZonedDateTime.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let other = to_temporal_zoned_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::DateTime)?;
    let r = z.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 6.3.39 Temporal.ZonedDateTime.prototype.round ( roundTo )
fn round(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let options = round_to(vm, arg(args, 0), true)?;
    let r = z.round(options).or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.40 Temporal.ZonedDateTime.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let other = to_temporal_zoned_date_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let r = z.equals(&other).or_throw(vm)?;
    Ok(Value::bool(r))
}

/// ### 6.3.41 Temporal.ZonedDateTime.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    // calendarName, fractionalSecondDigits, offset, roundingMode, smallestUnit, timeZoneName.
    let show_calendar = calendar_name(vm, options)?;
    let precision = super::options::fractional_second_digits(vm, options)?;
    let show_offset = show_offset(vm, options)?;
    let rounding_mode = super::options::rounding_mode(vm, options)?;
    let smallest_unit = super::options::unit(vm, options, "smallestUnit")?;
    let show_tz = show_time_zone(vm, options)?;
    let read = super::options::ToStringRead { precision, rounding_mode, smallest_unit };
    let rounding = to_string_rounding_check(vm, read)?;
    let s = z.to_ixdtf_string(show_offset, show_tz, show_calendar, rounding).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 6.3.42 Temporal.ZonedDateTime.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_zoned(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 6.3.43 Temporal.ZonedDateTime.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let s = z
        .to_ixdtf_string(Default::default(), Default::default(), Default::default(), Default::default())
        .or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 6.3.45 Temporal.ZonedDateTime.prototype.startOfDay ( )
fn start_of_day(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let r = z.start_of_day().or_throw(vm)?;
    make(vm, &r)
}

/// ### 6.3.46 Temporal.ZonedDateTime.prototype.getTimeZoneTransition ( directionParam )
fn get_time_zone_transition(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    let param = arg(args, 0);
    // 3. If directionParam is undefined, throw a TypeError exception.
    if param.is_undefined() {
        return Err(vm.type_error("getTimeZoneTransition requires a direction"));
    }
    // 4-5. A String is the direction; otherwise an options bag.
    let dir = if let Some(s) = param.as_string() {
        let s = vm.heap.flat(s).to_rust_string();
        match s.parse() {
            Ok(d) => Some(d),
            Err(_) => return Err(vm.range_error(format!("{s} is not a valid value for direction"))),
        }
    } else {
        let options = get_options_object(vm, param)?;
        direction(vm, options)?
    };
    // 6. The direction is required.
    let Some(dir) = dir else {
        return Err(vm.range_error("direction is required"));
    };
    match z.get_time_zone_transition(dir).or_throw(vm)? {
        Some(r) => make(vm, &r),
        None => Ok(Value::NULL),
    }
}

/// ### 6.3.47 Temporal.ZonedDateTime.prototype.toInstant ( )
fn to_instant(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    Ok(super::instant::make(vm, &z.to_instant()))
}

/// ### 6.3.48 Temporal.ZonedDateTime.prototype.toPlainDate ( )
fn to_plain_date(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    Ok(super::plain_date::make(vm, &z.to_plain_date()))
}

/// ### 6.3.49 Temporal.ZonedDateTime.prototype.toPlainTime ( )
fn to_plain_time(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    Ok(super::plain_time::make(vm, &z.to_plain_time()))
}

/// ### 6.3.50 Temporal.ZonedDateTime.prototype.toPlainDateTime ( )
fn to_plain_date_time(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let z = this_zoned(vm, this)?;
    Ok(super::plain_date_time::make(vm, &z.to_plain_date_time()))
}
