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

/// Whether `nu` is a numbering system ICU4X has digits for.
pub(crate) fn has_digits(nu: &str) -> bool {
    let Ok(attributes) = DataMarkerAttributes::try_from_str(nu) else { return false };
    let req = DataRequest { id: DataIdentifierBorrowed::for_marker_attributes(attributes), metadata: silent() };
    DataProvider::<DecimalDigitsV1>::load(&DecimalBaked, req).is_ok()
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
    let attributes = DataMarkerAttributes::try_from_str(&numbering_system)
        .map_err(|_| DataErrorKind::InvalidRequest.into_error())?;
    let req =
        DataRequest { id: DataIdentifierBorrowed::for_marker_attributes(attributes), metadata: Default::default() };
    let digits = *DataProvider::<DecimalDigitsV1>::load(&DecimalBaked, req)?.payload.get();
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

/// The unit pattern (`{0} km`) of a simple unit in `locale` for width `display` ("short",
/// "narrow" or "long") and the number's plural operands `op`. ICU4X's unit data covers the
/// length, mass, volume, duration and area units; the sanctioned units outside them
/// (digital, temperature, angle, percent) and `-per-` compounds have none: a DataError.
pub(crate) fn unit_pattern(
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
];

/// The NaN string and exponent separator of `locale` in numbering system `nu`.
pub(crate) fn nan_and_exponent(locale: &str, nu: &str) -> (&'static str, &'static str) {
    let language = locale.split('-').next().unwrap_or("");
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
