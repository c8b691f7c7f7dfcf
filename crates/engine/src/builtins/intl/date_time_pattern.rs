//! Intl.DateTimeFormat's formatting over ICU4X (`icu_datetime` 2.4, compiled CLDR data):
//! the resolved slots ([`DateTimeFormatSlots`]) become an ICU4X field set and preferences,
//! a time value becomes an ICU4X zoned date-time in the slots' time zone (its offset from
//! temporal_rs's compiled zone data), and ICU4X's output parts become ECMA-402's
//! `{ type, value, source }` parts.
//!
//! The formatter is rebuilt per operation from the slots (the data is static and zero-copy),
//! so an image holds no ICU4X state.
//!
//! NOTE: ICU4X 2.4 formats semantic field sets, not arbitrary patterns: a component bag is
//! matched to the nearest field set (as `DateTimeFieldBag` does), so a numeric-versus-2-digit
//! request for a single field can come out in the locale's preferred width. Flexible day
//! periods ("in the morning") are laid out here from the hour, for `en` only (see
//! [`flexible_day_period`]); h24 is h23 with hour 0 written as 24.

use icu_datetime::fieldbag::field;
use icu_datetime::fieldbag::DateTimeFieldBag;
use icu_datetime::fieldsets::builder::{DateFields, FieldSetBuilder, ZoneStyle};
use icu_datetime::fieldsets::enums::CompositeFieldSet;
use icu_datetime::input::{Date, Time, TimeZone, UtcOffset, ZonedDateTime};
use icu_datetime::options::{Length, TimePrecision};
use icu_datetime::range::DateRangeFormatter;
use icu_datetime::{DateTimeFormatter, DateTimeFormatterPreferences};
use icu_locale_core::Locale;
use writeable::{Part as WPart, PartsWrite, Writeable};

use crate::heap::intl_slots::{DateTimeFormatSlots, StyleFields};

/// One part of a formatted date: its ECMA-402 type, text and (for ranges) source.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DatePart {
    pub kind: &'static str,
    pub value: String,
    pub source: &'static str,
}

/// A formatting failure (missing data, a zone or calendar ICU4X does not know): the caller
/// throws a RangeError with the message.
pub(crate) struct FormatError(pub String);

/// The local date-time of a time value in a zone, with the zone's offset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Local {
    pub epoch_ms: i64,
    pub offset_seconds: i32,
    pub hour: u8,
}

/// The offset of `zone` (an IANA name or "+hh:mm") at `epoch_ms`, from temporal_rs's
/// compiled time-zone data.
pub(crate) fn offset_seconds(zone: &str, epoch_ms: i64) -> Result<i32, FormatError> {
    let tz = temporal_rs::TimeZone::try_from_identifier_str(zone).map_err(|e| FormatError(e.to_string()))?;
    let z = temporal_rs::ZonedDateTime::try_new_iso(i128::from(epoch_ms) * 1_000_000, tz)
        .map_err(|e| FormatError(e.to_string()))?;
    Ok((z.offset_nanoseconds() / 1_000_000_000) as i32)
}

/// The local fields of `epoch_ms` in the slots' zone.
pub(crate) fn local_of(slots: &DateTimeFormatSlots, epoch_ms: i64) -> Result<Local, FormatError> {
    let offset_seconds = offset_seconds(&slots.time_zone, epoch_ms)?;
    let local = epoch_ms + i64::from(offset_seconds) * 1000;
    let hour = (local.rem_euclid(86_400_000) / 3_600_000) as u8;
    Ok(Local { epoch_ms, offset_seconds, hour })
}

/// The ICU4X preferences of the slots: the data locale with the resolved calendar,
/// numbering system and hour cycle.
fn preferences(slots: &DateTimeFormatSlots) -> DateTimeFormatterPreferences {
    let mut tag = format!("{}-u-ca-{}-nu-{}", slots.data_locale, slots.calendar, slots.numbering_system);
    if let Some(hc) = &slots.hour_cycle {
        // ICU4X has no h24: it is h23 with 0 written as 24 (see `fix_hour`).
        let hc = if hc == "h24" { "h23" } else { hc.as_str() };
        tag.push_str("-hc-");
        tag.push_str(hc);
    }
    match Locale::try_from_str(&tag) {
        Ok(l) => (&l).into(),
        Err(_) => Locale::try_from_str(&slots.data_locale).map(|l| (&l).into()).unwrap_or_default(),
    }
}

/// The component bag of the slots as ICU4X's [`DateTimeFieldBag`].
fn field_bag(slots: &DateTimeFormatSlots) -> DateTimeFieldBag {
    let c = &slots.components;
    let mut bag = DateTimeFieldBag::default();
    let text = |v: &Option<String>| v.as_deref().map(|s| (s == "long", s == "narrow"));
    bag.weekday = text(&c.weekday).map(|(long, narrow)| match (long, narrow) {
        (true, _) => field::Weekday::Long,
        (_, true) => field::Weekday::Narrow,
        _ => field::Weekday::Short,
    });
    bag.era = text(&c.era).map(|(long, narrow)| match (long, narrow) {
        (true, _) => field::Era::Long,
        (_, true) => field::Era::Narrow,
        _ => field::Era::Short,
    });
    bag.day_period = c.day_period.as_deref().map(|p| match p {
        "long" => field::DayPeriod::FlexibleLong,
        "narrow" => field::DayPeriod::FlexibleNarrow,
        _ => field::DayPeriod::FlexibleShort,
    });
    bag.year = c.year.as_deref().map(|y| if y == "2-digit" { field::Year::TwoDigit } else { field::Year::Numeric });
    bag.month = c.month.as_deref().map(|m| match m {
        "2-digit" => field::Month::TwoDigit,
        "long" => field::Month::Long,
        "short" => field::Month::Short,
        "narrow" => field::Month::Narrow,
        _ => field::Month::Numeric,
    });
    bag.day = c.day.as_deref().map(|d| if d == "2-digit" { field::Day::TwoDigit } else { field::Day::Numeric });
    let two = |v: &Option<String>| v.as_deref().map(|s| s == "2-digit");
    bag.hour = two(&c.hour).map(|t| if t { field::Hour::TwoDigit } else { field::Hour::Numeric });
    bag.minute = two(&c.minute).map(|t| if t { field::Minute::TwoDigit } else { field::Minute::Numeric });
    bag.second = two(&c.second).map(|t| if t { field::Second::TwoDigit } else { field::Second::Numeric });
    bag.fractional_second_digits = c.fractional_second_digits.map(|d| match d {
        1 => field::FractionalSecondDigits::F1,
        2 => field::FractionalSecondDigits::F2,
        _ => field::FractionalSecondDigits::F3,
    });
    bag.time_zone_name = c.time_zone_name.as_deref().map(|z| match z {
        "long" => field::TimeZoneName::LongSpecific,
        "shortOffset" => field::TimeZoneName::ShortOffset,
        "longOffset" => field::TimeZoneName::LongOffset,
        "shortGeneric" => field::TimeZoneName::ShortGeneric,
        "longGeneric" => field::TimeZoneName::LongGeneric,
        _ => field::TimeZoneName::ShortSpecific,
    });
    bag
}

/// The ICU4X field-set builder of the slots: the date and time styles (DateTimeStyleFormat)
/// or the component bag.
fn builder(slots: &DateTimeFormatSlots) -> FieldSetBuilder {
    if slots.date_style.is_none() && slots.time_style.is_none() {
        let mut b = field_bag(slots).to_field_set_builder();
        // A day period alone is an hour field set whose hour is dropped (`day_period_only`).
        if b.time_precision.is_none() && slots.components.day_period.is_some() {
            b.time_precision = Some(TimePrecision::Hour);
        }
        return b;
    }
    let length = |s: &str| match s {
        "full" | "long" => Length::Long,
        "medium" => Length::Medium,
        _ => Length::Short,
    };
    let mut b = FieldSetBuilder::new();
    let style = slots.date_style.as_deref().or(slots.time_style.as_deref()).unwrap_or("medium");
    b.length = Some(length(style));
    if let Some(d) = &slots.date_style {
        b.date_fields = Some(match slots.style_fields {
            // AdjustDateTimeStyleFormat: a Temporal year-month or month-day keeps the style's
            // fields it has.
            StyleFields::YearMonth => DateFields::YM,
            StyleFields::MonthDay => DateFields::MD,
            _ if d == "full" => DateFields::YMDE,
            _ => DateFields::YMD,
        });
    }
    if let Some(t) = &slots.time_style {
        b.time_precision = Some(if t == "short" { TimePrecision::Minute } else { TimePrecision::Second });
        b.zone_style = match t.as_str() {
            // A Plain time or date-time has no zone to name.
            _ if slots.style_fields == StyleFields::NoZone => None,
            "full" => Some(ZoneStyle::SpecificLong),
            "long" => Some(ZoneStyle::SpecificShort),
            _ => None,
        };
    }
    b
}

/// The field set of the slots; options ICU4X cannot combine are dropped one by one rather
/// than failing.
pub(crate) fn field_set(slots: &DateTimeFormatSlots) -> CompositeFieldSet {
    let b = builder(slots);
    if let Ok(fs) = b.clone().build_composite() {
        return fs;
    }
    let mut relaxed = b.clone();
    relaxed.alignment = None;
    if let Ok(fs) = relaxed.clone().build_composite() {
        return fs;
    }
    relaxed.year_style = None;
    if let Ok(fs) = relaxed.clone().build_composite() {
        return fs;
    }
    relaxed.zone_style = None;
    if let Ok(fs) = relaxed.build_composite() {
        return fs;
    }
    let mut fallback = FieldSetBuilder::new();
    fallback.date_fields = Some(DateFields::YMD);
    fallback.length = Some(Length::Short);
    fallback.build_composite().unwrap_or_else(|_| {
        CompositeFieldSet::Date(
            icu_datetime::fieldsets::enums::DateFieldSet::YMD(icu_datetime::fieldsets::YMD::short()),
        )
    })
}

/// The ICU4X input of a local date-time: the ISO date and time, and the zone (its ICU4X
/// id for an IANA name, "unknown" for an offset) at that instant.
type Input = ZonedDateTime<icu_calendar::Iso, icu_datetime::input::TimeZoneInfo<icu_time::zone::models::AtTime>>;

fn input(slots: &DateTimeFormatSlots, local: &Local) -> Result<Input, FormatError> {
    let offset = UtcOffset::try_from_seconds(local.offset_seconds).map_err(|_| FormatError("bad offset".into()))?;
    let at = |ms| ZonedDateTime::<icu_calendar::Iso, UtcOffset>::from_epoch_milliseconds_and_utc_offset(ms, offset);
    let z = at(local.epoch_ms);
    let zone = if slots.time_zone.starts_with(['+', '-']) {
        TimeZone::UNKNOWN
    } else {
        TimeZone::from_iana_id(&slots.time_zone)
    };
    let stamp = icu_time::zone::ZoneNameTimestamp::from_zoned_date_time(at(local.epoch_ms));
    let info = zone.with_offset(Some(offset)).with_zone_name_timestamp(stamp);
    let date: Date<icu_calendar::Iso> = z.date;
    let time: Time = z.time;
    Ok(ZonedDateTime { date, time, zone: info })
}

/// A [`PartsWrite`] sink that turns ICU4X's nested parts into ECMA-402 parts.
struct Collector {
    /// The parts so far, each with the sequence number of the field it came from.
    parts: Vec<(DatePart, Option<usize>)>,
    /// The open ICU4X parts, each with its field's sequence number.
    stack: Vec<(WPart, usize)>,
    fields: usize,
}

fn is_range(p: &WPart) -> bool {
    *p == icu_datetime::parts::RANGE_START || *p == icu_datetime::parts::RANGE_END
}

impl Collector {
    /// The ECMA-402 type of text written now, and the field it belongs to.
    fn kind(&self) -> (&'static str, Option<usize>) {
        let Some((p, seq)) = self.stack.iter().rev().find(|(p, _)| p.category == "datetime" && !is_range(p)) else {
            return ("literal", None);
        };
        let kind = match p.value {
            "second" => match self.stack.last() {
                Some((last, _)) if last.category == "decimal" && last.value == "fraction" => "fractionalSecond",
                Some((last, _)) if last.category == "decimal" && last.value == "decimal" => "literal",
                _ => "second",
            },
            "extendedYear" => "year",
            "era" | "year" | "relatedYear" | "yearName" | "month" | "day" | "weekday" | "dayPeriod" | "hour"
            | "minute" | "timeZoneName" => p.value,
            _ => "literal",
        };
        (kind, Some(*seq))
    }

    fn source(&self) -> &'static str {
        for (p, _) in self.stack.iter().rev() {
            if *p == icu_datetime::parts::RANGE_START {
                return "startRange";
            }
            if *p == icu_datetime::parts::RANGE_END {
                return "endRange";
            }
        }
        "shared"
    }
}

impl std::fmt::Write for Collector {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if s.is_empty() {
            return Ok(());
        }
        let ((kind, field), source) = (self.kind(), self.source());
        let id = if kind == "literal" { None } else { field };
        // CLDR 42+ puts U+202F NARROW NO-BREAK SPACE before "AM"/"PM" and in some ranges; V8
        // (node 20) and SpiderMonkey write an ordinary space in what `format` returns, because
        // too much code parses or compares formatted times: so does Amber, in every method
        // (V8 keeps U+202F in formatToParts and the range methods, where test262 expects the
        // same text as `format`'s).
        let s = s.replace('\u{202f}', " ");
        match self.parts.last_mut() {
            // Text of one field (or adjacent literal text) written in pieces joins up.
            Some((last, last_id)) if last.kind == kind && last.source == source && *last_id == id => {
                last.value.push_str(&s)
            }
            _ => self.parts.push((DatePart { kind, value: s, source }, id)),
        }
        Ok(())
    }
}

impl PartsWrite for Collector {
    type SubPartsWrite = Collector;
    fn with_part(
        &mut self,
        part: WPart,
        mut f: impl FnMut(&mut Self::SubPartsWrite) -> std::fmt::Result,
    ) -> std::fmt::Result {
        let seq = if part.category == "datetime" && !is_range(&part) {
            self.fields += 1;
            self.fields
        } else {
            self.stack.last().map_or(0, |(_, s)| *s)
        };
        self.stack.push((part, seq));
        let r = f(self);
        self.stack.pop();
        r
    }
}

fn collect(w: &impl Writeable) -> Vec<DatePart> {
    let mut sink = Collector { parts: Vec::new(), stack: Vec::new(), fields: 0 };
    // Writing to a Collector cannot fail.
    let _ = w.write_to_parts(&mut sink);
    sink.parts.into_iter().map(|(p, _)| p).collect()
}

/// The parts of `local` formatted under `slots` (FormatDateTimePattern).
pub(crate) fn format_parts(slots: &DateTimeFormatSlots, local: &Local) -> Result<Vec<DatePart>, FormatError> {
    let formatter = DateTimeFormatter::try_new(preferences(slots), field_set(slots))
        .map_err(|e| FormatError(format!("locale data unavailable: {e:?}")))?;
    let input = input(slots, local)?;
    let mut parts = collect(&formatter.format(&input));
    adjust(slots, local, &mut parts);
    Ok(parts)
}

/// The parts of the range `start`–`end` (PartitionDateTimeRangePattern), with their sources.
pub(crate) fn format_range_parts(
    slots: &DateTimeFormatSlots,
    start: &Local,
    end: &Local,
) -> Result<Vec<DatePart>, FormatError> {
    let formatter = DateRangeFormatter::try_new(preferences(slots), field_set(slots))
        .map_err(|e| FormatError(format!("locale data unavailable: {e:?}")))?;
    let (a, b) = (input(slots, start)?, input(slots, end)?);
    let mut parts = collect(&formatter.format(&a, &b));
    // The day period and hour fixes apply per side.
    let mut out = Vec::with_capacity(parts.len());
    let mut side: Vec<DatePart> = Vec::new();
    let mut current = "";
    for p in parts.drain(..) {
        if p.source != current && !side.is_empty() {
            let local = if current == "endRange" { end } else { start };
            adjust(slots, local, &mut side);
            out.append(&mut side);
        }
        current = p.source;
        side.push(p);
    }
    let local = if current == "endRange" { end } else { start };
    adjust(slots, local, &mut side);
    out.append(&mut side);
    Ok(out)
}

/// A `2-digit` year keeps its last two digits (CLDR's "yy"), which ICU4X's nearest field set
/// does not always keep. (Day, month and hour widths follow the locale's own patterns in CLDR's
/// availableFormats, as ICU's pattern generator picks them for V8 — "1.1.2024" but "01.01.2024"
/// in ru, "8:00" but "08 Uhr" in de — which ICU4X 2.4 does not expose for component bags: not
/// adjusted, see docs/node-compat.md.)
fn adjust_widths(slots: &DateTimeFormatSlots, parts: &mut [DatePart]) {
    if slots.date_style.is_some() || slots.components.year.as_deref() != Some("2-digit") {
        return;
    }
    let digits = super::number_data::digits_for(&slots.numbering_system)
        .unwrap_or(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for p in parts.iter_mut().filter(|p| p.kind == "year") {
        let n = p.value.chars().count();
        if n > 2 && p.value.chars().all(|c| digits.contains(&c)) {
            p.value = p.value.chars().skip(n - 2).collect();
        }
    }
}

/// What ICU4X does not do itself: field widths, h24's hour 24, flexible day periods, and a
/// day period shown without its hour.
fn adjust(slots: &DateTimeFormatSlots, local: &Local, parts: &mut Vec<DatePart>) {
    adjust_widths(slots, parts);
    if local.offset_seconds == 0 {
        // CLDR's zero-offset format ("GMT", not ICU4X's "GMT+0") for a zone shown by offset.
        for p in parts.iter_mut().filter(|p| p.kind == "timeZoneName") {
            for suffix in ["+00:00", "+0000", "+00", "+0"] {
                if let Some(stripped) = p.value.strip_suffix(suffix) {
                    if !stripped.is_empty() && !stripped.ends_with(|c: char| c.is_ascii_digit()) {
                        p.value = stripped.to_string();
                        break;
                    }
                }
            }
        }
    }
    if slots.hour_cycle.as_deref() == Some("h24") && local.hour == 0 {
        for p in parts.iter_mut().filter(|p| p.kind == "hour") {
            if p.value.bytes().all(|b| b == b'0') {
                p.value = "24".to_string();
            }
        }
    }
    let Some(width) = slots.components.day_period.as_deref() else { return };
    if let Some(name) = flexible_day_period(&slots.data_locale, local, width) {
        for p in parts.iter_mut().filter(|p| p.kind == "dayPeriod") {
            p.value = name.to_string();
        }
    }
    if slots.components.hour.is_none() {
        // A day period alone: the day period is all that is shown of the time.
        let source = parts.iter().find(|p| p.kind == "dayPeriod").map(|p| p.source);
        if let Some(source) = source {
            let name = flexible_day_period(&slots.data_locale, local, width).map(str::to_string);
            let value = name.unwrap_or_else(|| {
                parts.iter().find(|p| p.kind == "dayPeriod").map(|p| p.value.clone()).unwrap_or_default()
            });
            let mut kept: Vec<DatePart> = Vec::new();
            let time_kinds = ["hour", "minute", "second", "fractionalSecond", "dayPeriod"];
            let first_time = parts.iter().position(|p| time_kinds.contains(&p.kind));
            let last_time = parts.iter().rposition(|p| time_kinds.contains(&p.kind));
            if let (Some(first), Some(last)) = (first_time, last_time) {
                kept.extend(parts[..first].iter().cloned());
                kept.push(DatePart { kind: "dayPeriod", value, source });
                kept.extend(parts[last + 1..].iter().cloned());
                // A literal left dangling at the end (", ") goes.
                while kept.last().is_some_and(|p| p.kind == "literal" && p.value.trim().is_empty()) {
                    kept.pop();
                }
                *parts = kept;
            }
        }
    }
}

/// CLDR's flexible day periods (`B`) for English, which ICU4X 2.4 does not format: the name
/// of the period `local` falls in, at the requested width.
fn flexible_day_period(locale: &str, local: &Local, width: &str) -> Option<&'static str> {
    if !(locale == "en" || locale.starts_with("en-")) {
        return None;
    }
    let ms_of_day = (local.epoch_ms + i64::from(local.offset_seconds) * 1000).rem_euclid(86_400_000);
    if ms_of_day == 12 * 3_600_000 {
        return Some(if width == "narrow" { "n" } else { "noon" });
    }
    let name = match local.hour {
        6..=11 => "in the morning",
        12..=17 => "in the afternoon",
        18..=20 => "in the evening",
        _ => "at night",
    };
    Some(name)
}

/// The hour cycle the locale's own time pattern uses ("h11", "h12", "h23" or "h24").
pub(crate) fn locale_hour_cycle(data_locale: &str) -> String {
    let Ok(locale) = Locale::try_from_str(data_locale) else { return "h23".to_string() };
    let Ok(f) = DateTimeFormatter::try_new((&locale).into(), icu_datetime::fieldsets::T::hm()) else {
        return "h23".to_string();
    };
    let Ok(t) = Time::try_new(13, 0, 0, 0) else { return "h23".to_string() };
    let Ok(d) = Date::try_new_iso(2000, 1, 1) else { return "h23".to_string() };
    let dt = icu_datetime::input::DateTime { date: d, time: t };
    let pattern = f.format(&dt).pattern().to_string();
    let mut quoted = false;
    for c in pattern.chars() {
        match c {
            '\'' => quoted = !quoted,
            'h' if !quoted => return "h12".to_string(),
            'H' if !quoted => return "h23".to_string(),
            'K' if !quoted => return "h11".to_string(),
            'k' if !quoted => return "h24".to_string(),
            _ => {}
        }
    }
    "h23".to_string()
}

/// The calendars Intl.DateTimeFormat formats in (its `ca` values), as BCP 47 values, sorted.
pub(crate) const CALENDARS: [&str; 16] = [
    "buddhist",
    "chinese",
    "coptic",
    "dangi",
    "ethioaa",
    "ethiopic",
    "gregory",
    "hebrew",
    "indian",
    "islamic-civil",
    "islamic-tbla",
    "islamic-umalqura",
    "iso8601",
    "japanese",
    "persian",
    "roc",
];

/// Whether ICU4X formats in calendar `ca` (a resolved `ca`, as a BCP 47 value).
pub(crate) fn calendar_supported(ca: &str) -> bool {
    CALENDARS.contains(&ca)
}

/// The locale's default calendar (CLDR's calendar preference), as a BCP 47 value.
pub(crate) fn default_calendar(data_locale: &str) -> String {
    let Ok(locale) = Locale::try_from_str(data_locale) else { return "gregory".to_string() };
    let Ok(f) = DateTimeFormatter::try_new((&locale).into(), icu_datetime::fieldsets::YMD::short()) else {
        return "gregory".to_string();
    };
    use icu_calendar::AnyCalendarKind as K;
    let name = match f.calendar().kind() {
        K::Buddhist => "buddhist",
        K::Chinese => "chinese",
        K::Coptic => "coptic",
        K::Dangi => "dangi",
        K::Ethiopian => "ethiopic",
        K::EthiopianAmeteAlem => "ethioaa",
        K::Hebrew => "hebrew",
        K::Indian => "indian",
        K::HijriTabularTypeIIFriday => "islamic-civil",
        K::HijriTabularTypeIIThursday => "islamic-tbla",
        K::HijriUmmAlQura => "islamic-umalqura",
        K::Iso => "iso8601",
        K::Japanese => "japanese",
        K::Persian => "persian",
        K::Roc => "roc",
        _ => "gregory",
    };
    name.to_string()
}
