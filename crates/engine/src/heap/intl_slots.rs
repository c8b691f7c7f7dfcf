//! The internal slots of each Intl object as plain serde data (ECMA-402's resolved
//! options: locale, the options each constructor resolved). An image holds these and
//! nothing from ICU4X: every operation (`builtins/intl/`) builds its ICU4X formatter from
//! them over the compiled data (cheap: the data is static, zero-copy), so a restored object
//! works in a fresh process exactly as before. Values the slots hold (a bound `compare`) are visited
//! by [`IntlSlots::children`] for the collector and the image verifier.

use serde::{Deserialize, Serialize};

use crate::value::{ObjectId, Value};

/// One Intl object's slots (`Class::Intl`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum IntlSlots {
    Collator(CollatorSlots),
    PluralRules(PluralRulesSlots),
    NumberFormat(NumberFormatSlots),
    ListFormat(ListFormatSlots),
    Segmenter(SegmenterSlots),
    Segments(SegmentsSlots),
    SegmentIterator(SegmentIteratorSlots),
    DateTimeFormat(DateTimeFormatSlots),
    Locale(LocaleSlots),
    RelativeTimeFormat(RelativeTimeFormatSlots),
    DisplayNames(DisplayNamesSlots),
    DurationFormat(DurationFormatSlots),
}

impl IntlSlots {
    /// The heap values the slots hold.
    pub fn children(&self, out: &mut impl Extend<Value>) {
        match self {
            IntlSlots::Collator(c) => out.extend(c.bound_compare.map(Value::object)),
            IntlSlots::PluralRules(_) => {}
            IntlSlots::NumberFormat(n) => out.extend(n.bound_format.map(Value::object)),
            IntlSlots::ListFormat(_) | IntlSlots::Segmenter(_) => {}
            IntlSlots::Segments(s) => out.extend([s.string]),
            IntlSlots::SegmentIterator(i) => out.extend([Value::object(i.segments)]),
            IntlSlots::DateTimeFormat(d) => out.extend(d.bound_format.map(Value::object)),
            IntlSlots::Locale(_) => {}
            IntlSlots::RelativeTimeFormat(_) => {}
            IntlSlots::DisplayNames(_) => {}
            IntlSlots::DurationFormat(_) => {}
        }
    }
}

/// Intl.Collator's slots (ECMA-402 §10.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CollatorSlots {
    /// [[Locale]]: the resolved tag, with the `-u-` keywords that were honoured.
    pub locale: String,
    /// [[Usage]]: "sort" or "search".
    pub usage: String,
    /// [[Sensitivity]]: "base", "accent", "case" or "variant".
    pub sensitivity: String,
    /// [[IgnorePunctuation]].
    pub ignore_punctuation: bool,
    /// [[Collation]]: "default" or a CLDR collation type ("phonebk", "pinyin"…).
    pub collation: String,
    /// [[Numeric]].
    pub numeric: bool,
    /// [[CaseFirst]]: "upper", "lower" or "false".
    pub case_first: String,
    /// [[BoundCompare]], made on the first read of `compare`.
    pub bound_compare: Option<ObjectId>,
}

/// Intl.PluralRules' slots (ECMA-402 §16.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PluralRulesSlots {
    pub locale: String,
    /// [[Type]]: "cardinal" or "ordinal".
    pub kind: String,
    /// [[Notation]]: "standard", "scientific", "engineering" or "compact".
    pub notation: String,
    /// [[CompactDisplay]] ("short" or "long"), for compact notation only.
    pub compact_display: Option<String>,
    /// The digit options SetNumberFormatDigitOptions resolved.
    pub digits: DigitOptions,
}

/// Intl.NumberFormat's slots (ECMA-402 §15.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NumberFormatSlots {
    /// [[Locale]], with the `-u-nu` keyword when it was honoured.
    pub locale: String,
    /// [[NumberingSystem]] ("latn", "arab"…).
    pub numbering_system: String,
    /// [[Style]]: "decimal", "percent", "currency" or "unit".
    pub style: String,
    /// [[Currency]] (upper case), for the currency style.
    pub currency: Option<String>,
    /// [[CurrencyDisplay]]: "code", "symbol", "narrowSymbol" or "name".
    pub currency_display: String,
    /// [[CurrencySign]]: "standard" or "accounting".
    pub currency_sign: String,
    /// [[Unit]], for the unit style.
    pub unit: Option<String>,
    /// [[UnitDisplay]]: "short", "narrow" or "long".
    pub unit_display: String,
    /// The digit options SetNumberFormatDigitOptions resolved.
    pub digits: DigitOptions,
    /// [[Notation]]: "standard", "scientific", "engineering" or "compact".
    pub notation: String,
    /// [[CompactDisplay]]: "short" or "long".
    pub compact_display: String,
    /// [[UseGrouping]]: "auto", "always", "min2", or "false" for false.
    pub use_grouping: String,
    /// [[SignDisplay]]: "auto", "never", "always", "exceptZero" or "negative".
    pub sign_display: String,
    /// [[BoundFormat]], made on the first read of `format`.
    pub bound_format: Option<ObjectId>,
}

impl NumberFormatSlots {
    /// Whether compact notation uses the long forms ("thousand" rather than "K").
    pub fn compact_long(&self) -> bool {
        self.compact_display == "long"
    }
}

/// Intl.ListFormat's slots (ECMA-402 §13.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ListFormatSlots {
    pub locale: String,
    /// [[Type]]: "conjunction", "disjunction" or "unit".
    pub kind: String,
    /// [[Style]]: "long", "short" or "narrow".
    pub style: String,
}

/// Intl.Segmenter's slots (ECMA-402 §19.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmenterSlots {
    pub locale: String,
    /// [[SegmenterGranularity]]: "grapheme", "word" or "sentence".
    pub granularity: String,
}

/// A Segments object's slots (ECMA-402 §19.5): the string and its boundaries, computed once.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmentsSlots {
    pub granularity: String,
    /// [[SegmentsString]].
    pub string: Value,
    /// Every boundary of the string in code units, 0 and its length included.
    pub breaks: Vec<u32>,
    /// For word granularity: whether the segment ending at `breaks[k]` is word-like.
    pub word_like: Vec<bool>,
}

/// A Segment Iterator's slots (ECMA-402 §19.6): its Segments object and position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmentIteratorSlots {
    pub segments: ObjectId,
    /// [[IteratedStringNextSegmentCodeUnitIndex]].
    pub position: u32,
}

/// Intl.DateTimeFormat's slots (ECMA-402 §11.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DateTimeFormatSlots {
    /// [[Locale]], with the `-u-` keywords that were honoured.
    pub locale: String,
    /// The locale the data comes from ([[DataLocale]], no extensions).
    pub data_locale: String,
    /// [[Calendar]] ("gregory", "japanese"…).
    pub calendar: String,
    /// [[NumberingSystem]] ("latn", "arab"…).
    pub numbering_system: String,
    /// [[TimeZone]]: an IANA name as given (case-normalized) or an offset "+hh:mm".
    pub time_zone: String,
    /// [[HourCycle]] ("h11", "h12", "h23", "h24"), when the format shows an hour.
    pub hour_cycle: Option<String>,
    /// The component bag ([[Weekday]] … [[TimeZoneName]]) the format shows, when no style was given.
    pub components: DateTimeComponents,
    /// [[DateStyle]]: "full", "long", "medium" or "short".
    pub date_style: Option<String>,
    /// [[TimeStyle]].
    pub time_style: Option<String>,
    /// [[BoundFormat]], made on the first read of `format`.
    pub bound_format: Option<ObjectId>,
    /// The component options as given, before defaults: the Temporal formats
    /// ([[TemporalPlainDateFormat]] …) are chosen from them per type
    /// (`builtins/intl/date_time_temporal.rs`).
    pub requested: Box<DateTimeComponents>,
    /// The hour cycle resolved from hour12, hourCycle and the locale, kept when the format
    /// shows no hour ([[HourCycle]] is then undefined) for the Temporal formats that do.
    pub resolved_hour_cycle: String,
    /// Which fields of a date or time style are shown (AdjustDateTimeStyleFormat). Not part
    /// of the image: it is set only on the transient slots a Temporal value is formatted
    /// with, never on an object's.
    #[serde(skip)]
    pub style_fields: StyleFields,
}

/// The fields of a date or time style a Temporal format keeps (AdjustDateTimeStyleFormat).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StyleFields {
    /// The whole style (Date, Temporal.Instant).
    #[default]
    All,
    /// The date style's era, year and month (Temporal.PlainYearMonth).
    YearMonth,
    /// The date style's month and day (Temporal.PlainMonthDay).
    MonthDay,
    /// The style without its time zone name (Temporal.PlainTime, PlainDateTime).
    NoZone,
}

/// The date-time components of ECMA-402's Table 16, each as its option value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DateTimeComponents {
    pub weekday: Option<String>,
    pub era: Option<String>,
    pub year: Option<String>,
    pub month: Option<String>,
    pub day: Option<String>,
    pub day_period: Option<String>,
    pub hour: Option<String>,
    pub minute: Option<String>,
    pub second: Option<String>,
    pub fractional_second_digits: Option<u8>,
    pub time_zone_name: Option<String>,
}

/// Intl.Locale's slots (ECMA-402 §14.4): the canonical tag; every other slot is read from it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LocaleSlots {
    /// [[Locale]].
    pub locale: String,
}

/// Intl.RelativeTimeFormat's slots (ECMA-402 §17.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RelativeTimeFormatSlots {
    /// [[Locale]], with the `-u-nu` keyword when it was honoured.
    pub locale: String,
    /// [[LocaleData]]'s locale: the one the relative-time fields are read for.
    pub data_locale: String,
    /// [[NumberingSystem]].
    pub numbering_system: String,
    /// [[Style]]: "long", "short" or "narrow".
    pub style: String,
    /// [[Numeric]]: "always" or "auto".
    pub numeric: String,
    /// [[NumberFormat]]: the NumberFormat made for [[Locale]] (it holds no bound format).
    pub number_format: Box<NumberFormatSlots>,
}

/// Intl.DisplayNames' slots (ECMA-402 §12.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DisplayNamesSlots {
    pub locale: String,
    /// [[Style]]: "narrow", "short" or "long".
    pub style: String,
    /// [[Type]]: "language", "region", "script", "currency", "calendar" or "dateTimeField".
    pub kind: String,
    /// [[Fallback]]: "code" or "none".
    pub fallback: String,
    /// [[LanguageDisplay]] ("dialect" or "standard"), for the language type only.
    pub language_display: Option<String>,
}

/// Intl.DurationFormat's slots (ECMA-402 §13.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DurationFormatSlots {
    /// [[Locale]], with the `-u-nu` keyword when it was honoured.
    pub locale: String,
    /// [[DataLocale]].
    pub data_locale: String,
    /// [[NumberingSystem]].
    pub numbering_system: String,
    /// [[Style]]: "long", "short", "narrow" or "digital".
    pub style: String,
    /// [[YearsStyle]], [[YearsDisplay]] … [[NanosecondsDisplay]]: the ten units in table
    /// order (years first).
    pub units: Vec<DurationUnitSlots>,
    /// [[FractionalDigits]].
    pub fractional_digits: Option<u8>,
}

/// One unit's style ("long", "short", "narrow", "numeric", "2-digit" or "fractional") and
/// display ("auto" or "always").
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DurationUnitSlots {
    pub style: String,
    pub display: String,
}

/// [[RoundingType]].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundingType {
    FractionDigits,
    SignificantDigits,
    MorePrecision,
    LessPrecision,
}

/// The slots SetNumberFormatDigitOptions sets.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DigitOptions {
    pub minimum_integer_digits: u8,
    /// [[MinimumFractionDigits]] / [[MaximumFractionDigits]], when fraction digits apply.
    pub fraction: Option<(u8, u8)>,
    /// [[MinimumSignificantDigits]] / [[MaximumSignificantDigits]], when significant digits apply.
    pub significant: Option<(u8, u8)>,
    pub rounding_type: RoundingType,
    /// [[ComputedRoundingPriority]]: "auto", "morePrecision" or "lessPrecision".
    pub rounding_priority: String,
    pub rounding_increment: u16,
    /// [[RoundingMode]]: one of the nine ECMA-402 names.
    pub rounding_mode: String,
    /// [[TrailingZeroDisplay]]: "auto" or "stripIfInteger".
    pub trailing_zero_display: String,
}
