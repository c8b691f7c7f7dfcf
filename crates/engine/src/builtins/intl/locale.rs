//! Intl.Locale (ECMA-402 §14): https://tc39.es/ecma402/#locale-objects
//!
//! A Locale's only slot is its canonical tag ([`LocaleSlots`]): every getter reads its part
//! of that string (the language subtags, or one `-u-` keyword), so the slots stay one
//! plain string in an image. Canonicalization, `maximize` and `minimize` are ICU4X's
//! (CLDR aliases and likely subtags). The Locale-info methods (`getCalendars`…) live in
//! [`super::locale_info`].

use icu_locale::LocaleExpander;
use icu_locale_core::extensions::unicode::{Key, Value as UValue};
use icu_locale_core::Locale;

use super::create;
use super::locale_info;
use super::locales::is_type_sequence;
use super::locales::{canonicalize, canonicalize_tag, parse_language_tag};
use super::options::{coerce_options_to_object, get_boolean_option, get_string_option};
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{IntlSlots, LocaleSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_rust_string;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.Locale", 1, constructor),
    native!("Intl.Locale.prototype.maximize", 0, maximize),
    native!("Intl.Locale.prototype.minimize", 0, minimize),
    native!("Intl.Locale.prototype.toString", 0, to_string),
    native!("get Intl.Locale.prototype.baseName", 0, base_name_getter),
    native!("get Intl.Locale.prototype.calendar", 0, calendar),
    native!("get Intl.Locale.prototype.caseFirst", 0, case_first),
    native!("get Intl.Locale.prototype.collation", 0, collation),
    native!("get Intl.Locale.prototype.firstDayOfWeek", 0, first_day_of_week),
    native!("get Intl.Locale.prototype.hourCycle", 0, hour_cycle),
    native!("get Intl.Locale.prototype.numeric", 0, numeric),
    native!("get Intl.Locale.prototype.numberingSystem", 0, numbering_system),
    native!("get Intl.Locale.prototype.language", 0, language),
    native!("get Intl.Locale.prototype.script", 0, script),
    native!("get Intl.Locale.prototype.region", 0, region),
    native!("get Intl.Locale.prototype.variants", 0, variants),
    native!("Intl.Locale.prototype.getCalendars", 0, locale_info::get_calendars),
    native!("Intl.Locale.prototype.getCollations", 0, locale_info::get_collations),
    native!("Intl.Locale.prototype.getHourCycles", 0, locale_info::get_hour_cycles),
    native!("Intl.Locale.prototype.getNumberingSystems", 0, locale_info::get_numbering_systems),
    native!("Intl.Locale.prototype.getTimeZones", 0, locale_info::get_time_zones),
    native!("Intl.Locale.prototype.getTextInfo", 0, locale_info::get_text_info),
    native!("Intl.Locale.prototype.getWeekInfo", 0, locale_info::get_week_info),
];

/// The [[Locale]] of `v` if it is an Intl.Locale (has [[InitializedLocale]]).
pub(crate) fn initialized_locale(vm: &Vm, v: Value) -> Option<String> {
    let o = v.as_object()?;
    match &vm.heap.obj(o).class {
        Class::Intl(s) => match &**s {
            IntlSlots::Locale(l) => Some(l.locale.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `unicode_language_subtag`: `alpha{2,3} | alpha{5,8}`.
fn is_language_subtag(s: &str) -> bool {
    (matches!(s.len(), 2 | 3) || (5..=8).contains(&s.len())) && s.bytes().all(|b| b.is_ascii_alphabetic())
}

/// `unicode_script_subtag`: `alpha{4}`.
fn is_script_subtag(s: &str) -> bool {
    s.len() == 4 && s.bytes().all(|b| b.is_ascii_alphabetic())
}

/// `unicode_region_subtag`: `alpha{2} | digit{3}`.
fn is_region_subtag(s: &str) -> bool {
    (s.len() == 2 && s.bytes().all(|b| b.is_ascii_alphabetic()))
        || (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
}

/// `unicode_variant_subtag`: `alphanum{5,8} | digit alphanum{3}`.
fn is_variant_subtag(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric())
        && ((5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit()))
}

/// The parts of a tag's `unicode_language_id` (its baseName).
struct LanguageParts<'a> {
    language: &'a str,
    script: Option<&'a str>,
    region: Option<&'a str>,
    /// The variants joined by "-", if any.
    variants: Option<String>,
}

/// ### GetLocaleBaseName ( locale ): the tag up to its first singleton.
pub(crate) fn base_name(tag: &str) -> &str {
    let mut end = tag.len();
    let mut offset = 0;
    for s in tag.split('-') {
        if s.len() == 1 && offset > 0 {
            end = offset - 1;
            break;
        }
        offset += s.len() + 1;
    }
    &tag[..end.min(tag.len())]
}

/// GetLocaleLanguage / GetLocaleScript / GetLocaleRegion / GetLocaleVariants of a baseName.
fn language_parts(base: &str) -> LanguageParts<'_> {
    let mut subtags = base.split('-');
    let language = subtags.next().unwrap_or("");
    let rest: Vec<&str> = subtags.collect();
    let mut i = 0;
    let script = rest.first().copied().filter(|s| is_script_subtag(s));
    if script.is_some() {
        i += 1;
    }
    let region = rest.get(i).copied().filter(|s| is_region_subtag(s));
    if region.is_some() {
        i += 1;
    }
    let variants = if i < rest.len() { Some(rest[i..].join("-")) } else { None };
    LanguageParts { language, script, region, variants }
}

/// The value of `-u-` keyword `key` in a canonical tag: "" for a keyword without value,
/// None when absent.
pub(crate) fn keyword(tag: &str, key: &str) -> Option<String> {
    let subtags: Vec<&str> = tag.split('-').collect();
    let start = subtags.iter().position(|s| *s == "u")?;
    if subtags[..start].contains(&"x") {
        return None;
    }
    let mut i = start + 1;
    while i < subtags.len() && subtags[i].len() != 1 {
        if subtags[i].len() == 2 {
            let mut end = i + 1;
            while end < subtags.len() && subtags[end].len() > 2 {
                end += 1;
            }
            if subtags[i] == key {
                return Some(subtags[i + 1..end].join("-"));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

/// ### UpdateLanguageId ( tag, options )
fn update_language_id(vm: &mut Vm, tag: &str, options: Option<ObjectId>) -> JsResult<String> {
    // 1. Let baseName be GetLocaleBaseName(tag).
    let base = base_name(tag).to_string();
    let parts = language_parts(&base);
    // 2. Let language be ? GetOption(options, "language", string, empty, GetLocaleLanguage(baseName)).
    let language = get_string_option(vm, options, "language", &[], Some(parts.language))?.unwrap_or_default();
    // 3. If language cannot be matched by the unicode_language_subtag nonterminal, throw a RangeError.
    if !is_language_subtag(&language) {
        return Err(vm.range_error(format!("Invalid language subtag: {language}")));
    }
    // 4-5. Let script be ? GetOption(options, "script", …); check unicode_script_subtag.
    let script = get_string_option(vm, options, "script", &[], parts.script)?;
    if let Some(s) = &script {
        if !is_script_subtag(s) {
            return Err(vm.range_error(format!("Invalid script subtag: {s}")));
        }
    }
    // 6-7. Let region be ? GetOption(options, "region", …); check unicode_region_subtag.
    let region = get_string_option(vm, options, "region", &[], parts.region)?;
    if let Some(r) = &region {
        if !is_region_subtag(r) {
            return Err(vm.range_error(format!("Invalid region subtag: {r}")));
        }
    }
    // 8. Let variants be ? GetOption(options, "variants", string, empty, GetLocaleVariants(baseName)).
    let variants = get_string_option(vm, options, "variants", &[], parts.variants.as_deref())?;
    // 9. If variants is not undefined, then
    if let Some(v) = &variants {
        // a. If variants is the empty String, throw a RangeError exception.
        // b-d. Each lower-case subtag must be a unicode_variant_subtag.
        let lower = v.to_ascii_lowercase();
        let subtags: Vec<&str> = lower.split('-').collect();
        if v.is_empty() || !subtags.iter().all(|s| is_variant_subtag(s)) {
            return Err(vm.range_error(format!("Invalid variants: {v}")));
        }
        // e. If variantSubtags contains any duplicate elements, throw a RangeError exception.
        if subtags.iter().enumerate().any(|(i, s)| subtags[..i].contains(s)) {
            return Err(vm.range_error(format!("Duplicate variants: {v}")));
        }
    }
    // 10. Let allExtensions be the suffix of tag following baseName.
    let all_extensions = &tag[base.len()..];
    // 11-15. newTag = language[-script][-region][-variants] + allExtensions.
    let mut new_tag = language;
    for part in [script, region, variants].into_iter().flatten() {
        new_tag.push('-');
        new_tag.push_str(&part);
    }
    new_tag.push_str(all_extensions);
    // 16. Return newTag.
    Ok(new_tag)
}

/// ### WeekdayToString ( fw )
fn weekday_to_string(fw: &str) -> String {
    match fw {
        "0" | "7" => "sun",
        "1" => "mon",
        "2" => "tue",
        "3" => "wed",
        "4" => "thu",
        "5" => "fri",
        "6" => "sat",
        other => other,
    }
    .to_string()
}

/// ### 14.1.1 Intl.Locale ( tag [ , options ] )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.Locale requires 'new'"));
    }
    // 6. Let locale be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.Locale.prototype%", …).
    let default = vm.realm.intl_locale_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let tag = arg(args, 0);
    // 7. If tag is not a String and tag is not an Object, throw a TypeError exception.
    if !tag.is_string() && tag.as_object().is_none() {
        return Err(vm.type_error("First argument to Intl.Locale constructor can't be empty or missing"));
    }
    // 8-9. The [[Locale]] of an Intl.Locale, else ? ToString(tag).
    let tag = match initialized_locale(vm, tag) {
        Some(t) => t,
        None => to_rust_string(vm, tag)?,
    };
    // 10. Set options to ? CoerceOptionsToObject(options).
    let options = coerce_options_to_object(vm, arg(args, 1))?;
    // 11. If IsStructurallyValidLanguageTag(tag) is false, throw a RangeError exception.
    // 13. Set tag to CanonicalizeUnicodeLocaleId(tag).
    let Some(tag) = canonicalize_tag(&tag) else {
        return Err(vm.range_error(format!("Incorrect locale information provided: {tag}")));
    };
    // 14. Set tag to ? UpdateLanguageId(tag, options).
    let tag = update_language_id(vm, &tag, options)?;
    // 15-16. Let calendar be ? GetOption(options, "calendar", string, empty, undefined);
    // it must match the `type` nonterminal.
    let mut overrides: Vec<(&'static str, String)> = Vec::new();
    for name in ["calendar", "collation", "firstDayOfWeek"] {
        if let Some(v) = get_string_option(vm, options, name, &[], None)? {
            // 20.a. Set fw to WeekdayToString(fw).
            let v = if name == "firstDayOfWeek" { weekday_to_string(&v) } else { v };
            if !is_type_sequence(&v) {
                return Err(vm.range_error(format!("Invalid {name}: {v}")));
            }
            let key = match name {
                "calendar" => "ca",
                "collation" => "co",
                _ => "fw",
            };
            overrides.push((key, v));
        }
    }
    // 22. Let hc be ? GetOption(options, "hourCycle", string, « "h11", "h12", "h23", "h24" », undefined).
    if let Some(hc) = get_string_option(vm, options, "hourCycle", &["h11", "h12", "h23", "h24"], None)? {
        overrides.push(("hc", hc));
    }
    // 24. Let kf be ? GetOption(options, "caseFirst", string, « "upper", "lower", "false" », undefined).
    if let Some(kf) = get_string_option(vm, options, "caseFirst", &["upper", "lower", "false"], None)? {
        overrides.push(("kf", kf));
    }
    // 26-27. Let kn be ? GetOption(options, "numeric", boolean, empty, undefined); ! ToString(kn).
    if let Some(kn) = get_boolean_option(vm, options, "numeric")? {
        overrides.push(("kn", kn.to_string()));
    }
    // 29-30. Let numberingSystem be ? GetOption(options, "numberingSystem", …); `type` nonterminal.
    if let Some(nu) = get_string_option(vm, options, "numberingSystem", &[], None)? {
        if !is_type_sequence(&nu) {
            return Err(vm.range_error(format!("Invalid numberingSystem: {nu}")));
        }
        overrides.push(("nu", nu));
    }
    // 32. Let r be MakeLocaleRecord(tag, opt, relevantExtensionKeys).
    let Some(locale) = make_locale_record(&tag, &overrides) else {
        return Err(vm.range_error(format!("Incorrect locale information provided: {tag}")));
    };
    // 33-40. Set locale's slots from r.
    Ok(create(vm, proto, IntlSlots::Locale(LocaleSlots { locale })))
}

/// ### MakeLocaleRecord ( tag, options, localeExtensionKeys ): the tag with each option
/// keyword set (replacing the tag's own), canonicalized. None for a tag that is no longer
/// structurally valid.
fn make_locale_record(tag: &str, overrides: &[(&'static str, String)]) -> Option<String> {
    let mut locale: Locale = parse_language_tag(tag)?;
    for (key, value) in overrides {
        // CanonicalizeUValue(key, value): lower case.
        let key = Key::try_from_str(key).ok()?;
        let value = UValue::try_from_str(&value.to_ascii_lowercase()).ok()?;
        locale.extensions.unicode.keywords.set(key, value);
    }
    let result = canonicalize(locale);
    // The canonical tag must parse again (it is what every getter reads).
    parse_language_tag(&result).map(|_| result)
}

/// The [[Locale]] of the `this` Intl.Locale.
pub(crate) fn this_locale(vm: &mut Vm, this: Value, method: &str) -> JsResult<String> {
    match initialized_locale(vm, this) {
        Some(l) => Ok(l),
        None => Err(vm.type_error(format!("Method Intl.Locale.prototype.{method} called on incompatible receiver"))),
    }
}

/// A new Intl.Locale for `tag` (already canonical), with %Intl.Locale.prototype%.
fn new_locale(vm: &mut Vm, tag: String) -> Value {
    let proto = vm.realm.intl_locale_prototype;
    create(vm, proto, IntlSlots::Locale(LocaleSlots { locale: tag }))
}

/// ### 14.3.3 Intl.Locale.prototype.maximize ( )
fn maximize(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "maximize")?;
    // 3. Let maximal be the result of the Add Likely Subtags algorithm applied to loc.[[Locale]].
    let maximal = match Locale::try_from_str(&tag) {
        Ok(mut l) => {
            // CLDR's likely subtags map a bare "und" to "en-Latn-US" (ICU4X leaves it alone).
            if l.id.language.is_unknown() && l.id.script.is_none() && l.id.region.is_none() {
                l.id.language = icu_locale_core::subtags::language!("en");
            }
            LocaleExpander::new_extended().maximize(&mut l.id);
            canonicalize(l)
        }
        Err(_) => tag,
    };
    // 4. Return ! Construct(%Intl.Locale%, maximal).
    Ok(new_locale(vm, maximal))
}

/// ### 14.3.4 Intl.Locale.prototype.minimize ( )
fn minimize(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "minimize")?;
    // 3. Let minimal be the result of the Remove Likely Subtags algorithm applied to loc.[[Locale]].
    let minimal = match Locale::try_from_str(&tag) {
        Ok(mut l) => {
            // A bare "und" minimizes as its likely subtags ("en-Latn-US") do: to "en".
            if l.id.language.is_unknown() && l.id.script.is_none() && l.id.region.is_none() {
                l.id.language = icu_locale_core::subtags::language!("en");
            }
            LocaleExpander::new_extended().minimize(&mut l.id);
            canonicalize(l)
        }
        Err(_) => tag,
    };
    // 4. Return ! Construct(%Intl.Locale%, minimal).
    Ok(new_locale(vm, minimal))
}

/// ### 14.3.5 Intl.Locale.prototype.toString ( )
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "toString")?;
    Ok(vm.str(&tag))
}

fn optional_str(vm: &mut Vm, s: Option<&str>) -> Value {
    match s {
        Some(s) => vm.str(s),
        None => Value::UNDEFINED,
    }
}

/// ### 14.3.6 get Intl.Locale.prototype.baseName
fn base_name_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "baseName")?;
    Ok(vm.str(base_name(&tag)))
}

fn keyword_getter(vm: &mut Vm, this: Value, name: &str, key: &str) -> JsResult<Value> {
    let tag = this_locale(vm, this, name)?;
    let value = keyword(&tag, key);
    Ok(optional_str(vm, value.as_deref()))
}

/// ### 14.3.7 get Intl.Locale.prototype.calendar
fn calendar(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "calendar", "ca")
}

/// ### 14.3.8 get Intl.Locale.prototype.caseFirst
fn case_first(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "caseFirst", "kf")
}

/// ### 14.3.9 get Intl.Locale.prototype.collation
fn collation(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "collation", "co")
}

/// ### get Intl.Locale.prototype.firstDayOfWeek
fn first_day_of_week(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "firstDayOfWeek", "fw")
}

/// ### 14.3.10 get Intl.Locale.prototype.hourCycle
fn hour_cycle(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "hourCycle", "hc")
}

/// ### 14.3.12 get Intl.Locale.prototype.numeric: whether `kn` is present as "" or "true".
fn numeric(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "numeric")?;
    Ok(Value::bool(matches!(keyword(&tag, "kn").as_deref(), Some("" | "true"))))
}

/// ### 14.3.13 get Intl.Locale.prototype.numberingSystem
fn numbering_system(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    keyword_getter(vm, this, "numberingSystem", "nu")
}

/// ### 14.3.11 get Intl.Locale.prototype.language
fn language(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "language")?;
    let parts = language_parts(base_name(&tag));
    Ok(vm.str(parts.language))
}

/// ### 14.3.15 get Intl.Locale.prototype.script
fn script(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "script")?;
    let parts = language_parts(base_name(&tag));
    Ok(optional_str(vm, parts.script))
}

/// ### 14.3.14 get Intl.Locale.prototype.region
fn region(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "region")?;
    let parts = language_parts(base_name(&tag));
    Ok(optional_str(vm, parts.region))
}

/// ### get Intl.Locale.prototype.variants
fn variants(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "variants")?;
    let parts = language_parts(base_name(&tag));
    Ok(optional_str(vm, parts.variants.as_deref()))
}

/// The region, script and language parts of a canonical tag, for [`super::locale_info`].
pub(crate) fn tag_region(tag: &str) -> Option<String> {
    language_parts(base_name(tag)).region.map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_tags() {
        assert_eq!(base_name("de-Latn-DE-1996-u-ca-gregory"), "de-Latn-DE-1996");
        assert_eq!(base_name("en"), "en");
        assert_eq!(base_name("en-x-private"), "en");
        let p = language_parts("de-Latn-DE-1996-fonipa");
        assert_eq!((p.language, p.script, p.region), ("de", Some("Latn"), Some("DE")));
        assert_eq!(p.variants.as_deref(), Some("1996-fonipa"));
        assert_eq!(keyword("en-u-ca-gregory-kn", "kn").as_deref(), Some(""));
        assert_eq!(keyword("en-u-fw-yung-fong-kn", "fw").as_deref(), Some("yung-fong"));
        assert_eq!(keyword("en-x-u-ca-gregory", "ca"), None);
        assert_eq!(keyword("en-u-attr-ca-gregory", "ca").as_deref(), Some("gregory"));
    }
}
