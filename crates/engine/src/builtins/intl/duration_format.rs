//! Intl.DurationFormat (ECMA-402 §13 as in the pinned test262):
//! https://tc39.es/ecma402/#durationformat-objects
//!
//! The constructor resolves a style and a display for each of the ten units into plain
//! slots ([`DurationFormatSlots`]). Formatting is PartitionDurationFormatPattern over the
//! engine's own Intl.NumberFormat (one per shown unit, made from an options bag exactly as
//! the spec constructs it) and Intl.ListFormat's unit lists, so the digits, unit names and
//! list patterns are those two constructors'.
//!
//! NOTE: the separator of numeric (digital) units is ":" in every locale (CLDR's
//! `timeSeparator` is ":" for all but a few locales; ICU4X 2.4 exposes no accessor for it).

use fixed_decimal::{Decimal, Sign};

use super::list_format::create_parts_from_list;
use super::locales::is_type_sequence;
use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of, KeyData};
use super::number_data::{default_numbering_system, has_digits};
use super::number_format::{initialize_number_format, parts_of};
use super::number_partition::{MathValue, Part};
use super::options::{get_number_option, get_string_option};
use super::{create, ResultObject};
use crate::builtins::temporal::get_options_object;
use crate::builtins::temporal::slots::TemporalSlots;
use crate::builtins::temporal::slots_of;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{DurationFormatSlots, DurationUnitSlots, IntlSlots, ListFormatSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_number;
use crate::runtime::property::create_data_property_or_throw;
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.DurationFormat", 0, constructor),
    native!("Intl.DurationFormat.supportedLocalesOf", 1, supported_locales),
    native!("Intl.DurationFormat.prototype.format", 1, format),
    native!("Intl.DurationFormat.prototype.formatToParts", 1, format_to_parts),
    native!("Intl.DurationFormat.prototype.resolvedOptions", 0, resolved_options),
];

/// The relevant extension keys of Intl.DurationFormat: « "nu" ».
const KEYS: [KeyData; 1] =
    [KeyData { key: "nu", default: |l| Some(default_numbering_system(l)), supports: |_, v| has_digits(v) }];

/// One row of the DurationFormat unit table (Table 20): the unit, its singular (the
/// NumberFormat unit), the styles it accepts and its digital default.
struct UnitRow {
    unit: &'static str,
    singular: &'static str,
    styles: &'static [&'static str],
    digital_base: &'static str,
}

const DATE_STYLES: &[&str] = &["long", "short", "narrow"];
const TIME_STYLES: &[&str] = &["long", "short", "narrow", "numeric", "2-digit"];
const SUBSECOND_STYLES: &[&str] = &["long", "short", "narrow", "numeric"];

/// The ten units in table order (largest first).
const UNITS: [UnitRow; 10] = [
    UnitRow { unit: "years", singular: "year", styles: DATE_STYLES, digital_base: "short" },
    UnitRow { unit: "months", singular: "month", styles: DATE_STYLES, digital_base: "short" },
    UnitRow { unit: "weeks", singular: "week", styles: DATE_STYLES, digital_base: "short" },
    UnitRow { unit: "days", singular: "day", styles: DATE_STYLES, digital_base: "short" },
    UnitRow { unit: "hours", singular: "hour", styles: TIME_STYLES, digital_base: "numeric" },
    UnitRow { unit: "minutes", singular: "minute", styles: TIME_STYLES, digital_base: "numeric" },
    UnitRow { unit: "seconds", singular: "second", styles: TIME_STYLES, digital_base: "numeric" },
    UnitRow { unit: "milliseconds", singular: "millisecond", styles: SUBSECOND_STYLES, digital_base: "numeric" },
    UnitRow { unit: "microseconds", singular: "microsecond", styles: SUBSECOND_STYLES, digital_base: "numeric" },
    UnitRow { unit: "nanoseconds", singular: "nanosecond", styles: SUBSECOND_STYLES, digital_base: "numeric" },
];

/// A Duration Record: the ten fields, in table order, each an integral Number.
type DurationRecord = [f64; 10];

/// ### 13.1.1 Intl.DurationFormat ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.DurationFormat requires 'new'"));
    }
    // 2. Let durationFormat be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.DurationFormat.prototype%", …).
    let default = vm.realm.intl_duration_format_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let slots = create_duration_format(vm, arg(args, 0), arg(args, 1))?;
    Ok(create(vm, proto, IntlSlots::DurationFormat(slots)))
}

/// The constructor's steps 3-16: the resolved slots.
fn create_duration_format(vm: &mut Vm, locales: Value, options: Value) -> JsResult<DurationFormatSlots> {
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, locales)?;
    // 4. Let options be ? GetOptionsObject(options).
    let options = get_options_object(vm, options)?;
    // 5. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 6. Let numberingSystem be ? GetOption(options, "numberingSystem", string, empty, undefined).
    let numbering_system = get_string_option(vm, options, "numberingSystem", &[], None)?;
    // 7. If numberingSystem is not undefined and does not match the `type` production, throw a RangeError.
    if let Some(nu) = &numbering_system {
        if !is_type_sequence(nu) {
            return Err(vm.range_error(format!("Invalid numberingSystem: {nu}")));
        }
    }
    // 9. Let r be ResolveLocale(%Intl.DurationFormat%.[[AvailableLocales]], requestedLocales, opt, « "nu" », …).
    let r = resolve_locale(vm, &requested, &matcher, &KEYS, &[("nu", numbering_system)]);
    // 10-12. [[Locale]], [[DataLocale]], [[NumberingSystem]].
    let numbering_system =
        r.values.get("nu").cloned().flatten().unwrap_or_else(|| default_numbering_system(&r.data_locale));
    // 13. Let style be ? GetOption(options, "style", string, « "long", "short", "narrow", "digital" », "short").
    let style = get_string_option(vm, options, "style", &["long", "short", "narrow", "digital"], Some("short"))?
        .unwrap_or_default();
    // 15. Let prevStyle be the empty String.
    let mut prev_style = String::new();
    let mut units = Vec::with_capacity(UNITS.len());
    // 16. For each row of Table 20, except the header row, in table order, do
    for row in &UNITS {
        // d. Let unitOptions be ? GetDurationUnitOptions(unit, options, style, valueList, digitalBase, prevStyle, twoDigitHours).
        let u = get_duration_unit_options(vm, row, options, &style, &prev_style)?;
        // g. If unit is one of "hours", "minutes", "seconds", "milliseconds", or "microseconds", set prevStyle to unitOptions.[[Style]].
        if matches!(row.unit, "hours" | "minutes" | "seconds" | "milliseconds" | "microseconds") {
            prev_style.clone_from(&u.style);
        }
        units.push(u);
    }
    // 17. Set durationFormat.[[FractionalDigits]] to ? GetNumberOption(options, "fractionalDigits", 0, 9, undefined).
    let fractional_digits = get_number_option(vm, options, "fractionalDigits", 0.0, 9.0, None)?.map(|d| d as u8);
    Ok(DurationFormatSlots {
        locale: r.locale,
        data_locale: r.data_locale,
        numbering_system,
        style,
        units,
        fractional_digits,
    })
}

/// ### 13.5.6 GetDurationUnitOptions ( unit, options, baseStyle, stylesList, digitalBase, prevStyle, twoDigitHours )
fn get_duration_unit_options(
    vm: &mut Vm,
    row: &UnitRow,
    options: Option<crate::value::ObjectId>,
    base_style: &str,
    prev_style: &str,
) -> JsResult<DurationUnitSlots> {
    let unit = row.unit;
    // 1. Let style be ? GetOption(options, unit, string, stylesList, undefined).
    let mut style = get_string_option(vm, options, unit, row.styles, None)?;
    // 2. Let displayDefault be "always".
    let mut display_default = "always";
    // 3. If style is undefined, then
    let mut style = match style.take() {
        Some(s) => s,
        None => {
            if base_style == "digital" {
                // a. If baseStyle is "digital": units other than hours, minutes and seconds
                //    are shown only when not zero; the style is digitalBase.
                if !matches!(unit, "hours" | "minutes" | "seconds") {
                    display_default = "auto";
                }
                row.digital_base.to_string()
            } else if matches!(prev_style, "fractional" | "numeric" | "2-digit") {
                // b.i. After a numeric unit: numeric (minutes and seconds always shown).
                if !matches!(unit, "minutes" | "seconds") {
                    display_default = "auto";
                }
                "numeric".to_string()
            } else {
                // b.ii. Else the base style, shown when not zero.
                display_default = "auto";
                base_style.to_string()
            }
        }
    };
    // 4. If style is "numeric" and unit is one of "milliseconds", "microseconds", or "nanoseconds", then
    if style == "numeric" && matches!(unit, "milliseconds" | "microseconds" | "nanoseconds") {
        style = "fractional".to_string();
        display_default = "auto";
    }
    // 5-6. Let display be ? GetOption(options, displayField, string, « "auto", "always" », displayDefault).
    let display_field = format!("{unit}Display");
    let display = get_string_option(vm, options, &display_field, &["auto", "always"], Some(display_default))?
        .unwrap_or_else(|| display_default.to_string());
    // 7. If display is "always" and style is "fractional", throw a RangeError exception.
    if display == "always" && style == "fractional" {
        return Err(vm.range_error(format!("{display_field} \"always\" conflicts with a fractional {unit} style")));
    }
    // 8. If prevStyle is "fractional" and style is not "fractional", throw a RangeError exception.
    if prev_style == "fractional" && style != "fractional" {
        return Err(vm.range_error(format!("{unit} style {style} cannot follow a fractional unit")));
    }
    // 9. If prevStyle is "numeric" or "2-digit", then
    if matches!(prev_style, "numeric" | "2-digit") {
        // a. If style is not "fractional", "numeric" or "2-digit", throw a RangeError exception.
        if !matches!(style.as_str(), "fractional" | "numeric" | "2-digit") {
            return Err(vm.range_error(format!("{unit} style {style} cannot follow a numeric unit")));
        }
        // b. If unit is "minutes" or "seconds", set style to "2-digit".
        if matches!(unit, "minutes" | "seconds") {
            style = "2-digit".to_string();
        }
    }
    // 10. (twoDigitHours: no CLDR locale's digital hours are two digits.)
    Ok(DurationUnitSlots { style, display })
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_duration_format(vm: &mut Vm, this: Value, method: &str) -> JsResult<DurationFormatSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::DurationFormat(d) = &**s {
                return Ok(d.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.DurationFormat.prototype.{method} called on incompatible receiver")))
}

/// ToIntegerIfIntegral ( argument ): a RangeError for a non-integral Number.
fn to_integer_if_integral(vm: &mut Vm, value: Value) -> JsResult<f64> {
    let n = to_number(vm, value)?;
    if !n.is_finite() || n.trunc() != n {
        return Err(vm.range_error(format!("{n} is not an integral duration value")));
    }
    Ok(n + 0.0)
}

/// The Duration Record of a Temporal.Duration's slots.
fn record_of_temporal(fields: &crate::builtins::temporal::slots::DurationFields) -> DurationRecord {
    [
        fields.years as f64,
        fields.months as f64,
        fields.weeks as f64,
        fields.days as f64,
        fields.hours as f64,
        fields.minutes as f64,
        fields.seconds as f64,
        fields.milliseconds as f64,
        fields.microseconds as f64,
        fields.nanoseconds as f64,
    ]
}

/// ### 13.5.3 ToDurationRecord ( input )
fn to_duration_record(vm: &mut Vm, input: Value) -> JsResult<DurationRecord> {
    // A Temporal.Duration is read from its slots (its prototype's getters are not called).
    if let Some(TemporalSlots::Duration { fields }) = slots_of(vm, input) {
        return Ok(record_of_temporal(fields));
    }
    // 1. If input is not an Object, then
    let Some(obj) = input.as_object() else {
        // a. If input is a String, return ? ParseTemporalDurationString(input).
        if let Some(s) = input.as_string() {
            let s = vm.heap.flat(s).to_rust_string();
            let d = temporal_rs::Duration::from_utf8(s.as_bytes())
                .map_err(|e| vm.range_error(format!("Invalid duration string {s:?}: {e}")))?;
            let slots = TemporalSlots::of_duration(&d);
            if let TemporalSlots::Duration { fields } = &slots {
                return Ok(record_of_temporal(fields));
            }
        }
        // b. Throw a TypeError exception.
        return Err(vm.type_error("DurationFormat needs a duration object or string"));
    };
    // 2-13. Each field, in alphabetical order of the names, through ToIntegerIfIntegral.
    let mut record: DurationRecord = [0.0; 10];
    let mut any = false;
    let alphabetical = [3, 4, 8, 7, 5, 1, 9, 6, 2, 0];
    for index in alphabetical {
        let key = vm.key(UNITS[index].unit);
        let value = crate::runtime::property::get(vm, obj, key, input)?;
        if !value.is_undefined() {
            any = true;
            record[index] = to_integer_if_integral(vm, value)?;
        }
    }
    // 14. If every field is undefined, throw a TypeError exception.
    if !any {
        return Err(vm.type_error("a duration object needs at least one duration property"));
    }
    // 15. If IsValidDuration(…) is false, throw a RangeError exception.
    if !is_valid_duration(&record) {
        return Err(vm.range_error("Invalid duration"));
    }
    Ok(record)
}

/// ### IsValidDuration: one sign, finite fields, years/months/weeks below 2³², and the
/// time fields below 2⁵³ seconds in all.
fn is_valid_duration(r: &DurationRecord) -> bool {
    let sign = r.iter().find(|v| **v != 0.0).map_or(0.0, |v| v.signum());
    if r.iter().any(|v| !v.is_finite() || (*v != 0.0 && v.signum() != sign)) {
        return false;
    }
    if r[..3].iter().any(|v| v.abs() >= 4_294_967_296.0) {
        return false;
    }
    // A field this large alone is beyond 2⁵³ seconds (and would overflow the sum).
    if r[3..].iter().any(|v| v.abs() >= 1e30) {
        return false;
    }
    let ns_per = [86_400_000_000_000i128, 3_600_000_000_000, 60_000_000_000, 1_000_000_000, 1_000_000, 1_000, 1];
    let total: i128 = r[3..].iter().zip(ns_per).map(|(v, k)| (*v as i128) * k).sum();
    total.abs() < (1i128 << 53) * 1_000_000_000
}

/// ### DurationToFractional ( duration, exponent ): seconds (9), milliseconds (6) or
/// microseconds (3) with the smaller units as their decimal fraction, exactly.
fn duration_to_fractional(r: &DurationRecord, exponent: u32) -> MathValue {
    let first = match exponent {
        9 => 6,
        6 => 7,
        _ => 8,
    };
    // The smaller units as nanoseconds (each is integral and well within i128).
    let scale = [1_000_000_000i128, 1_000_000, 1_000, 1];
    let ns: i128 = r[first..].iter().zip(&scale[(9 - exponent as usize) / 3..]).map(|(v, k)| (*v as i128) * k).sum();
    let e = 10i128.pow(exponent);
    let (q, rem) = (ns.abs() / e, ns.abs() % e);
    let text = format!("{q}.{rem:0width$}", width = exponent as usize);
    let mut d = Decimal::try_from_str(&text).unwrap_or_default();
    if ns < 0 {
        d.sign = Sign::Negative;
    }
    MathValue::Finite(d)
}

/// One part of a formatted duration: its type, text and (for a number's parts) unit.
struct DurationPart {
    kind: &'static str,
    value: String,
    unit: Option<&'static str>,
}

/// A NumberFormat options bag (made with a null prototype, as the spec's
/// OrdinaryObjectCreate(null)) from name-value pairs.
fn options_bag(vm: &mut Vm, entries: &[(&str, Value)]) -> Value {
    let bag = vm.heap.new_plain(None);
    for (name, value) in entries {
        let key = vm.key(name);
        // A fresh ordinary object: CreateDataPropertyOrThrow cannot fail.
        let _ = create_data_property_or_throw(vm, bag, key, *value);
    }
    Value::object(bag)
}

/// ### 13.5.9 PartitionDurationFormatPattern ( durationFormat, duration )
fn partition_duration_format_pattern(
    vm: &mut Vm,
    df: &DurationFormatSlots,
    duration: &DurationRecord,
) -> JsResult<Vec<DurationPart>> {
    let negative = duration.iter().any(|v| *v < 0.0);
    // 1. Let result be a new empty List.
    let mut result: Vec<Vec<DurationPart>> = Vec::new();
    // 2. Let needSeparator be false.
    let mut need_separator = false;
    // 3. Let displayNegativeSign be true.
    let mut display_negative_sign = true;
    let locale_value = vm.str(&df.locale);
    // 4. For each row of Table 20, except the header row, in table order, do
    for (i, row) in UNITS.iter().enumerate() {
        let mut value = MathValue::from_f64(duration[i]);
        let mut is_zero = duration[i] == 0.0;
        let style = df.units[i].style.as_str();
        let display = df.units[i].display.as_str();
        let mut entries: Vec<(&str, Value)> = Vec::new();
        let mut done = false;
        // h. If unit is "seconds", "milliseconds", or "microseconds", then
        if matches!(row.unit, "seconds" | "milliseconds" | "microseconds") {
            // i-ii. If the next unit's style is "fractional", the smaller units are its fraction.
            if df.units.get(i + 1).is_some_and(|u| u.style == "fractional") {
                let exponent = match row.unit {
                    "seconds" => 9,
                    "milliseconds" => 6,
                    _ => 3,
                };
                value = duration_to_fractional(duration, exponent);
                is_zero = duration[i..].iter().all(|v| *v == 0.0);
                let max = f64::from(df.fractional_digits.unwrap_or(9));
                let min = f64::from(df.fractional_digits.unwrap_or(0));
                entries.push(("maximumFractionDigits", Value::number(max)));
                entries.push(("minimumFractionDigits", Value::number(min)));
                entries.push(("roundingMode", vm.str("trunc")));
                done = true;
            }
        }
        // i. Display zero numeric minutes when seconds will be displayed.
        let mut display_required = false;
        if row.unit == "minutes" && need_separator {
            display_required = df.units[6].display == "always" || duration[6..].iter().any(|v| *v != 0.0);
        }
        // j. If value is not 0 or display is not "auto" or displayRequired is true, then
        if !is_zero || display != "auto" || display_required {
            // i. If displayNegativeSign is true, then
            if display_negative_sign {
                display_negative_sign = false;
                // 2. A zero of a negative duration is -0, so the sign shows.
                if is_zero && negative {
                    value = MathValue::from_f64(-0.0);
                }
            } else {
                // ii. Else, signDisplay is "never".
                entries.push(("signDisplay", vm.str("never")));
            }
            let nu = vm.str(&df.numbering_system);
            entries.push(("numberingSystem", nu));
            // iv. If style is "2-digit", minimumIntegerDigits is 2.
            if style == "2-digit" {
                entries.push(("minimumIntegerDigits", Value::number(2.0)));
            }
            if !matches!(style, "numeric" | "2-digit" | "fractional") {
                // v. A standalone unit: the unit style.
                entries.push(("style", vm.str("unit")));
                let unit = vm.str(row.singular);
                entries.push(("unit", unit));
                let display = vm.str(style);
                entries.push(("unitDisplay", display));
            } else {
                // vi. Else useGrouping is false.
                entries.push(("useGrouping", Value::bool(false)));
            }
            // vii. Let nf be ! Construct(%Intl.NumberFormat%, « durationFormat.[[Locale]], nfOpts »).
            let bag = options_bag(vm, &entries);
            let nf = initialize_number_format(vm, locale_value, bag)?;
            let parts: Vec<Part> = parts_of(vm, &nf, &value)?;
            let mut list = if need_separator {
                // A numeric unit after a numeric unit joins the previous one after ":".
                let mut list = result.pop().unwrap_or_default();
                list.push(DurationPart { kind: "literal", value: ":".to_string(), unit: None });
                list
            } else {
                Vec::new()
            };
            list.extend(parts.into_iter().map(|p| DurationPart {
                kind: p.kind,
                value: p.value,
                unit: Some(row.singular),
            }));
            if !need_separator && matches!(style, "2-digit" | "numeric") {
                need_separator = true;
            }
            result.push(list);
        }
        if done {
            break;
        }
    }
    // 5-7. The units as a unit list (digital lists as short).
    let list_style = if df.style == "digital" { "short" } else { df.style.as_str() };
    let lf = ListFormatSlots { locale: df.locale.clone(), kind: "unit".to_string(), style: list_style.to_string() };
    let strings: Vec<JsStr> = result
        .iter()
        .map(|parts| JsStr::from_str(&parts.iter().map(|p| p.value.as_str()).collect::<String>()))
        .collect();
    let formatted = create_parts_from_list(vm, &lf, &strings)?;
    // 8-9. The list's literals between the units' own parts.
    let mut elements = result.into_iter();
    let mut flattened = Vec::new();
    for (is_element, text) in formatted {
        if is_element {
            flattened.extend(elements.next().unwrap_or_default());
        } else {
            flattened.push(DurationPart { kind: "literal", value: text.to_rust_string(), unit: None });
        }
    }
    Ok(flattened)
}

/// The formatted duration of the receiver's slots and `duration` (format's steps 1-4).
pub(crate) fn format_duration(vm: &mut Vm, df: &DurationFormatSlots, duration: Value) -> JsResult<String> {
    let record = to_duration_record(vm, duration)?;
    let parts = partition_duration_format_pattern(vm, df, &record)?;
    Ok(parts.iter().map(|p| p.value.as_str()).collect())
}

/// ### 13.3.3 Intl.DurationFormat.prototype.format ( duration )
fn format(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let df be the this value; RequireInternalSlot(df, [[InitializedDurationFormat]]).
    let df = this_duration_format(vm, this, "format")?;
    // 3-5. Let record be ? ToDurationRecord(duration); the parts' strings joined.
    let s = format_duration(vm, &df, arg(args, 0))?;
    Ok(vm.str(&s))
}

/// ### 13.3.4 Intl.DurationFormat.prototype.formatToParts ( duration )
fn format_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let df = this_duration_format(vm, this, "formatToParts")?;
    let record = to_duration_record(vm, arg(args, 0))?;
    let parts = partition_duration_format_pattern(vm, &df, &record)?;
    let mut values = Vec::with_capacity(parts.len());
    for p in &parts {
        let mut o = ResultObject::new(vm);
        o.string(vm, "type", p.kind);
        o.string(vm, "value", &p.value);
        if let Some(unit) = p.unit {
            o.string(vm, "unit", unit);
        }
        values.push(o.finish());
    }
    Ok(vm.new_array(values))
}

/// ### 13.3.5 Intl.DurationFormat.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let df = this_duration_format(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    out.string(vm, "locale", &df.locale);
    out.string(vm, "numberingSystem", &df.numbering_system);
    out.string(vm, "style", &df.style);
    for (row, u) in UNITS.iter().zip(&df.units) {
        // A fractional unit reads as "numeric".
        let style = if u.style == "fractional" { "numeric" } else { u.style.as_str() };
        out.string(vm, row.unit, style);
        out.string(vm, &format!("{}Display", row.unit), &u.display);
    }
    if let Some(d) = df.fractional_digits {
        out.number(vm, "fractionalDigits", f64::from(d));
    }
    Ok(out.finish())
}

/// ### Temporal.Duration.prototype.toLocaleString ( [ locales [ , options ] ] ), from step 2:
/// the duration (`value`, whose type the caller checked) formatted by a new DurationFormat.
pub(crate) fn duration_to_locale_string(vm: &mut Vm, value: Value, locales: Value, options: Value) -> JsResult<Value> {
    // 2. Let formatter be ? Construct(%Intl.DurationFormat%, « locales, options »).
    let df = create_duration_format(vm, locales, options)?;
    // 3-4. Return FormatNumericToString… of PartitionDurationFormatPattern(formatter, duration).
    let s = format_duration(vm, &df, value)?;
    Ok(vm.str(&s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fields: &[(usize, f64)]) -> DurationRecord {
        let mut r = [0.0; 10];
        for (i, v) in fields {
            r[*i] = *v;
        }
        r
    }

    #[test]
    fn fractions_are_exact_and_signed() {
        let r = record(&[(6, 1.0), (7, 2.0), (8, 3.0), (9, 4.0)]);
        let MathValue::Finite(d) = duration_to_fractional(&r, 9) else { panic!("finite") };
        assert_eq!(d.to_string(), "1.002003004");
        let r = record(&[(7, -5.0), (9, -1.0)]);
        let MathValue::Finite(d) = duration_to_fractional(&r, 6) else { panic!("finite") };
        assert_eq!(d.to_string(), "-5.000001");
    }

    #[test]
    fn validity_checks_signs_and_bounds() {
        assert!(is_valid_duration(&record(&[(0, 1.0), (9, 5.0)])));
        assert!(!is_valid_duration(&record(&[(0, 1.0), (9, -5.0)])));
        assert!(!is_valid_duration(&record(&[(0, 4_294_967_296.0)])));
        assert!(!is_valid_duration(&record(&[(6, 9_007_199_254_740_992.0)])));
        assert!(is_valid_duration(&record(&[(6, 9_007_199_254_740_991.0)])));
        assert!(!is_valid_duration(&record(&[(9, 1e300)])));
    }
}
