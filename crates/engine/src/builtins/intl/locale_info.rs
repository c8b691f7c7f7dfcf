//! The Intl Locale Info proposal's methods of Intl.Locale (getCalendars, getCollations,
//! getHourCycles, getNumberingSystems, getTimeZones, getTextInfo, getWeekInfo):
//! https://tc39.es/proposal-intl-locale-info/
//!
//! Week data and text direction are ICU4X's (CLDR weekData, likely scripts). Calendar and
//! hour-cycle preferences are CLDR 47's supplemental `calendarPreferenceData` and
//! `timeData` (preferred cycle), written out below because ICU4X exposes only the first
//! calendar and has no hour-cycle data outside its date formatter. Time zones per region
//! are IANA's zone.tab (tzdata 2025b) in [`super::locale_zones`].

use icu_calendar::types::Weekday;
use icu_calendar::week::WeekInformation;
use icu_collator::provider::{Baked, CollationMetadataV1};
use icu_locale::{Direction, LocaleDirectionality, LocaleExpander};
use icu_locale_core::Locale;
use icu_provider::prelude::*;

use super::locale::{base_name, keyword, tag_region, this_locale};
use super::locale_zones::ZONES;
use super::number_data::default_numbering_system;
use super::ResultObject;
use crate::error::JsResult;
use crate::value::Value;
use crate::vm::Vm;

/// The region of a `unicode_subdivision_id` (`inka` → `IN`, `usca` → `US`, `001zzzz`).
fn subdivision_region(sd: &str) -> Option<String> {
    let b = sd.as_bytes();
    if b.len() >= 3 && b[..3].iter().all(u8::is_ascii_digit) {
        return Some(sd[..3].to_string());
    }
    if b.len() >= 3 && b[..2].iter().all(u8::is_ascii_alphabetic) {
        return Some(sd[..2].to_ascii_uppercase());
    }
    None
}

/// ### RegionPreference ( loc ): the `rg` override's region, else the region subtag, else the
/// `sd` subdivision's region, else the likely region, else "001".
fn region_preference(tag: &str) -> String {
    if let Some(r) = keyword(tag, "rg").as_deref().and_then(subdivision_region) {
        return r;
    }
    if let Some(r) = tag_region(tag) {
        return r;
    }
    if let Some(r) = keyword(tag, "sd").as_deref().and_then(subdivision_region) {
        return r;
    }
    if let Ok(mut l) = Locale::try_from_str(base_name(tag)) {
        LocaleExpander::new_extended().maximize(&mut l.id);
        if let Some(r) = l.id.region {
            return r.to_string();
        }
    }
    "001".to_string()
}

fn string_array(vm: &mut Vm, list: &[&str]) -> Value {
    let values: Vec<Value> = list.iter().map(|s| vm.str(s)).collect();
    vm.new_array(values)
}

/// CLDR's calendarPreferenceData: regions and their calendars, most preferred first (every
/// other region: « "gregory" »).
const CALENDAR_PREFERENCES: &[(&str, &[&str])] = &[
    (
        "BD DJ DZ EH ER ID IQ JO KM LB LY MA MR MY NE OM PK PS SD SY TD TN YE",
        &["gregory", "islamic", "islamic-civil", "islamic-tbla"],
    ),
    ("AL AZ MV TJ TM TR UZ XK", &["gregory", "islamic-civil", "islamic-tbla"]),
    ("AE BH KW QA", &["gregory", "islamic-umalqura", "islamic", "islamic-civil", "islamic-tbla"]),
    ("AF IR", &["persian", "gregory", "islamic", "islamic-civil", "islamic-tbla"]),
    ("CN CX HK MO SG", &["gregory", "chinese"]),
    ("EG", &["gregory", "coptic", "islamic", "islamic-civil", "islamic-tbla"]),
    ("ET", &["gregory", "ethiopic"]),
    ("IL", &["gregory", "hebrew", "islamic", "islamic-civil", "islamic-tbla"]),
    ("IN", &["gregory", "indian"]),
    ("JP", &["gregory", "japanese"]),
    ("KR", &["gregory", "dangi"]),
    ("SA", &["islamic-umalqura", "gregory", "islamic", "islamic-rgsa"]),
    ("TH", &["buddhist", "gregory"]),
    ("TW", &["gregory", "roc"]),
];

/// ### Intl.Locale.prototype.getCalendars ( ): CalendarsOfLocale.
pub(crate) fn get_calendars(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getCalendars")?;
    // 1. If loc.[[Calendar]] is not undefined, return « loc.[[Calendar]] ».
    if let Some(ca) = keyword(&tag, "ca") {
        return Ok(string_array(vm, &[&ca]));
    }
    // 2-5. The calendars of the preferred region, most preferred first.
    let region = region_preference(&tag);
    let list = CALENDAR_PREFERENCES
        .iter()
        .find(|(regions, _)| regions.split(' ').any(|r| r == region))
        .map_or(&["gregory"][..], |(_, list)| *list);
    Ok(string_array(vm, list))
}

/// CLDR's collation types (common/bcp47/collation.xml) other than "standard" and "search",
/// which ECMA-402 never lists.
const COLLATIONS: &[&str] = &[
    "big5han", "compat", "dict", "emoji", "eor", "gb2312", "phonebk", "phonetic", "pinyin", "reformed", "searchjl",
    "stroke", "trad", "unihan", "zhuyin",
];

/// Whether ICU4X's collation data has tailoring `co` for `locale` (falling back to root).
fn has_collation(locale: &Locale, co: &str) -> bool {
    let Ok(attributes) = DataMarkerAttributes::try_from_str(co) else { return false };
    let data_locale = DataLocale::from(locale);
    let mut metadata = DataRequestMetadata::default();
    metadata.silent = true;
    let req = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &data_locale),
        metadata,
    };
    DataProvider::<CollationMetadataV1>::load(&Baked, req).is_ok()
}

/// ### Intl.Locale.prototype.getCollations ( ): CollationsOfLocale.
pub(crate) fn get_collations(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getCollations")?;
    // 1. If loc.[[Collation]] is not undefined, return « loc.[[Collation]] ».
    if let Some(co) = keyword(&tag, "co") {
        return Ok(string_array(vm, &[&co]));
    }
    // 2-4. The language's collations (the root ones for an unavailable language), sorted.
    let language = tag.split('-').next().unwrap_or("und");
    let locale = Locale::try_from_str(language).unwrap_or(Locale::UNKNOWN);
    let list: Vec<&str> = COLLATIONS.iter().copied().filter(|co| has_collation(&locale, co)).collect();
    Ok(string_array(vm, &list))
}

/// CLDR's timeData where the preferred cycle is 12-hour ("h"): by language_region first,
/// then by region; everything else prefers "H" (h23).
const H12_LANGUAGE_REGIONS: &[&str] = &["en_001", "ar_001", "es_US"];
const H23_LANGUAGE_REGIONS: &[&str] = &["fr_CA", "ku_SY", "en_IL", "ar_IL", "ml_IN", "te_IN"];
const H12_REGIONS: &str = "AE AG AL AS AU BB BD BM BN BS BT CA CO DJ DM DO DZ EG EH ER ET FJ FM GD GH GM GU GY \
    HK IN IQ JM JO KH KI KN KP KR KW KY LB LC LR LS LY MH MO MP MR MW MY NZ OM PG PH PK PR PS PW QA SA SB SD SL SO \
    SS SV SY SZ TC TD TN TO TT TW UM US VC VE VG VI VU WS YE ZM";

/// ### Intl.Locale.prototype.getHourCycles ( ): HourCyclesOfLocale.
pub(crate) fn get_hour_cycles(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getHourCycles")?;
    // 1. If loc.[[HourCycle]] is not undefined, return « loc.[[HourCycle]] ».
    if let Some(hc) = keyword(&tag, "hc") {
        return Ok(string_array(vm, &[&hc]));
    }
    // 2-4. The preferred cycle of the language in the region, else of the region.
    let region = region_preference(&tag);
    let language = tag.split('-').next().unwrap_or("und");
    let pair = format!("{language}_{region}");
    let h12 = if H12_LANGUAGE_REGIONS.contains(&pair.as_str()) {
        true
    } else if H23_LANGUAGE_REGIONS.contains(&pair.as_str()) {
        false
    } else {
        H12_REGIONS.split_whitespace().any(|r| r == region)
    };
    Ok(string_array(vm, &[if h12 { "h12" } else { "h23" }]))
}

/// ### Intl.Locale.prototype.getNumberingSystems ( ): NumberingSystemsOfLocale.
pub(crate) fn get_numbering_systems(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getNumberingSystems")?;
    // 1. If loc.[[NumberingSystem]] is not undefined, return « loc.[[NumberingSystem]] ».
    if let Some(nu) = keyword(&tag, "nu") {
        return Ok(string_array(vm, &[&nu]));
    }
    // 2-4. The locale's default numbering system.
    let nu = default_numbering_system(base_name(&tag));
    Ok(string_array(vm, &[&nu]))
}

/// ### Intl.Locale.prototype.getTimeZones ( ): TimeZonesOfLocale.
pub(crate) fn get_time_zones(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getTimeZones")?;
    // 1-2. If the locale has no region subtag, return undefined.
    let Some(region) = tag_region(&tag) else { return Ok(Value::UNDEFINED) };
    // 3-4. The zones in use in the region, sorted (an unknown region has none).
    let zones = ZONES.iter().find(|(r, _)| *r == region).map_or("", |(_, z)| z);
    let list: Vec<&str> = zones.split_whitespace().collect();
    Ok(string_array(vm, &list))
}

/// ### Intl.Locale.prototype.getTextInfo ( ): { direction } from the likely script.
pub(crate) fn get_text_info(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getTextInfo")?;
    let rtl = Locale::try_from_str(base_name(&tag))
        .is_ok_and(|l| LocaleDirectionality::new_extended().get(&l.id) == Some(Direction::RightToLeft));
    let mut info = ResultObject::new(vm);
    info.string(vm, "direction", if rtl { "rtl" } else { "ltr" });
    Ok(info.finish())
}

const WEEKDAYS: [Weekday; 7] = [
    Weekday::Monday,
    Weekday::Tuesday,
    Weekday::Wednesday,
    Weekday::Thursday,
    Weekday::Friday,
    Weekday::Saturday,
    Weekday::Sunday,
];

/// ### Intl.Locale.prototype.getWeekInfo ( ): { firstDay, weekend } (1 = Monday … 7 = Sunday).
pub(crate) fn get_week_info(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let tag = this_locale(vm, this, "getWeekInfo")?;
    // The preferred region's week data (CLDR weekData).
    let region = region_preference(&tag);
    let data_locale = Locale::try_from_str(&format!("und-{region}")).unwrap_or(Locale::UNKNOWN);
    let info = WeekInformation::try_new((&data_locale).into()).map_err(|e| super::data_error(vm, e))?;
    // [[FirstDayOfWeek]] ("mon" … "sun") overrides the data's first day.
    let fw = keyword(&tag, "fw");
    let first_day = match fw.as_deref() {
        Some("mon") => 1,
        Some("tue") => 2,
        Some("wed") => 3,
        Some("thu") => 4,
        Some("fri") => 5,
        Some("sat") => 6,
        Some("sun") => 7,
        _ => info.first_weekday as u8,
    };
    let weekend: Vec<Value> =
        WEEKDAYS.iter().filter(|d| info.weekend.contains(**d)).map(|d| Value::number(f64::from(*d as u8))).collect();
    let weekend = vm.new_array(weekend);
    let mut out = ResultObject::new(vm);
    out.number(vm, "firstDay", f64::from(first_day));
    out.value(vm, "weekend", weekend);
    Ok(out.finish())
}
