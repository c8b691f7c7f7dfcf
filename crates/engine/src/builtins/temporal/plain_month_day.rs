//! Temporal.PlainMonthDay (proposal-temporal §10): a day of a month, with no year.
//! https://tc39.es/proposal-temporal/#sec-temporal-plainmonthday-objects

use temporal_rs::options::Overflow;
use temporal_rs::partial::PartialDate;
use temporal_rs::PlainMonthDay;

use super::fields::{
    calendar_with_iso_default, clamp_i32, partial_temporal_object, prepare, require_string, to_integer_with_truncation,
    Want,
};
use super::options::{calendar_name, get_options_object, overflow_of};
use super::plain_date::constructor_calendar;
use super::slots::TemporalSlots;
use super::{create, getters, slots_of, this_slots, value_of, OrThrow};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Temporal.PlainMonthDay", 2, constructor),
    native!("Temporal.PlainMonthDay.from", 1, from),
    native!("get Temporal.PlainMonthDay.prototype.calendarId", 0, calendar_id),
    native!("get Temporal.PlainMonthDay.prototype.monthCode", 0, month_code),
    native!("get Temporal.PlainMonthDay.prototype.day", 0, day),
    native!("Temporal.PlainMonthDay.prototype.with", 1, with),
    native!("Temporal.PlainMonthDay.prototype.equals", 1, equals),
    native!("Temporal.PlainMonthDay.prototype.toString", 0, to_string),
    native!("Temporal.PlainMonthDay.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.PlainMonthDay.prototype.toJSON", 0, to_json),
    native!("Temporal.PlainMonthDay.prototype.valueOf", 0, value_of),
    native!("Temporal.PlainMonthDay.prototype.toPlainDate", 1, to_plain_date),
];

fn this_month_day(vm: &mut Vm, this: Value) -> JsResult<PlainMonthDay> {
    this_slots!(vm, this, PlainMonthDay, to_month_day, "PlainMonthDay")
}

/// A new Temporal.PlainMonthDay with %Temporal.PlainMonthDay.prototype%.
pub(crate) fn make(vm: &mut Vm, md: &PlainMonthDay) -> Value {
    let proto = vm.realm.temporal_plain_month_day_prototype;
    create(vm, proto, TemporalSlots::of_month_day(md))
}

/// ### 10.1.1 Temporal.PlainMonthDay ( isoMonth, isoDay [ , calendar [ , referenceISOYear ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.PlainMonthDay requires 'new'"));
    }
    // 3-4. Let m, d be ? ToIntegerWithTruncation of the arguments.
    let m = to_integer_with_truncation(vm, arg(args, 0))?;
    let d = to_integer_with_truncation(vm, arg(args, 1))?;
    // 5-7. The calendar.
    let calendar = constructor_calendar(vm, arg(args, 2))?;
    // 8. Let y be 1972 if referenceISOYear is undefined, else ? ToIntegerWithTruncation.
    let y = arg(args, 3);
    let y = if y.is_undefined() { 1972.0 } else { to_integer_with_truncation(vm, y)? };
    // 9. If IsValidISODate(y, m, d) is false, throw a RangeError exception.
    if !(1.0..=12.0).contains(&m) || !(1.0..=31.0).contains(&d) {
        return Err(vm.range_error("invalid ISO date"));
    }
    let md = PlainMonthDay::new_with_overflow(m as u8, d as u8, calendar, Overflow::Reject, Some(clamp_i32(y)))
        .or_throw(vm)?;
    // 10. Return ? CreateTemporalMonthDay(isoDate, calendar, NewTarget).
    let default = vm.realm.temporal_plain_month_day_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_month_day(&md)))
}

/// ### ToTemporalMonthDay ( item [ , options ] )
pub(crate) fn to_temporal_month_day(vm: &mut Vm, item: Value, options: Value) -> JsResult<PlainMonthDay> {
    if let Some(obj) = item.as_object() {
        if let Some(s @ TemporalSlots::PlainMonthDay { .. }) = slots_of(vm, item) {
            let r = s.to_month_day();
            let md = r.or_throw(vm)?;
            overflow_of(vm, options)?;
            return Ok(md);
        }
        let calendar = calendar_with_iso_default(vm, obj)?;
        let bag = prepare(vm, obj, &calendar, Want::DATE)?;
        let overflow = overflow_of(vm, options)?;
        let partial = PartialDate { calendar_fields: bag.calendar_fields(), calendar };
        return PlainMonthDay::from_partial(partial, overflow).or_throw(vm);
    }
    let s = require_string(vm, item, "PlainMonthDay")?;
    let md = PlainMonthDay::from_utf8(s.as_bytes()).or_throw(vm)?;
    overflow_of(vm, options)?;
    Ok(md)
}

/// ### 10.2.2 Temporal.PlainMonthDay.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let md = to_temporal_month_day(vm, arg(args, 0), arg(args, 1))?;
    Ok(make(vm, &md))
}

getters!(this_month_day => calendar_id, month_code, day);

/// ### 10.3.6 Temporal.PlainMonthDay.prototype.with ( temporalMonthDayLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let md = this_month_day(vm, this)?;
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    let bag = prepare(vm, obj, md.calendar(), Want::DATE)?;
    if !bag.any {
        return Err(vm.type_error("a month-day-like object needs at least one field"));
    }
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = md.with(bag.calendar_fields(), overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 10.3.7 Temporal.PlainMonthDay.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let md = this_month_day(vm, this)?;
    let other = to_temporal_month_day(vm, arg(args, 0), Value::UNDEFINED)?;
    let same = md.iso == other.iso && md.calendar().identifier() == other.calendar().identifier();
    Ok(Value::bool(same))
}

/// ### 10.3.8 Temporal.PlainMonthDay.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let md = this_month_day(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    let show = calendar_name(vm, options)?;
    let s = md.to_ixdtf_string(show);
    Ok(vm.str(&s))
}

/// ### 10.3.9 Temporal.PlainMonthDay.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_month_day(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 10.3.10 Temporal.PlainMonthDay.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let md = this_month_day(vm, this)?;
    let s = md.to_ixdtf_string(Default::default());
    Ok(vm.str(&s))
}

/// ### 10.3.12 Temporal.PlainMonthDay.prototype.toPlainDate ( item )
fn to_plain_date(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let md = this_month_day(vm, this)?;
    // 3. If item is not an Object, throw a TypeError exception.
    let Some(obj) = arg(args, 0).as_object() else {
        return Err(vm.type_error("toPlainDate requires an object with a year"));
    };
    // 4-…: PrepareCalendarFields(calendar, item, « year », «», «»).
    let want = Want { year: true, month: false, day: false, time: false, offset: false, time_zone: false };
    let bag = prepare(vm, obj, md.calendar(), want)?;
    if bag.year.is_none() && (bag.era.is_none() || bag.era_year.is_none()) {
        return Err(vm.type_error("toPlainDate requires a year"));
    }
    let d = md.to_plain_date(Some(bag.calendar_fields())).or_throw(vm)?;
    Ok(super::plain_date::make(vm, &d))
}
