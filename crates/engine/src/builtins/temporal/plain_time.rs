//! Temporal.PlainTime (proposal-temporal §4): a wall-clock time with no date or zone.
//! https://tc39.es/proposal-temporal/#sec-temporal-plaintime-objects

use temporal_rs::options::Overflow;
use temporal_rs::PlainTime;

use super::duration::to_temporal_duration;
use super::fields::{partial_temporal_object, prepare, require_string, to_integer_with_truncation, Want};
use super::options::{
    difference_settings, get_options_object, overflow_of, round_to, to_string_rounding_check, to_string_rounding_read,
    UnitGroup,
};
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.PlainTime", 0, constructor),
    native!("Temporal.PlainTime.from", 1, from),
    native!("Temporal.PlainTime.compare", 2, compare),
    native!("get Temporal.PlainTime.prototype.hour", 0, hour),
    native!("get Temporal.PlainTime.prototype.minute", 0, minute),
    native!("get Temporal.PlainTime.prototype.second", 0, second),
    native!("get Temporal.PlainTime.prototype.millisecond", 0, millisecond),
    native!("get Temporal.PlainTime.prototype.microsecond", 0, microsecond),
    native!("get Temporal.PlainTime.prototype.nanosecond", 0, nanosecond),
    native!("Temporal.PlainTime.prototype.add", 1, add),
    native!("Temporal.PlainTime.prototype.subtract", 1, subtract),
    native!("Temporal.PlainTime.prototype.with", 1, with),
    native!("Temporal.PlainTime.prototype.until", 1, until),
    native!("Temporal.PlainTime.prototype.since", 1, since),
    native!("Temporal.PlainTime.prototype.round", 1, round),
    native!("Temporal.PlainTime.prototype.equals", 1, equals),
    native!("Temporal.PlainTime.prototype.toString", 0, to_string),
    native!("Temporal.PlainTime.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.PlainTime.prototype.toJSON", 0, to_json),
    native!("Temporal.PlainTime.prototype.valueOf", 0, value_of),
];

fn this_time(vm: &mut Vm, this: Value) -> JsResult<PlainTime> {
    this_slots!(vm, this, PlainTime, to_time, "PlainTime")
}

/// A new Temporal.PlainTime with %Temporal.PlainTime.prototype%.
pub(crate) fn make(vm: &mut Vm, t: &PlainTime) -> Value {
    let proto = vm.realm.temporal_plain_time_prototype;
    create(vm, proto, TemporalSlots::of_time(t))
}

/// The fields of a time, most significant first (for comparison).
pub(crate) fn key(t: &PlainTime) -> (u8, u8, u8, u16, u16, u16) {
    (t.hour(), t.minute(), t.second(), t.millisecond(), t.microsecond(), t.nanosecond())
}

/// ### 4.1.1 Temporal.PlainTime ( [ hour [ , minute [ , second [ , millisecond [ , microsecond [ , nanosecond ] ] ] ] ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.PlainTime requires 'new'"));
    }
    // 2-7. Each argument: 0 if undefined, else ? ToIntegerWithTruncation.
    let mut f = [0.0f64; 6];
    for (i, slot) in f.iter_mut().enumerate() {
        let v = arg(args, i);
        if !v.is_undefined() {
            *slot = to_integer_with_truncation(vm, v)?;
        }
    }
    // 8. If IsValidTime(…) is false, throw a RangeError exception.
    let max = [23.0, 59.0, 59.0, 999.0, 999.0, 999.0];
    if f.iter().zip(max).any(|(v, m)| !(0.0..=m).contains(v)) {
        return Err(vm.range_error("invalid time"));
    }
    let t =
        PlainTime::try_new(f[0] as u8, f[1] as u8, f[2] as u8, f[3] as u16, f[4] as u16, f[5] as u16).or_throw(vm)?;
    // 9-10. CreateTemporalTime(time, NewTarget).
    let default = vm.realm.temporal_plain_time_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_time(&t)))
}

/// ### ToTemporalTime ( item [ , options ] )
pub(crate) fn to_temporal_time(vm: &mut Vm, item: Value, options: Value) -> JsResult<PlainTime> {
    // 2. If item is an Object, then
    if let Some(obj) = item.as_object() {
        // a-c. A PlainTime, PlainDateTime or ZonedDateTime gives its time (after the
        //      options are read).
        let known = match slots_of(vm, item) {
            Some(s @ TemporalSlots::PlainTime { .. }) => Some(s.to_time()),
            Some(s @ TemporalSlots::PlainDateTime { .. }) => Some(s.to_date_time().map(|dt| dt.to_plain_time())),
            Some(s @ TemporalSlots::ZonedDateTime { .. }) => Some(s.to_zoned().map(|z| z.to_plain_time())),
            _ => None,
        };
        if let Some(r) = known {
            let t = r.or_throw(vm)?;
            overflow_of(vm, options)?;
            return Ok(t);
        }
        // d. Let result be ? ToTemporalTimeRecord(item).
        let bag = prepare(vm, obj, &temporal_rs::Calendar::ISO, Want::TIME)?;
        if !bag.any {
            return Err(vm.type_error("a time-like object needs at least one time field"));
        }
        // e-f. overflow, then RegulateTime.
        let overflow = overflow_of(vm, options)?.unwrap_or(Overflow::Constrain);
        let partial = bag.partial_time(vm, overflow)?;
        return PlainTime::from_partial(partial, Some(overflow)).or_throw(vm);
    }
    // 3. Else: a string, parsed, then the options are read.
    let s = require_string(vm, item, "PlainTime")?;
    let t = PlainTime::from_utf8(s.as_bytes()).or_throw(vm)?;
    overflow_of(vm, options)?;
    Ok(t)
}

/// ### 4.2.2 Temporal.PlainTime.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let t = to_temporal_time(vm, arg(args, 0), arg(args, 1))?;
    Ok(make(vm, &t))
}

/// ### 4.2.3 Temporal.PlainTime.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let two = to_temporal_time(vm, arg(args, 1), Value::UNDEFINED)?;
    Ok(Value::int(key(&one).cmp(&key(&two)) as i32))
}

getters!(this_time => hour, minute, second, millisecond, microsecond, nanosecond);

/// ### 4.3.9 Temporal.PlainTime.prototype.add ( temporalDurationLike )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let r = t.add(&d).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 4.3.10 Temporal.PlainTime.prototype.subtract ( temporalDurationLike )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let r = t.subtract(&d).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 4.3.11 Temporal.PlainTime.prototype.with ( temporalTimeLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    // 3. If ? IsPartialTemporalObject(temporalTimeLike) is false, throw a TypeError.
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    // 4. Let partialTime be ? ToTemporalTimeRecord(temporalTimeLike, partial).
    let bag = prepare(vm, obj, &temporal_rs::Calendar::ISO, Want::TIME)?;
    if !bag.any {
        return Err(vm.type_error("a time-like object needs at least one time field"));
    }
    // 15-16. overflow, then RegulateTime of the merged fields.
    let overflow = overflow_of(vm, arg(args, 1))?.unwrap_or(Overflow::Constrain);
    let partial = bag.partial_time(vm, overflow)?;
    let r = t.with(partial, Some(overflow)).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 4.3.12 Temporal.PlainTime.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let other = to_temporal_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Time)?;
    let d = t.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &d))
}

/// ### 4.3.13 Temporal.PlainTime.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let other = to_temporal_time(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Time)?;
    let d = t.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &d))
}

/// ### 4.3.14 Temporal.PlainTime.prototype.round ( roundTo )
fn round(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let options = round_to(vm, arg(args, 0), false)?;
    let r = t.round(options).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 4.3.15 Temporal.PlainTime.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let other = to_temporal_time(vm, arg(args, 0), Value::UNDEFINED)?;
    Ok(Value::bool(key(&t) == key(&other)))
}

/// ### 4.3.16 Temporal.PlainTime.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    let read = to_string_rounding_read(vm, options)?;
    let rounding = to_string_rounding_check(vm, read)?;
    let s = t.to_ixdtf_string(rounding).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 4.3.17 Temporal.PlainTime.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_time(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 4.3.18 Temporal.PlainTime.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let t = this_time(vm, this)?;
    let s = t.to_ixdtf_string(Default::default()).or_throw(vm)?;
    Ok(vm.str(&s))
}
