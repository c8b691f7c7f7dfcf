//! Temporal objects in Intl.DateTimeFormat (ECMA-402 as the Temporal proposal amends it:
//! https://tc39.es/proposal-temporal/#sec-temporal-intl): ToDateTimeFormattable,
//! HandleDateTimeValue, the per-type formats ([[TemporalPlainDateFormat]] …) and the
//! `toLocaleString` of every Temporal type.
//!
//! A DateTimeFormat keeps its component options as given ([`DateTimeFormatSlots::requested`]);
//! the format of each Temporal type is derived from them when a value is formatted
//! (GetDateTimeFormat, AdjustDateTimeStyleFormat), so the image holds no extra formats.
//! Plain values are formatted from their ISO fields, in UTC and with no time zone name, and
//! without TimeClip (the whole Temporal range formats); an Instant in the format's zone; a
//! ZonedDateTime only by its own `toLocaleString`, which makes a format in its zone.

use super::date_time_format::{best_format_widths, create_date_time_format_in, format_date_time_value, Which};
use super::date_time_pattern::{local_of, FormatError, Local};
use crate::builtins::date::{current_time, make_day};
use crate::builtins::temporal::slots::{IsoDate, IsoTime, TemporalSlots};
use crate::builtins::temporal::slots_of;
use crate::error::JsResult;
use crate::heap::intl_slots::{DateTimeComponents, DateTimeFormatSlots, StyleFields};
use crate::runtime::convert::to_number;
use crate::value::Value;
use crate::vm::Vm;

/// The Temporal types a DateTimeFormat formats, each with its own format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TemporalKind {
    PlainDate,
    PlainYearMonth,
    PlainMonthDay,
    PlainTime,
    PlainDateTime,
    Instant,
    ZonedDateTime,
}

/// A Temporal value as a DateTimeFormat sees it: its type, the instant to format (for a
/// Plain type: its ISO date-time read as UTC, GetUTCEpochNanoseconds) and its calendar.
#[derive(Clone, Debug)]
pub(crate) struct TemporalValue {
    pub kind: TemporalKind,
    /// Epoch milliseconds, floored (a format shows at most three fractional digits).
    pub epoch_ms: i64,
    pub calendar: Option<String>,
    /// A ZonedDateTime's time zone.
    pub time_zone: Option<String>,
}

/// What ToDateTimeFormattable gives: a time value or a Temporal object.
#[derive(Clone, Debug)]
pub(crate) enum Formattable {
    Time(f64),
    Temporal(TemporalValue),
}

impl Formattable {
    /// Whether the two are of the same type (SameTemporalType; two time values are).
    fn same_type(&self, other: &Formattable) -> bool {
        match (self, other) {
            (Formattable::Time(_), Formattable::Time(_)) => true,
            (Formattable::Temporal(a), Formattable::Temporal(b)) => a.kind == b.kind,
            _ => false,
        }
    }
}

/// Epoch milliseconds of an ISO date and time read as UTC.
fn utc_epoch_ms(date: &IsoDate, time: &IsoTime) -> i64 {
    let day = make_day(f64::from(date.year), f64::from(date.month) - 1.0, f64::from(date.day));
    let ms = ((f64::from(time.hour) * 60.0 + f64::from(time.minute)) * 60.0 + f64::from(time.second)) * 1000.0
        + f64::from(time.millisecond);
    (day * 86_400_000.0 + ms) as i64
}

/// NoonTimeRecord(): the time Plain dates are formatted at.
const NOON: IsoTime = IsoTime { hour: 12, minute: 0, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 };

/// The DateTimeFormat view of a Temporal object's slots; None for a Duration (which
/// ToDateTimeFormattable passes to ToNumber) or another object.
pub(crate) fn temporal_value(vm: &Vm, value: Value) -> Option<TemporalValue> {
    let floor_ms = |ns: i128| ns.div_euclid(1_000_000) as i64;
    let epoch = IsoDate { year: 1970, month: 1, day: 1 };
    let v = match slots_of(vm, value)? {
        TemporalSlots::Instant { epoch_ns } => TemporalValue {
            kind: TemporalKind::Instant,
            epoch_ms: floor_ms(*epoch_ns),
            calendar: None,
            time_zone: None,
        },
        TemporalSlots::ZonedDateTime { epoch_ns, time_zone, calendar } => TemporalValue {
            kind: TemporalKind::ZonedDateTime,
            epoch_ms: floor_ms(*epoch_ns),
            calendar: Some(calendar.clone()),
            time_zone: Some(time_zone.clone()),
        },
        TemporalSlots::PlainDate { date, calendar } => TemporalValue {
            kind: TemporalKind::PlainDate,
            epoch_ms: utc_epoch_ms(date, &NOON),
            calendar: Some(calendar.clone()),
            time_zone: None,
        },
        TemporalSlots::PlainTime { time } => TemporalValue {
            kind: TemporalKind::PlainTime,
            epoch_ms: utc_epoch_ms(&epoch, time),
            calendar: None,
            time_zone: None,
        },
        TemporalSlots::PlainDateTime { date, time, calendar } => TemporalValue {
            kind: TemporalKind::PlainDateTime,
            epoch_ms: utc_epoch_ms(date, time),
            calendar: Some(calendar.clone()),
            time_zone: None,
        },
        TemporalSlots::PlainYearMonth { date, calendar } => TemporalValue {
            kind: TemporalKind::PlainYearMonth,
            epoch_ms: utc_epoch_ms(date, &NOON),
            calendar: Some(calendar.clone()),
            time_zone: None,
        },
        TemporalSlots::PlainMonthDay { date, calendar } => TemporalValue {
            kind: TemporalKind::PlainMonthDay,
            epoch_ms: utc_epoch_ms(date, &NOON),
            calendar: Some(calendar.clone()),
            time_zone: None,
        },
        TemporalSlots::Duration { .. } => return None,
    };
    Some(v)
}

/// ### ToDateTimeFormattable ( value ): a Temporal object as it is, `undefined` as now
/// (when `undefined_is_now`), anything else ToNumber.
pub(crate) fn to_date_time_formattable(vm: &mut Vm, value: Value, undefined_is_now: bool) -> JsResult<Formattable> {
    // 1. If IsTemporalObject(value) is true, return value.
    if let Some(t) = temporal_value(vm, value) {
        return Ok(Formattable::Temporal(t));
    }
    if undefined_is_now && value.is_undefined() {
        return Ok(Formattable::Time(current_time(vm)));
    }
    // 2. Return ? ToNumber(value).
    Ok(Formattable::Time(to_number(vm, value)?))
}

/// Which option fields a Temporal format requires and defaults (GetDateTimeFormat's
/// `required` and `defaults`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fields {
    Date,
    Time,
    YearMonth,
    MonthDay,
    Any,
    All,
}

/// One component of Table 16 by name, for the field lists below.
#[derive(Clone, Copy)]
enum Field {
    Weekday,
    Year,
    Month,
    Day,
    DayPeriod,
    Hour,
    Minute,
    Second,
    FractionalSecondDigits,
}

fn required_fields(f: Fields) -> &'static [Field] {
    use Field::*;
    match f {
        Fields::Date => &[Weekday, Year, Month, Day],
        Fields::Time => &[DayPeriod, Hour, Minute, Second, FractionalSecondDigits],
        Fields::YearMonth => &[Year, Month],
        Fields::MonthDay => &[Month, Day],
        Fields::Any | Fields::All => {
            &[Weekday, Year, Month, Day, DayPeriod, Hour, Minute, Second, FractionalSecondDigits]
        }
    }
}

fn default_fields(f: Fields) -> &'static [Field] {
    use Field::*;
    match f {
        Fields::Date => &[Year, Month, Day],
        Fields::Time => &[Hour, Minute, Second],
        Fields::YearMonth => &[Year, Month],
        Fields::MonthDay => &[Month, Day],
        Fields::Any | Fields::All => &[Year, Month, Day, Hour, Minute, Second],
    }
}

/// Copies `field` from `from` to `to`; whether it was present.
fn copy_field(from: &DateTimeComponents, to: &mut DateTimeComponents, field: Field) -> bool {
    let (src, dst) = match field {
        Field::FractionalSecondDigits => {
            to.fractional_second_digits = from.fractional_second_digits.or(to.fractional_second_digits);
            return from.fractional_second_digits.is_some();
        }
        Field::Weekday => (&from.weekday, &mut to.weekday),
        Field::Year => (&from.year, &mut to.year),
        Field::Month => (&from.month, &mut to.month),
        Field::Day => (&from.day, &mut to.day),
        Field::DayPeriod => (&from.day_period, &mut to.day_period),
        Field::Hour => (&from.hour, &mut to.hour),
        Field::Minute => (&from.minute, &mut to.minute),
        Field::Second => (&from.second, &mut to.second),
    };
    if src.is_some() {
        dst.clone_from(src);
    }
    src.is_some()
}

fn set_numeric(to: &mut DateTimeComponents, field: Field) {
    let numeric = Some("numeric".to_string());
    match field {
        Field::Year => to.year = numeric,
        Field::Month => to.month = numeric,
        Field::Day => to.day = numeric,
        Field::Hour => to.hour = numeric,
        Field::Minute => to.minute = numeric,
        Field::Second => to.second = numeric,
        Field::Weekday | Field::DayPeriod | Field::FractionalSecondDigits => {}
    }
}

/// ### GetDateTimeFormat ( options, required, defaults, inherit ): the components a
/// Temporal type shows, or None when the options name only fields it does not have (a
/// TypeError when formatting). `inherit_all` (Instant) keeps every option; otherwise only
/// the type's own fields and, for a type with a year, the era.
fn get_date_time_format(
    options: &DateTimeComponents,
    required: Fields,
    defaults: Fields,
    inherit_all: bool,
) -> Option<DateTimeComponents> {
    // 3-4. The options the format starts from.
    let mut format = if inherit_all {
        options.clone()
    } else {
        let mut f = DateTimeComponents::default();
        // A month-day or a time has no year to show an era of.
        if !matches!(required, Fields::Time | Fields::MonthDay) {
            f.era.clone_from(&options.era);
        }
        f
    };
    // 5-6. Whether any field option is present (the era alone leaves the defaults on).
    let any_present = options.weekday.is_some()
        || options.year.is_some()
        || options.month.is_some()
        || options.day.is_some()
        || options.day_period.is_some()
        || options.hour.is_some()
        || options.minute.is_some()
        || options.second.is_some()
        || options.fractional_second_digits.is_some();
    // 7-8. The required fields given.
    let mut need_defaults = true;
    for &field in required_fields(required) {
        if copy_field(options, &mut format, field) {
            need_defaults = false;
        }
    }
    // 9. If needDefaults is true, then
    if need_defaults {
        // a. If anyPresent is true and inherit is relevant, return null.
        if any_present && !inherit_all {
            return None;
        }
        // b. For each property name prop of defaultOptions, set formatOptions.[[<prop>]] to "numeric".
        for &field in default_fields(defaults) {
            set_numeric(&mut format, field);
        }
    }
    best_format_widths(&mut format);
    Some(format)
}

/// The format of `kind` under `slots` ([[TemporalPlainDateFormat]] …), as slots of its own;
/// None when the two share no field.
pub(crate) fn temporal_format(slots: &DateTimeFormatSlots, kind: TemporalKind) -> Option<DateTimeFormatSlots> {
    let mut f = slots.clone();
    f.bound_format = None;
    if slots.date_style.is_some() || slots.time_style.is_some() {
        // AdjustDateTimeStyleFormat: the style's fields the type has.
        let (date, time) = (slots.date_style.clone(), slots.time_style.clone());
        let (date_style, time_style, fields) = match kind {
            TemporalKind::PlainDate => (Some(date?), None, StyleFields::All),
            TemporalKind::PlainYearMonth => (Some(date?), None, StyleFields::YearMonth),
            TemporalKind::PlainMonthDay => (Some(date?), None, StyleFields::MonthDay),
            TemporalKind::PlainTime => (None, Some(time?), StyleFields::NoZone),
            TemporalKind::PlainDateTime => (date, time, StyleFields::NoZone),
            TemporalKind::Instant | TemporalKind::ZonedDateTime => (date, time, StyleFields::All),
        };
        f.date_style = date_style;
        f.time_style = time_style;
        f.style_fields = fields;
    } else {
        let (required, defaults, inherit_all) = match kind {
            TemporalKind::PlainDate => (Fields::Date, Fields::Date, false),
            TemporalKind::PlainYearMonth => (Fields::YearMonth, Fields::YearMonth, false),
            TemporalKind::PlainMonthDay => (Fields::MonthDay, Fields::MonthDay, false),
            TemporalKind::PlainTime => (Fields::Time, Fields::Time, false),
            TemporalKind::PlainDateTime => (Fields::Any, Fields::All, false),
            TemporalKind::Instant | TemporalKind::ZonedDateTime => (Fields::Any, Fields::All, true),
        };
        f.components = get_date_time_format(&slots.requested, required, defaults, inherit_all)?;
    }
    // [[HourCycle]] applies when the format shows an hour.
    let shows_hour = f.components.hour.is_some() || f.time_style.is_some();
    f.hour_cycle = shows_hour.then(|| slots.resolved_hour_cycle.clone());
    // Plain values are wall-clock fields: formatted as UTC, with no zone.
    if !matches!(kind, TemporalKind::Instant | TemporalKind::ZonedDateTime) {
        f.time_zone = "UTC".to_string();
    }
    Some(f)
}

/// ### HandleDateTimeValue ( dateTimeFormat, x ) for a Temporal object: the format and
/// the local date-time to format.
pub(crate) fn handle_temporal(
    vm: &mut Vm,
    slots: &DateTimeFormatSlots,
    value: &TemporalValue,
) -> JsResult<(DateTimeFormatSlots, Local)> {
    // A ZonedDateTime is formatted by its own toLocaleString, never by a DateTimeFormat.
    if value.kind == TemporalKind::ZonedDateTime {
        return Err(vm.type_error(
            "Temporal.ZonedDateTime cannot be formatted by Intl.DateTimeFormat; use its toLocaleString()",
        ));
    }
    // The calendar must be the format's (for a date or date-time also iso8601).
    if let Some(calendar) = &value.calendar {
        let iso_allowed = matches!(value.kind, TemporalKind::PlainDate | TemporalKind::PlainDateTime);
        if *calendar != slots.calendar && !(iso_allowed && calendar == "iso8601") {
            return Err(vm.range_error(format!(
                "calendar {calendar} does not match the DateTimeFormat's calendar {}",
                slots.calendar
            )));
        }
    }
    let Some(format) = temporal_format(slots, value.kind) else {
        return Err(vm.type_error(format!("the DateTimeFormat's options share no field with a {:?}", value.kind)));
    };
    let local = if value.kind == TemporalKind::Instant {
        local_of(&format, value.epoch_ms).map_err(|FormatError(m)| vm.range_error(m))?
    } else {
        let hour = (value.epoch_ms.rem_euclid(86_400_000) / 3_600_000) as u8;
        Local { epoch_ms: value.epoch_ms, offset_seconds: 0, hour }
    };
    Ok((format, local))
}

/// The `toLocaleString ( [ locales [ , options ] ] )` of a Temporal object (`value`, whose
/// type the caller checked): a new DateTimeFormat with the type's required and default
/// fields, formatting the value (a ZonedDateTime as its instant, in its own zone).
pub(crate) fn temporal_to_locale_string(vm: &mut Vm, value: Value, locales: Value, options: Value) -> JsResult<Value> {
    let Some(mut t) = temporal_value(vm, value) else {
        return Err(vm.type_error("toLocaleString called on a non-Temporal object"));
    };
    let (required, defaults) = match t.kind {
        TemporalKind::PlainDate | TemporalKind::PlainYearMonth | TemporalKind::PlainMonthDay => {
            (Which::Date, Which::Date)
        }
        TemporalKind::PlainTime => (Which::Time, Which::Time),
        TemporalKind::PlainDateTime | TemporalKind::Instant | TemporalKind::ZonedDateTime => (Which::Any, Which::All),
    };
    // 3. Let dateTimeFormat be ? CreateDateTimeFormat(%Intl.DateTimeFormat%, locales, options, required, defaults[, timeZone]).
    let zone = t.time_zone.clone();
    let mut slots = create_date_time_format_in(vm, locales, options, required, defaults, zone.as_deref())?;
    if t.kind == TemporalKind::ZonedDateTime {
        // 5. If calendar is not dateTimeFormat.[[Calendar]] and not "iso8601", throw a RangeError.
        if let Some(calendar) = &t.calendar {
            if *calendar != slots.calendar && calendar != "iso8601" {
                return Err(vm.range_error(format!(
                    "calendar {calendar} does not match the locale's calendar {}",
                    slots.calendar
                )));
            }
        }
        // A ZonedDateTime's default format names its zone.
        let r = &slots.requested;
        let fields_given = r.weekday.is_some()
            || r.year.is_some()
            || r.month.is_some()
            || r.day.is_some()
            || r.day_period.is_some()
            || r.hour.is_some()
            || r.minute.is_some()
            || r.second.is_some()
            || r.fractional_second_digits.is_some();
        if slots.date_style.is_none() && slots.time_style.is_none() && !fields_given && r.time_zone_name.is_none() {
            slots.requested.time_zone_name = Some("short".to_string());
        }
        // 6. Let instant be ! CreateTemporalInstant(zonedDateTime.[[EpochNanoseconds]]).
        t.kind = TemporalKind::Instant;
        t.calendar = None;
    }
    // 4/7. Return ? FormatDateTime(dateTimeFormat, value).
    let s = format_date_time_value(vm, &slots, &Formattable::Temporal(t))?;
    Ok(vm.str(&s))
}

/// The two ends of a range: of one type (a TypeError otherwise).
pub(crate) fn check_same_type(vm: &mut Vm, x: &Formattable, y: &Formattable) -> JsResult<()> {
    if x.same_type(y) {
        Ok(())
    } else {
        Err(vm.type_error("formatRange: startDate and endDate must be of the same type"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bag(f: impl FnOnce(&mut DateTimeComponents)) -> DateTimeComponents {
        let mut c = DateTimeComponents::default();
        f(&mut c);
        c
    }

    #[test]
    fn a_type_without_the_requested_fields_has_no_format() {
        // { year } formats a year-month but not a month-day or a time (test262's
        // temporal-objects-not-overlapping-options).
        let year = bag(|c| c.year = Some("numeric".into()));
        assert!(get_date_time_format(&year, Fields::YearMonth, Fields::YearMonth, false).is_some());
        assert!(get_date_time_format(&year, Fields::MonthDay, Fields::MonthDay, false).is_none());
        assert!(get_date_time_format(&year, Fields::Time, Fields::Time, false).is_none());
    }

    #[test]
    fn an_era_alone_leaves_the_defaults_on() {
        let era = bag(|c| c.era = Some("narrow".into()));
        let time = get_date_time_format(&era, Fields::Time, Fields::Time, false).expect("time format");
        assert_eq!((time.era, time.hour.as_deref()), (None, Some("numeric")));
        let month_day = get_date_time_format(&era, Fields::MonthDay, Fields::MonthDay, false).expect("md format");
        assert_eq!((month_day.era, month_day.month.as_deref()), (None, Some("numeric")));
        let date = get_date_time_format(&era, Fields::Date, Fields::Date, false).expect("date format");
        assert_eq!((date.era.as_deref(), date.day.as_deref()), (Some("narrow"), Some("numeric")));
    }

    #[test]
    fn plain_types_drop_the_zone_name_and_instants_keep_it() {
        let zone = bag(|c| c.time_zone_name = Some("short".into()));
        let plain = get_date_time_format(&zone, Fields::Any, Fields::All, false).expect("plain format");
        assert_eq!(plain.time_zone_name, None);
        let instant = get_date_time_format(&zone, Fields::Any, Fields::All, true).expect("instant format");
        assert_eq!(instant.time_zone_name.as_deref(), Some("short"));
        assert_eq!(instant.second.as_deref(), Some("2-digit"));
    }

    #[test]
    fn plain_dates_read_as_utc_noon() {
        let d = IsoDate { year: 1970, month: 1, day: 2 };
        assert_eq!(utc_epoch_ms(&d, &NOON), 86_400_000 + 12 * 3_600_000);
        let min = IsoDate { year: -271821, month: 4, day: 19 };
        assert!(utc_epoch_ms(&min, &NOON) < -8_640_000_000_000_000);
    }
}
