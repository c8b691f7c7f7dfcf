//! Intl.DisplayNames (ECMA-402 §12): https://tc39.es/ecma402/#intl-displaynames-objects
//!
//! Language, region and script names are CLDR's through ICU4X `icu_experimental`'s
//! display-names formatters, currency names its currency display-name data. ICU4X has no
//! calendar or date-time-field names: those two types answer with the fallback (the code,
//! or undefined for `fallback: "none"`), which ECMA-402 allows for a name the data lacks.

use icu_experimental::dimension::provider::currency::displayname::CurrencyDisplaynameV1;
use icu_experimental::displaynames::multi::{
    LanguageDisplayNames, LocaleDisplayNamesFormatter, RegionDisplayNames, ScriptDisplayNames,
};
use icu_experimental::displaynames::{DisplayNamesOptions, LanguageDisplay, Style};
use icu_experimental::provider::Baked;
use icu_locale_core::subtags::{Region, Script};
use icu_locale_core::Locale;
use icu_provider::prelude::*;

use super::locales::is_type_sequence;
use super::locales::{canonicalize_locale_list, canonicalize_tag, resolve_locale, supported_locales_of};
use super::options::get_string_option;
use super::{create, ResultObject};
use crate::builtins::temporal::get_options_object;
use crate::builtins::{arg, NativeDef};
use crate::error::JsResult;
use crate::heap::intl_slots::{DisplayNamesSlots, IntlSlots};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_rust_string;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Intl.DisplayNames", 2, constructor),
    native!("Intl.DisplayNames.supportedLocalesOf", 1, supported_locales),
    native!("Intl.DisplayNames.prototype.of", 1, of),
    native!("Intl.DisplayNames.prototype.resolvedOptions", 0, resolved_options),
];

/// ### 12.1.1 Intl.DisplayNames ( locales, options )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Intl.DisplayNames requires 'new'"));
    }
    // 2. Let displayNames be ? OrdinaryCreateFromConstructor(NewTarget, "%Intl.DisplayNames.prototype%", …).
    let default = vm.realm.intl_display_names_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, arg(args, 0))?;
    // 4. If options is undefined, throw a TypeError exception.
    let options = arg(args, 1);
    if options.is_undefined() {
        return Err(vm.type_error("Intl.DisplayNames requires an options object with a type"));
    }
    // 5. Set options to ? GetOptionsObject(options).
    let options = get_options_object(vm, options)?;
    // 7. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    let matcher =
        get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?.unwrap_or_default();
    // 9. Let r be ResolveLocale(%Intl.DisplayNames%.[[AvailableLocales]], requestedLocales, opt, « », localeData).
    let r = resolve_locale(vm, &requested, &matcher, &[], &[]);
    // 10. Let style be ? GetOption(options, "style", string, « "narrow", "short", "long" », "long").
    let style =
        get_string_option(vm, options, "style", &["narrow", "short", "long"], Some("long"))?.unwrap_or_default();
    // 12. Let type be ? GetOption(options, "type", string, « "language", "region", "script", "currency", "calendar", "dateTimeField" », undefined).
    let kind = get_string_option(
        vm,
        options,
        "type",
        &["language", "region", "script", "currency", "calendar", "dateTimeField"],
        None,
    )?;
    // 13. If type is undefined, throw a TypeError exception.
    let Some(kind) = kind else {
        return Err(vm.type_error("Intl.DisplayNames requires a type option"));
    };
    // 15. Let fallback be ? GetOption(options, "fallback", string, « "code", "none" », "code").
    let fallback = get_string_option(vm, options, "fallback", &["code", "none"], Some("code"))?.unwrap_or_default();
    // 24. Let languageDisplay be ? GetOption(options, "languageDisplay", string, « "dialect", "standard" », "dialect").
    let language_display =
        get_string_option(vm, options, "languageDisplay", &["dialect", "standard"], Some("dialect"))?
            .unwrap_or_default();
    // 25. If type is "language", set displayNames.[[LanguageDisplay]] to languageDisplay.
    let language_display = (kind == "language").then_some(language_display);
    let slots = DisplayNamesSlots { locale: r.locale, style, kind, fallback, language_display };
    Ok(create(vm, proto, IntlSlots::DisplayNames(slots)))
}

fn supported_locales(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    supported_locales_of(vm, arg(args, 0), arg(args, 1))
}

fn this_display_names(vm: &mut Vm, this: Value, method: &str) -> JsResult<DisplayNamesSlots> {
    if let Some(o) = this.as_object() {
        if let Class::Intl(s) = &vm.heap.obj(o).class {
            if let IntlSlots::DisplayNames(d) = &**s {
                return Ok(d.clone());
            }
        }
    }
    Err(vm.type_error(format!("Method Intl.DisplayNames.prototype.{method} called on incompatible receiver")))
}

fn is_alpha(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Whether `code` matches `unicode_language_id` (without "root"): language, then optional
/// script and region, then variants.
fn is_unicode_language_id(code: &str) -> bool {
    let subtags: Vec<&str> = code.split('-').collect();
    let language = subtags[0];
    if !((matches!(language.len(), 2 | 3) || (5..=8).contains(&language.len())) && is_alpha(language)) {
        return false;
    }
    let mut i = 1;
    if subtags.get(i).is_some_and(|s| s.len() == 4 && is_alpha(s)) {
        i += 1;
    }
    if subtags
        .get(i)
        .is_some_and(|s| (s.len() == 2 && is_alpha(s)) || (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit())))
    {
        i += 1;
    }
    subtags[i..].iter().all(|s| {
        s.bytes().all(|b| b.is_ascii_alphanumeric())
            && ((5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit()))
    })
}

/// ### 12.5.1 CanonicalCodeForDisplayNames ( type, code ); None for a RangeError.
fn canonical_code(kind: &str, code: &str) -> Option<String> {
    match kind {
        // 1. language: a unicode_language_id, structurally valid, canonicalized.
        "language" => is_unicode_language_id(code).then(|| canonicalize_tag(code)).flatten(),
        // 2. region: a unicode_region_subtag, upper case.
        "region" => {
            let ok =
                (code.len() == 2 && is_alpha(code)) || (code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()));
            ok.then(|| code.to_ascii_uppercase())
        }
        // 3. script: a unicode_script_subtag, title case.
        "script" => (code.len() == 4 && is_alpha(code)).then(|| {
            let lower = code.to_ascii_lowercase();
            lower[..1].to_ascii_uppercase() + &lower[1..]
        }),
        // 4. calendar: the `type` nonterminal without the UTS 35 backwards-compatibility
        // syntax (no "_"; it is already excluded), lower case.
        "calendar" => is_type_sequence(code).then(|| code.to_ascii_lowercase()),
        // 5. dateTimeField: IsValidDateTimeFieldCode.
        "dateTimeField" => matches!(
            code,
            "era"
                | "year"
                | "quarter"
                | "month"
                | "weekOfYear"
                | "weekday"
                | "day"
                | "dayPeriod"
                | "hour"
                | "minute"
                | "second"
                | "timeZoneName"
        )
        .then(|| code.to_string()),
        // 6-8. currency: IsWellFormedCurrencyCode, upper case.
        _ => (code.len() == 3 && is_alpha(code)).then(|| code.to_ascii_uppercase()),
    }
}

fn icu_options(slots: &DisplayNamesSlots) -> DisplayNamesOptions {
    let mut options = DisplayNamesOptions::default();
    options.style = Some(match slots.style.as_str() {
        "narrow" => Style::Narrow,
        "short" => Style::Short,
        _ => Style::Long,
    });
    options.language_display = match slots.language_display.as_deref() {
        Some("standard") => LanguageDisplay::Standard,
        _ => LanguageDisplay::Dialect,
    };
    options
}

/// The locale's name for `code` (canonical), if CLDR has one.
fn display_name(slots: &DisplayNamesSlots, code: &str) -> Option<String> {
    let locale = Locale::try_from_str(&slots.locale).ok()?;
    let prefs = (&locale).into();
    let options = icu_options(slots);
    match slots.kind.as_str() {
        "language" => {
            let tag = Locale::try_from_str(code).ok()?;
            // A language CLDR cannot name has no display name (the formatter would
            // answer with the code).
            LanguageDisplayNames::try_new(prefs, options).ok()?.of(tag.id.language)?;
            let formatter = LocaleDisplayNamesFormatter::try_new(prefs, options).ok()?;
            Some(formatter.of(&tag).into_owned())
        }
        "region" => {
            let region = Region::try_from_str(code).ok()?;
            RegionDisplayNames::try_new(prefs, options).ok()?.of(region).map(str::to_string)
        }
        "script" => {
            let script = Script::try_from_str(code).ok()?;
            ScriptDisplayNames::try_new(prefs, options).ok()?.of(script).map(str::to_string)
        }
        "currency" => currency_name(&locale, code),
        _ => None,
    }
}

/// The locale's name for the currency `code` (upper case), if CLDR has one; also the test
/// of which currencies Intl.supportedValuesOf lists.
pub(crate) fn currency_name(locale: &Locale, code: &str) -> Option<String> {
    let attributes = DataMarkerAttributes::try_from_str(code).ok()?;
    let data_locale = DataLocale::from(locale);
    let mut metadata = DataRequestMetadata::default();
    metadata.silent = true;
    let req = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &data_locale),
        metadata,
    };
    let response = DataProvider::<CurrencyDisplaynameV1>::load(&Baked, req).ok()?;
    Some(response.payload.get().to_string())
}

/// ### 12.3.3 Intl.DisplayNames.prototype.of ( code )
fn of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let displayNames be this value; RequireInternalSlot(displayNames, [[InitializedDisplayNames]]).
    let slots = this_display_names(vm, this, "of")?;
    // 4. Let code be ? ToString(code).
    let code = to_rust_string(vm, arg(args, 0))?;
    // 5. Set code to ? CanonicalCodeForDisplayNames(type, code).
    let Some(code) = canonical_code(&slots.kind, &code) else {
        return Err(vm.range_error(format!("invalid_argument: {code} is not a valid {} code", slots.kind)));
    };
    // 6-7. If fields has a field [[<code>]], return fields.[[<code>]].
    if let Some(name) = display_name(&slots, &code) {
        return Ok(vm.str(&name));
    }
    // 8. If displayNames.[[Fallback]] is "code", return code.
    if slots.fallback == "code" {
        return Ok(vm.str(&code));
    }
    // 9. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 12.3.4 Intl.DisplayNames.prototype.resolvedOptions ( )
fn resolved_options(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let slots = this_display_names(vm, this, "resolvedOptions")?;
    let mut out = ResultObject::new(vm);
    out.string(vm, "locale", &slots.locale);
    out.string(vm, "style", &slots.style);
    out.string(vm, "type", &slots.kind);
    out.string(vm, "fallback", &slots.fallback);
    if let Some(ld) = &slots.language_display {
        out.string(vm, "languageDisplay", ld);
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_checked_and_canonicalized() {
        assert_eq!(canonical_code("region", "us").as_deref(), Some("US"));
        assert_eq!(canonical_code("region", "u1"), None);
        assert_eq!(canonical_code("script", "lATN").as_deref(), Some("Latn"));
        assert_eq!(canonical_code("currency", "eur").as_deref(), Some("EUR"));
        assert_eq!(canonical_code("language", "en-u-ca-gregory"), None);
        assert_eq!(canonical_code("language", "root"), None);
        assert_eq!(canonical_code("language", "EN-us").as_deref(), Some("en-US"));
        assert_eq!(canonical_code("dateTimeField", "Era"), None);
        assert_eq!(canonical_code("calendar", "gregory").as_deref(), Some("gregory"));
    }
}
