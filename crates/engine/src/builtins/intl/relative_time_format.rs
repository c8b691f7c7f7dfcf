//! Intl.RelativeTimeFormat (ECMA-402 §17): https://tc39.es/ecma402/#relativetimeformat-objects
//!
//! CLDR's relative-time fields (`-1` "yesterday"… and the past / future patterns per plural
//! category), read from ICU4X `icu_experimental`'s relative-time provider data; the number
//! inside a pattern is the [[NumberFormat]]'s parts (the NumberFormat this object made for
//! its locale, kept as plain slots), its plural category the locale's cardinal rules over
//! the number as that NumberFormat rounds it.

use icu_experimental::provider::Baked;
use icu_experimental::relativetime::provider::*;
use icu_locale_core::Locale;
use icu_pattern::PatternItem;
use icu_plurals::{PluralOperands, PluralRules};
use icu_provider::prelude::*;

use super::locales::is_type_sequence;
use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of, KeyData};
use super::number_data::{default_numbering_system, has_digits};
use super::number_format::{initialize_number_format, parts_of};
use super::number_options::format_numeric_to_decimal;
use super::number_partition::MathValue;
use super::options::{coerce_options_to_object, get_string_option};
use super::{create, data_error, ResultObject};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, RelativeTimeFormatSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{to_number, to_rust_string};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.RelativeTimeFormat", 0, constructor),
    native!("Intl.RelativeTimeFormat.supportedLocalesOf", 1, supported_locales),
    native!("Intl.RelativeTimeFormat.prototype.format", 2, format),
    native!("Intl.RelativeTimeFormat.prototype.formatToParts", 2, format_to_parts),
    native!("Intl.RelativeTimeFormat.prototype.resolvedOptions", 0, resolved_options),
];

/// The relevant extension keys of Intl.RelativeTimeFormat: « "nu" ».
const KEYS: [KeyData; 1] =
    [KeyData { key: "nu", default: |l| Some(default_numbering_system(l)), supports: |_, v| has_digits(v) }];

/// ### 17.1.1 Intl.RelativeTimeFormat ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.RelativeTimeFormat requires 'new'"));
    }
    // 2. Let relativeTimeFormat be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.RelativeTimeFormat.prototype%", …).
    let default = vm.realm.intl_relative_time_format_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 4. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, arg(args, 1))?;
    // 6. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 8. Let numberingSystem be ? GetOption(options, "numberingSystem", string, empty, undefined).
    let numbering_system = get_string_option(vm, options, "numberingSystem", &[], None)?;
    // 9. If numberingSystem is not undefined and does not match the `type` nonterminal, throw a RangeError.
    if let Some(nu) = &numbering_system {
        if !is_type_sequence(nu) {
            return Err(vm.range_error(format!("Invalid numberingSystem: {nu}")));
        }
    }
    // 11. Let r be ResolveLocale(%Intl.RelativeTimeFormat%.[[AvailableLocales]], requestedLocales, opt, « "nu" », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &KEYS, &[("nu", numbering_system)]);
    // 12-15. [[Locale]], [[LocaleData]], [[NumberingSystem]].
    let numbering_system =
        r.values.get("nu").cloned().flatten().unwrap_or_else(|| default_numbering_system(&r.data_locale));
    // 16. Let style be ? GetOption(options, "style", string, « "long", "short", "narrow" », "long").
    let style =
        get_string_option(vm, options, "style", &["long", "short", "narrow"], Some("long"))?.unwrap_or_default();
    // 18. Let numeric be ? GetOption(options, "numeric", string, « "always", "auto" », "always").
    let numeric = get_string_option(vm, options, "numeric", &["always", "auto"], Some("always"))?.unwrap_or_default();
    // 20. Set relativeTimeFormat.[[NumberFormat]] to ! Construct(%Intl.NumberFormat%, « locale »).
    // (The locale carries the honoured `-u-nu`, so the NumberFormat uses the same digits.)
    let locale_value = vm.str(&r.locale);
    let number_format = initialize_number_format(vm, locale_value, Value::UNDEFINED)?;
    // 21. Set relativeTimeFormat.[[PluralRules]] to ! Construct(%Intl.PluralRules%, « locale »):
    // the locale's cardinal rules, built per operation.
    let slots = RelativeTimeFormatSlots {
        locale: r.locale,
        data_locale: r.data_locale,
        numbering_system,
        style,
        numeric,
        number_format: Box::new(number_format),
    };
    Ok(create(vm, proto, IntlSlots::RelativeTimeFormat(slots)))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_relative_time_format(vm: &mut Vm, this: Value, method: &str) -> JsResult<RelativeTimeFormatSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::RelativeTimeFormat(r) = &**s {
                return Ok(r.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.RelativeTimeFormat.prototype.{method} called on incompatible receiver")))
}

/// ### 17.5.1 SingularRelativeTimeUnit ( unit )
fn singular_unit(unit: &str) -> Option<&'static str> {
    Some(match unit {
        "second" | "seconds" => "second",
        "minute" | "minutes" => "minute",
        "hour" | "hours" => "hour",
        "day" | "days" => "day",
        "week" | "weeks" => "week",
        "month" | "months" => "month",
        "quarter" | "quarters" => "quarter",
        "year" | "years" => "year",
        _ => return None,
    })
}

/// What a unit's patterns give for one value: a relative phrase ("yesterday"), or the
/// text around the number.
enum Phrase {
    Literal(String),
    Pattern { before: String, after: String },
}

/// Reads `M`'s fields for `locale` and picks the phrase for `value` (≥ 0 after the sign
/// was taken off; `past` for negative values) as PartitionRelativeTimePattern does.
fn phrase_from<M>(locale: &Locale, auto: Option<i8>, past: bool, operands: PluralOperands) -> Result<Phrase, DataError>
where
    M: DataMarker<DataStruct = RelativeTimePatternData<'static>>,
    Baked: DataProvider<M>,
{
    let data_locale = DataLocale::from(locale);
    let mut metadata = DataRequestMetadata::default();
    metadata.silent = true;
    let payload = Baked.load(DataRequest { id: DataIdentifierBorrowed::for_locale(&data_locale), metadata })?.payload;
    let data = payload.get();
    // 9.b. If patterns has a field [[<valueString>]], return it as one literal.
    if let Some(s) = auto.and_then(|k| data.get_relative(k)) {
        return Ok(Phrase::Literal(s.to_string()));
    }
    // 11-14. po = patterns.[[<tl>]]; pattern = po.[[<pr>]].
    let rules = PluralRules::try_new_cardinal(locale.into())?;
    let elements = if past { &data.past } else { &data.future };
    let pattern = elements.get(operands, &rules);
    let (mut before, mut after, mut seen) = (String::new(), String::new(), false);
    for item in pattern.iter() {
        match item {
            PatternItem::Literal(s) if seen => after.push_str(s),
            PatternItem::Literal(s) => before.push_str(s),
            PatternItem::Placeholder(_) => seen = true,
        }
    }
    // A pattern without a placeholder (Arabic's dual "خلال يومين", "in two days") says the
    // number in words: MakePartsList gives the pattern as one literal.
    if !seen {
        return Ok(Phrase::Literal(before));
    }
    Ok(Phrase::Pattern { before, after })
}

fn phrase(
    locale: &Locale,
    unit: &str,
    style: &str,
    auto: Option<i8>,
    past: bool,
    operands: PluralOperands,
) -> Result<Phrase, DataError> {
    macro_rules! pick {
        ($($unit:literal => $long:ty, $short:ty, $narrow:ty;)*) => {
            match unit {
                $($unit => match style {
                    "short" => phrase_from::<$short>(locale, auto, past, operands),
                    "narrow" => phrase_from::<$narrow>(locale, auto, past, operands),
                    _ => phrase_from::<$long>(locale, auto, past, operands),
                },)*
                _ => Err(DataErrorKind::InvalidRequest.into_error()),
            }
        };
    }
    pick! {
        "second" => DatetimeRelativeSecondLongV1, DatetimeRelativeSecondShortV1, DatetimeRelativeSecondNarrowV1;
        "minute" => DatetimeRelativeMinuteLongV1, DatetimeRelativeMinuteShortV1, DatetimeRelativeMinuteNarrowV1;
        "hour" => DatetimeRelativeHourLongV1, DatetimeRelativeHourShortV1, DatetimeRelativeHourNarrowV1;
        "day" => DatetimeRelativeDayLongV1, DatetimeRelativeDayShortV1, DatetimeRelativeDayNarrowV1;
        "week" => DatetimeRelativeWeekLongV1, DatetimeRelativeWeekShortV1, DatetimeRelativeWeekNarrowV1;
        "month" => DatetimeRelativeMonthLongV1, DatetimeRelativeMonthShortV1, DatetimeRelativeMonthNarrowV1;
        "quarter" => DatetimeRelativeQuarterLongV1, DatetimeRelativeQuarterShortV1, DatetimeRelativeQuarterNarrowV1;
        "year" => DatetimeRelativeYearLongV1, DatetimeRelativeYearShortV1, DatetimeRelativeYearNarrowV1;
    }
}

/// One part of a formatted relative time: type, value, and the unit for number parts.
struct RtPart {
    kind: &'static str,
    value: String,
    unit: Option<&'static str>,
}

/// ### 17.5.2 PartitionRelativeTimePattern ( relativeTimeFormat, value, unit )
fn partition_relative_time_pattern(
    vm: &mut Vm,
    slots: &RelativeTimeFormatSlots,
    value: f64,
    unit: &str,
) -> JsResult<Vec<RtPart>> {
    // 1. If value is NaN, +∞𝔽, or -∞𝔽, throw a RangeError exception.
    if !value.is_finite() {
        return Err(vm.range_error("Invalid time value: the value must be finite"));
    }
    // 2. Let unit be ? SingularRelativeTimeUnit(unit).
    let Some(unit) = singular_unit(unit) else {
        return Err(vm.range_error(format!("Invalid unit argument: {unit}")));
    };
    // 9. If numeric is "auto" and ToString(value) names a field ("-1", "0", "1"…), that
    // field (ToString(-0) is "0").
    let auto = (slots.numeric == "auto" && value.fract() == 0.0 && value.abs() <= 9.0).then_some(value as i8);
    // 10. If value is -0𝔽 or value < -0𝔽, tl is "past" and value is negated; else "future".
    let past = value < 0.0 || (value == 0.0 && value.is_sign_negative());
    let magnitude = value.abs();
    // 12-13. fv = PartitionNumberPattern(nf, value); pr = ResolvePlural(pr, value).
    let rounded = format_numeric_to_decimal(&slots.number_format.digits, magnitude);
    let operands = PluralOperands::from(&rounded);
    let locale = Locale::try_from_str(&slots.data_locale).unwrap_or(Locale::UNKNOWN);
    let phrase = phrase(&locale, unit, &slots.style, auto, past, operands).map_err(|e| data_error(vm, e))?;
    let (before, after) = match phrase {
        Phrase::Literal(s) => return Ok(vec![RtPart { kind: "literal", value: s, unit: None }]),
        Phrase::Pattern { before, after } => (before, after),
    };
    // 15. Return MakePartsList(pattern, unit, fv).
    let number = parts_of(vm, &slots.number_format, &MathValue::from_f64(magnitude))?;
    let mut out = Vec::with_capacity(number.len() + 2);
    if !before.is_empty() {
        out.push(RtPart { kind: "literal", value: before, unit: None });
    }
    out.extend(number.into_iter().map(|p| RtPart { kind: p.kind, value: p.value, unit: Some(unit) }));
    if !after.is_empty() {
        out.push(RtPart { kind: "literal", value: after, unit: None });
    }
    Ok(out)
}

fn value_and_unit(vm: &mut Vm, args: &[Value]) -> JsResult<(f64, String)> {
    // 3. Let value be ? ToNumber(value).
    let value = to_number(vm, arg(args, 0))?;
    // 4. Let unit be ? ToString(unit).
    let unit = to_rust_string(vm, arg(args, 1))?;
    Ok((value, unit))
}

/// ### 17.3.3 Intl.RelativeTimeFormat.prototype.format ( value, unit )
fn format(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let relativeTimeFormat be the this value; RequireInternalSlot(…, [[InitializedRelativeTimeFormat]]).
    let slots = this_relative_time_format(vm, this, "format")?;
    let (value, unit) = value_and_unit(vm, args)?;
    // 5. Return ? FormatRelativeTime(relativeTimeFormat, value, unit).
    let parts = partition_relative_time_pattern(vm, &slots, value, &unit)?;
    let text: String = parts.iter().map(|p| p.value.as_str()).collect();
    Ok(vm.str(&text))
}

/// ### 17.3.4 Intl.RelativeTimeFormat.prototype.formatToParts ( value, unit )
fn format_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let slots = this_relative_time_format(vm, this, "formatToParts")?;
    let (value, unit) = value_and_unit(vm, args)?;
    // 5. Return ? FormatRelativeTimeToParts(relativeTimeFormat, value, unit).
    let parts = partition_relative_time_pattern(vm, &slots, value, &unit)?;
    let mut values = Vec::with_capacity(parts.len());
    for p in parts {
        let mut o = ResultObject::new(vm);
        o.string(vm, "type", p.kind);
        o.string(vm, "value", &p.value);
        if let Some(u) = p.unit {
            o.string(vm, "unit", u);
        }
        values.push(o.finish());
    }
    Ok(vm.new_array(values))
}

/// ### 17.3.5 Intl.RelativeTimeFormat.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_relative_time_format(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "style", &slots.style);
    out.string(vm, "numeric", &slots.numeric);
    out.string(vm, "numberingSystem", &slots.numbering_system);
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_singular() {
        assert_eq!(singular_unit("days"), Some("day"));
        assert_eq!(singular_unit("quarter"), Some("quarter"));
        assert_eq!(singular_unit("Day"), None);
        assert_eq!(singular_unit("millisecond"), None);
    }
}
