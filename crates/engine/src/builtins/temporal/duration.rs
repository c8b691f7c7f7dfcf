//! Temporal.Duration (proposal-temporal §7): a length of time in ten signed fields.
//! https://tc39.es/proposal-temporal/#sec-temporal-duration-objects

use std::str::FromStr;

use temporal_rs::options::{RelativeTo, RoundingOptions, Unit};
use temporal_rs::partial::{PartialDate, PartialDuration, PartialZonedDateTime};
use temporal_rs::{Duration, PlainDate, ZonedDateTime};

use super::fields::{calendar_with_iso_default, prepare, to_integer_if_integral, Want};
use super::options::{
    get_options_object, get_raw, rounding_increment, rounding_mode, to_string_rounding_read, unit, validate_unit,
    UnitGroup,
};
use super::slots::TemporalSlots;
use super::{create, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.Duration", 0, constructor),
    native!("Temporal.Duration.from", 1, from),
    native!("Temporal.Duration.compare", 2, compare),
    native!("get Temporal.Duration.prototype.years", 0, years),
    native!("get Temporal.Duration.prototype.months", 0, months),
    native!("get Temporal.Duration.prototype.weeks", 0, weeks),
    native!("get Temporal.Duration.prototype.days", 0, days),
    native!("get Temporal.Duration.prototype.hours", 0, hours),
    native!("get Temporal.Duration.prototype.minutes", 0, minutes),
    native!("get Temporal.Duration.prototype.seconds", 0, seconds),
    native!("get Temporal.Duration.prototype.milliseconds", 0, milliseconds),
    native!("get Temporal.Duration.prototype.microseconds", 0, microseconds),
    native!("get Temporal.Duration.prototype.nanoseconds", 0, nanoseconds),
    native!("get Temporal.Duration.prototype.sign", 0, sign),
    native!("get Temporal.Duration.prototype.blank", 0, blank),
    native!("Temporal.Duration.prototype.with", 1, with),
    native!("Temporal.Duration.prototype.negated", 0, negated),
    native!("Temporal.Duration.prototype.abs", 0, abs),
    native!("Temporal.Duration.prototype.add", 1, add),
    native!("Temporal.Duration.prototype.subtract", 1, subtract),
    native!("Temporal.Duration.prototype.round", 1, round),
    native!("Temporal.Duration.prototype.total", 1, total),
    native!("Temporal.Duration.prototype.toString", 0, to_string),
    native!("Temporal.Duration.prototype.toJSON", 0, to_json),
    native!("Temporal.Duration.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.Duration.prototype.valueOf", 0, value_of),
];

fn this_duration(vm: &mut Vm, this: Value) -> JsResult<Duration> {
    this_slots!(vm, this, Duration, to_duration, "Duration")
}

/// A new Temporal.Duration with %Temporal.Duration.prototype%.
pub(crate) fn make(vm: &mut Vm, d: &Duration) -> Value {
    let proto = vm.realm.temporal_duration_prototype;
    create(vm, proto, TemporalSlots::of_duration(d))
}

fn sat_i64(n: f64) -> i64 {
    n as i64
}

fn sat_i128(n: f64) -> i128 {
    n as i128
}

/// ### 7.1.1 Temporal.Duration ( [ years [ , months [ , weeks [ , days [ , hours [ , minutes [ , seconds [ , milliseconds [ , microseconds [ , nanoseconds ] ] ] ] ] ] ] ] ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.Duration requires 'new'"));
    }
    // 2-11. Each argument: 0 if undefined, else ? ToIntegerIfIntegral.
    let mut f = [0.0f64; 10];
    for (i, slot) in f.iter_mut().enumerate() {
        let v = arg(args, i);
        if !v.is_undefined() {
            *slot = to_integer_if_integral(vm, v)?;
        }
    }
    // 12. Return ? CreateTemporalDuration(…, NewTarget).
    let d = Duration::new(
        sat_i64(f[0]),
        sat_i64(f[1]),
        sat_i64(f[2]),
        sat_i64(f[3]),
        sat_i64(f[4]),
        sat_i64(f[5]),
        sat_i64(f[6]),
        sat_i64(f[7]),
        sat_i128(f[8]),
        sat_i128(f[9]),
    )
    .or_throw(vm)?;
    let default = vm.realm.temporal_duration_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_duration(&d)))
}

/// ### ToTemporalPartialDurationRecord ( temporalDurationLike ): the fields in
/// alphabetical order, each ToIntegerIfIntegral; a TypeError when none is present.
fn to_partial_duration(vm: &mut Vm, obj: ObjectId) -> JsResult<PartialDuration> {
    let mut p = PartialDuration::default();
    let names = [
        "days",
        "hours",
        "microseconds",
        "milliseconds",
        "minutes",
        "months",
        "nanoseconds",
        "seconds",
        "weeks",
        "years",
    ];
    let mut any = false;
    for name in names {
        let v = get_raw(vm, Some(obj), name)?;
        if v.is_undefined() {
            continue;
        }
        any = true;
        let n = to_integer_if_integral(vm, v)?;
        match name {
            "days" => p.days = Some(sat_i64(n)),
            "hours" => p.hours = Some(sat_i64(n)),
            "microseconds" => p.microseconds = Some(sat_i128(n)),
            "milliseconds" => p.milliseconds = Some(sat_i64(n)),
            "minutes" => p.minutes = Some(sat_i64(n)),
            "months" => p.months = Some(sat_i64(n)),
            "nanoseconds" => p.nanoseconds = Some(sat_i128(n)),
            "seconds" => p.seconds = Some(sat_i64(n)),
            "weeks" => p.weeks = Some(sat_i64(n)),
            _ => p.years = Some(sat_i64(n)),
        }
    }
    if !any {
        return Err(vm.type_error("a duration-like object needs at least one duration field"));
    }
    Ok(p)
}

/// ### ToTemporalDuration ( item )
pub(crate) fn to_temporal_duration(vm: &mut Vm, item: Value) -> JsResult<Duration> {
    // 1. If item is an Object with an [[InitializedTemporalDuration]] slot, return a copy.
    if let Some(s @ TemporalSlots::Duration { .. }) = slots_of(vm, item) {
        let r = s.to_duration();
        return r.or_throw(vm);
    }
    // 2. If item is not an Object, then
    let Some(obj) = item.as_object() else {
        // a. If item is not a String, throw a TypeError exception.
        let Some(s) = item.as_string() else {
            return Err(vm.type_error("cannot convert this value to a Temporal.Duration"));
        };
        // b. Return ? ParseTemporalDurationString(item).
        let s = vm.heap.flat(s).to_rust_string();
        return Duration::from_utf8(s.as_bytes()).or_throw(vm);
    };
    // 3-…: the partial record, merged over a zero duration.
    let p = to_partial_duration(vm, obj)?;
    Duration::from_partial_duration(p).or_throw(vm)
}

/// ### GetTemporalRelativeToOption ( options )
fn relative_to(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<RelativeTo>> {
    // 1. Let value be ? Get(options, "relativeTo").
    let value = get_raw(vm, options, "relativeTo")?;
    // 2. If value is undefined, return undefined.
    if value.is_undefined() {
        return Ok(None);
    }
    // 5. If value is an Object, then
    if let Some(obj) = value.as_object() {
        // a-c. A ZonedDateTime, PlainDate or PlainDateTime stands for itself.
        let known = match slots_of(vm, value) {
            Some(s @ TemporalSlots::ZonedDateTime { .. }) => Some(s.to_zoned().map(RelativeTo::ZonedDateTime)),
            Some(s @ TemporalSlots::PlainDate { .. }) => Some(s.to_date().map(RelativeTo::PlainDate)),
            Some(s @ TemporalSlots::PlainDateTime { .. }) => {
                Some(s.to_date_time().map(|dt| RelativeTo::PlainDate(dt.to_plain_date())))
            }
            _ => None,
        };
        if let Some(r) = known {
            return r.or_throw(vm).map(Some);
        }
        // d-e. Otherwise a property bag with an optional time zone.
        let calendar = calendar_with_iso_default(vm, obj)?;
        let bag = prepare(vm, obj, &calendar, Want::ZONED)?;
        let time = bag.partial_time(vm, temporal_rs::options::Overflow::Constrain)?;
        let Some(tz) = bag.time_zone else {
            let partial = PartialDate { calendar_fields: bag.calendar_fields(), calendar };
            return PlainDate::from_partial(partial, None).or_throw(vm).map(|d| Some(RelativeTo::PlainDate(d)));
        };
        let mut partial = PartialZonedDateTime::new().with_calendar_fields(bag.calendar_fields()).with_time(time);
        if let Some(offset) = bag.offset {
            partial = partial.with_offset(offset);
        }
        partial = partial.with_timezone(Some(tz));
        partial.calendar = calendar;
        let z = ZonedDateTime::from_partial(partial, None, None, None).or_throw(vm)?;
        return Ok(Some(RelativeTo::ZonedDateTime(z)));
    }
    // 6. Else, a. If value is not a String, throw a TypeError exception.
    let Some(s) = value.as_string() else {
        return Err(vm.type_error("relativeTo must be an object or a string"));
    };
    let s = vm.heap.flat(s).to_rust_string();
    RelativeTo::try_from_str(&s).or_throw(vm).map(Some)
}

/// ### 7.2.2 Temporal.Duration.from ( item )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let d = to_temporal_duration(vm, arg(args, 0))?;
    Ok(make(vm, &d))
}

/// ### 7.2.3 Temporal.Duration.compare ( one, two [ , options ] )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_duration(vm, arg(args, 0))?;
    let two = to_temporal_duration(vm, arg(args, 1))?;
    let options = get_options_object(vm, arg(args, 2))?;
    let relative = relative_to(vm, options)?;
    let r = one.compare(&two, relative).or_throw(vm)?;
    Ok(Value::int(r as i32))
}

super::getters!(this_duration => years, months, weeks, days, hours, minutes, seconds, milliseconds);

/// ### get Temporal.Duration.prototype.microseconds
fn microseconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(Value::number(d.microseconds() as f64))
}

/// ### get Temporal.Duration.prototype.nanoseconds
fn nanoseconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(Value::number(d.nanoseconds() as f64))
}

/// ### get Temporal.Duration.prototype.sign
fn sign(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(Value::int(d.sign() as i32))
}

/// ### get Temporal.Duration.prototype.blank
fn blank(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(Value::bool(d.is_zero()))
}

/// ### 7.3.15 Temporal.Duration.prototype.with ( temporalDurationLike )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let Some(obj) = arg(args, 0).as_object() else {
        return Err(vm.type_error("Duration.prototype.with requires an object"));
    };
    let p = to_partial_duration(vm, obj)?;
    let r = Duration::new(
        p.years.unwrap_or(d.years()),
        p.months.unwrap_or(d.months()),
        p.weeks.unwrap_or(d.weeks()),
        p.days.unwrap_or(d.days()),
        p.hours.unwrap_or(d.hours()),
        p.minutes.unwrap_or(d.minutes()),
        p.seconds.unwrap_or(d.seconds()),
        p.milliseconds.unwrap_or(d.milliseconds()),
        p.microseconds.unwrap_or(d.microseconds()),
        p.nanoseconds.unwrap_or(d.nanoseconds()),
    )
    .or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 7.3.16 Temporal.Duration.prototype.negated ( )
fn negated(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(make(vm, &d.negated()))
}

/// ### 7.3.17 Temporal.Duration.prototype.abs ( )
fn abs(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    Ok(make(vm, &d.abs()))
}

/// ### 7.3.18 Temporal.Duration.prototype.add ( other )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let other = to_temporal_duration(vm, arg(args, 0))?;
    let r = d.add(&other).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 7.3.19 Temporal.Duration.prototype.subtract ( other )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let other = to_temporal_duration(vm, arg(args, 0))?;
    let r = d.subtract(&other).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 7.3.20 Temporal.Duration.prototype.round ( roundTo )
fn round(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let round_to = arg(args, 0);
    // 3. If roundTo is undefined, throw a TypeError exception.
    if round_to.is_undefined() {
        return Err(vm.type_error("round requires an options object or a unit string"));
    }
    let mut options = RoundingOptions::default();
    options.largest_unit = None;
    let mut relative = None;
    // 4. If roundTo is a String, it is the smallest unit.
    if let Some(s) = round_to.as_string() {
        let s = vm.heap.flat(s).to_rust_string();
        match Unit::from_str(&s) {
            Ok(u) => options.smallest_unit = Some(u),
            Err(_) => return Err(vm.range_error(format!("{s} is not a valid value for smallestUnit"))),
        }
    } else {
        // 5. Else, set roundTo to ? GetOptionsObject(roundTo).
        let bag = get_options_object(vm, round_to)?;
        // 7-12. largestUnit, relativeTo, roundingIncrement, roundingMode, smallestUnit.
        options.largest_unit = unit(vm, bag, "largestUnit")?;
        relative = relative_to(vm, bag)?;
        options.increment = rounding_increment(vm, bag)?;
        options.rounding_mode = rounding_mode(vm, bag)?;
        options.smallest_unit = unit(vm, bag, "smallestUnit")?;
    }
    validate_unit(vm, options.smallest_unit, UnitGroup::DateTime, false, None)?;
    validate_unit(vm, options.largest_unit, UnitGroup::DateTime, true, None)?;
    // 20. If smallestUnitPresent and largestUnitPresent are both false, throw a RangeError.
    if options.smallest_unit.is_none() && options.largest_unit.is_none() {
        return Err(vm.range_error("round requires smallestUnit or largestUnit"));
    }
    let r = d.round(options, relative).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 7.3.21 Temporal.Duration.prototype.total ( totalOf )
fn total(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let total_of = arg(args, 0);
    // 3. If totalOf is undefined, throw a TypeError exception.
    if total_of.is_undefined() {
        return Err(vm.type_error("total requires an options object or a unit string"));
    }
    let (relative, u) = if let Some(s) = total_of.as_string() {
        let s = vm.heap.flat(s).to_rust_string();
        match Unit::from_str(&s) {
            Ok(u) => (None, Some(u)),
            Err(_) => return Err(vm.range_error(format!("{s} is not a valid value for unit"))),
        }
    } else {
        let bag = get_options_object(vm, total_of)?;
        let relative = relative_to(vm, bag)?;
        let u = unit(vm, bag, "unit")?;
        (relative, u)
    };
    validate_unit(vm, u, UnitGroup::DateTime, false, None)?;
    let Some(u) = u else {
        return Err(vm.range_error("total requires a unit"));
    };
    let r = d.total(u, relative).or_throw(vm)?;
    Ok(Value::number(r.as_inner()))
}

/// ### 7.3.22 Temporal.Duration.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    let read = to_string_rounding_read(vm, options)?;
    // 7-8. The smallest unit is second or smaller.
    if matches!(read.smallest_unit, Some(Unit::Minute)) {
        return Err(vm.range_error("smallestUnit must be second or smaller"));
    }
    let rounding = super::options::to_string_rounding_check(vm, read)?;
    let s = d.as_temporal_string(rounding).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 7.3.23 Temporal.Duration.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let d = this_duration(vm, this)?;
    let s = d.as_temporal_string(Default::default()).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 7.3.24 Temporal.Duration.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(duration, [[InitializedTemporalDuration]]).
    this_duration(vm, this)?;
    // 3-4. Format it with a new Intl.DurationFormat.
    crate::builtins::intl::duration_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}
