//! Intl.PluralRules (ECMA-402 §16): https://tc39.es/ecma402/#pluralrules-objects
//!
//! The plural category of a number is CLDR's (ICU4X `icu_plurals`) applied to the decimal
//! the number formats to under the object's digit options, so `1` and `1.0` (with
//! `minimumFractionDigits: 1`) select differently in English, as ECMA-402 requires.
//! `selectRange` uses CLDR's plural ranges, which ICU4X offers only behind its `unstable`
//! feature (pinned with the rest of ICU4X).

use icu_locale_core::Locale;
use icu_plurals::{PluralCategory, PluralRuleType, PluralRules, PluralRulesOptions, PluralRulesWithRanges};

use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of};
use super::number_options::{format_numeric_to_decimal, set_number_format_digit_options};
use super::options::{coerce_options_to_object, get_string_option};
use super::{create, data_error, ResultObject};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, PluralRulesSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_number;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.PluralRules", 0, constructor),
    native!("Intl.PluralRules.supportedLocalesOf", 1, supported_locales),
    native!("Intl.PluralRules.prototype.select", 1, select),
    native!("Intl.PluralRules.prototype.selectRange", 2, select_range),
    native!("Intl.PluralRules.prototype.resolvedOptions", 0, resolved_options),
];

/// ### 16.1.1 Intl.PluralRules ( [ locales [ , options ] ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.PluralRules requires 'new'"));
    }
    // 2. Let pluralRules be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.PluralRules.prototype%", …).
    let default = vm.realm.intl_plural_rules_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 4. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, arg(args, 1))?;
    // 6. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 8. Let t be ? GetOption(options, "type", string, « "cardinal", "ordinal" », "cardinal").
    let kind = get_string_option(vm, options, "type", &["cardinal", "ordinal"], Some("cardinal"))?.unwrap_or_default();
    // 10. Let notation be ? GetOption(options, "notation", string, « "standard", "scientific", "engineering", "compact" », "standard").
    let notation = get_string_option(
        vm,
        options,
        "notation",
        &["standard", "scientific", "engineering", "compact"],
        Some("standard"),
    )?
    .unwrap_or_default();
    // 12. Let compactDisplay be ? GetOption(options, "compactDisplay", string, « "short", "long" », "short").
    let compact_display =
        get_string_option(vm, options, "compactDisplay", &["short", "long"], Some("short"))?.unwrap_or_default();
    // 14. Perform ? SetNumberFormatDigitOptions(pluralRules, options, 0, 3, notation).
    let digits = set_number_format_digit_options(vm, options, 0, 3, &notation)?;
    // 15. Let r be ResolveLocale(%Intl.PluralRules%.[[AvailableLocales]], requestedLocales, opt, « », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &[], &[]);
    // 16. Set pluralRules.[[Locale]] to r.[[Locale]].
    let compact_display = (notation == "compact").then_some(compact_display);
    let slots = PluralRulesSlots { locale: r.locale, kind, notation, compact_display, digits };
    Ok(create(vm, proto, IntlSlots::PluralRules(slots)))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_plural_rules(vm: &mut Vm, this: Value, method: &str) -> JsResult<PluralRulesSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::PluralRules(p) = &**s {
                return Ok(p.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.PluralRules.prototype.{method} called on incompatible receiver")))
}

/// The ICU4X options for [[Type]].
fn rule_type(slots: &PluralRulesSlots) -> PluralRulesOptions {
    let t = if slots.kind == "ordinal" { PluralRuleType::Ordinal } else { PluralRuleType::Cardinal };
    PluralRulesOptions::default().with_type(t)
}

fn locale_of(slots: &PluralRulesSlots) -> Locale {
    Locale::try_from_str(&slots.locale).unwrap_or(Locale::UNKNOWN)
}

fn rules(vm: &mut Vm, slots: &PluralRulesSlots) -> JsResult<PluralRules> {
    PluralRules::try_new((&locale_of(slots)).into(), rule_type(slots)).map_err(|e| data_error(vm, e))
}

fn category_name(c: PluralCategory) -> &'static str {
    match c {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
}

/// ### 16.5.3 ResolvePlural ( pluralRules, n ): the category's name.
fn resolve_plural(rules: &PluralRules, slots: &PluralRulesSlots, n: f64) -> &'static str {
    // 2. If n is not a finite Number, return "other".
    if !n.is_finite() {
        return "other";
    }
    // 5-7. Let res be FormatNumericToString(pluralRules, ℝ(n)); the category of its string.
    let decimal = format_numeric_to_decimal(&slots.digits, n);
    category_name(rules.category_for(&decimal))
}

/// ### 16.3.3 Intl.PluralRules.prototype.select ( value )
fn select(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let pr be the this value; RequireInternalSlot(pr, [[InitializedPluralRules]]).
    let slots = this_plural_rules(vm, this, "select")?;
    // 3. Let n be ? ToNumber(value).
    let n = to_number(vm, arg(args, 0))?;
    // 4. Return ResolvePlural(pr, n).[[PluralCategory]].
    let rules = rules(vm, &slots)?;
    let name = resolve_plural(&rules, &slots, n);
    Ok(vm.str(name))
}

/// ### 16.3.4 Intl.PluralRules.prototype.selectRange ( start, end )
fn select_range(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(pr, [[InitializedPluralRules]]).
    let slots = this_plural_rules(vm, this, "selectRange")?;
    // 3. If start is undefined or end is undefined, throw a TypeError exception.
    let (start, end) = (arg(args, 0), arg(args, 1));
    if start.is_undefined() || end.is_undefined() {
        return Err(vm.type_error("start and end are required"));
    }
    // 4-5. Let x be ? ToNumber(start); let y be ? ToNumber(end).
    let x = to_number(vm, start)?;
    let y = to_number(vm, end)?;
    // ResolvePluralRange 3. If x is NaN or y is NaN, throw a RangeError exception.
    if x.is_nan() || y.is_nan() {
        return Err(vm.range_error("selectRange arguments must not be NaN"));
    }
    let ranges = PluralRulesWithRanges::try_new((&locale_of(&slots)).into(), rule_type(&slots))
        .map_err(|e| data_error(vm, e))?;
    let rules = ranges.rules();
    // 4-5. The categories of both ends.
    let cx = rules.category_for(&format_numeric_to_decimal(&slots.digits, x));
    let cy = rules.category_for(&format_numeric_to_decimal(&slots.digits, y));
    // 6. If xp is yp (the same formatted value), return xp's category.
    let same = format_numeric_to_decimal(&slots.digits, x).to_string()
        == format_numeric_to_decimal(&slots.digits, y).to_string();
    let c = if same || !x.is_finite() || !y.is_finite() {
        if x.is_finite() {
            cx
        } else {
            PluralCategory::Other
        }
    } else {
        // 7. Return PluralRuleSelectRange(locale, type, xp, yp).
        ranges.resolve_range(cx, cy)
    };
    Ok(vm.str(category_name(c)))
}

/// ### 16.3.5 Intl.PluralRules.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_plural_rules(vm, this, "resolvedOptions")?;
    let rules = rules(vm, &slots)?;
    // 3. Let options be OrdinaryObjectCreate(%Object.prototype%).
    let mut out = ResultObject::new(vm);
    // 5. The properties in Table 16's order.
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "type", &slots.kind);
    out.string(vm, "notation", &slots.notation);
    if let Some(cd) = &slots.compact_display {
        out.string(vm, "compactDisplay", cd);
    }
    let d = &slots.digits;
    out.number(vm, "minimumIntegerDigits", f64::from(d.minimum_integer_digits));
    if let Some((min, max)) = d.fraction {
        out.number(vm, "minimumFractionDigits", f64::from(min));
        out.number(vm, "maximumFractionDigits", f64::from(max));
    }
    if let Some((min, max)) = d.significant {
        out.number(vm, "minimumSignificantDigits", f64::from(min));
        out.number(vm, "maximumSignificantDigits", f64::from(max));
    }
    // pluralCategories: CLDR's categories of the locale, in the order zero, one, two,
    // few, many, other.
    let categories: Vec<Value> = rules.categories().map(|c| vm.str(category_name(c))).collect();
    let array = vm.new_array(categories);
    out.value(vm, "pluralCategories", array);
    out.number(vm, "roundingIncrement", f64::from(d.rounding_increment));
    out.string(vm, "roundingMode", &d.rounding_mode);
    out.string(vm, "roundingPriority", &d.rounding_priority);
    out.string(vm, "trailingZeroDisplay", &d.trailing_zero_display);
    Ok(out.finish())
}
