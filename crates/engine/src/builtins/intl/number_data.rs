//! The CLDR number data Intl.NumberFormat formats with, read from ICU4X's compiled data:
//! decimal symbols and digits per numbering system (`icu_decimal`), compact patterns
//! (`icu_decimal`, `unstable`), and percent and currency patterns, currency symbols, names
//! and digits (`icu_experimental`). This is the one module that names ICU4X's provider
//! types for numbers, so an ICU4X upgrade that moves them touches only this file.
//!
//! Everything here is read per operation from static data (zero-copy): nothing from ICU4X
//! is kept in an Intl object's slots.

use icu_decimal::provider::{
    Baked as DecimalBaked, DecimalCompactLongV1, DecimalCompactShortV1, DecimalDigitsV1, DecimalSymbolsV1,
    GroupingSizes,
};
use icu_experimental::dimension::provider::currency::essentials::CurrencyEssentialsV1;
use icu_experimental::dimension::provider::currency::extended::CurrencyExtendedDataV1;
use icu_experimental::dimension::provider::currency::fractions::CurrencyFractionsV1;
use icu_experimental::dimension::provider::currency::patterns::CurrencyPatternsDataV1;
use icu_experimental::dimension::provider::currency::symbols::CurrencySymbolsV1;
use icu_experimental::dimension::provider::percent::DecimalPercentV1;
use icu_experimental::provider::Baked as ExperimentalBaked;
use icu_locale_core::Locale;
use icu_pattern::{DoublePlaceholderKey, PatternItem};
use icu_plurals::{PluralOperands, PluralRules};
use icu_provider::prelude::*;

/// One piece of a localized pattern: literal text or one of its two placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PatternPiece {
    Literal(String),
    /// `{0}`: the number.
    Number,
    /// `{1}`: the currency (or, in percent's signed pattern, the sign).
    Other,
}

/// A locale's decimal symbols for one numbering system.
#[derive(Clone, Debug)]
pub(crate) struct Symbols {
    pub numbering_system: String,
    pub minus_prefix: String,
    pub minus_suffix: String,
    pub plus_prefix: String,
    pub plus_suffix: String,
    pub decimal: String,
    pub group: String,
    pub grouping: GroupingSizes,
    pub digits: [char; 10],
}

fn data_locale(locale: &str) -> DataLocale {
    let l = Locale::try_from_str(locale).unwrap_or(Locale::UNKNOWN);
    DataLocale::from(&l)
}

fn silent() -> DataRequestMetadata {
    let mut m = DataRequestMetadata::default();
    m.silent = true;
    m
}

/// The locale without its extensions (the data locale ICU4X looks up; `-u-nu` is passed
/// as a marker attribute instead).
fn base_locale(locale: &str) -> DataLocale {
    let tag = locale.split("-u-").next().unwrap_or(locale);
    data_locale(tag)
}

/// ECMA-402's numbering systems with simple digit mappings (§15.2.3 Table 28) by the code
/// point of their zero: their digits are ten consecutive code points (Unicode `Nd`), so
/// every one of them formats, whether or not ICU4X ships it.
pub(crate) const SIMPLE_DIGITS: &[(&str, u32)] = &[
    ("adlm", 0x1e950),
    ("ahom", 0x11730),
    ("arab", 0x660),
    ("arabext", 0x6f0),
    ("bali", 0x1b50),
    ("beng", 0x9e6),
    ("bhks", 0x11c50),
    ("brah", 0x11066),
    ("cakm", 0x11136),
    ("cham", 0xaa50),
    ("deva", 0x966),
    ("diak", 0x11950),
    ("fullwide", 0xff10),
    ("gara", 0x10d40),
    ("gong", 0x11da0),
    ("gonm", 0x11d50),
    ("gujr", 0xae6),
    ("gukh", 0x16130),
    ("guru", 0xa66),
    ("hmng", 0x16b50),
    ("hmnp", 0x1e140),
    ("java", 0xa9d0),
    ("kali", 0xa900),
    ("kawi", 0x11f50),
    ("khmr", 0x17e0),
    ("knda", 0xce6),
    ("krai", 0x16d70),
    ("lana", 0x1a80),
    ("lanatham", 0x1a90),
    ("laoo", 0xed0),
    ("latn", 0x30),
    ("lepc", 0x1c40),
    ("limb", 0x1946),
    ("mathbold", 0x1d7ce),
    ("mathdbl", 0x1d7d8),
    ("mathmono", 0x1d7f6),
    ("mathsanb", 0x1d7ec),
    ("mathsans", 0x1d7e2),
    ("mlym", 0xd66),
    ("modi", 0x11650),
    ("mong", 0x1810),
    ("mroo", 0x16a60),
    ("mtei", 0xabf0),
    ("mymr", 0x1040),
    ("mymrepka", 0x116da),
    ("mymrpao", 0x116d0),
    ("mymrshan", 0x1090),
    ("mymrtlng", 0xa9f0),
    ("nagm", 0x1e4f0),
    ("newa", 0x11450),
    ("nkoo", 0x7c0),
    ("olck", 0x1c50),
    ("onao", 0x1e5f1),
    ("orya", 0xb66),
    ("osma", 0x104a0),
    ("outlined", 0x1ccf0),
    ("rohg", 0x10d30),
    ("saur", 0xa8d0),
    ("segment", 0x1fbf0),
    ("shrd", 0x111d0),
    ("sind", 0x112f0),
    ("sinh", 0xde6),
    ("sora", 0x110f0),
    ("sund", 0x1bb0),
    ("sunu", 0x11bf0),
    ("takr", 0x116c0),
    ("talu", 0x19d0),
    ("tamldec", 0xbe6),
    ("telu", 0xc66),
    ("thai", 0xe50),
    ("tibt", 0xf20),
    ("tirh", 0x114d0),
    ("tnsa", 0x16ac0),
    ("tols", 0x11de0),
    ("vaii", 0xa620),
    ("wara", 0x118e0),
    ("wcho", 0x1e2f0),
];

/// The ten digits of numbering system `nu`: ECMA-402's table, else ICU4X's data.
pub(crate) fn digits_for(nu: &str) -> Option<[char; 10]> {
    if nu == "hanidec" {
        return Some(['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九']);
    }
    if let Some((_, zero)) = SIMPLE_DIGITS.iter().find(|(n, _)| *n == nu) {
        let mut digits = ['0'; 10];
        for (i, d) in digits.iter_mut().enumerate() {
            *d = char::from_u32(zero + i as u32).unwrap_or('0');
        }
        return Some(digits);
    }
    let attributes = DataMarkerAttributes::try_from_str(nu).ok()?;
    let req = DataRequest { id: DataIdentifierBorrowed::for_marker_attributes(attributes), metadata: silent() };
    DataProvider::<DecimalDigitsV1>::load(&DecimalBaked, req).ok().map(|r| *r.payload.get())
}

/// Whether `nu` is a numbering system with digits the engine can format.
pub(crate) fn has_digits(nu: &str) -> bool {
    digits_for(nu).is_some()
}

/// The symbols of `locale` in numbering system `nu` (None: the locale's default).
pub(crate) fn symbols(locale: &str, nu: Option<&str>) -> Result<Symbols, DataError> {
    let loc = base_locale(locale);
    // Symbols for the requested numbering system, else the locale's default ones.
    let requested = nu.and_then(|n| DataMarkerAttributes::try_from_str(n).ok());
    let mut payload = None;
    if let Some(attributes) = requested {
        let req = DataRequest {
            id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &loc),
            metadata: silent(),
        };
        if let Ok(r) = DataProvider::<DecimalSymbolsV1>::load(&DecimalBaked, req) {
            // ICU4X falls back to root for a numbering system the locale lacks: only an
            // exact numbering-system match counts.
            if Some(r.payload.get().numsys()) == nu {
                payload = Some(r.payload);
            }
        }
    }
    let payload = match payload {
        Some(p) => p,
        None => {
            let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
            DataProvider::<DecimalSymbolsV1>::load(&DecimalBaked, req)?.payload
        }
    };
    let s = payload.get();
    let numbering_system = match nu {
        Some(n) if has_digits(n) => n.to_string(),
        _ => s.numsys().to_string(),
    };
    let digits = digits_for(&numbering_system).ok_or_else(|| DataErrorKind::InvalidRequest.into_error())?;
    Ok(Symbols {
        numbering_system,
        minus_prefix: s.minus_sign_prefix().to_string(),
        minus_suffix: s.minus_sign_suffix().to_string(),
        plus_prefix: s.plus_sign_prefix().to_string(),
        plus_suffix: s.plus_sign_suffix().to_string(),
        decimal: s.decimal_separator().to_string(),
        group: s.grouping_separator().to_string(),
        grouping: s.grouping_sizes,
        digits,
    })
}

/// The locale's default numbering system.
pub(crate) fn default_numbering_system(locale: &str) -> String {
    symbols(locale, None).map_or_else(|_| "latn".to_string(), |s| s.numbering_system)
}

fn double_pieces(p: &icu_pattern::DoublePlaceholderPattern) -> Vec<PatternPiece> {
    p.iter()
        .map(|item| match item {
            PatternItem::Literal(s) => PatternPiece::Literal(s.to_string()),
            PatternItem::Placeholder(DoublePlaceholderKey::Place0) => PatternPiece::Number,
            PatternItem::Placeholder(DoublePlaceholderKey::Place1) => PatternPiece::Other,
        })
        .collect()
}

fn single_pieces(p: &icu_pattern::SinglePlaceholderPattern) -> Vec<PatternPiece> {
    p.iter()
        .map(|item| match item {
            PatternItem::Literal(s) => PatternPiece::Literal(s.to_string()),
            PatternItem::Placeholder(_) => PatternPiece::Number,
        })
        .collect()
}

/// The percent pattern of `locale` in numbering system `nu`: the unsigned pattern
/// (`{0}%`), with `{0}` the number.
pub(crate) fn percent_pattern(locale: &str, nu: &str) -> Result<Vec<PatternPiece>, DataError> {
    // ICU4X keeps one percent pattern per locale, that of the Latin digits; Arabic with
    // Arabic-Indic digits uses its own sign (CLDR `symbols numberSystem="arab"`).
    if nu == "arab" && locale.split('-').next() == Some("ar") {
        return Ok(vec![PatternPiece::Number, PatternPiece::Literal("٪\u{61c}".to_string())]);
    }
    let loc = base_locale(locale);
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
    let payload = DataProvider::<DecimalPercentV1>::load(&ExperimentalBaked, req)?.payload;
    Ok(single_pieces(&payload.get().unsigned_pattern))
}

/// A currency's symbol (`$`, `US$`, `€`) in `locale`, narrow or standard; the ISO code
/// when CLDR has none. With whether it starts and ends with a letter (which picks the
/// pattern with a space between symbol and number).
pub(crate) fn currency_symbol(locale: &str, code: &str, narrow: bool) -> (String, bool, bool) {
    let loc = base_locale(locale);
    let key = if narrow { format!("{code}n") } else { code.to_string() };
    if let Ok(attributes) = DataMarkerAttributes::try_from_str(&key) {
        let req = DataRequest {
            id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &loc),
            metadata: silent(),
        };
        if let Ok(r) = DataProvider::<CurrencySymbolsV1>::load(&ExperimentalBaked, req) {
            let s = r.payload.get();
            return (s.as_str().to_string(), s.starts_with_letter(), s.ends_with_letter());
        }
    }
    (code.to_string(), true, true)
}

/// The currency pattern of `locale` for a symbol (standard or accounting; positive or
/// negative). None for a negative pattern CLDR derives by prefixing the minus sign.
pub(crate) fn currency_pattern(
    locale: &str,
    accounting: bool,
    negative: bool,
    starts_with_letter: bool,
    ends_with_letter: bool,
) -> Result<Option<Vec<PatternPiece>>, DataError> {
    let loc = base_locale(locale);
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
    let payload = DataProvider::<CurrencyEssentialsV1>::load(&ExperimentalBaked, req)?.payload;
    let e = payload.get();
    let (s, t) = (starts_with_letter, ends_with_letter);
    Ok(match (accounting, negative) {
        (false, false) => Some(double_pieces(e.get_positive(s, t))),
        (false, true) => e.get_negative(s, t).map(double_pieces),
        (true, false) => Some(double_pieces(e.get_positive_accounting(s, t))),
        (true, true) => e.get_negative_accounting(s, t).map(double_pieces),
    })
}

/// The plural-dependent long currency pattern (`{0} {1}`) and name (`US dollars`) for a
/// number with plural operands `op`.
pub(crate) fn currency_long(
    locale: &str,
    code: &str,
    op: PluralOperands,
) -> Result<(Vec<PatternPiece>, String), DataError> {
    let loc = base_locale(locale);
    let l = Locale::try_from_str(locale.split("-u-").next().unwrap_or(locale)).unwrap_or(Locale::UNKNOWN);
    let rules = PluralRules::try_new_cardinal((&l).into())?;
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
    let patterns = DataProvider::<CurrencyPatternsDataV1>::load(&ExperimentalBaked, req)?.payload;
    let pattern = double_pieces(patterns.get().get(op, &rules));
    let mut name = code.to_string();
    if let Ok(attributes) = DataMarkerAttributes::try_from_str(code) {
        let req = DataRequest {
            id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &loc),
            metadata: silent(),
        };
        if let Ok(r) = DataProvider::<CurrencyExtendedDataV1>::load(&ExperimentalBaked, req) {
            name = r.payload.get().get(op, &rules).to_string();
        }
    }
    Ok((pattern, name))
}

/// ### CurrencyDigits ( currency ): ISO 4217's minor unit digits (CLDR's currency
/// fractions, 2 by default).
pub(crate) fn currency_digits(code: &str) -> u8 {
    let req = DataRequest { id: DataIdentifierBorrowed::default(), metadata: Default::default() };
    let Ok(r) = DataProvider::<CurrencyFractionsV1>::load(&ExperimentalBaked, req) else { return 2 };
    let Ok(currency) = icu_experimental::dimension::currency::CurrencyType::try_from_str(code) else { return 2 };
    r.payload.get().resolve(currency).digits
}

/// The compact pattern for a number of magnitude `magnitude` (its most significant digit's
/// power of ten): the exponent the number is scaled by and, for plural operands `op` of the
/// scaled number, the pattern (`{0}K`). Exponent 0 and no pattern below the first compact
/// magnitude.
pub(crate) fn compact_exponent(locale: &str, long: bool, magnitude: i16) -> Result<u8, DataError> {
    let loc = base_locale(locale);
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
    let exponent = |patterns: &icu_decimal::provider::CompactPatterns<'_, icu_pattern::SinglePlaceholder>| {
        patterns
            .0
            .iter()
            .filter(|t| magnitude >= i16::from(t.sized))
            .last()
            .map(|t| t.sized - t.variable.get_default().0.get())
            .unwrap_or_default()
    };
    Ok(if long {
        exponent(DataProvider::<DecimalCompactLongV1>::load(&DecimalBaked, req)?.payload.get())
    } else {
        exponent(DataProvider::<DecimalCompactShortV1>::load(&DecimalBaked, req)?.payload.get())
    })
}

/// The compact pattern for magnitude `magnitude` and the scaled number's operands `op`.
pub(crate) fn compact_pattern(
    locale: &str,
    long: bool,
    magnitude: i16,
    op: PluralOperands,
) -> Result<Option<Vec<PatternPiece>>, DataError> {
    let loc = base_locale(locale);
    let l = Locale::try_from_str(locale.split("-u-").next().unwrap_or(locale)).unwrap_or(Locale::UNKNOWN);
    let rules = PluralRules::try_new_cardinal((&l).into())?;
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: Default::default() };
    let pick = |patterns: &icu_decimal::provider::CompactPatterns<'_, icu_pattern::SinglePlaceholder>| {
        patterns
            .0
            .iter()
            .filter(|t| magnitude >= i16::from(t.sized))
            .last()
            .map(|t| single_pieces(t.variable.get(op, &rules).1))
    };
    Ok(if long {
        pick(DataProvider::<DecimalCompactLongV1>::load(&DecimalBaked, req)?.payload.get())
    } else {
        pick(DataProvider::<DecimalCompactShortV1>::load(&DecimalBaked, req)?.payload.get())
    })
}

/// The ICU4X unit pattern (`{0} km`) of a simple unit in `locale` for width `display`
/// ("short", "narrow" or "long") and the number's plural operands `op`. ICU4X's unit data
/// covers the length, mass, volume, duration and area units only.
fn icu_unit_pattern(
    locale: &str,
    unit: &str,
    display: &str,
    op: PluralOperands,
) -> Result<Vec<PatternPiece>, DataError> {
    use icu_experimental::dimension::provider::units::categorized_display_names as names;
    let loc = base_locale(locale);
    let l = Locale::try_from_str(locale.split("-u-").next().unwrap_or(locale)).unwrap_or(Locale::UNKNOWN);
    let rules = PluralRules::try_new_cardinal((&l).into())?;
    let key = format!("{display}-{unit}");
    let attributes =
        DataMarkerAttributes::try_from_str(&key).map_err(|_| DataErrorKind::InvalidRequest.into_error())?;
    let req = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &loc),
        metadata: silent(),
    };
    // A unit lives in one of the fifteen markers, but each falls back to the root locale:
    // the answer is the one resolved for the most specific locale (the first on a tie).
    let rank = |resolved: &Option<DataLocale>| match resolved {
        None => 3,
        Some(l) if l.is_unknown() => 0,
        Some(l) if l.region.is_none() => 1,
        Some(_) => 2,
    };
    let mut best: Option<(u8, Vec<PatternPiece>)> = None;
    macro_rules! try_markers {
        ($($marker:ident),*) => {
            $(
                if let Ok(r) = DataProvider::<names::$marker>::load(&ExperimentalBaked, req) {
                    let score = rank(&r.metadata.locale);
                    if best.as_ref().is_none_or(|(b, _)| score > *b) {
                        best = Some((score, single_pieces(r.payload.get().get(op, &rules))));
                    }
                }
            )*
        };
    }
    try_markers!(
        UnitsNamesLengthCoreV1,
        UnitsNamesLengthExtendedV1,
        UnitsNamesLengthOutlierV1,
        UnitsNamesMassCoreV1,
        UnitsNamesMassExtendedV1,
        UnitsNamesMassOutlierV1,
        UnitsNamesVolumeCoreV1,
        UnitsNamesVolumeExtendedV1,
        UnitsNamesVolumeOutlierV1,
        UnitsNamesDurationCoreV1,
        UnitsNamesDurationExtendedV1,
        UnitsNamesDurationOutlierV1,
        UnitsNamesAreaCoreV1,
        UnitsNamesAreaExtendedV1,
        UnitsNamesAreaOutlierV1
    );
    match best {
        Some((_, pattern)) => Ok(pattern),
        None => Err(DataErrorKind::IdentifierNotFound.with_req(names::UnitsNamesLengthCoreV1::INFO, req)),
    }
}

/// CLDR number symbols ICU4X's data leaves out, by language and numbering system (`*`:
/// any): the NaN string and the exponent separator, where they differ from "NaN" and "E".
/// From CLDR 44 (`common/main/*.xml`, `numbers/symbols`), as ICU 74 formats them.
const SYMBOL_OVERRIDES: &[(&str, &str, &str, &str)] = &[
    ("am", "*", "በቁጥር\u{a0}ሊገለጽ\u{a0}የማይችል", "E"),
    ("ar", "arab", "ليس\u{a0}رقمًا", "أس"),
    ("ar", "*", "ليس\u{a0}رقمًا", "E"),
    ("el", "*", "NaN", "e"),
    ("et", "*", "NaN", "×10^"),
    ("fa", "arabext", "ناعدد", "×۱۰^"),
    ("fa", "*", "ناعدد", "E"),
    ("fi", "*", "epäluku", "E"),
    ("ga", "*", "Nuimh", "E"),
    ("hy", "*", "ՈչԹ", "E"),
    ("ka", "*", "არ\u{a0}არის\u{a0}რიცხვი", "E"),
    ("kk", "*", "сан\u{a0}емес", "E"),
    ("ky", "*", "сан\u{a0}эмес", "E"),
    ("lo", "*", "ບໍ່\u{200b}ແມ່ນ\u{200b}ໂຕ\u{200b}ເລກ", "E"),
    ("lt", "*", "NaN", "×10^"),
    ("lv", "*", "NS", "E"),
    ("my", "*", "ဂဏန်းမဟုတ်သော", "E"),
    ("ps", "arabext", "NaN", "×۱۰^"),
    ("ru", "*", "не\u{a0}число", "E"),
    ("sk", "*", "NaN", "e"),
    ("sl", "*", "NaN", "e"),
    ("sv", "*", "NaN", "×10^"),
    ("uk", "*", "NaN", "Е"),
    ("uz", "*", "son\u{a0}emas", "E"),
    ("zh-Hant", "*", "非數值", "E"),
];

/// The NaN string and exponent separator of `locale` in numbering system `nu`.
pub(crate) fn nan_and_exponent(locale: &str, nu: &str) -> (&'static str, &'static str) {
    let base = locale.split("-u-").next().unwrap_or(locale);
    let mut language = base.split('-').next().unwrap_or("");
    // Traditional Chinese (zh-Hant and the regions that default to it, Cantonese) has its own.
    let traditional = ["-Hant", "-TW", "-HK", "-MO"].iter().any(|t| base.contains(t));
    if (language == "zh" && traditional) || language == "yue" {
        language = "zh-Hant";
    }
    SYMBOL_OVERRIDES
        .iter()
        .find(|(l, n, _, _)| *l == language && (*n == nu || *n == "*"))
        .map_or(("NaN", "E"), |(_, _, nan, e)| (nan, e))
}

/// CLDR's number range pattern (`miscPatterns/range`) where it is not `{0}–{1}`, by
/// locale or language: the separator between the two numbers. From CLDR 44.
const RANGE_SEPARATORS: &[(&str, &str)] = &[
    ("bg", " – "),
    ("bs", " – "),
    ("ca", "-"),
    ("da", "-"),
    ("es", "-"),
    ("et", "‒"),
    ("eu", "-"),
    ("fil", "-"),
    ("gu", "-"),
    ("hr", " – "),
    ("it", "-"),
    ("ja", "～"),
    ("ka", "-"),
    ("ko", "~"),
    ("mk", "\u{2009}–\u{2009}"),
    ("ml", "-"),
    ("my", " - "),
    ("nl", "-"),
    ("pt-PT", " - "),
    ("ro", " - "),
    ("sk", " – "),
    ("sq", "-"),
    ("th", "-"),
    ("vi", "-"),
    ("zh", "-"),
];

/// The range separator of `locale`.
pub(crate) fn range_separator(locale: &str) -> &'static str {
    let base = locale.split("-u-").next().unwrap_or(locale);
    let language = base.split('-').next().unwrap_or("");
    // pt-PT (and the other European Portuguese locales) differ from pt.
    let region_match = RANGE_SEPARATORS
        .iter()
        .find(|(l, _)| *l == base || (*l == "pt-PT" && base.starts_with("pt-") && base != "pt-BR"));
    region_match.or_else(|| RANGE_SEPARATORS.iter().find(|(l, _)| *l == language)).map_or("–", |(_, s)| s)
}

/// The locale's approximately sign (`~`, `≈`, `約`), which ICU4X keeps with the percent
/// data.
pub(crate) fn approximately_sign(locale: &str) -> String {
    let loc = base_locale(locale);
    let req = DataRequest { id: DataIdentifierBorrowed::for_locale(&loc), metadata: silent() };
    DataProvider::<DecimalPercentV1>::load(&ExperimentalBaked, req)
        .map_or_else(|_| "~".to_string(), |r| r.payload.get().approximately_sign.to_string())
}

/// CLDR root's patterns of the sanctioned units ICU4X has no names for (digital,
/// temperature, angle): what ICU shows for a locale without them. All widths use them.
const ROOT_UNIT_PATTERNS: &[(&str, &str, &str)] = &[
    ("bit", "", " bit"),
    ("byte", "", " byte"),
    ("kilobit", "", " kb"),
    ("kilobyte", "", " kB"),
    ("megabit", "", " Mb"),
    ("megabyte", "", " MB"),
    ("gigabit", "", " Gb"),
    ("gigabyte", "", " GB"),
    ("terabit", "", " Tb"),
    ("terabyte", "", " TB"),
    ("petabyte", "", " PB"),
    ("celsius", "", "°C"),
    ("fahrenheit", "", "°F"),
    ("degree", "", " deg"),
];

/// The pattern of a simple sanctioned unit: ICU4X's, the percent sign for `percent`, or
/// CLDR root's for the units ICU4X lacks.
fn simple_unit_pattern(
    locale: &str,
    nu: &str,
    unit: &str,
    display: &str,
    op: PluralOperands,
) -> Result<Vec<PatternPiece>, DataError> {
    if unit == "percent" {
        return percent_pattern(locale, nu);
    }
    if let Some((_, prefix, suffix)) = ROOT_UNIT_PATTERNS.iter().find(|(u, _, _)| *u == unit) {
        let mut pieces = Vec::new();
        if !prefix.is_empty() {
            pieces.push(PatternPiece::Literal(prefix.to_string()));
        }
        pieces.push(PatternPiece::Number);
        pieces.push(PatternPiece::Literal(suffix.to_string()));
        return Ok(pieces);
    }
    icu_unit_pattern(locale, unit, display, op)
}

/// CLDR root's `perUnitPattern`s of the time units in the short and narrow widths.
const PER_UNIT_SHORT: &[(&str, &str)] = &[("hour", "h"), ("minute", "min"), ("second", "s"), ("day", "d")];

/// A simple unit's singular name: its pattern for one, without the number.
fn simple_unit_name(locale: &str, nu: &str, unit: &str, display: &str) -> Result<String, DataError> {
    Ok(simple_unit_pattern(locale, nu, unit, display, PluralOperands::from(1u64))?
        .iter()
        .filter_map(|p| match p {
            PatternPiece::Literal(s) => Some(s.as_str()),
            _ => None,
        })
        .collect::<String>()
        .trim()
        .to_string())
}

/// The locale's compound `per` pattern for a width (`{0}/{1}`, `{0} per {1}`).
fn per_pattern(locale: &str, display: &str) -> String {
    use icu_experimental::dimension::provider::units::essentials::UnitsEssentialsV1;
    let loc = base_locale(locale);
    let Ok(attributes) = DataMarkerAttributes::try_from_str(display) else { return "{0}/{1}".to_string() };
    let req = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &loc),
        metadata: silent(),
    };
    DataProvider::<UnitsEssentialsV1>::load(&ExperimentalBaked, req)
        .map_or_else(|_| "{0}/{1}".to_string(), |r| r.payload.get().per.to_string())
}

/// The pattern of a sanctioned unit identifier (a simple unit or `<unit>-per-<unit>`) in
/// `locale` for width `display` and the number's plural operands `op`. A compound joins the
/// numerator's pattern and the denominator's singular name with the locale's `per` pattern.
pub(crate) fn unit_pattern(
    locale: &str,
    nu: &str,
    unit: &str,
    display: &str,
    op: PluralOperands,
) -> Result<Vec<PatternPiece>, DataError> {
    let Some((numerator, denominator)) = unit.split_once("-per-") else {
        return simple_unit_pattern(locale, nu, unit, display, op);
    };
    let numerator = simple_unit_pattern(locale, nu, numerator, display, op)?;
    // The denominator's name: CLDR root's per-unit form of a time unit in the short and
    // narrow widths ("km/h"), else its singular pattern without the number.
    let per_unit = PER_UNIT_SHORT.iter().find(|(u, _)| *u == denominator).filter(|_| display != "long");
    let denominator_name = match per_unit {
        Some((_, name)) => name.to_string(),
        None => simple_unit_name(locale, nu, denominator, display)?,
    };
    let per = per_pattern(locale, display);
    let mut pieces = Vec::new();
    let mut rest = per.as_str();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("{0}") {
            pieces.extend(numerator.iter().cloned());
            rest = r;
        } else if let Some(r) = rest.strip_prefix("{1}") {
            pieces.push(PatternPiece::Literal(denominator_name.clone()));
            rest = r;
        } else {
            let next = rest.find('{').filter(|&i| i > 0).unwrap_or(rest.len());
            pieces.push(PatternPiece::Literal(rest[..next].to_string()));
            rest = &rest[next..];
        }
    }
    // Adjacent literals merge, so the unit text reads as one part.
    let mut merged: Vec<PatternPiece> = Vec::new();
    for p in pieces {
        match (merged.last_mut(), p) {
            (Some(PatternPiece::Literal(a)), PatternPiece::Literal(b)) => a.push_str(&b),
            (_, p) => merged.push(p),
        }
    }
    Ok(merged)
}
