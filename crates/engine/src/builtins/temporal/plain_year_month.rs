//! Temporal.PlainYearMonth (proposal-temporal §9): a month of a calendar year.
//! https://tc39.es/proposal-temporal/#sec-temporal-plainyearmonth-objects

use temporal_rs::fields::YearMonthCalendarFields;
use temporal_rs::options::{Overflow, Unit};
use temporal_rs::partial::PartialYearMonth;
use temporal_rs::PlainYearMonth;

use super::duration::to_temporal_duration;
use super::fields::{
    calendar_with_iso_default, clamp_i32, partial_temporal_object, prepare, require_string, to_integer_with_truncation,
    Bag, Want,
};
use super::options::{calendar_name, difference_settings, get_options_object, overflow_of, UnitGroup};
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
    native!("Temporal.PlainYearMonth", 2, constructor),
    native!("Temporal.PlainYearMonth.from", 1, from),
    native!("Temporal.PlainYearMonth.compare", 2, compare),
    native!("get Temporal.PlainYearMonth.prototype.calendarId", 0, calendar_id),
    native!("get Temporal.PlainYearMonth.prototype.era", 0, era),
    native!("get Temporal.PlainYearMonth.prototype.eraYear", 0, era_year),
    native!("get Temporal.PlainYearMonth.prototype.year", 0, year),
    native!("get Temporal.PlainYearMonth.prototype.month", 0, month),
    native!("get Temporal.PlainYearMonth.prototype.monthCode", 0, month_code),
    native!("get Temporal.PlainYearMonth.prototype.daysInYear", 0, days_in_year),
    native!("get Temporal.PlainYearMonth.prototype.daysInMonth", 0, days_in_month),
    native!("get Temporal.PlainYearMonth.prototype.monthsInYear", 0, months_in_year),
    native!("get Temporal.PlainYearMonth.prototype.inLeapYear", 0, in_leap_year),
    native!("Temporal.PlainYearMonth.prototype.with", 1, with),
    native!("Temporal.PlainYearMonth.prototype.add", 1, add),
    native!("Temporal.PlainYearMonth.prototype.subtract", 1, subtract),
    native!("Temporal.PlainYearMonth.prototype.until", 1, until),
    native!("Temporal.PlainYearMonth.prototype.since", 1, since),
    native!("Temporal.PlainYearMonth.prototype.equals", 1, equals),
    native!("Temporal.PlainYearMonth.prototype.toString", 0, to_string),
    native!("Temporal.PlainYearMonth.prototype.toLocaleString", 0, to_locale_string),
    native!("Temporal.PlainYearMonth.prototype.toJSON", 0, to_json),
    native!("Temporal.PlainYearMonth.prototype.valueOf", 0, value_of),
    native!("Temporal.PlainYearMonth.prototype.toPlainDate", 1, to_plain_date),
];

fn this_year_month(vm: &mut Vm, this: Value) -> JsResult<PlainYearMonth> {
    this_slots!(vm, this, PlainYearMonth, to_year_month, "PlainYearMonth")
}

/// A new Temporal.PlainYearMonth with %Temporal.PlainYearMonth.prototype%.
pub(crate) fn make(vm: &mut Vm, ym: &PlainYearMonth) -> Value {
    let proto = vm.realm.temporal_plain_year_month_prototype;
    create(vm, proto, TemporalSlots::of_year_month(ym))
}

fn year_month_fields(bag: &Bag) -> YearMonthCalendarFields {
    let mut f = YearMonthCalendarFields::new();
    f.year = bag.year;
    f.month = bag.month;
    f.month_code = bag.month_code;
    f.era = bag.era;
    f.era_year = bag.era_year;
    f
}

/// ### 9.1.1 Temporal.PlainYearMonth ( isoYear, isoMonth [ , calendar [ , referenceISODay ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Temporal.PlainYearMonth requires 'new'"));
    }
    // 2-3. Let y, m be ? ToIntegerWithTruncation of the arguments.
    let y = to_integer_with_truncation(vm, arg(args, 0))?;
    let m = to_integer_with_truncation(vm, arg(args, 1))?;
    // 4-6. The calendar.
    let calendar = constructor_calendar(vm, arg(args, 2))?;
    // 7. Let ref be 1 if referenceISODay is undefined, else ? ToIntegerWithTruncation.
    let r = arg(args, 3);
    let r = if r.is_undefined() { 1.0 } else { to_integer_with_truncation(vm, r)? };
    // 8. If IsValidISODate(y, m, ref) is false, throw a RangeError exception.
    if !(1.0..=12.0).contains(&m) || !(1.0..=31.0).contains(&r) {
        return Err(vm.range_error("invalid ISO date"));
    }
    let ym = PlainYearMonth::try_new(clamp_i32(y), m as u8, Some(r as u8), calendar).or_throw(vm)?;
    // 9. Return ? CreateTemporalYearMonth(isoDate, calendar, NewTarget).
    let default = vm.realm.temporal_plain_year_month_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(create(vm, proto, TemporalSlots::of_year_month(&ym)))
}

/// ### ToTemporalYearMonth ( item [ , options ] )
pub(crate) fn to_temporal_year_month(vm: &mut Vm, item: Value, options: Value) -> JsResult<PlainYearMonth> {
    if let Some(obj) = item.as_object() {
        if let Some(s @ TemporalSlots::PlainYearMonth { .. }) = slots_of(vm, item) {
            let r = s.to_year_month();
            let ym = r.or_throw(vm)?;
            overflow_of(vm, options)?;
            return Ok(ym);
        }
        let calendar = calendar_with_iso_default(vm, obj)?;
        let bag = prepare(vm, obj, &calendar, Want::YEAR_MONTH)?;
        let overflow = overflow_of(vm, options)?;
        let partial = PartialYearMonth { calendar_fields: year_month_fields(&bag), calendar };
        return PlainYearMonth::from_partial(partial, overflow).or_throw(vm);
    }
    let s = require_string(vm, item, "PlainYearMonth")?;
    let ym = PlainYearMonth::from_utf8(s.as_bytes()).or_throw(vm)?;
    overflow_of(vm, options)?;
    Ok(ym)
}

/// ### 9.2.2 Temporal.PlainYearMonth.from ( item [ , options ] )
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = to_temporal_year_month(vm, arg(args, 0), arg(args, 1))?;
    Ok(make(vm, &ym))
}

/// ### 9.2.3 Temporal.PlainYearMonth.compare ( one, two )
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let one = to_temporal_year_month(vm, arg(args, 0), Value::UNDEFINED)?;
    let two = to_temporal_year_month(vm, arg(args, 1), Value::UNDEFINED)?;
    Ok(Value::int(one.compare_iso(&two) as i32))
}

getters!(this_year_month => calendar_id, era, era_year, year, month, month_code, days_in_year, days_in_month,
    months_in_year, in_leap_year);

/// ### 9.3.13 Temporal.PlainYearMonth.prototype.with ( temporalYearMonthLike [ , options ] )
fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let obj = partial_temporal_object(vm, arg(args, 0))?;
    let bag = prepare(vm, obj, ym.calendar(), Want::YEAR_MONTH)?;
    if !bag.any {
        return Err(vm.type_error("a year-month-like object needs at least one field"));
    }
    let overflow = overflow_of(vm, arg(args, 1))?;
    let r = ym.with(year_month_fields(&bag), overflow).or_throw(vm)?;
    Ok(make(vm, &r))
}

/// AddDurationToYearMonth: the duration, then the overflow option.
fn add_or_subtract(vm: &mut Vm, this: Value, args: &[Value], subtract: bool) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let d = to_temporal_duration(vm, arg(args, 0))?;
    let overflow = overflow_of(vm, arg(args, 1))?.unwrap_or(Overflow::Constrain);
    let r = if subtract { ym.subtract(&d, overflow) } else { ym.add(&d, overflow) };
    let r = r.or_throw(vm)?;
    Ok(make(vm, &r))
}

/// ### 9.3.14 Temporal.PlainYearMonth.prototype.add ( temporalDurationLike [ , options ] )
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    add_or_subtract(vm, this, args, false)
}

/// ### 9.3.15 Temporal.PlainYearMonth.prototype.subtract ( temporalDurationLike [ , options ] )
fn subtract(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    add_or_subtract(vm, this, args, true)
}

/// DifferenceTemporalPlainYearMonth's settings: date units except week and day.
fn year_month_settings(vm: &mut Vm, options: Value) -> JsResult<temporal_rs::options::DifferenceSettings> {
    let settings = difference_settings(vm, options, UnitGroup::Date)?;
    for u in [settings.largest_unit, settings.smallest_unit].into_iter().flatten() {
        if matches!(u, Unit::Week | Unit::Day) {
            return Err(vm.range_error(format!("{u} is not a valid unit for PlainYearMonth differences")));
        }
    }
    Ok(settings)
}

/// ### 9.3.16 Temporal.PlainYearMonth.prototype.until ( other [ , options ] )
fn until(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let other = to_temporal_year_month(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = year_month_settings(vm, arg(args, 1))?;
    let r = ym.until(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 9.3.17 Temporal.PlainYearMonth.prototype.since ( other [ , options ] )
fn since(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let other = to_temporal_year_month(vm, arg(args, 0), Value::UNDEFINED)?;
    let settings = year_month_settings(vm, arg(args, 1))?;
    let r = ym.since(&other, settings).or_throw(vm)?;
    Ok(super::duration::make(vm, &r))
}

/// ### 9.3.18 Temporal.PlainYearMonth.prototype.equals ( other )
fn equals(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let other = to_temporal_year_month(vm, arg(args, 0), Value::UNDEFINED)?;
    let same = ym.compare_iso(&other).is_eq() && ym.calendar().identifier() == other.calendar().identifier();
    Ok(Value::bool(same))
}

/// ### 9.3.19 Temporal.PlainYearMonth.prototype.toString ( [ options ] )
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let options = get_options_object(vm, arg(args, 0))?;
    let show = calendar_name(vm, options)?;
    let s = ym.to_ixdtf_string(show);
    Ok(vm.str(&s))
}

/// ### 9.3.20 Temporal.PlainYearMonth.prototype.toLocaleString ( [ locales [ , options ] ] )
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot on the receiver.
    this_year_month(vm, this)?;
    // 3-4. Format it with a new DateTimeFormat (ECMA-402's toLocaleString).
    crate::builtins::intl::temporal_to_locale_string(vm, this, arg(args, 0), arg(args, 1))
}

/// ### 9.3.21 Temporal.PlainYearMonth.prototype.toJSON ( )
fn to_json(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    let s = ym.to_ixdtf_string(Default::default());
    Ok(vm.str(&s))
}

/// ### 9.3.23 Temporal.PlainYearMonth.prototype.toPlainDate ( item )
fn to_plain_date(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let ym = this_year_month(vm, this)?;
    // 3. If item is not an Object, throw a TypeError exception.
    let Some(obj) = arg(args, 0).as_object() else {
        return Err(vm.type_error("toPlainDate requires an object with a day"));
    };
    // 4-…: PrepareCalendarFields(calendar, item, « day », «», «»).
    let want = Want { year: false, month: false, day: true, time: false, offset: false, time_zone: false };
    let bag = prepare(vm, obj, ym.calendar(), want)?;
    if bag.day.is_none() {
        return Err(vm.type_error("toPlainDate requires a day"));
    }
    let d = ym.to_plain_date(Some(bag.calendar_fields())).or_throw(vm)?;
    Ok(super::plain_date::make(vm, &d))
}
