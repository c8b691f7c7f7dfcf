//! Locale lists and locale negotiation (ECMA-402 §6.2, §9.2): IsStructurallyValidLanguageTag,
//! CanonicalizeUnicodeLocaleId, CanonicalizeLocaleList, LookupMatcher / BestFitMatcher,
//! ResolveLocale, SupportedLocales and DefaultLocale, over ICU4X's locale parser,
//! canonicalizer (CLDR aliases) and likely-subtags data.
//!
//! **Available locales.** Every constructor shares one set: a locale is available when its
//! language is one CLDR's likely-subtags data knows (so `en`, `en-US`, `de-CH` and `zh-Hant-TW`
//! are, `und`, `zxx` and unknown languages are not) and it carries no extension. ICU4X's
//! compiled data then falls back within the language (`de-CH` → `de` → root) as ICU does.
//!
//! **The default locale** is the run's, [`crate::vm::VmOptions::locale`] (`en-US` unless the
//! embedder configured one); the host's `LANG`/`LC_*` are never read.

use std::collections::BTreeMap;

use icu_locale::{LocaleCanonicalizer, LocaleExpander, TransformResult};
use icu_locale_core::extensions::unicode::{Key, Value as UValue};
use icu_locale_core::{LanguageIdentifier, Locale};

use super::options::get_string_option;
use crate::error::JsResult;
use crate::runtime::convert::{to_object, to_rust_string};
use crate::runtime::property::{get, has_property, length_of_array_like};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ### IsStructurallyValidLanguageTag ( locale ), returning the parsed locale: a
/// `unicode_locale_id` (hyphens only, no `root`, no extlang) without duplicate variants or
/// duplicate singletons.
pub(crate) fn parse_language_tag(tag: &str) -> Option<Locale> {
    if tag.is_empty() || !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    let subtags: Vec<String> = tag.split('-').map(str::to_ascii_lowercase).collect();
    // Variants (before the first singleton) must be distinct, and so must the singletons
    // (up to the private-use `x`, after which anything goes).
    let mut variants: Vec<&str> = Vec::new();
    let mut singletons: Vec<&str> = Vec::new();
    let mut in_language = true;
    for (i, s) in subtags.iter().enumerate() {
        if s.len() == 1 {
            if s == "x" {
                break;
            }
            if singletons.contains(&s.as_str()) {
                return None;
            }
            singletons.push(s);
            in_language = false;
        } else if in_language && i > 0 {
            let variant = (5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit());
            if variant {
                if variants.contains(&s.as_str()) {
                    return None;
                }
                variants.push(s);
            }
        }
    }
    // ICU4X accepts a 4-letter language ("root") that unicode_language_subtag does not.
    if subtags[0].len() == 4 {
        return None;
    }
    Locale::try_from_str(tag).ok()
}

/// ### CanonicalizeUnicodeLocaleId ( locale ): CLDR aliases replaced, subtags in canonical
/// case and order.
pub(crate) fn canonicalize(mut locale: Locale) -> String {
    LocaleCanonicalizer::new_extended().canonicalize(&mut locale);
    replace_value_aliases(&locale.to_string())
}

/// CLDR's deprecated `-u-` and `-t-` values (common/bcp47/*.xml `preferred` and `alias`
/// attributes) by (key, alias, canonical value), which ICU4X's canonicalizer leaves alone.
const VALUE_ALIASES: &[(&str, &str, &str)] = &[
    ("ca", "ethiopic-amete-alem", "ethioaa"),
    ("ca", "islamicc", "islamic-civil"),
    ("ks", "primary", "level1"),
    ("ks", "tertiary", "level3"),
    ("ms", "imperial", "uksystem"),
    ("kb", "yes", "true"),
    ("kc", "yes", "true"),
    ("kh", "yes", "true"),
    ("kk", "yes", "true"),
    ("kn", "yes", "true"),
    ("tz", "aqams", "nzakl"),
    ("tz", "cnckg", "cnsha"),
    ("tz", "cnchg", "cnsha"),
    ("tz", "cnhrb", "cnsha"),
    ("tz", "cnkhg", "cnurc"),
    ("tz", "eire", "iedub"),
    ("tz", "est", "papty"),
    ("tz", "gmt0", "gmt"),
    ("tz", "uct", "utc"),
    ("tz", "usnavajo", "usden"),
    ("tz", "zulu", "utc"),
    ("m0", "names", "prprname"),
];

/// Replaces the deprecated keyword values of a canonical tag (`und-u-ks-primary` →
/// `und-u-ks-level1`); a `-u-` value that becomes "true" is dropped, as canonical form has it.
fn replace_value_aliases(tag: &str) -> String {
    let subtags: Vec<&str> = tag.split('-').collect();
    let mut out: Vec<String> = Vec::with_capacity(subtags.len());
    let mut singleton = "";
    let mut i = 0;
    while i < subtags.len() {
        let s = subtags[i];
        if s.len() == 1 {
            singleton = s;
            out.push(s.to_string());
            i += 1;
            if singleton == "x" {
                out.extend(subtags[i..].iter().map(|s| s.to_string()));
                break;
            }
            continue;
        }
        let is_key = s.len() == 2 && (singleton == "u" || (singleton == "t" && s.as_bytes()[1].is_ascii_digit()));
        if !is_key {
            out.push(s.to_string());
            i += 1;
            continue;
        }
        // A key and its value subtags (up to the next key or singleton).
        let mut end = i + 1;
        while end < subtags.len() && subtags[end].len() > 2 {
            end += 1;
        }
        let value = subtags[i + 1..end].join("-");
        let value = VALUE_ALIASES
            .iter()
            .find(|(k, alias, _)| *k == s && *alias == value)
            .map_or(value.clone(), |(_, _, canonical)| canonical.to_string());
        out.push(s.to_string());
        if !(value.is_empty() || (singleton == "u" && value == "true")) {
            out.push(value);
        }
        i = end;
    }
    out.join("-")
}

/// Whether `s` matches the `type` production of UTS #35 (`(3*8alphanum) *("-" (3*8alphanum))`):
/// the shape of a `-u-` keyword value (calendar, collation, numbering system).
pub(crate) fn is_type_sequence(s: &str) -> bool {
    !s.is_empty() && s.split('-').all(|t| (3..=8).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A tag that is known structurally valid, canonicalized.
pub(crate) fn canonicalize_tag(tag: &str) -> Option<String> {
    parse_language_tag(tag).map(canonicalize)
}

/// The [[Locale]] of an `Intl.Locale` object, if `v` is one.
fn locale_slot(vm: &Vm, v: Value) -> Option<String> {
    super::locale::initialized_locale(vm, v)
}

/// ### CanonicalizeLocaleList ( locales )
pub(crate) fn canonicalize_locale_list(vm: &mut Vm, locales: Value) -> JsResult<Vec<String>> {
    // 1. If locales is undefined, return a new empty List.
    if locales.is_undefined() {
        return Ok(Vec::new());
    }
    // 2. Let seen be a new empty List.
    let mut seen: Vec<String> = Vec::new();
    // 3. If locales is a String or has an [[InitializedLocale]] slot, O is « locales »;
    // 4. Else, let O be ? ToObject(locales).
    if locales.is_string() || locale_slot(vm, locales).is_some() {
        let tag = match locale_slot(vm, locales) {
            Some(tag) => tag,
            None => to_rust_string(vm, locales)?,
        };
        let canonical = canonicalize_tag(&tag).ok_or_else(|| invalid_tag(vm, &tag))?;
        return Ok(vec![canonical]);
    }
    let o: ObjectId = to_object(vm, locales)?;
    // 5. Let len be ? LengthOfArrayLike(O).
    let len = length_of_array_like(vm, o)?;
    // 6-7. For each k < len:
    for k in 0..len {
        vm.charge(1)?;
        // a. Let Pk be ! ToString(𝔽(k)).
        let pk = vm.key(&k.to_string());
        // b. Let kPresent be ? HasProperty(O, Pk).
        if !has_property(vm, o, pk)? {
            continue;
        }
        // c.i. Let kValue be ? Get(O, Pk).
        let k_value = get(vm, o, pk, Value::object(o))?;
        // c.ii. If kValue is not a String or an Object, throw a TypeError exception.
        if !k_value.is_string() && k_value.as_object().is_none() {
            return Err(vm.type_error("Language ID should be string or object."));
        }
        // c.iii-iv. The [[Locale]] of an Intl.Locale, else ? ToString(kValue).
        let tag = match locale_slot(vm, k_value) {
            Some(tag) => tag,
            None => to_rust_string(vm, k_value)?,
        };
        // c.v. If IsStructurallyValidLanguageTag(tag) is false, throw a RangeError.
        // c.vi. Let canonicalizedTag be CanonicalizeUnicodeLocaleId(tag).
        let canonical = canonicalize_tag(&tag).ok_or_else(|| invalid_tag(vm, &tag))?;
        // c.vii. If seen does not contain canonicalizedTag, append it.
        if !seen.contains(&canonical) {
            seen.push(canonical);
        }
    }
    // 8. Return seen.
    Ok(seen)
}

fn invalid_tag(vm: &mut Vm, tag: &str) -> crate::error::Throw {
    vm.range_error(format!("Incorrect locale information provided: {tag}"))
}

/// ### DefaultLocale ( ): the run's configured locale, canonicalized (an invalid
/// configuration falls back to `en-US`).
pub(crate) fn default_locale(vm: &Vm) -> String {
    canonicalize_tag(&vm.options.locale).filter(|tag| is_available(tag)).unwrap_or_else(|| "en-US".to_string())
}

/// Whether `tag` is in [[AvailableLocales]] (see the module comment).
pub(crate) fn is_available(tag: &str) -> bool {
    let Ok(locale) = Locale::try_from_str(tag) else { return false };
    if !locale.extensions.is_empty() || locale.id.language.is_unknown() {
        return false;
    }
    let mut language = LanguageIdentifier::from(locale.id.language);
    LocaleExpander::new_extended().maximize(&mut language) == TransformResult::Modified
}

/// `locale` without its Unicode locale extension sequence (`-u-…`), and that sequence.
fn split_unicode_extension(tag: &str) -> (String, Option<String>) {
    let subtags: Vec<&str> = tag.split('-').collect();
    let Some(start) = subtags.iter().position(|s| s.eq_ignore_ascii_case("u")) else {
        return (tag.to_string(), None);
    };
    // A `u` after the private-use `x` is private use, not an extension.
    if subtags[..start].iter().any(|s| s.eq_ignore_ascii_case("x")) {
        return (tag.to_string(), None);
    }
    let end = subtags[start + 1..].iter().position(|s| s.len() == 1).map_or(subtags.len(), |i| start + 1 + i);
    let extension = subtags[start..end].join("-");
    let rest: Vec<&str> = subtags[..start].iter().chain(&subtags[end..]).copied().collect();
    (rest.join("-"), Some(extension))
}

/// ### BestAvailableLocale ( availableLocales, locale )
fn best_available_locale(locale: &str) -> Option<String> {
    // 1. Let candidate be locale.
    let mut candidate = locale.to_string();
    // 2. Repeat,
    loop {
        // a. If availableLocales contains candidate, return candidate.
        if is_available(&candidate) {
            return Some(candidate);
        }
        // b. Let pos be the character index of the last occurrence of "-" in candidate.
        //    If that character does not occur, return undefined.
        let mut pos = candidate.rfind('-')?;
        // c. If pos ≥ 2 and the character "-" occurs at index pos - 2, decrease pos by 2.
        if pos >= 2 && candidate.as_bytes()[pos - 2] == b'-' {
            pos -= 2;
        }
        // d. Let candidate be the substring of candidate from 0 to pos.
        candidate.truncate(pos);
    }
}

/// What LookupMatcher returns: the matched available locale and the requested locale's
/// Unicode extension, if any.
struct Match {
    locale: String,
    extension: Option<String>,
}

/// ### LookupMatcher ( availableLocales, requestedLocales ). BestFitMatcher is this one too:
/// the lookup algorithm over CLDR's fallback is what ICU's best fit does for these data.
fn lookup_matcher(vm: &Vm, requested: &[String]) -> Match {
    // 1. For each element locale of requestedLocales, do
    for locale in requested {
        // a. Let noExtensionsLocale be the String value that is locale with any Unicode
        //    locale extension sequences removed.
        let (no_extensions, extension) = split_unicode_extension(locale);
        // b. Let availableLocale be BestAvailableLocale(availableLocales, noExtensionsLocale).
        // c. If availableLocale is not undefined, return it with the extension.
        if let Some(found) = best_available_locale(&no_extensions) {
            return Match { locale: found, extension };
        }
    }
    // 2-3. The default locale, with no extension.
    Match { locale: default_locale(vm), extension: None }
}

/// One relevant extension key of a constructor and its locale data: the default value
/// (None = null, as Collator's `co`) and which values a locale supports.
pub(crate) struct KeyData {
    pub key: &'static str,
    pub default: fn(&str) -> Option<String>,
    pub supports: fn(&str, &str) -> bool,
}

/// ### ResolveLocale's result: the locale (with the honoured keywords), the data locale,
/// and the value of each relevant key (None = null).
pub(crate) struct Resolved {
    pub locale: String,
    pub data_locale: String,
    pub values: BTreeMap<&'static str, Option<String>>,
}

/// ### ResolveLocale ( availableLocales, requestedLocales, options, relevantExtensionKeys,
/// localeData ). `matcher` is options.[[localeMatcher]]; `option_values` the constructor's
/// options for each key (None = undefined).
pub(crate) fn resolve_locale(
    vm: &Vm,
    requested: &[String],
    _matcher: &str,
    keys: &[KeyData],
    option_values: &[(&'static str, Option<String>)],
) -> Resolved {
    // 1-3. Let r be LookupMatcher or BestFitMatcher (the same here).
    let r = lookup_matcher(vm, requested);
    // 4. Let foundLocale be r.[[locale]].
    let found = r.locale;
    let extension_keywords: Option<Locale> =
        r.extension.as_deref().and_then(|e| Locale::try_from_str(&format!("und-{e}")).ok());
    // 5. Let result be a new Record; set result.[[dataLocale]] to foundLocale.
    let mut values = BTreeMap::new();
    // 6. Let supportedKeywords be a new empty List.
    let mut supported: Vec<(Key, String)> = Vec::new();
    // 7. For each element key of relevantExtensionKeys, do
    for data in keys {
        // a-c. Let value be the first element of keyLocaleData (the default).
        let mut value: Option<String> = (data.default)(&found);
        // d. Let supportedKeyword be empty.
        let mut supported_keyword: Option<(Key, String)> = None;
        let Ok(key) = Key::try_from_str(data.key) else { continue };
        // e. If r.[[extension]] is not empty and contains key, then
        if let Some(ext) = extension_keywords.as_ref().and_then(|l| l.extensions.unicode.keywords.get(&key)) {
            let requested_value = ext.to_string();
            // i-ii. A value the locale supports is taken; an absent value means "true".
            if !requested_value.is_empty() && requested_value != "true" {
                if (data.supports)(&found, &requested_value) {
                    value = Some(requested_value.clone());
                    supported_keyword = Some((key, requested_value));
                }
            } else if (data.supports)(&found, "true") {
                value = Some("true".to_string());
                supported_keyword = Some((key, String::new()));
            }
        }
        // f. Let optionsValue be options.[[<key>]].
        // g. If optionsValue is a String, then: lowercase, canonicalize, "" → "true".
        let options_value = option_values.iter().find(|(k, _)| *k == data.key).and_then(|(_, v)| v.clone());
        if let Some(ov) = options_value {
            let ov = ov.to_ascii_lowercase();
            let ov = if ov.is_empty() { "true".to_string() } else { ov };
            // h. If SameValue(optionsValue, value) is false and keyLocaleData contains
            //    optionsValue, then take it and drop the keyword.
            if value.as_deref() != Some(ov.as_str()) && (data.supports)(&found, &ov) {
                value = Some(ov);
                supported_keyword = None;
            }
        }
        // i-j. Set result.[[<key>]] to value; append supportedKeyword.
        values.insert(data.key, value);
        supported.extend(supported_keyword);
    }
    // 8. If supportedKeywords is not empty, insert them into foundLocale.
    let locale = if supported.is_empty() { found.clone() } else { insert_keywords(&found, &supported) };
    // 9-10. result.[[locale]] = foundLocale.
    Resolved { locale, data_locale: found, values }
}

/// ### InsertUnicodeExtensionAndCanonicalize ( locale, attributes, keywords )
fn insert_keywords(locale: &str, keywords: &[(Key, String)]) -> String {
    let Ok(mut l) = Locale::try_from_str(locale) else { return locale.to_string() };
    for (key, value) in keywords {
        let v = if value.is_empty() { UValue::try_from_str("true") } else { UValue::try_from_str(value) };
        if let Ok(v) = v {
            l.extensions.unicode.keywords.set(*key, v);
        }
    }
    canonicalize(l)
}

/// ### LookupSupportedLocales / BestFitSupportedLocales ( availableLocales, requestedLocales )
fn supported_locales_list(requested: &[String]) -> Vec<String> {
    requested
        .iter()
        .filter(|locale| best_available_locale(&split_unicode_extension(locale).0).is_some())
        .cloned()
        .collect()
}

/// ### SupportedLocales ( availableLocales, requestedLocales, options ), as an array:
/// the body of every constructor's `supportedLocalesOf`.
pub(crate) fn supported_locales_of(vm: &mut Vm, locales: Value, options: Value) -> JsResult<Value> {
    // %Intl.X%.supportedLocalesOf 2. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, locales)?;
    // SupportedLocales 1. Set options to ? CoerceOptionsToObject(options).
    let options = super::options::coerce_options_to_object(vm, options)?;
    // 2. Let matcher be ? GetOption(options, "localeMatcher", string, « "lookup", "best fit" », "best fit").
    get_string_option(vm, options, "localeMatcher", &["lookup", "best fit"], Some("best fit"))?;
    // 3-5. The supported subset, in order, as an array.
    let list = supported_locales_list(&requested);
    let values: Vec<Value> = list.iter().map(|s| vm.str(s)).collect();
    Ok(vm.new_array(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_validated_and_canonicalized() {
        assert_eq!(canonicalize_tag("EN-us").as_deref(), Some("en-US"));
        assert_eq!(canonicalize_tag("en-u-kn-true").as_deref(), Some("en-u-kn"));
        assert_eq!(canonicalize_tag("iw").as_deref(), Some("he"));
        assert_eq!(canonicalize_tag("und-u-kb-yes").as_deref(), Some("und-u-kb"));
        assert_eq!(canonicalize_tag("und-u-ca-ethiopic-amete-alem").as_deref(), Some("und-u-ca-ethioaa"));
        assert_eq!(
            canonicalize_tag("und-Latn-t-und-hani-m0-names").as_deref(),
            Some("und-Latn-t-und-hani-m0-prprname")
        );
        assert_eq!(canonicalize_tag("en-t-m0-true").as_deref(), Some("en-t-m0-true"));
        for bad in ["", "en_US", "root", "en-US-u", "de-1996-1996", "en-a-x-a-b", "en-u-a-u-b", "x-private"] {
            assert_eq!(canonicalize_tag(bad), None, "{bad}");
        }
        assert!(canonicalize_tag("en-x-u-a-u-b").is_some());
    }

    #[test]
    fn availability_and_lookup() {
        assert!(is_available("en-US"));
        assert!(is_available("de"));
        assert!(is_available("zh-Hant-TW"));
        assert!(!is_available("und"));
        assert!(!is_available("zxx"));
        assert_eq!(best_available_locale("zxx-Latn").as_deref(), None);
        assert_eq!(split_unicode_extension("de-u-co-phonebk-x-u-a").0, "de-x-u-a");
        assert_eq!(split_unicode_extension("de-u-co-phonebk-kn").1.as_deref(), Some("u-co-phonebk-kn"));
    }
}
