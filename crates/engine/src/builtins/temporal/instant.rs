//! Temporal.Instant (proposal-temporal §8): an exact time, nanoseconds since the epoch.
//! https://tc39.es/proposal-temporal/#sec-temporal-instant-objects

use num_bigint::BigInt;
use temporal_rs::{Instant, ZonedDateTime};

use super::duration::to_temporal_duration;
use super::fields::to_time_zone;
use super::options::{
    difference_settings, get_options_object, get_raw, round_to, to_string_rounding_check, to_string_rounding_read,
    UnitGroup,
};
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::bigint::to_bigint;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{to_number, to_primitive, Hint};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.Instant", 1, constructor),
    native!("Temporal.Instant.from", 1, from),
    native!("Temporal.Instant.fromEpochMilliseconds", 1, from_epoch_milliseconds),
    native!("Temporal.Instant.fromEpochNanoseconds", 1, from_epoch_nanoseconds),
    native!("Temporal.Instant.compare", 2, compare),
    native!("get Temporal.Instant.prototype.epochMilliseconds", 0, epoch_milliseconds),
    native!("get Temporal.Instant.prototype.epochNanoseconds", 0, epoch_nanoseconds),
    native!("Temporal.Instant.prototype.add", 1, add),
    native!("Temporal.Instant.prototype.subtract", 1, subtract),
    native!("Temporal.Instant.prototype.until", 1, until),
    native!("Temporal.Instant.prototype.since", 1, since),
    native!("Temporal.Instant.prototype.round", 1, round),
    native!("Temporal.Instant.prototype.equals", 1, equals),
    native!("Temporal.Instant.prototype.toString", 0, to_string),
    native!("Temporal.Instant.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.Instant.prototype.toJSON", 0, to_json),
    native!("Temporal.Instant.prototype.valueOf", 0, value_of),
    native!("Temporal.Instant.prototype.toZonedDateTimeISO", 1, to_zoned_date_time_iso),
];

fn this_instant(vm: &mut Vm, this: Value) -> JsResult<Instant> {
    this_slots!(vm, this, Instant, to_instant, "Instant")
}

/// A new Temporal.Instant with %Temporal.Instant.prototype%.
pub(crate) fn make(vm: &mut Vm, i: &Instant) -> Value {
    let proto = vm.realm.temporal_instant_prototype;
    create(vm, proto, TemporalSlots::of_instant(i))
}

/// The epoch-nanoseconds BigInt of an instant.
pub(crate) fn epoch_ns_value(vm: &mut Vm, ns: i128) -> Value {
    let id = vm.heap.alloc_bigint(BigInt::from(ns));
    Value::bigint(id)
}

/// A BigInt as epoch nanoseconds: a RangeError outside the representable instants.
fn bigint_to_instant(vm: &mut Vm, b: &BigInt) -> JsResult<Instant> {
    match i128::try_from(b) {
        Ok(ns) => Instant::try_new(ns).or_throw(vm),
        Err(_) => Err(vm.range_error("epoch nanoseconds out of range")),
    }
}

/// The instant of `Date.prototype.toTemporalInstant`: a finite time value in milliseconds.
pub(crate) fn to_temporal_instant_from_epoch_ms(vm: &mut Vm, ms: f64) -> JsResult<Value> {
    let i = Instant::try_new(ms as i128 * 1_000_000).or_throw(vm)?;
    Ok(make(vm, &i))
}

/// ### 8.1.1 Temporal.Instant ( epochNanoseconds )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.Instant requires 'new'"));
    }
    // 2. Let epochNanoseconds be ? ToBigInt(epochNanoseconds).
    let b = to_bigint(vm, arg(args, 0))?;
    // 3. If IsValidEpochNanoseconds(epochNanoseconds) is false, throw a RangeError exception.
    let i = bigint_to_instant(vm, &b)?;
    // 4. Return ? CreateTemporalInstant(epochNanoseconds, NewTarget).
    let default = vm.realm.temporal_instant_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_instant(&i)))
}

/// ### ToTemporalInstant ( item )
pub(crate) fn to_temporal_instant(vm: &mut Vm, item: Value) -> JsResult<Instant> {
    // 1. If item is an Object, then
    if item.is_object() {
        // a. If item has an [[InitializedTemporalInstant]] or
        //    [[InitializedTemporalZonedDateTime]] internal slot, return its instant.
        match slots_of(vm, item) {
            Some(TemporalSlots::Instant { epoch_ns }) | Some(TemporalSlots::ZonedDateTime { epoch_ns, .. }) => {
                let ns = *epoch_ns;
                return Instant::try_new(ns).or_throw(vm);
            }
            _ => {}
        }
    }
    // b. Set item to ? ToPrimitive(item, string).
    let item = to_primitive(vm, item, Hint::String)?;
    // 2. If item is not a String, throw a TypeError exception.
    let Some(s) = item.as_string() else {
        return Err(vm.type_error("cannot convert this value to a Temporal.Instant"));
    };
    // 3-…: ParseTemporalInstantString.
    let s = vm.heap.flat(s).to_rust_string();
    Instant::from_utf8(s.as_bytes()).or_throw(vm)
}

/// ### 8.2.2 Temporal.Instant.from ( item )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let i = to_temporal_instant(vm, arg(args, 0))?;
    Ok(make(vm, &i))
}

/// ### 8.2.3 Temporal.Instant.fromEpochMilliseconds ( epochMilliseconds )
fn from_epoch_milliseconds(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Set epochMilliseconds to ? ToNumber(epochMilliseconds).
    let ms = to_number(vm, arg(args, 0))?;
    // 2. Set epochMilliseconds to ? NumberToBigInt(epochMilliseconds).
    if !ms.is_finite() || ms.trunc() != ms {
        return Err(vm.range_error("epoch milliseconds must be an integer"));
    }
    // 3-4. The nanoseconds must be a valid epoch.
    if ms.abs() > 8.64e15 {
        return Err(vm.range_error("epoch milliseconds out of range"));
    }
    let i = Instant::try_new(ms as i128 * 1_000_000).or_throw(vm)?;
    Ok(make(vm, &i))
}

/// ### 8.2.4 Temporal.Instant.fromEpochNanoseconds ( epochNanoseconds )
fn from_epoch_nanoseconds(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let b = to_bigint(vm, arg(args, 0))?;
    let i = bigint_to_instant(vm, &b)?;
    Ok(make(vm, &i))
}

/// ### 8.2.5 Temporal.Instant.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_instant(vm, arg(args, 0))?;
    let two = to_temporal_instant(vm, arg(args, 1))?;
    Ok(Value::int(one.cmp(&two) as i32))
}

getters!(this_instant => epoch_milliseconds);

/// ### get Temporal.Instant.prototype.epochNanoseconds
fn epoch_nanoseconds(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    Ok(epoch_ns_value(vm, i.as_i128()))
}

/// ### 8.3.5 Temporal.Instant.prototype.add ( temporalDurationLike )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let r = i.add(&d).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 8.3.6 Temporal.Instant.prototype.subtract ( temporalDurationLike )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let r = i.subtract(&d).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 8.3.7 Temporal.Instant.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let other = to_temporal_instant(vm, arg(args, 0))?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Time)?;
    let d = i.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &d))
}

/// ### 8.3.8 Temporal.Instant.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let other = to_temporal_instant(vm, arg(args, 0))?;
    let settings = difference_settings(vm, arg(args, 1), UnitGroup::Time)?;
    let d = i.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &d))
}

/// ### 8.3.9 Temporal.Instant.prototype.round ( roundTo )
fn round(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let options = round_to(vm, arg(args, 0), false)?;
    let r = i.round(options).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 8.3.10 Temporal.Instant.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let other = to_temporal_instant(vm, arg(args, 0))?;
    Ok(Value::bool(i == other))
}

/// ### 8.3.11 Temporal.Instant.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    // 3. Let resolvedOptions be ? GetOptionsObject(options).
    let options = get_options_object(vm, arg(args, 0))?;
    // 5-7. fractionalSecondDigits, roundingMode, smallestUnit.
    let read = to_string_rounding_read(vm, options)?;
    // 8. Let timeZone be ? Get(resolvedOptions, "timeZone").
    let tz_value = get_raw(vm, options, "timeZone")?;
    // 9-10. The smallest unit is a time unit other than hour.
    let rounding = to_string_rounding_check(vm, read)?;
    // 11. If timeZone is not undefined, set it to ? ToTemporalTimeZoneIdentifier(timeZone).
    let tz = if tz_value.is_undefined() { None } else { Some(to_time_zone(vm, tz_value)?) };
    let s = i.to_ixdtf_string(tz, rounding).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 8.3.12 Temporal.Instant.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_instant(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 8.3.13 Temporal.Instant.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let s = i.to_ixdtf_string(None, Default::default()).or_throw(vm)?;
    Ok(vm.str(&s))
}

/// ### 8.3.15 Temporal.Instant.prototype.toZonedDateTimeISO ( timeZone )
fn to_zoned_date_time_iso(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let i = this_instant(vm, this)?;
    let tz = to_time_zone(vm, arg(args, 0))?;
    let z = ZonedDateTime::try_new_iso_from_instant(i, tz).or_throw(vm)?;
    super::zoned_date_time::make(vm, &z)
}
