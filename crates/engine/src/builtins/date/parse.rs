//! Date string parsing as V8 does it (`Date.parse` and `new Date(string)`): the Date Time
//! String Format (ECMA-262 §21.4.1.32) first, then V8's legacy forms — which include
//! everything `toString`, `toUTCString` and `toISOString` print.

use super::zone::SystemZone;
use super::{make_date, make_day, make_time, time_clip, MAX_TIME, MS_PER_DAY};
use crate::string::{is_js_whitespace, JsStr};

/// Parse a date string as `Date.parse` does: the ISO format, then V8's legacy forms. NaN
/// when unrecognised. A form without an offset is local time in `zone`.
pub(crate) fn parse_date(s: &JsStr, zone: &SystemZone) -> f64 {
    let units = s.units();
    let Some(out) = DateParser::parse(&units) else { return f64::NAN };
    let day = make_day(out.year as f64, f64::from(out.month), f64::from(out.day));
    let time = make_time(f64::from(out.hour), f64::from(out.minute), f64::from(out.second), f64::from(out.ms));
    let mut date = make_date(day, time);
    match out.utc_offset_seconds {
        // No offset: local time.
        None => {
            if date.abs() > MAX_TIME + 10.0 * MS_PER_DAY {
                return f64::NAN;
            }
            date = zone.utc(date);
        }
        Some(offset) => {
            date -= f64::from(offset) * 1000.0;
            if date.abs() > MAX_TIME {
                return f64::NAN;
            }
        }
    }
    time_clip(date)
}

/// What a successful parse produces.
struct ParsedDate {
    year: i32,
    /// 0-based.
    month: i32,
    day: i32,
    hour: i32,
    minute: i32,
    second: i32,
    ms: i32,
    utc_offset_seconds: Option<i32>,
}

/// Marks a missing component.
const NONE: i32 = i32::MAX;
/// Digits beyond this many in a numeral are ignored.
const MAX_SIGNIFICANT_DIGITS: usize = 9;

fn between(x: i32, lo: i32, hi: i32) -> bool {
    (lo..=hi).contains(&x)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KeywordType {
    Invalid,
    MonthName,
    TimeZoneName,
    TimeSeparator,
    AmPm,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token {
    Invalid,
    Unknown,
    WhiteSpace,
    Number { value: i32, length: usize },
    Symbol(u16),
    Keyword { kind: KeywordType, value: i32, length: usize },
    End,
}

impl Token {
    fn is_number(self) -> bool {
        matches!(self, Token::Number { .. })
    }
    fn number(self) -> i32 {
        match self {
            Token::Number { value, .. } => value,
            _ => 0,
        }
    }
    fn is_fixed_length_number(self, n: usize) -> bool {
        matches!(self, Token::Number { length, .. } if length == n)
    }
    fn is_symbol(self, c: u8) -> bool {
        self == Token::Symbol(u16::from(c))
    }
    fn is_ascii_sign(self) -> bool {
        self.is_symbol(b'+') || self.is_symbol(b'-')
    }
    fn ascii_sign(self) -> i32 {
        if self.is_symbol(b'-') {
            -1
        } else {
            1
        }
    }
    fn is_keyword_type(self, t: KeywordType) -> bool {
        matches!(self, Token::Keyword { kind, .. } if kind == t)
    }
    fn is_keyword_z(self) -> bool {
        matches!(self, Token::Keyword { kind: KeywordType::TimeZoneName, value: 0, length: 1 })
    }
}

/// V8's keyword table: a three-letter lower-case prefix, its type and value.
const KEYWORDS: &[(&[u8; 3], KeywordType, i32)] = &[
    (b"jan", KeywordType::MonthName, 1),
    (b"feb", KeywordType::MonthName, 2),
    (b"mar", KeywordType::MonthName, 3),
    (b"apr", KeywordType::MonthName, 4),
    (b"may", KeywordType::MonthName, 5),
    (b"jun", KeywordType::MonthName, 6),
    (b"jul", KeywordType::MonthName, 7),
    (b"aug", KeywordType::MonthName, 8),
    (b"sep", KeywordType::MonthName, 9),
    (b"oct", KeywordType::MonthName, 10),
    (b"nov", KeywordType::MonthName, 11),
    (b"dec", KeywordType::MonthName, 12),
    (b"am\0", KeywordType::AmPm, 0),
    (b"pm\0", KeywordType::AmPm, 12),
    (b"ut\0", KeywordType::TimeZoneName, 0),
    (b"utc", KeywordType::TimeZoneName, 0),
    (b"z\0\0", KeywordType::TimeZoneName, 0),
    (b"gmt", KeywordType::TimeZoneName, 0),
    (b"cdt", KeywordType::TimeZoneName, -5),
    (b"cst", KeywordType::TimeZoneName, -6),
    (b"edt", KeywordType::TimeZoneName, -4),
    (b"est", KeywordType::TimeZoneName, -5),
    (b"mdt", KeywordType::TimeZoneName, -6),
    (b"mst", KeywordType::TimeZoneName, -7),
    (b"pdt", KeywordType::TimeZoneName, -7),
    (b"pst", KeywordType::TimeZoneName, -8),
    (b"t\0\0", KeywordType::TimeSeparator, 0),
];

/// The tokenizer over UTF-16 code units, with one token of lookahead.
struct Scanner<'a> {
    input: &'a [u16],
    pos: usize,
    next: Token,
}

impl<'a> Scanner<'a> {
    fn new(input: &'a [u16]) -> Scanner<'a> {
        let mut s = Scanner { input, pos: 0, next: Token::End };
        s.next = s.scan();
        s
    }

    /// The current character; NUL (and the end) read as 0, which ends the input.
    fn ch(&self) -> u16 {
        self.input.get(self.pos).copied().unwrap_or(0)
    }

    fn next(&mut self) -> Token {
        let t = self.next;
        self.next = self.scan();
        t
    }

    fn peek(&self) -> Token {
        self.next
    }

    fn skip_symbol(&mut self, c: u8) -> bool {
        if self.next.is_symbol(c) {
            self.next = self.scan();
            true
        } else {
            false
        }
    }

    fn scan(&mut self) -> Token {
        let start = self.pos;
        let c = self.ch();
        if c == 0 {
            return Token::End;
        }
        if (0x30..=0x39).contains(&c) {
            let mut value: i32 = 0;
            let mut i = 0;
            while (0x30..=0x39).contains(&self.ch()) {
                if i < MAX_SIGNIFICANT_DIGITS {
                    value = value * 10 + i32::from(self.ch() - 0x30);
                }
                i += 1;
                self.pos += 1;
            }
            return Token::Number { value, length: self.pos - start };
        }
        if matches!(c, 0x3A | 0x2D | 0x2B | 0x2E | 0x29) {
            // ':' '-' '+' '.' ')'
            self.pos += 1;
            return Token::Symbol(c);
        }
        if c >= u16::from(b'A') && !is_js_whitespace(c) {
            let mut prefix = [0u16; 3];
            let mut len = 0;
            while self.ch() >= u16::from(b'A') && !is_js_whitespace(self.ch()) {
                if len < 3 {
                    prefix[len] = self.ch() | 0x20;
                }
                len += 1;
                self.pos += 1;
            }
            let entry = KEYWORDS.iter().find(|(p, kind, _)| {
                p.iter().zip(prefix.iter()).all(|(&a, &b)| u16::from(a) == b)
                    && (len <= 3 || *kind == KeywordType::MonthName)
            });
            let (kind, value) = entry.map_or((KeywordType::Invalid, 0), |&(_, k, v)| (k, v));
            return Token::Keyword { kind, value, length: len };
        }
        if is_js_whitespace(c) {
            self.pos += 1;
            return Token::WhiteSpace;
        }
        if c == u16::from(b'(') {
            // Skip a balanced parenthesised comment (or to the end).
            let mut balance = 0;
            loop {
                let ch = self.ch();
                if ch == u16::from(b')') {
                    balance -= 1;
                } else if ch == u16::from(b'(') {
                    balance += 1;
                }
                self.pos += 1;
                if balance <= 0 || self.ch() == 0 {
                    break;
                }
            }
            return Token::Unknown;
        }
        self.pos += 1;
        Token::Unknown
    }
}

#[derive(Default)]
struct DayComposer {
    comp: [i32; 3],
    index: usize,
    named_month: Option<i32>,
    is_iso_date: bool,
}

impl DayComposer {
    fn add(&mut self, n: i32) -> bool {
        if self.index < 3 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }

    fn is_month(x: i32) -> bool {
        between(x, 1, 12)
    }

    fn is_day(x: i32) -> bool {
        between(x, 1, 31)
    }

    /// (year, 0-based month, day).
    fn write(&mut self) -> Option<(i32, i32, i32)> {
        if self.index < 1 {
            return None;
        }
        // Day and month default to 1.
        while self.index < 3 {
            self.comp[self.index] = 1;
            self.index += 1;
        }
        let mut year = 0; // Default year is 0 (=> 2000) for KJS compatibility.
        let (month, day);
        match self.named_month {
            None => {
                if self.is_iso_date || (self.index == 3 && !Self::is_day(self.comp[0])) {
                    // YMD
                    year = self.comp[0];
                    month = self.comp[1];
                    day = self.comp[2];
                } else {
                    // MD(Y)
                    month = self.comp[0];
                    day = self.comp[1];
                    if self.index == 3 {
                        year = self.comp[2];
                    }
                }
            }
            Some(named) => {
                month = named;
                if self.index == 1 {
                    day = self.comp[0];
                } else if !Self::is_day(self.comp[0]) {
                    // YMD, MYD, or YDM
                    year = self.comp[0];
                    day = self.comp[1];
                } else {
                    // DMY, MDY, or DYM
                    day = self.comp[0];
                    year = self.comp[1];
                }
            }
        }
        if !self.is_iso_date {
            if between(year, 0, 49) {
                year += 2000;
            } else if between(year, 50, 99) {
                year += 1900;
            }
        }
        if !Self::is_month(month) || !Self::is_day(day) {
            return None;
        }
        Some((year, month - 1, day))
    }
}

struct TimeComposer {
    comp: [i32; 4],
    index: usize,
    hour_offset: i32,
}

impl TimeComposer {
    fn new() -> TimeComposer {
        TimeComposer { comp: [0; 4], index: 0, hour_offset: NONE }
    }
    fn is_empty(&self) -> bool {
        self.index == 0
    }
    fn is_minute(x: i32) -> bool {
        between(x, 0, 59)
    }
    fn is_hour(x: i32) -> bool {
        between(x, 0, 23)
    }
    fn is_second(x: i32) -> bool {
        between(x, 0, 59)
    }
    fn is_millisecond(x: i32) -> bool {
        between(x, 0, 999)
    }
    fn is_expecting(&self, n: i32) -> bool {
        (self.index == 1 && Self::is_minute(n))
            || (self.index == 2 && Self::is_second(n))
            || (self.index == 3 && Self::is_millisecond(n))
    }
    fn add(&mut self, n: i32) -> bool {
        if self.index < 4 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }
    fn add_final(&mut self, n: i32) -> bool {
        if !self.add(n) {
            return false;
        }
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        true
    }
    /// (hour, minute, second, ms).
    fn write(&mut self) -> Option<(i32, i32, i32, i32)> {
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        let [mut hour, minute, second, ms] = self.comp;
        if self.hour_offset != NONE {
            if !between(hour, 0, 12) {
                return None;
            }
            hour %= 12;
            hour += self.hour_offset;
        }
        if !Self::is_hour(hour) || !Self::is_minute(minute) || !Self::is_second(second) || !Self::is_millisecond(ms) {
            // A 24th hour is allowed if minutes, seconds, and milliseconds are 0.
            if hour != 24 || minute != 0 || second != 0 || ms != 0 {
                return None;
            }
        }
        Some((hour, minute, second, ms))
    }
}

struct TimeZoneComposer {
    sign: i32,
    hour: i32,
    minute: i32,
}

impl TimeZoneComposer {
    fn new() -> TimeZoneComposer {
        TimeZoneComposer { sign: NONE, hour: NONE, minute: NONE }
    }
    fn set(&mut self, offset_in_hours: i32) {
        self.sign = if offset_in_hours < 0 { -1 } else { 1 };
        self.hour = offset_in_hours * self.sign;
        self.minute = 0;
    }
    fn set_sign(&mut self, sign: i32) {
        self.sign = if sign < 0 { -1 } else { 1 };
    }
    fn is_expecting(&self, n: i32) -> bool {
        self.hour != NONE && self.minute == NONE && TimeComposer::is_minute(n)
    }
    fn is_utc(&self) -> bool {
        self.hour == 0 && self.minute == 0
    }
    fn is_empty(&self) -> bool {
        self.hour == NONE
    }
    /// The offset in seconds, or None for local time; Err for an out-of-range offset.
    fn write(&mut self) -> Result<Option<i32>, ()> {
        if self.sign == NONE {
            return Ok(None);
        }
        if self.hour == NONE {
            self.hour = 0;
        }
        if self.minute == NONE {
            self.minute = 0;
        }
        let total = i64::from(self.hour) * 3600 + i64::from(self.minute) * 60;
        if total > i64::from(i32::MAX >> 1) {
            return Err(());
        }
        let total = total as i32;
        Ok(Some(if self.sign < 0 { -total } else { total }))
    }
}

/// The three most significant digits of a fraction numeral (V8's ReadMilliseconds).
fn read_milliseconds(token: Token) -> i32 {
    let (mut number, mut length) = match token {
        Token::Number { value, length } => (value, length),
        _ => (0, 0),
    };
    if length < 3 {
        if length == 1 {
            number *= 100;
        } else if length == 2 {
            number *= 10;
        }
    } else if length > 3 {
        if length > MAX_SIGNIFICANT_DIGITS {
            length = MAX_SIGNIFICANT_DIGITS;
        }
        let mut factor = 1;
        while length > 3 {
            factor *= 10;
            length -= 1;
        }
        number /= factor;
    }
    number
}

struct DateParser;

impl DateParser {
    fn parse(input: &[u16]) -> Option<ParsedDate> {
        let mut scanner = Scanner::new(input);
        let mut day = DayComposer::default();
        let mut time = TimeComposer::new();
        let mut tz = TimeZoneComposer::new();
        // First get as far as possible with the ES5 Date Time String format.
        let next_unhandled = Self::parse_es5_date_time(&mut scanner, &mut day, &mut time, &mut tz);
        if next_unhandled == Token::Invalid {
            return None;
        }
        let mut has_read_number = day.index > 0;
        // Continue with the legacy parser for anything left.
        let mut token = next_unhandled;
        while token != Token::End {
            match token {
                Token::Number { value: n, .. } => {
                    has_read_number = true;
                    if scanner.skip_symbol(b':') {
                        if scanner.skip_symbol(b':') {
                            // n + "::"
                            if !time.is_empty() {
                                return None;
                            }
                            time.add(n);
                            time.add(0);
                        } else {
                            // n + ":"
                            if !time.add(n) {
                                return None;
                            }
                            if scanner.peek().is_symbol(b'.') {
                                scanner.next();
                            }
                        }
                    } else if scanner.skip_symbol(b'.') && time.is_expecting(n) {
                        time.add(n);
                        if !scanner.peek().is_number() {
                            return None;
                        }
                        let ms = read_milliseconds(scanner.next());
                        if ms < 0 {
                            return None;
                        }
                        time.add_final(ms);
                    } else if tz.is_expecting(n) {
                        tz.minute = n;
                    } else if time.is_expecting(n) {
                        time.add_final(n);
                        // Require end, white space, "Z", "+" or "-" right after the time.
                        let peek = scanner.peek();
                        if peek != Token::End
                            && peek != Token::WhiteSpace
                            && !peek.is_keyword_z()
                            && !peek.is_ascii_sign()
                        {
                            return None;
                        }
                    } else {
                        if !day.add(n) {
                            return None;
                        }
                        scanner.skip_symbol(b'-');
                    }
                }
                Token::Keyword { kind, value, .. } => {
                    if kind == KeywordType::AmPm && !time.is_empty() {
                        time.hour_offset = value;
                    } else if kind == KeywordType::MonthName {
                        day.named_month = Some(value);
                        scanner.skip_symbol(b'-');
                    } else if kind == KeywordType::TimeZoneName && has_read_number {
                        tz.set(value);
                    } else {
                        // Garbage words are illegal once a number has been read, and must be
                        // separated from the first number.
                        if has_read_number || scanner.peek().is_number() {
                            return None;
                        }
                    }
                }
                t if t.is_ascii_sign() && (tz.is_utc() || !time.is_empty()) => {
                    // A UTC offset (only after UTC or a time).
                    tz.set_sign(t.ascii_sign());
                    let (mut n, mut length) = (0, 0);
                    if scanner.peek().is_number() {
                        if let Token::Number { value, length: l } = scanner.next() {
                            n = value;
                            length = l;
                        }
                    }
                    has_read_number = true;
                    if scanner.peek().is_symbol(b':') {
                        tz.hour = n;
                        tz.minute = NONE;
                    } else if length == 2 || length == 1 {
                        // Time zones like GMT-8.
                        tz.hour = n;
                        tz.minute = 0;
                    } else if length == 4 || length == 3 {
                        // Time zones like GMT-0800.
                        tz.hour = n / 100;
                        tz.minute = n % 100;
                    } else {
                        return None;
                    }
                }
                t if (t.is_ascii_sign() || t.is_symbol(b')')) && has_read_number => return None,
                // Ignore other characters and whitespace.
                _ => {}
            }
            token = scanner.next();
        }
        let (year, month, d) = day.write()?;
        let (hour, minute, second, ms) = time.write()?;
        let utc_offset_seconds = tz.write().ok()?;
        Some(ParsedDate { year, month, day: d, hour, minute, second, ms, utc_offset_seconds })
    }

    /// `[('-'|'+')yy]yyyy[-MM[-DD]][THH:mm[:ss[.sss]][Z|(+|-)hh:mm]]`: returns the next token
    /// for the legacy parser, End when complete, Invalid when it cannot be a date.
    fn parse_es5_date_time(
        scanner: &mut Scanner<'_>,
        day: &mut DayComposer,
        time: &mut TimeComposer,
        tz: &mut TimeZoneComposer,
    ) -> Token {
        // Mandatory date: [('-'|'+')yy]yyyy[':'MM[':'DD]].
        if scanner.peek().is_ascii_sign() {
            // Keep the sign token for the legacy parser if it is not used here.
            let sign_token = scanner.next();
            if !scanner.peek().is_fixed_length_number(6) {
                return sign_token;
            }
            let sign = sign_token.ascii_sign();
            let year = scanner.next().number();
            if sign < 0 && year == 0 {
                return sign_token;
            }
            day.add(sign * year);
        } else if scanner.peek().is_fixed_length_number(4) {
            let y = scanner.next().number();
            day.add(y);
        } else {
            return scanner.next();
        }
        if scanner.skip_symbol(b'-') {
            if !scanner.peek().is_fixed_length_number(2) || !DayComposer::is_month(scanner.peek().number()) {
                return scanner.next();
            }
            let m = scanner.next().number();
            day.add(m);
            if scanner.skip_symbol(b'-') {
                if !scanner.peek().is_fixed_length_number(2) || !DayComposer::is_day(scanner.peek().number()) {
                    return scanner.next();
                }
                let d = scanner.next().number();
                day.add(d);
            }
        }
        // Optional time: 'T'HH':'mm[':'ss['.'sss]]Z.
        if !scanner.peek().is_keyword_type(KeywordType::TimeSeparator) {
            if scanner.peek() != Token::End {
                return scanner.next();
            }
        } else {
            scanner.next();
            if !scanner.peek().is_fixed_length_number(2) || !between(scanner.peek().number(), 0, 24) {
                return Token::Invalid;
            }
            // Allow 24:00[:00[.000]], but no other time starting with 24.
            let hour_is_24 = scanner.peek().number() == 24;
            let h = scanner.next().number();
            time.add(h);
            if !scanner.skip_symbol(b':') {
                return Token::Invalid;
            }
            if !scanner.peek().is_fixed_length_number(2)
                || !TimeComposer::is_minute(scanner.peek().number())
                || (hour_is_24 && scanner.peek().number() > 0)
            {
                return Token::Invalid;
            }
            let m = scanner.next().number();
            time.add(m);
            if scanner.skip_symbol(b':') {
                if !scanner.peek().is_fixed_length_number(2)
                    || !TimeComposer::is_second(scanner.peek().number())
                    || (hour_is_24 && scanner.peek().number() > 0)
                {
                    return Token::Invalid;
                }
                let s = scanner.next().number();
                time.add(s);
                if scanner.skip_symbol(b'.') {
                    if !scanner.peek().is_number() || (hour_is_24 && scanner.peek().number() > 0) {
                        return Token::Invalid;
                    }
                    // More or fewer than the mandated three digits are allowed.
                    let ms = read_milliseconds(scanner.next());
                    time.add(ms);
                }
            }
            // Optional zone: 'Z' | ('+'|'-')hh':'mm | ('+'|'-')hhmm.
            if scanner.peek().is_keyword_z() {
                scanner.next();
                tz.set(0);
            } else if scanner.peek().is_ascii_sign() {
                let sign = scanner.next().ascii_sign();
                tz.set_sign(sign);
                if scanner.peek().is_fixed_length_number(4) {
                    let hourmin = scanner.next().number();
                    let (hour, min) = (hourmin / 100, hourmin % 100);
                    if !TimeComposer::is_hour(hour) || !TimeComposer::is_minute(min) {
                        return Token::Invalid;
                    }
                    tz.hour = hour;
                    tz.minute = min;
                } else {
                    if !scanner.peek().is_fixed_length_number(2) || !TimeComposer::is_hour(scanner.peek().number()) {
                        return Token::Invalid;
                    }
                    tz.hour = scanner.next().number();
                    if !scanner.skip_symbol(b':') {
                        return Token::Invalid;
                    }
                    if !scanner.peek().is_fixed_length_number(2) || !TimeComposer::is_minute(scanner.peek().number()) {
                        return Token::Invalid;
                    }
                    tz.minute = scanner.next().number();
                }
            }
            if scanner.peek() != Token::End {
                return Token::Invalid;
            }
        }
        // A complete ES5 Date Time String. Date-only forms are UTC, date-time forms local.
        if tz.is_empty() && time.is_empty() {
            tz.set(0);
        }
        day.is_iso_date = true;
        Token::End
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn p(s: &str) -> f64 {
        parse_date(&JsStr::from_str(s), &SystemZone::Utc)
    }

    #[test]
    fn parses_like_v8() {
        assert_eq!(p("2019-01-31"), 1_548_892_800_000.0);
        assert_eq!(p("Thu, 01 Jan 1970 00:00:00 GMT+0100"), -3_600_000.0);
        assert_eq!(p("Jan 1 2000"), 946_684_800_000.0);
        assert_eq!(p("2000/01/02 10:00"), 946_807_200_000.0);
        assert_eq!(p("1/2/2000"), 946_771_200_000.0);
        assert_eq!(p("Sat Sep 13 275760 00:00:00 GMT+0000 (Coordinated Universal Time)"), 8.64e15);
        assert_eq!(p("2000-01-01T00:00:00+01:00"), 946_681_200_000.0);
        assert_eq!(p("2000-1-1"), 946_684_800_000.0);
        assert!(p("foo").is_nan());
        assert_eq!(p("2000"), 946_684_800_000.0);
        assert_eq!(p("12 March 2001 10:00 PM"), 984_434_400_000.0);
        assert!(p("Fri Jan 01 -0001 00:00:00 GMT+0000").is_nan());
    }
}
