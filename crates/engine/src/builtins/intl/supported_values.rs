//! Intl.supportedValuesOf (ECMA-402 §8.3.2): https://tc39.es/ecma402/#sec-intl.supportedvaluesof
//!
//! Each list is derived from the table or data the constructors consult, so a listed value
//! is exactly one they accept: calendars from DateTimeFormat's calendar table, collations
//! through Collator's tailoring check, currencies that DisplayNames names, numbering
//! systems with the digits NumberFormat and DateTimeFormat format, time zones by the
//! compiled IANA data that DateTimeFormat and Temporal resolve, units from NumberFormat's
//! sanctioned table. Every list is sorted by code units and has no duplicates.

use icu_locale_core::Locale;
use icu_time::zone::iana::IanaParserExtendedBorrowed;

use super::collator::supports_collation;
use super::date_time_pattern::CALENDARS;
use super::display_names::currency_name;
use super::number_data::{has_digits, SIMPLE_DIGITS};
use super::number_format::SANCTIONED_UNITS;
use crate::builtins::arg;
use crate::error::JsResult;
use crate::runtime::convert::to_rust_string;
use crate::value::Value;
use crate::vm::Vm;

/// CLDR's collation types with a locale that tailors each (AvailableCollations checks the
/// type against that locale's data, as Collator's ResolveLocale does).
const COLLATIONS: &[(&str, &str)] = &[
    ("big5han", "zh"),
    ("compat", "ar"),
    ("dict", "si"),
    ("direct", "hi"),
    ("ducet", "en"),
    ("emoji", "en"),
    ("eor", "en"),
    ("gb2312", "zh"),
    ("phonebk", "de"),
    ("phonetic", "ln"),
    ("pinyin", "zh"),
    ("reformed", "sv"),
    ("searchjl", "ko"),
    ("stroke", "zh"),
    ("trad", "es"),
    ("unihan", "zh"),
    ("zhuyin", "zh"),
];

/// ### 8.3.2 Intl.supportedValuesOf ( key )
pub(crate) fn supported_values_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let key be ? ToString(key).
    let key = to_rust_string(vm, arg(args, 0))?;
    // 2-8. The list of the key, or a RangeError.
    let mut list: Vec<String> = match key.as_str() {
        "calendar" => CALENDARS.iter().map(|s| s.to_string()).collect(),
        "collation" => COLLATIONS
            .iter()
            .filter(|(co, locale)| supports_collation(locale, co))
            .map(|(co, _)| co.to_string())
            .collect(),
        "currency" => available_currencies(),
        "numberingSystem" => available_numbering_systems(),
        "timeZone" => available_primary_time_zones(),
        "unit" => SANCTIONED_UNITS.iter().map(|s| s.to_string()).collect(),
        _ => return Err(vm.range_error(format!("Invalid key : {key}"))),
    };
    // Sorted as %Array.prototype.sort% sorts strings (these are ASCII: byte order is
    // code-unit order), without duplicates.
    list.sort();
    list.dedup();
    vm.charge(list.len() as u64)?;
    // 9. Return CreateArrayFromList(list).
    let values: Vec<Value> = list.iter().map(|s| vm.str(s)).collect();
    Ok(vm.new_array(values))
}

/// AvailableCanonicalCurrencies: the ISO 4217 codes CLDR names (in English, the names
/// Intl.DisplayNames gives with fallback "none").
fn available_currencies() -> Vec<String> {
    let Ok(en) = Locale::try_from_str("en") else { return Vec::new() };
    let mut out = Vec::new();
    for a in 'A'..='Z' {
        for b in 'A'..='Z' {
            for c in 'A'..='Z' {
                let code: String = [a, b, c].iter().collect();
                if currency_name(&en, &code).is_some() {
                    out.push(code);
                }
            }
        }
    }
    out
}

/// AvailableCanonicalNumberingSystems: the simple-digit systems (and `hanidec`) whose
/// digits the engine formats; `native`, `traditio` and `finance` are algorithmic names,
/// never resolved.
fn available_numbering_systems() -> Vec<String> {
    SIMPLE_DIGITS.iter().map(|(nu, _)| *nu).chain(["hanidec"]).filter(|nu| has_digits(nu)).map(str::to_string).collect()
}

/// AvailablePrimaryTimeZoneIdentifiers: the primary identifiers temporal_rs resolves the
/// compiled IANA names to (so no two listed zones are equal under Temporal's
/// TimeZoneEquals), with ECMA-402's "UTC" for Etc/UTC and Etc/GMT (§6.5.2).
fn available_primary_time_zones() -> Vec<String> {
    let parser = IanaParserExtendedBorrowed::new();
    let mut out = Vec::new();
    for z in parser.iter_all() {
        if z.canonical == "Etc/Unknown" {
            continue;
        }
        let primary = temporal_rs::TimeZone::try_from_identifier_str(z.normalized)
            .and_then(|tz| tz.primary_identifier())
            .and_then(|tz| tz.identifier());
        if let Ok(id) = primary {
            let id = if matches!(id.as_str(), "Etc/UTC" | "Etc/GMT" | "GMT") { "UTC".to_string() } else { id };
            out.push(id);
        }
    }
    out
}
