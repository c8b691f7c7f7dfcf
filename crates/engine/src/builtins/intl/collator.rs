//! Intl.Collator (ECMA-402 §10) and the locale-sensitive `String.prototype.localeCompare`
//! (§19.1.1): https://tc39.es/ecma402/#collator-objects
//!
//! Comparison is the Unicode Collation Algorithm with CLDR's tailorings (ICU4X
//! `icu_collator`). ECMA-402's options map onto it as ICU4X documents: sensitivity to
//! strength and case level, `ignorePunctuation` to shifted alternate handling, `numeric`,
//! `caseFirst` and `collation` to the `-u-kn`, `-u-kf` and `-u-co` preferences.

use icu_collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu_collator::provider::{Baked, CollationMetadataV1};
use icu_collator::{CollatorBorrowed, CollatorPreferences};
use icu_locale_core::extensions::unicode::{Key, Value as UValue};
use icu_locale_core::Locale;
use icu_provider::prelude::*;

use super::locales::{canonicalize_locale_list, resolve_locale, supported_locales_of, KeyData};
use super::options::{coerce_options_to_object, get_boolean_option, get_string_option};
use super::{create, data_error, ResultObject};
use crate::builtins::{arg, make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{CollatorSlots, IntlSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_js_str;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.Collator", 0, constructor),
    native!("Intl.Collator.supportedLocalesOf", 1, supported_locales),
    native!("get Intl.Collator.prototype.compare", 0, compare_getter),
    native!("Intl.Collator.prototype.resolvedOptions", 0, resolved_options),
    native!("%Intl.Collator.compare", 2, bound_compare),
];

/// Whether `locale` has CLDR collation `co` (a tailoring such as `de` `phonebk`). "standard"
/// and "search" are never requested through `co` (ECMA-402 §10.2.3).
pub(crate) fn supports_collation(locale: &str, co: &str) -> bool {
    if co == "standard" || co == "search" || co == "true" {
        return false;
    }
    let (Ok(l), Ok(attributes)) = (Locale::try_from_str(locale), DataMarkerAttributes::try_from_str(co)) else {
        return false;
    };
    let data_locale = DataLocale::from(&l);
    let mut metadata = DataRequestMetadata::default();
    metadata.silent = true;
    let req = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &data_locale),
        metadata,
    };
    DataProvider::<CollationMetadataV1>::load(&Baked, req).is_ok()
}

/// [[SortLocaleData]].[[kf]]'s first value: Danish and Maltese sort upper case first.
fn default_case_first(locale: &str) -> Option<String> {
    let language = locale.split('-').next().unwrap_or("");
    Some(if language == "da" || language == "mt" { "upper" } else { "false" }.to_string())
}

/// The relevant extension keys of Intl.Collator: « "co", "kf", "kn" ».
const KEYS: [KeyData; 3] = [
    KeyData { key: "co", default: |_| None, supports: supports_collation },
    KeyData { key: "kf", default: default_case_first, supports: |_, v| matches!(v, "upper" | "lower" | "false") },
    KeyData { key: "kn", default: |_| Some("false".to_string()), supports: |_, v| matches!(v, "true" | "false") },
];

/// ### 10.1.1 Intl.Collator ( [ locales [ , options ] ] ) with InitializeCollator.
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, let newTarget be the active function object.
    let mut new_target = vm.native_new_target();
    if new_target.is_undefined() {
        new_target = vm.native_ctx.callee.map_or(Value::UNDEFINED, Value::object);
    }
    // 5. Let collator be ? OrdinaryCreateFromConstructor(newTarget, "%Intl.Collator.prototype%", …).
    let default = vm.realm.intl_collator_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 7. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 8. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, arg(args, 1))?;
    // 9. Let usage be ? GetOption(options, "usage", string, « "sort", "search" », "sort").
    let usage = get_string_option(vm, options, "usage", &["sort", "search"], Some("sort"))?.unwrap_or_default();
    // 13. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 15. Let collation be ? GetOption(options, "collation", string, empty, undefined).
    let collation = get_string_option(vm, options, "collation", &[], None)?;
    // 16. If collation is not undefined and does not match the `type` production, throw a RangeError.
    if let Some(c) = &collation {
        let ok = !c.is_empty()
            && c.split('-').all(|s| (3..=8).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric()));
        if !ok {
            return Err(vm.range_error(format!("Invalid collation: {c}")));
        }
    }
    // 18. Let numeric be ? GetOption(options, "numeric", boolean, empty, undefined).
    // 19. If numeric is not undefined, set numeric to ! ToString(numeric).
    let numeric = get_boolean_option(vm, options, "numeric")?.map(|b| b.to_string());
    // 21. Let caseFirst be ? GetOption(options, "caseFirst", string, « "upper", "lower", "false" », undefined).
    let case_first = get_string_option(vm, options, "caseFirst", &["upper", "lower", "false"], None)?;
    // 24. Let r be ResolveLocale(%Intl.Collator%.[[AvailableLocales]], requestedLocales, opt, …).
    let r = resolve_locale(vm, &requested, &matcher, &KEYS, &[("co", collation), ("kn", numeric), ("kf", case_first)]);
    // 26-27. Let collation be r.[[co]]; null is "default".
    let collation = r.values.get("co").cloned().flatten().unwrap_or_else(|| "default".to_string());
    // 28. Set collator.[[Numeric]] to SameValue(r.[[kn]], "true").
    let numeric = r.values.get("kn").cloned().flatten().as_deref() == Some("true");
    // 29. Set collator.[[CaseFirst]] to r.[[kf]].
    let case_first = r.values.get("kf").cloned().flatten().unwrap_or_else(|| "false".to_string());
    // 32. Let sensitivity be ? GetOption(options, "sensitivity", string, « "base", "accent", "case", "variant" », undefined).
    // 33. If undefined: "variant" for sort, the locale's search default ("variant") otherwise.
    let sensitivity = get_string_option(vm, options, "sensitivity", &["base", "accent", "case", "variant"], None)?
        .unwrap_or_else(|| "variant".to_string());
    // 35. Let ignorePunctuation be ? GetOption(options, "ignorePunctuation", boolean, empty, undefined).
    // 36. If undefined, the locale's default (Thai ignores punctuation).
    let ignore_punctuation = match get_boolean_option(vm, options, "ignorePunctuation")? {
        Some(b) => b,
        None => r.data_locale.split('-').next() == Some("th"),
    };
    let slots = CollatorSlots {
        locale: r.locale,
        usage,
        sensitivity,
        ignore_punctuation,
        collation,
        numeric,
        case_first,
        bound_compare: None,
    };
    Ok(create(vm, proto, IntlSlots::Collator(slots)))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_collator(vm: &mut Vm, this: Value, method: &str) -> JsResult<CollatorSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::Collator(c) = &**s {
                return Ok(c.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.Collator.prototype.{method} called on incompatible receiver")))
}

/// The ICU4X collator for a collator's slots.
pub(crate) fn icu_collator(vm: &mut Vm, slots: &CollatorSlots) -> JsResult<CollatorBorrowed<'static>> {
    let mut locale = Locale::try_from_str(&slots.locale).unwrap_or(Locale::UNKNOWN);
    let keywords = &mut locale.extensions.unicode.keywords;
    let set = |kw: &mut icu_locale_core::extensions::unicode::Keywords, key: &str, value: &str| {
        if let (Ok(k), Ok(v)) = (Key::try_from_str(key), UValue::try_from_str(value)) {
            kw.set(k, v);
        }
    };
    if slots.usage == "search" {
        set(keywords, "co", "search");
    } else if slots.collation != "default" {
        set(keywords, "co", &slots.collation);
    } else {
        keywords.remove(Key::try_from_str("co").unwrap_or(icu_locale_core::extensions::unicode::key!("co")));
    }
    set(keywords, "kn", if slots.numeric { "true" } else { "false" });
    set(keywords, "kf", &slots.case_first);
    let prefs = CollatorPreferences::from(&locale);
    let mut options = CollatorOptions::default();
    let (strength, case_level) = match slots.sensitivity.as_str() {
        "base" => (Strength::Primary, CaseLevel::Off),
        "accent" => (Strength::Secondary, CaseLevel::Off),
        "case" => (Strength::Primary, CaseLevel::On),
        _ => (Strength::Tertiary, CaseLevel::Off),
    };
    options.strength = Some(strength);
    options.case_level = Some(case_level);
    options.alternate_handling =
        Some(if slots.ignore_punctuation { AlternateHandling::Shifted } else { AlternateHandling::NonIgnorable });
    CollatorBorrowed::try_new(prefs, options).map_err(|e| data_error(vm, e))
}

/// ### CompareStrings ( collator, x, y ) as -1, 0 or 1.
pub(crate) fn compare_strings(vm: &mut Vm, slots: &CollatorSlots, x: Value, y: Value) -> JsResult<Value> {
    let x = to_js_str(vm, x)?;
    let y = to_js_str(vm, y)?;
    vm.charge((x.len() + y.len()) as u64 / 4)?;
    let collator = icu_collator(vm, slots)?;
    Ok(Value::int(match collator.compare_utf16(&x.units(), &y.units()) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }))
}

/// ### 10.3.3 get Intl.Collator.prototype.compare
fn compare_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Let collator be the this value; RequireInternalSlot(collator, [[InitializedCollator]]).
    let slots = this_collator(vm, this, "compare")?;
    // 4. If collator.[[BoundCompare]] is undefined, then make it (a 2-argument anonymous
    //    function closing over collator).
    if let Some(f) = slots.bound_compare {
        return Ok(Value::object(f));
    }
    let f = make_internal(vm, "%Intl.Collator.compare", 2, vec![this]);
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &mut vm.heap.obj_mut(o).class {
            if let IntlSlots::Collator(c) = &mut **s {
                c.bound_compare = Some(f);
            }
        }
    }
    // 5. Return collator.[[BoundCompare]].
    Ok(Value::object(f))
}

/// ### 10.3.3.1 Collator Compare Functions
fn bound_compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let collator be F.[[Collator]].
    let collator = vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED);
    let slots = this_collator(vm, collator, "compare")?;
    // 3-6. Let X be ? ToString(x); let Y be ? ToString(y); return CompareStrings(collator, X, Y).
    compare_strings(vm, &slots, arg(args, 0), arg(args, 1))
}

/// ### 10.3.4 Intl.Collator.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_collator(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    // 4. The properties in Table 5's order.
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "usage", &slots.usage);
    out.string(vm, "sensitivity", &slots.sensitivity);
    out.boolean(vm, "ignorePunctuation", slots.ignore_punctuation);
    out.string(vm, "collation", &slots.collation);
    out.boolean(vm, "numeric", slots.numeric);
    out.string(vm, "caseFirst", &slots.case_first);
    Ok(out.finish())
}

/// ### 19.1.1 String.prototype.localeCompare ( that [ , locales [ , options ] ] ), steps
/// 4-5: `s` and `that` (already strings) compared by a new Collator.
pub(crate) fn locale_compare(vm: &mut Vm, s: Value, that: Value, locales: Value, options: Value) -> JsResult<Value> {
    // 4. Let collator be ? Construct(%Intl.Collator%, « locales, options »).
    let ctor = Value::object(vm.realm.intl_collator_constructor);
    let collator = crate::runtime::call::construct(vm, ctor, &[locales, options], None)?;
    let slots = this_collator(vm, collator, "compare")?;
    // 5. Return CompareStrings(collator, S, thatValue).
    compare_strings(vm, &slots, s, that)
}
