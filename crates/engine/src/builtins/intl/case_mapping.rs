//! Language-sensitive case mapping (ECMA-402 §19.1.2-3, TransformCase), over ICU4X's case
//! mapper with its compiled SpecialCasing data.
//!
//! **Available locales** are the languages whose case mappings differ from the root's in ICU
//! as V8 ships it: Azeri and Turkish (dotted and dotless i), Lithuanian (the dot above a
//! lowercase i kept under accents), Greek (uppercase drops the accents of vowels). ICU4X
//! also maps Armenian's ech-yiwn ligature for `hy`, which ICU4C does not; it is left out so
//! `"և".toLocaleUpperCase("hy")` stays what node prints. Every other language is `und`: the
//! locale-independent mapping of `toLowerCase` / `toUpperCase`.

use icu_casemap::CaseMapper;
use icu_locale_core::LanguageIdentifier;

use super::locales::{canonicalize_locale_list, default_locale, parse_language_tag};
use crate::builtins::string::{convert_case, map_code_point_runs};
use crate::error::JsResult;
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

/// The languages with case mappings of their own (see the module comment).
const AVAILABLE: [&str; 4] = ["az", "el", "lt", "tr"];

/// ### TransformCase ( S, locales, targetCase )
pub(crate) fn transform_case(vm: &mut Vm, s: &JsStr, locales: Value, upper: bool) -> JsResult<JsStr> {
    // 1. Let requestedLocales be ? CanonicalizeLocaleList(locales).
    let requested = canonicalize_locale_list(vm, locales)?;
    // 2. If requestedLocales is not empty, let requestedLocale be requestedLocales[0];
    // 3. else let requestedLocale be DefaultLocale().
    let requested_locale = match requested.into_iter().next() {
        Some(tag) => tag,
        None => default_locale(vm),
    };
    // 4-6. Let match be LookupMatchingLocaleByPrefix(availableLocales, « requestedLocale »):
    //      the extensions removed, subtags dropped from the end until an available locale
    //      remains. Every available locale is a bare language, so that is the tag's language.
    let language = match_language(&requested_locale);
    // 7-9. Map the code points with the language's case mappings (the root's when none).
    Ok(match language {
        None => convert_case(s, upper),
        Some(langid) => {
            let mapper = CaseMapper::new();
            map_code_point_runs(s, |run| {
                let mapped = if upper {
                    mapper.uppercase_to_string(run, &langid)
                } else {
                    mapper.lowercase_to_string(run, &langid)
                };
                mapped.into_owned()
            })
        }
    })
}

/// The available language `tag` falls back to by prefix, if any.
fn match_language(tag: &str) -> Option<LanguageIdentifier> {
    let locale = parse_language_tag(tag)?;
    let language = locale.id.language;
    AVAILABLE.contains(&language.as_str()).then(|| LanguageIdentifier::from(language))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_matches_the_available_language_it_starts_with() {
        let lang = |tag: &str| match_language(tag).map(|l| l.to_string());
        assert_eq!(lang("tr").as_deref(), Some("tr"));
        assert_eq!(lang("tr-TR-u-co-search").as_deref(), Some("tr"));
        assert_eq!(lang("az-Latn-AZ").as_deref(), Some("az"));
        assert_eq!(lang("lt-x-private").as_deref(), Some("lt"));
        assert_eq!(lang("en-US"), None);
        assert_eq!(lang("hy"), None);
    }
}
