//! Intl.NumberFormat (ECMA-402 §15) and the locale-sensitive `toLocaleString` of Number
//! and BigInt (§20.1, §20.2): https://tc39.es/ecma402/#numberformat-objects
//!
//! The constructor resolves every option into plain slots ([`NumberFormatSlots`]); each
//! format call lays the number out with [`super::number_partition`] over the locale data of
//! [`super::number_data`]. Nothing from ICU4X is kept in the object, so an image restores a
//! NumberFormat that formats exactly as before.

use super::locales::is_type_sequence;
use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of, KeyData};
use super::number_data;
use super::number_options::set_number_format_digit_options;
use super::number_partition::{join, partition_number_pattern, to_intl_mathematical_value, Layout, MathValue, Part};
use super::options::{coerce_options_to_object, get_raw, get_string_option};
use super::{chain_legacy, create, data_error, unwrap_legacy, ResultObject};
use crate::builtins::{arg, make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, NumberFormatSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{to_boolean, to_rust_string};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.NumberFormat", 0, constructor),
    native!("Intl.NumberFormat.supportedLocalesOf", 1, supported_locales),
    native!("get Intl.NumberFormat.prototype.format", 0, format_getter),
    native!("Intl.NumberFormat.prototype.formatToParts", 1, format_to_parts),
    native!("Intl.NumberFormat.prototype.formatRange", 2, format_range),
    native!("Intl.NumberFormat.prototype.formatRangeToParts", 2, format_range_to_parts),
    native!("Intl.NumberFormat.prototype.resolvedOptions", 0, resolved_options),
    native!("%Intl.NumberFormat.format", 1, bound_format),
];

/// The sanctioned single unit identifiers (ECMA-402 §6.6.2, Table 2).
pub(crate) const SANCTIONED_UNITS: [&str; 45] = [
    "acre",
    "bit",
    "byte",
    "celsius",
    "centimeter",
    "day",
    "degree",
    "fahrenheit",
    "fluid-ounce",
    "foot",
    "gallon",
    "gigabit",
    "gigabyte",
    "gram",
    "hectare",
    "hour",
    "inch",
    "kilobit",
    "kilobyte",
    "kilogram",
    "kilometer",
    "liter",
    "megabit",
    "megabyte",
    "meter",
    "microsecond",
    "mile",
    "mile-scandinavian",
    "milliliter",
    "millimeter",
    "millisecond",
    "minute",
    "month",
    "nanosecond",
    "ounce",
    "percent",
    "petabyte",
    "pound",
    "second",
    "stone",
    "terabit",
    "terabyte",
    "week",
    "yard",
    "year",
];

/// ### IsWellFormedCurrencyCode ( currency ): three ASCII letters.
fn is_well_formed_currency_code(c: &str) -> bool {
    c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic())
}

/// ### IsWellFormedUnitIdentifier ( unitIdentifier ): a sanctioned unit, or two joined by
/// `-per-`.
fn is_well_formed_unit_identifier(unit: &str) -> bool {
    if SANCTIONED_UNITS.contains(&unit) {
        return true;
    }
    match unit.split_once("-per-") {
        Some((numerator, denominator)) => {
            SANCTIONED_UNITS.contains(&numerator) && SANCTIONED_UNITS.contains(&denominator)
        }
        None => false,
    }
}

/// The relevant extension key of Intl.NumberFormat: « "nu" ».
const KEYS: [KeyData; 1] = [KeyData {
    key: "nu",
    default: |locale| Some(number_data::default_numbering_system(locale)),
    supports: |_, nu| nu != "native" && nu != "traditio" && nu != "finance" && number_data::has_digits(nu),
}];

/// ### GetBooleanOrStringNumberFormatOption ( options, "useGrouping", … ) with steps 27-30
/// of InitializeNumberFormat: "always", "auto", "min2", or "false" for false.
fn get_use_grouping(vm: &mut Vm, options: Option<crate::value::ObjectId>, fallback: &str) -> JsResult<String> {
    // 1. Let value be ? Get(options, property).
    let value = get_raw(vm, options, "useGrouping")?;
    // 2. If value is undefined, return fallback.
    if value.is_undefined() {
        return Ok(fallback.to_string());
    }
    // 3. If value is true, return trueValue.
    if value.as_bool() == Some(true) {
        return Ok("always".to_string());
    }
    // 4. If ToBoolean(value) is false, return falseValue.
    if !to_boolean(vm, value) {
        return Ok("false".to_string());
    }
    // 5. Let value be ? ToString(value).
    let s = to_rust_string(vm, value)?;
    // 6. If value is "true" or "false", return fallback.
    if s == "true" || s == "false" {
        return Ok(fallback.to_string());
    }
    // 7. If values does not contain value, throw a RangeError exception.
    if !["min2", "auto", "always"].contains(&s.as_str()) {
        return Err(vm.range_error(format!("Value {s} out of range for options property useGrouping")));
    }
    Ok(s)
}

/// ### 15.1.1 Intl.NumberFormat ( [ locales [ , options ] ] ) with InitializeNumberFormat.
fn constructor(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, let newTarget be the active function object.
    let original_new_target = vm.native_new_target();
    let mut new_target = original_new_target;
    if new_target.is_undefined() {
        new_target = vm.native_ctx.callee.map_or(Value::UNDEFINED, Value::object);
    }
    // 2. Let numberFormat be ? OrdinaryCreateFromConstructor(newTarget, "%Intl.NumberFormat.prototype%", …).
    let default = vm.realm.intl_number_format_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let slots = initialize_number_format(vm, arg(args, 0), arg(args, 1))?;
    let nf = create(vm, proto, IntlSlots::NumberFormat(slots));
    // 4. The normative optional constructor mode: return ? ChainNumberFormat(nf, NewTarget, this).
    let ctor = vm.realm.intl_number_format_constructor;
    chain_legacy(vm, ctor, original_new_target, nf, this)
}

/// ### UnwrapNumberFormat ( nf ), steps 1-2: the NumberFormat a legacy-constructed
/// object holds under %Intl%.[[FallbackSymbol]], or `this` itself.
fn unwrap_number_format(vm: &mut Vm, this: Value) -> JsResult<Value> {
    let ctor = vm.realm.intl_number_format_constructor;
    unwrap_legacy(vm, ctor, this, |s| matches!(s, IntlSlots::NumberFormat(_)))
}

/// The steps of InitializeNumberFormat (ECMA-402 §15.1.2) after the object is made.
pub(crate) fn initialize_number_format(vm: &mut Vm, locales: Value, options: Value) -> JsResult<NumberFormatSlots> {
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, locales)?;
    // 4. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, options)?;
    // 6. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 8. Let numberingSystem be ? GetOption(options, "numberingSystem", string, empty, undefined).
    let numbering_system = get_string_option(vm, options, "numberingSystem", &[], None)?;
    // 9. If numberingSystem is not undefined and does not match the `type` production, throw a RangeError.
    if let Some(nu) = &numbering_system {
        if !is_type_sequence(nu) {
            return Err(vm.range_error(format!("Invalid numberingSystem: {nu}")));
        }
    }
    // 11. Let r be ResolveLocale(%Intl.NumberFormat%.[[AvailableLocales]], requestedLocales, opt, « "nu" », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &KEYS, &[("nu", numbering_system)]);
    // 12-14. [[Locale]], [[LocaleData]], [[NumberingSystem]].
    let numbering_system =
        r.values.get("nu").cloned().flatten().unwrap_or_else(|| number_data::default_numbering_system(&r.data_locale));

    // 15. Perform ? SetNumberFormatUnitOptions(numberFormat, options).
    // SetNumberFormatUnitOptions 1. Let style be ? GetOption(options, "style", …, "decimal").
    let style = get_string_option(vm, options, "style", &["decimal", "percent", "currency", "unit"], Some("decimal"))?
        .unwrap_or_default();
    // 3. Let currency be ? GetOption(options, "currency", string, empty, undefined).
    let currency = get_string_option(vm, options, "currency", &[], None)?;
    match &currency {
        // 4. If currency is undefined and style is "currency", throw a TypeError exception.
        None if style == "currency" => return Err(vm.type_error("Currency code is required with currency style.")),
        // 5. Else if IsWellFormedCurrencyCode(currency) is false, throw a RangeError exception.
        Some(c) if !is_well_formed_currency_code(c) => {
            return Err(vm.range_error(format!("Invalid currency code : {c}")));
        }
        _ => {}
    }
    // 6. Let currencyDisplay be ? GetOption(options, "currencyDisplay", …, "symbol").
    let currency_display =
        get_string_option(vm, options, "currencyDisplay", &["code", "symbol", "narrowSymbol", "name"], Some("symbol"))?
            .unwrap_or_default();
    // 7. Let currencySign be ? GetOption(options, "currencySign", …, "standard").
    let currency_sign = get_string_option(vm, options, "currencySign", &["standard", "accounting"], Some("standard"))?
        .unwrap_or_default();
    // 8. Let unit be ? GetOption(options, "unit", string, empty, undefined).
    let unit = get_string_option(vm, options, "unit", &[], None)?;
    match &unit {
        // 9. If unit is undefined and style is "unit", throw a TypeError exception.
        None if style == "unit" => return Err(vm.type_error("Unit is required with unit style.")),
        // 10. Else if IsWellFormedUnitIdentifier(unit) is false, throw a RangeError exception.
        Some(u) if !is_well_formed_unit_identifier(u) => {
            return Err(vm.range_error(format!("Invalid unit argument for Intl.NumberFormat() '{u}'")));
        }
        _ => {}
    }
    // 11. Let unitDisplay be ? GetOption(options, "unitDisplay", …, "short").
    let unit_display =
        get_string_option(vm, options, "unitDisplay", &["short", "narrow", "long"], Some("short"))?.unwrap_or_default();
    // 12-13. The currency and unit slots of their styles.
    let currency = if style == "currency" { currency.map(|c| c.to_ascii_uppercase()) } else { None };
    let unit = if style == "unit" { unit } else { None };

    // 17. Let notation be ? GetOption(options, "notation", …, "standard").
    let notation = get_string_option(
        vm,
        options,
        "notation",
        &["standard", "scientific", "engineering", "compact"],
        Some("standard"),
    )?
    .unwrap_or_default();
    // 19-20. The default fraction digits: the currency's minor units (standard notation),
    //        0 for percent, 3 otherwise.
    let (mnfd_default, mxfd_default) = match (&currency, style.as_str()) {
        (Some(c), "currency") if notation == "standard" => {
            let digits = number_data::currency_digits(c);
            (digits, digits)
        }
        (_, "percent") => (0, 0),
        _ => (0, 3),
    };
    // 21. Perform ? SetNumberFormatDigitOptions(numberFormat, options, mnfdDefault, mxfdDefault, notation).
    let digits = set_number_format_digit_options(vm, options, mnfd_default, mxfd_default, &notation)?;
    // 22. Let compactDisplay be ? GetOption(options, "compactDisplay", …, "short").
    let compact_display =
        get_string_option(vm, options, "compactDisplay", &["short", "long"], Some("short"))?.unwrap_or_default();
    // 23-24. The default useGrouping: "min2" for compact notation, else "auto".
    let default_grouping = if notation == "compact" { "min2" } else { "auto" };
    // 25-30. Let useGrouping be ? GetBooleanOrStringNumberFormatOption(options, "useGrouping", …).
    let use_grouping = get_use_grouping(vm, options, default_grouping)?;
    // 31. Let signDisplay be ? GetOption(options, "signDisplay", …, "auto").
    let sign_display = get_string_option(
        vm,
        options,
        "signDisplay",
        &["auto", "never", "always", "exceptZero", "negative"],
        Some("auto"),
    )?
    .unwrap_or_default();
    Ok(NumberFormatSlots {
        locale: r.locale,
        numbering_system,
        style,
        currency,
        currency_display,
        currency_sign,
        unit,
        unit_display,
        digits,
        notation,
        compact_display,
        use_grouping,
        sign_display,
        bound_format: None,
    })
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

/// ### UnwrapNumberFormat ( nf ), step 3: the slots of a NumberFormat.
fn this_number_format(vm: &mut Vm, this: Value, method: &str) -> JsResult<NumberFormatSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::NumberFormat(n) = &**s {
                return Ok(n.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.NumberFormat.prototype.{method} called on incompatible receiver")))
}

/// The layout of `x` under `slots`, charging fuel for the digits laid out.
fn layout_of(vm: &mut Vm, slots: &NumberFormatSlots, x: &MathValue) -> JsResult<Layout> {
    if let MathValue::Finite(d) = x {
        let range = d.absolute.magnitude_range();
        vm.charge((i64::from(*range.end()) - i64::from(*range.start())).unsigned_abs() / 16 + 1)?;
    }
    partition_number_pattern(slots, x).map_err(|e| data_error(vm, e))
}

pub(crate) fn parts_of(vm: &mut Vm, slots: &NumberFormatSlots, x: &MathValue) -> JsResult<Vec<Part>> {
    Ok(layout_of(vm, slots, x)?.parts())
}

/// ### FormatNumeric ( numberFormat, x )
pub(crate) fn format_numeric(vm: &mut Vm, slots: &NumberFormatSlots, x: &MathValue) -> JsResult<String> {
    Ok(join(&parts_of(vm, slots, x)?))
}

/// The array of `{ type, value [, source] }` objects `formatToParts` and
/// `formatRangeToParts` return.
fn parts_array(vm: &mut Vm, parts: &[(Part, Option<&'static str>)]) -> Value {
    let mut values = Vec::with_capacity(parts.len());
    for (p, source) in parts {
        let mut o = ResultObject::new(vm);
        o.string(vm, "type", p.kind);
        o.string(vm, "value", &p.value);
        if let Some(s) = source {
            o.string(vm, "source", s);
        }
        values.push(o.finish());
    }
    vm.new_array(values)
}

/// ### 15.3.3 get Intl.NumberFormat.prototype.format
fn format_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Let nf be ? UnwrapNumberFormat(this value).
    let this = unwrap_number_format(vm, this)?;
    let slots = this_number_format(vm, this, "format")?;
    // 4. If nf.[[BoundFormat]] is undefined, make it (a 1-argument anonymous function).
    if let Some(f) = slots.bound_format {
        return Ok(Value::object(f));
    }
    let f = make_internal(vm, "%Intl.NumberFormat.format", 1, vec![this]);
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &mut vm.heap.obj_mut(o).class {
            if let IntlSlots::NumberFormat(n) = &mut **s {
                n.bound_format = Some(f);
            }
        }
    }
    // 5. Return nf.[[BoundFormat]].
    Ok(Value::object(f))
}

/// ### 15.5.2 Number Format Functions
fn bound_format(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let nf be F.[[NumberFormat]].
    let nf = vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED);
    let slots = this_number_format(vm, nf, "format")?;
    // 4. Let x be ? ToIntlMathematicalValue(value).
    let x = to_intl_mathematical_value(vm, arg(args, 0))?;
    // 5. Return FormatNumeric(nf, x).
    let s = format_numeric(vm, &slots, &x)?;
    Ok(vm.str(&s))
}

/// ### 15.3.4 Intl.NumberFormat.prototype.formatToParts ( value )
fn format_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let nf be the this value; RequireInternalSlot(nf, [[InitializedNumberFormat]]).
    let slots = this_number_format(vm, this, "formatToParts")?;
    // 3. Let x be ? ToIntlMathematicalValue(value).
    let x = to_intl_mathematical_value(vm, arg(args, 0))?;
    // 4. Return FormatNumericToParts(nf, x).
    let parts: Vec<(Part, Option<&'static str>)> = parts_of(vm, &slots, &x)?.into_iter().map(|p| (p, None)).collect();
    Ok(parts_array(vm, &parts))
}

/// The two values of `formatRange` / `formatRangeToParts`, checked (steps 3-6).
fn range_values(vm: &mut Vm, args: &[Value]) -> JsResult<(MathValue, MathValue)> {
    let (start, end) = (arg(args, 0), arg(args, 1));
    // 3. If start is undefined or end is undefined, throw a TypeError exception.
    if start.is_undefined() || end.is_undefined() {
        return Err(vm.type_error("start and end are required"));
    }
    // 4-5. Let x be ? ToIntlMathematicalValue(start); let y be ? ToIntlMathematicalValue(end).
    let x = to_intl_mathematical_value(vm, start)?;
    let y = to_intl_mathematical_value(vm, end)?;
    // PartitionNumberRangePattern 1. If x is NaN or y is NaN, throw a RangeError exception.
    if matches!(x, MathValue::NaN) || matches!(y, MathValue::NaN) {
        return Err(vm.range_error("start and end must not be NaN"));
    }
    Ok((x, y))
}

/// Parts tagged with their `source`.
type SourcedParts = Vec<(Part, Option<&'static str>)>;

fn tagged(parts: Vec<Part>, source: &'static str, out: &mut SourcedParts) {
    out.extend(parts.into_iter().map(|p| (p, Some(source))));
}

fn text_len(parts: &[Part]) -> usize {
    parts.iter().map(|p| p.value.chars().count()).sum()
}

fn same_text(a: &[Part], b: &[Part]) -> bool {
    join(a) == join(b)
}

/// ### FormatApproximately ( numberFormat, x ): the approximately sign where the sign goes
/// (the start of the middle modifier).
fn format_approximately(slots: &NumberFormatSlots, layout: Layout) -> SourcedParts {
    let sign = Part { kind: "approximatelySign", value: number_data::approximately_sign(&slots.locale) };
    let mut out = SourcedParts::new();
    tagged(layout.outer_prefix, "shared", &mut out);
    out.push((sign, Some("shared")));
    tagged(layout.middle_prefix, "shared", &mut out);
    tagged(layout.number, "shared", &mut out);
    tagged(layout.middle_suffix, "shared", &mut out);
    tagged(layout.outer_suffix, "shared", &mut out);
    out
}

/// ### PartitionNumberRangePattern ( numberFormat, x, y ) with CollapseNumberRange as ICU
/// does it: an outer modifier (unit, currency name) the two ends share is written once,
/// and so is a shared middle modifier (sign, symbol, percent, compact affix) longer than
/// one character; spaces go around the separator unless everything around the numbers
/// collapsed.
fn partition_number_range(
    vm: &mut Vm,
    slots: &NumberFormatSlots,
    x: &MathValue,
    y: &MathValue,
) -> JsResult<SourcedParts> {
    // 2-3. Let xResult be PartitionNumberPattern(x); let yResult be PartitionNumberPattern(y).
    let xl = layout_of(vm, slots, x)?;
    let yl = layout_of(vm, slots, y)?;
    // 4. If FormatNumeric(x) is FormatNumeric(y), return FormatApproximately(numberFormat, xResult).
    if join(&xl.clone().parts()) == join(&yl.clone().parts()) {
        return Ok(format_approximately(slots, xl));
    }
    let collapse_outer = same_text(&xl.outer_prefix, &yl.outer_prefix) && same_text(&xl.outer_suffix, &yl.outer_suffix);
    let collapse_middle = collapse_outer
        && same_text(&xl.middle_prefix, &yl.middle_prefix)
        && same_text(&xl.middle_suffix, &yl.middle_suffix)
        && text_len(&xl.middle_prefix) + text_len(&xl.middle_suffix) > 1;
    let repeat_middle = !collapse_middle && text_len(&xl.middle_prefix) + text_len(&xl.middle_suffix) > 0;
    let repeat_outer = !collapse_outer && text_len(&xl.outer_prefix) + text_len(&xl.outer_suffix) > 0;
    let mut separator = number_data::range_separator(&slots.locale).to_string();
    if (xl.inner || repeat_middle || repeat_outer) && !separator.starts_with(char::is_whitespace) {
        separator = format!(" {separator} ");
    }
    let mut out = SourcedParts::new();
    if collapse_outer {
        tagged(xl.outer_prefix, "shared", &mut out);
    } else {
        tagged(xl.outer_prefix, "startRange", &mut out);
    }
    if collapse_middle {
        tagged(xl.middle_prefix, "shared", &mut out);
    } else {
        tagged(xl.middle_prefix, "startRange", &mut out);
    }
    tagged(xl.number, "startRange", &mut out);
    if !collapse_middle {
        tagged(xl.middle_suffix, "startRange", &mut out);
    }
    if !collapse_outer {
        tagged(xl.outer_suffix, "startRange", &mut out);
    }
    out.push((Part { kind: "literal", value: separator }, Some("shared")));
    if !collapse_outer {
        tagged(yl.outer_prefix, "endRange", &mut out);
    }
    if !collapse_middle {
        tagged(yl.middle_prefix, "endRange", &mut out);
    }
    tagged(yl.number, "endRange", &mut out);
    if collapse_middle {
        tagged(yl.middle_suffix, "shared", &mut out);
    } else {
        tagged(yl.middle_suffix, "endRange", &mut out);
    }
    if collapse_outer {
        tagged(yl.outer_suffix, "shared", &mut out);
    } else {
        tagged(yl.outer_suffix, "endRange", &mut out);
    }
    Ok(out)
}

/// ### 15.3.5 Intl.NumberFormat.prototype.formatRange ( start, end )
fn format_range(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let nf be the this value; RequireInternalSlot(nf, [[InitializedNumberFormat]]).
    let slots = this_number_format(vm, this, "formatRange")?;
    let (x, y) = range_values(vm, args)?;
    // 6. Return ? FormatNumericRange(nf, x, y).
    let parts = partition_number_range(vm, &slots, &x, &y)?;
    let s: String = parts.iter().map(|(p, _)| p.value.as_str()).collect();
    Ok(vm.str(&s))
}

/// ### 15.3.6 Intl.NumberFormat.prototype.formatRangeToParts ( start, end )
fn format_range_to_parts(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let slots = this_number_format(vm, this, "formatRangeToParts")?;
    let (x, y) = range_values(vm, args)?;
    // 6. Return ? FormatNumericRangeToParts(nf, x, y).
    let parts = partition_number_range(vm, &slots, &x, &y)?;
    Ok(parts_array(vm, &parts))
}

/// ### 15.3.7 Intl.NumberFormat.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Let nf be ? UnwrapNumberFormat(this value).
    let this = unwrap_number_format(vm, this)?;
    let s = this_number_format(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    // 5. The properties in Table 14's order, each when present.
    out.string(vm, "locale", &s.locale);
    out.string(vm, "numberingSystem", &s.numbering_system);
    out.string(vm, "style", &s.style);
    if let Some(c) = &s.currency {
        out.string(vm, "currency", c);
        out.string(vm, "currencyDisplay", &s.currency_display);
        out.string(vm, "currencySign", &s.currency_sign);
    }
    if let Some(u) = &s.unit {
        out.string(vm, "unit", u);
        out.string(vm, "unitDisplay", &s.unit_display);
    }
    let d = &s.digits;
    out.number(vm, "minimumIntegerDigits", f64::from(d.minimum_integer_digits));
    if let Some((min, max)) = d.fraction {
        out.number(vm, "minimumFractionDigits", f64::from(min));
        out.number(vm, "maximumFractionDigits", f64::from(max));
    }
    if let Some((min, max)) = d.significant {
        out.number(vm, "minimumSignificantDigits", f64::from(min));
        out.number(vm, "maximumSignificantDigits", f64::from(max));
    }
    if s.use_grouping == "false" {
        out.boolean(vm, "useGrouping", false);
    } else {
        out.string(vm, "useGrouping", &s.use_grouping);
    }
    out.string(vm, "notation", &s.notation);
    if s.notation == "compact" {
        out.string(vm, "compactDisplay", &s.compact_display);
    }
    out.string(vm, "signDisplay", &s.sign_display);
    out.number(vm, "roundingIncrement", f64::from(d.rounding_increment));
    out.string(vm, "roundingMode", &d.rounding_mode);
    out.string(vm, "roundingPriority", &d.rounding_priority);
    out.string(vm, "trailingZeroDisplay", &d.trailing_zero_display);
    Ok(out.finish())
}

/// ### 20.1.3.4 Number.prototype.toLocaleString ( [ locales [ , options ] ] ) and
/// ### 20.2.3.2 BigInt.prototype.toLocaleString, steps 2-3: `x` formatted by a new
/// NumberFormat.
pub(crate) fn to_locale_string(vm: &mut Vm, x: MathValue, locales: Value, options: Value) -> JsResult<Value> {
    // 2. Let numberFormat be ? Construct(%Intl.NumberFormat%, « locales, options »).
    let slots = initialize_number_format(vm, locales, options)?;
    // 3. Return FormatNumeric(numberFormat, x).
    let s = format_numeric(vm, &slots, &x)?;
    Ok(vm.str(&s))
}
