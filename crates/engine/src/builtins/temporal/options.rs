//! Temporal's option bags (proposal-temporal §13, "Abstract operations"): GetOptionsObject,
//! GetOption for the string-valued options, GetRoundingIncrementOption,
//! GetTemporalFractionalSecondDigitsOption, GetTemporalUnitValuedOption, and the records
//! the methods hand to `temporal_rs`. Each reads its properties in the order the proposal
//! gives (alphabetical within one method), converting each value as it is read.

use std::str::FromStr;

use temporal_rs::options::{
    DifferenceSettings, Disambiguation, DisplayCalendar, DisplayOffset, DisplayTimeZone, OffsetDisambiguation,
    Overflow, RoundingIncrement, RoundingMode, RoundingOptions, ToStringRoundingOptions, Unit,
};
use temporal_rs::parsers::Precision;
use temporal_rs::provider::TransitionDirection;

use super::OrThrow;
use crate::error::JsResult;
use crate::runtime::convert::{to_number, to_rust_string};
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ### GetOptionsObject ( options ): undefined is an empty bag (None); a non-object throws.
pub(crate) fn get_options_object(vm: &mut Vm, options: Value) -> JsResult<Option<ObjectId>> {
    if options.is_undefined() {
        return Ok(None);
    }
    match options.as_object() {
        Some(o) => Ok(Some(o)),
        None => Err(vm.type_error("options must be an object or undefined")),
    }
}

/// `Get(options, name)`, undefined for an absent bag.
pub(crate) fn get_raw(vm: &mut Vm, options: Option<ObjectId>, name: &str) -> JsResult<Value> {
    match options {
        None => Ok(Value::UNDEFINED),
        Some(o) => {
            let key = vm.key(name);
            get(vm, o, key, Value::object(o))
        }
    }
}

/// ### GetOption ( options, property, string, values, default ) for an enumeration that
/// `temporal_rs` parses: None when undefined, a RangeError for a value outside the list.
pub(crate) fn get_enum<T: FromStr>(vm: &mut Vm, options: Option<ObjectId>, name: &str) -> JsResult<Option<T>> {
    let value = get_raw(vm, options, name)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let s = to_rust_string(vm, value)?;
    match T::from_str(&s) {
        Ok(v) => Ok(Some(v)),
        Err(_) => Err(vm.range_error(format!("{s} is not a valid value for {name}"))),
    }
}

/// ### GetTemporalOverflowOption ( options )
pub(crate) fn overflow(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<Overflow>> {
    get_enum(vm, options, "overflow")
}

/// GetOptionsObject followed by GetTemporalOverflowOption, the pair most `from` methods read.
pub(crate) fn overflow_of(vm: &mut Vm, options: Value) -> JsResult<Option<Overflow>> {
    let options = get_options_object(vm, options)?;
    overflow(vm, options)
}

/// ### GetTemporalDisambiguationOption ( options )
pub(crate) fn disambiguation(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<Disambiguation>> {
    get_enum(vm, options, "disambiguation")
}

/// ### GetTemporalOffsetOption ( options, fallback )
pub(crate) fn offset_option(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<OffsetDisambiguation>> {
    get_enum(vm, options, "offset")
}

/// ### GetTemporalShowCalendarNameOption ( options )
pub(crate) fn calendar_name(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<DisplayCalendar> {
    Ok(get_enum(vm, options, "calendarName")?.unwrap_or(DisplayCalendar::Auto))
}

/// ### GetTemporalShowOffsetOption ( options )
pub(crate) fn show_offset(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<DisplayOffset> {
    Ok(get_enum(vm, options, "offset")?.unwrap_or(DisplayOffset::Auto))
}

/// ### GetTemporalShowTimeZoneNameOption ( options )
pub(crate) fn show_time_zone(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<DisplayTimeZone> {
    Ok(get_enum(vm, options, "timeZoneName")?.unwrap_or(DisplayTimeZone::Auto))
}

/// ### GetRoundingModeOption ( options, fallback )
pub(crate) fn rounding_mode(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<RoundingMode>> {
    get_enum(vm, options, "roundingMode")
}

/// The `direction` option of `getTimeZoneTransition`.
pub(crate) fn direction(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<TransitionDirection>> {
    get_enum(vm, options, "direction")
}

/// ### GetTemporalUnitValuedOption ( options, key, default ): any unit name (singular or
/// plural) or "auto"; which units a method accepts is checked after all its options are read.
pub(crate) fn unit(vm: &mut Vm, options: Option<ObjectId>, name: &str) -> JsResult<Option<Unit>> {
    get_enum(vm, options, name)
}

/// ### GetRoundingIncrementOption ( options )
pub(crate) fn rounding_increment(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Option<RoundingIncrement>> {
    let value = get_raw(vm, options, "roundingIncrement")?;
    if value.is_undefined() {
        return Ok(None);
    }
    let n = to_number(vm, value)?;
    RoundingIncrement::try_from(n).or_throw(vm).map(Some)
}

/// ### GetTemporalFractionalSecondDigitsOption ( options )
pub(crate) fn fractional_second_digits(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<Precision> {
    // 1. Let digitsValue be ? Get(options, "fractionalSecondDigits").
    let value = get_raw(vm, options, "fractionalSecondDigits")?;
    // 2. If digitsValue is undefined, return auto.
    if value.is_undefined() {
        return Ok(Precision::Auto);
    }
    // 3. If digitsValue is not a Number, then
    let Some(n) = value.as_number() else {
        // a. If ? ToString(digitsValue) is not "auto", throw a RangeError exception.
        let s = to_rust_string(vm, value)?;
        if s != "auto" {
            return Err(vm.range_error(format!("{s} is not a valid value for fractionalSecondDigits")));
        }
        // b. Return auto.
        return Ok(Precision::Auto);
    };
    // 4. If digitsValue is NaN, +∞𝔽, or -∞𝔽, throw a RangeError exception.
    if !n.is_finite() {
        return Err(vm.range_error("fractionalSecondDigits must be finite"));
    }
    // 5. Let digitCount be floor(ℝ(digitsValue)).
    let digits = n.floor();
    // 6. If digitCount < 0 or digitCount > 9, throw a RangeError exception.
    if !(0.0..=9.0).contains(&digits) {
        return Err(vm.range_error("fractionalSecondDigits must be from 0 to 9"));
    }
    // 7. Return digitCount.
    Ok(Precision::Digit(digits as u8))
}

/// The unit groups of ValidateTemporalUnitValue.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnitGroup {
    Date,
    Time,
    DateTime,
}

fn in_group(unit: Unit, group: UnitGroup) -> bool {
    match unit {
        Unit::Auto => false,
        Unit::Year | Unit::Month | Unit::Week | Unit::Day => group != UnitGroup::Time,
        _ => group != UnitGroup::Date,
    }
}

/// ### ValidateTemporalUnitValue ( value, unitGroup, extraValues ): `auto_ok` admits "auto",
/// `extra` one more unit (day for time-only rounding).
pub(crate) fn validate_unit(
    vm: &mut Vm,
    unit: Option<Unit>,
    group: UnitGroup,
    auto_ok: bool,
    extra: Option<Unit>,
) -> JsResult<()> {
    let Some(u) = unit else { return Ok(()) };
    if (u == Unit::Auto && auto_ok) || Some(u) == extra || in_group(u, group) {
        return Ok(());
    }
    Err(vm.range_error(format!("{u} is not a valid unit here")))
}

/// ### GetDifferenceSettings: largestUnit, roundingIncrement, roundingMode, smallestUnit,
/// read in that order and checked against `group`.
pub(crate) fn difference_settings(vm: &mut Vm, options: Value, group: UnitGroup) -> JsResult<DifferenceSettings> {
    let options = get_options_object(vm, options)?;
    let mut settings = DifferenceSettings::default();
    settings.largest_unit = unit(vm, options, "largestUnit")?;
    settings.increment = rounding_increment(vm, options)?;
    settings.rounding_mode = rounding_mode(vm, options)?;
    settings.smallest_unit = unit(vm, options, "smallestUnit")?;
    validate_unit(vm, settings.largest_unit, group, true, None)?;
    validate_unit(vm, settings.smallest_unit, group, false, None)?;
    Ok(settings)
}

/// The `roundTo` argument of `round`: a unit string (the smallest unit) or an options bag
/// read as roundingIncrement, roundingMode, smallestUnit (required). `extra_day` admits
/// "day" beside the time units (Instant no, ZonedDateTime and PlainDateTime yes).
pub(crate) fn round_to(vm: &mut Vm, round_to: Value, extra_day: bool) -> JsResult<RoundingOptions> {
    let mut options = RoundingOptions::default();
    options.largest_unit = None;
    let bag = if round_to.is_undefined() {
        return Err(vm.type_error("round requires an options object or a unit string"));
    } else if let Some(s) = round_to.as_string() {
        let s = vm.heap.flat(s).to_rust_string();
        match Unit::from_str(&s) {
            Ok(u) => options.smallest_unit = Some(u),
            Err(_) => return Err(vm.range_error(format!("{s} is not a valid value for smallestUnit"))),
        }
        None
    } else {
        get_options_object(vm, round_to)?
    };
    if bag.is_some() {
        options.increment = rounding_increment(vm, bag)?;
        options.rounding_mode = rounding_mode(vm, bag)?;
        options.smallest_unit = unit(vm, bag, "smallestUnit")?;
    }
    let extra = if extra_day { Some(Unit::Day) } else { None };
    validate_unit(vm, options.smallest_unit, UnitGroup::Time, false, extra)?;
    if options.smallest_unit.is_none() {
        return Err(vm.range_error("smallestUnit is required"));
    }
    Ok(options)
}

/// toString's fractionalSecondDigits, roundingMode and smallestUnit (in the caller's
/// order: call [`to_string_rounding_read`] then [`to_string_rounding_check`]).
pub(crate) struct ToStringRead {
    pub precision: Precision,
    pub rounding_mode: Option<RoundingMode>,
    pub smallest_unit: Option<Unit>,
}

pub(crate) fn to_string_rounding_read(vm: &mut Vm, options: Option<ObjectId>) -> JsResult<ToStringRead> {
    let precision = fractional_second_digits(vm, options)?;
    let rounding_mode = rounding_mode(vm, options)?;
    let smallest_unit = unit(vm, options, "smallestUnit")?;
    Ok(ToStringRead { precision, rounding_mode, smallest_unit })
}

/// The smallest unit must be a time unit other than "hour".
pub(crate) fn to_string_rounding_check(vm: &mut Vm, read: ToStringRead) -> JsResult<ToStringRoundingOptions> {
    validate_unit(vm, read.smallest_unit, UnitGroup::Time, false, None)?;
    if read.smallest_unit == Some(Unit::Hour) {
        return Err(vm.range_error("smallestUnit must not be hour"));
    }
    Ok(ToStringRoundingOptions {
        precision: read.precision,
        smallest_unit: read.smallest_unit,
        rounding_mode: read.rounding_mode,
    })
}
