//! Formatting a number as Intl.NumberFormat prescribes (ECMA-402 §15.5): the
//! Intl mathematical value a format call receives, its rounding and scaling
//! (ComputeExponent, FormatNumericToString), and PartitionNumberPattern, which lays the
//! digits, signs, exponent, compact affix and currency out as the parts `formatToParts`
//! returns. ICU4X supplies the locale data ([`super::number_data`]); the layout, grouping,
//! rounding and notation logic ECMA-402 prescribes is here.

use fixed_decimal::{Decimal, Sign};
use icu_plurals::PluralOperands;

use super::number_data::{self, PatternPiece, Symbols};
use crate::error::JsResult;
use crate::heap::intl_slots::NumberFormatSlots;
use crate::runtime::convert::{to_number, to_primitive, to_rust_string, Hint};
use crate::value::Value;
use crate::vm::Vm;

/// An Intl mathematical value (ECMA-402 §15.5.16): an exact decimal (from a Number, a
/// BigInt or a decimal string), negative zero, an infinity or NaN.
#[derive(Clone, Debug)]
pub(crate) enum MathValue {
    /// A finite value; negative zero is a zero with `Sign::Negative`.
    Finite(Decimal),
    Infinity {
        negative: bool,
    },
    NaN,
}

impl MathValue {
    pub(crate) fn from_f64(x: f64) -> MathValue {
        if x.is_nan() {
            return MathValue::NaN;
        }
        if x.is_infinite() {
            return MathValue::Infinity { negative: x < 0.0 };
        }
        let mut d = Decimal::try_from_f64(x, fixed_decimal::FloatPrecision::RoundTrip).unwrap_or_default();
        if x == 0.0 && x.is_sign_negative() {
            d.sign = Sign::Negative;
        }
        MathValue::Finite(d)
    }

    fn is_negative(&self) -> bool {
        match self {
            MathValue::Finite(d) => d.sign == Sign::Negative,
            MathValue::Infinity { negative } => *negative,
            MathValue::NaN => false,
        }
    }
}

/// ### ToIntlMathematicalValue ( value )
pub(crate) fn to_intl_mathematical_value(vm: &mut Vm, value: Value) -> JsResult<MathValue> {
    // 1. Let primValue be ? ToPrimitive(value, number).
    let prim = to_primitive(vm, value, Hint::Number)?;
    // 2. If primValue is a BigInt, return ℝ(primValue).
    if let Some(b) = prim.as_bigint() {
        let s = vm.heap.bigint(b).to_string();
        vm.charge(s.len() as u64 / 16)?;
        return Ok(MathValue::Finite(Decimal::try_from_str(&s).unwrap_or_default()));
    }
    // 3. If primValue is a String, then
    if prim.is_string() {
        // a. Let str be primValue.
        let s = to_rust_string(vm, prim)?;
        vm.charge(s.len() as u64 / 16)?;
        // b-c. Let literal be ParseText(str, StringNumericLiteral); if it is a
        //      StrDecimalLiteral, its exact value (beyond float64 precision).
        if let Some(v) = parse_decimal_literal(&s) {
            return Ok(v);
        }
    }
    // 4. Let x be ? ToNumber(primValue).
    let x = to_number(vm, prim)?;
    Ok(MathValue::from_f64(x))
}

/// A StrDecimalLiteral's exact value (None for non-decimal literals, left to ToNumber).
fn parse_decimal_literal(s: &str) -> Option<MathValue> {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return Some(MathValue::Finite(Decimal::from(0)));
    }
    let (negative, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if body == "Infinity" {
        return Some(MathValue::Infinity { negative });
    }
    // Digits, one optional point, an optional exponent: nothing else (hex, binary and octal
    // literals and invalid strings go through ToNumber).
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != bytes.len() {
        return None;
    }
    // A huge exponent overflows the decimal: ToNumber gives the float's value (∞ or 0).
    let mut normalized = body.to_string();
    if normalized.starts_with('.') {
        normalized.insert(0, '0');
    }
    if normalized.ends_with('.') {
        normalized.push('0');
    }
    normalized = normalized.replace(".e", ".0e").replace(".E", ".0E");
    let mut d = Decimal::try_from_str(&normalized).ok()?;
    if negative {
        d.sign = Sign::Negative;
    }
    Some(MathValue::Finite(d))
}

/// One part of a formatted number: its `type` and `value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub kind: &'static str,
    pub value: String,
}

fn part(kind: &'static str, value: impl Into<String>) -> Part {
    Part { kind, value: value.into() }
}

/// ### ComputeExponentForMagnitude ( intlObject, magnitude )
fn exponent_for_magnitude(slots: &NumberFormatSlots, magnitude: i16) -> Result<i16, icu_provider::DataError> {
    Ok(match slots.notation.as_str() {
        "scientific" => magnitude,
        "engineering" => magnitude.div_euclid(3) * 3,
        "compact" => i16::from(number_data::compact_exponent(&slots.locale, slots.compact_long(), magnitude.max(0))?),
        _ => 0,
    })
}

/// The rounded value, its scaling exponent and (for compact) the magnitude the pattern
/// is chosen by: ComputeExponent followed by FormatNumericToString.
struct Rounded {
    value: Decimal,
    exponent: i16,
    magnitude: i16,
}

/// `x` × 10^`power`.
fn scaled(x: &Decimal, power: i16) -> Decimal {
    let mut y = x.clone();
    y.absolute.multiply_pow10(power);
    y
}

/// ### ComputeExponent ( intlObject, x ) and the rounding that follows it.
fn round_with_exponent(slots: &NumberFormatSlots, x: &Decimal) -> Result<Rounded, icu_provider::DataError> {
    let round = |d: &Decimal| {
        let mut r = format_numeric_decimal(slots, d);
        r.sign = d.sign;
        r
    };
    // 1. If x = 0, return [0, 0].
    if x.absolute.is_zero() {
        return Ok(Rounded { value: round(x), exponent: 0, magnitude: 0 });
    }
    // 3. Let magnitude be the base 10 logarithm of x rounded down to the nearest integer.
    let magnitude = x.absolute.nonzero_magnitude_start();
    // 4. Let exponent be ComputeExponentForMagnitude(intlObject, magnitude).
    let exponent = exponent_for_magnitude(slots, magnitude)?;
    // 5-6. Let x be x × 10^-exponent, rounded.
    let rounded = round(&scaled(x, -exponent));
    // 7. If formatNumberResult.[[RoundedNumber]] = 0, return [exponent, magnitude].
    if rounded.absolute.is_zero() {
        return Ok(Rounded { value: rounded, exponent, magnitude });
    }
    // 8-9. If the rounded number keeps its magnitude, return [exponent, magnitude].
    let new_magnitude = rounded.absolute.nonzero_magnitude_start();
    if new_magnitude == magnitude - exponent {
        return Ok(Rounded { value: rounded, exponent, magnitude });
    }
    // 10. Return [ComputeExponentForMagnitude(intlObject, magnitude + 1), magnitude + 1].
    let exponent2 = exponent_for_magnitude(slots, magnitude + 1)?;
    let rounded = if exponent2 == exponent { rounded } else { round(&scaled(x, -exponent2)) };
    Ok(Rounded { value: rounded, exponent: exponent2, magnitude: magnitude + 1 })
}

/// FormatNumericToString's rounding of an exact decimal (the digit options of the slots).
fn format_numeric_decimal(slots: &NumberFormatSlots, x: &Decimal) -> Decimal {
    super::number_options::round_decimal(&slots.digits, x)
}

/// Whether a separator goes after the digit at `magnitude` (ECMA-402's grouping with
/// CLDR's sizes: `always` groups from 4 digits, `auto` honours the locale's minimum
/// grouping digits, `min2` at least 2).
fn group_after(upper: i16, magnitude: i16, strategy: &str, symbols: &Symbols) -> bool {
    let sizes = symbols.grouping;
    if sizes.primary == 0 || strategy == "false" {
        return false;
    }
    let primary = i16::from(sizes.primary);
    if magnitude < primary {
        return false;
    }
    let min_grouping = match strategy {
        "always" => 1,
        "min2" => i16::from(sizes.min_grouping).max(2),
        _ => i16::from(sizes.min_grouping).max(1),
    };
    if upper < primary + min_grouping - 1 {
        return false;
    }
    let secondary = if sizes.secondary == 0 { primary } else { i16::from(sizes.secondary) };
    (magnitude - primary) % secondary == 0
}

/// The digits of an unsigned decimal as integer / group / decimal / fraction parts.
fn digit_parts(d: &Decimal, symbols: &Symbols, grouping: &str, out: &mut Vec<Part>) {
    let abs = &d.absolute;
    let range = abs.magnitude_range();
    let upper = (*range.end()).max(0);
    let lower = *range.start();
    let mut integer = String::new();
    let mut m = upper;
    while m >= 0 {
        integer.push(symbols.digits[usize::from(abs.digit_at(m) % 10)]);
        if m > 0 && group_after(upper, m, grouping, symbols) {
            out.push(part("integer", std::mem::take(&mut integer)));
            out.push(part("group", symbols.group.clone()));
        }
        m -= 1;
    }
    out.push(part("integer", integer));
    if lower < 0 {
        out.push(part("decimal", symbols.decimal.clone()));
        let fraction: String = (lower..0).rev().map(|m| symbols.digits[usize::from(abs.digit_at(m) % 10)]).collect();
        out.push(part("fraction", fraction));
    }
}

/// A pattern literal split into `literal` (spaces and marks) and `kind` (the rest): `" K"`
/// gives a literal space and a compact `K`.
fn affix_parts(text: &str, kind: &'static str, out: &mut Vec<Part>) {
    let is_space =
        |c: char| c.is_whitespace() || matches!(c, '\u{a0}' | '\u{202f}' | '\u{200e}' | '\u{200f}' | '\u{61c}');
    let start = text.find(|c: char| !is_space(c)).unwrap_or(text.len());
    let end =
        text.rfind(|c: char| !is_space(c)).map_or(start, |i| i + text[i..].chars().next().map_or(1, char::len_utf8));
    if start > 0 {
        out.push(part("literal", &text[..start]));
    }
    if end > start {
        out.push(part(kind, &text[start..end]));
    }
    if end < text.len() && end >= start {
        out.push(part("literal", &text[end..]));
    }
}

/// Which sign a value shows under [[SignDisplay]]: Some(true) minus, Some(false) plus.
fn sign_to_show(sign_display: &str, negative: bool, zero: bool, nan: bool) -> Option<bool> {
    match sign_display {
        "never" => None,
        "always" => Some(negative),
        "exceptZero" => {
            if zero || nan {
                None
            } else {
                Some(negative)
            }
        }
        "negative" => (negative && !zero).then_some(true),
        // "auto"
        _ => negative.then_some(true),
    }
}

/// ### PartitionNumberPattern ( numberFormat, x )
pub(crate) fn partition_number_pattern(
    slots: &NumberFormatSlots,
    x: &MathValue,
) -> Result<Layout, icu_provider::DataError> {
    let symbols = number_data::symbols(&slots.locale, Some(&slots.numbering_system))?;
    let (nan_symbol, exponent_symbol) = number_data::nan_and_exponent(&slots.locale, &symbols.numbering_system);
    let mut number: Vec<Part> = Vec::new();
    let negative = x.is_negative();
    let mut zero = false;
    let mut plural_source: Option<Decimal> = None;
    let mut compact: Option<(i16, Decimal)> = None;
    match x {
        // 1. If x is NaN, let n be an ILD String value indicating the NaN value.
        MathValue::NaN => number.push(part("nan", nan_symbol)),
        // 2. If x is +∞ or -∞, let n be an ILD String value indicating infinity.
        MathValue::Infinity { .. } => number.push(part("infinity", "∞")),
        MathValue::Finite(d) => {
            let mut d = d.clone();
            // 3.a. If the style is "percent", let x be 100 × x.
            if slots.style == "percent" {
                d.absolute.multiply_pow10(2);
            }
            // 3.b. Let exponent be ComputeExponent(numberFormat, x); let x be x × 10^-exponent.
            let rounded = round_with_exponent(slots, &d)?;
            let mut value = rounded.value;
            zero = value.absolute.is_zero();
            value.sign = Sign::None;
            digit_parts(&value, &symbols, &slots.use_grouping, &mut number);
            match slots.notation.as_str() {
                "scientific" | "engineering" => {
                    // The exponent: its separator, minus sign and digits.
                    number.push(part("exponentSeparator", exponent_symbol));
                    if rounded.exponent < 0 {
                        affix_parts(&symbols.minus_prefix, "exponentMinusSign", &mut number);
                    }
                    let digits: String = rounded
                        .exponent
                        .unsigned_abs()
                        .to_string()
                        .bytes()
                        .map(|b| symbols.digits[usize::from(b - b'0')])
                        .collect();
                    number.push(part("exponentInteger", digits));
                }
                "compact" if rounded.exponent > 0 => {
                    compact = Some((rounded.magnitude, value.clone()));
                }
                _ => {}
            }
            plural_source = Some(value);
        }
    }
    let mut layout =
        Layout { inner: matches!(slots.notation.as_str(), "scientific" | "engineering"), ..Layout::default() };
    // The compact affix around the number (`{0}K`): part of the middle modifier.
    let mut compact_prefix = Vec::new();
    let mut compact_suffix = Vec::new();
    if let Some((magnitude, scaled)) = compact {
        // The pattern is chosen by the scaled number's plural form ("1 Million", "2 Millionen").
        let op = PluralOperands::from(&scaled.absolute);
        if let Some(pattern) = number_data::compact_pattern(&slots.locale, slots.compact_long(), magnitude, op)? {
            split_single(&pattern, "compact", &mut compact_prefix, &mut compact_suffix);
        }
    }
    layout.number = number;
    // 4-5. The pattern of the style, with the sign the value shows.
    let show = sign_to_show(&slots.sign_display, negative, zero, matches!(x, MathValue::NaN));
    let sign_prefix = |out: &mut Vec<Part>| match show {
        Some(true) => affix_parts(&symbols.minus_prefix, "minusSign", out),
        Some(false) => affix_parts(&symbols.plus_prefix, "plusSign", out),
        None => {}
    };
    let sign_suffix = |out: &mut Vec<Part>| match show {
        Some(true) => affix_parts(&symbols.minus_suffix, "minusSign", out),
        Some(false) => affix_parts(&symbols.plus_suffix, "plusSign", out),
        None => {}
    };
    let (mut pre, mut post) = (Vec::new(), Vec::new());
    match slots.style.as_str() {
        "currency" if slots.currency_display == "name" => {
            // The long name is the outer modifier; the sign stays with the number.
            let code = slots.currency.clone().unwrap_or_default();
            let op = plural_source.as_ref().map_or(PluralOperands::from(0u64), |d| PluralOperands::from(&d.absolute));
            let (pattern, name) = number_data::currency_long(&slots.locale, &code, op)?;
            split_double(&pattern, &name, &mut layout.outer_prefix, &mut layout.outer_suffix);
            sign_prefix(&mut pre);
            sign_suffix(&mut post);
        }
        "currency" => {
            let code = slots.currency.clone().unwrap_or_default();
            let accounting = slots.currency_sign == "accounting";
            let (symbol, starts, ends) = match slots.currency_display.as_str() {
                "code" => (code.clone(), true, true),
                "narrowSymbol" => number_data::currency_symbol(&slots.locale, &code, true),
                _ => number_data::currency_symbol(&slots.locale, &code, false),
            };
            let explicit_negative = if show == Some(true) {
                number_data::currency_pattern(&slots.locale, accounting, true, starts, ends)?
            } else {
                None
            };
            match explicit_negative {
                // An explicit negative pattern (accounting's parentheses) carries its sign.
                Some(pattern) => split_double(&pattern, &symbol, &mut pre, &mut post),
                None => {
                    let pattern = number_data::currency_pattern(&slots.locale, accounting, false, starts, ends)?
                        .unwrap_or_else(|| vec![PatternPiece::Other, PatternPiece::Number]);
                    sign_prefix(&mut pre);
                    split_double(&pattern, &symbol, &mut pre, &mut post);
                    sign_suffix(&mut post);
                }
            }
        }
        "unit" => {
            let unit = slots.unit.clone().unwrap_or_default();
            let op = plural_source.as_ref().map_or(PluralOperands::from(0u64), |d| PluralOperands::from(&d.absolute));
            let pattern =
                number_data::unit_pattern(&slots.locale, &symbols.numbering_system, &unit, &slots.unit_display, op)?;
            // A pattern without a placeholder (Arabic's dual "لتران") names the number itself.
            if !pattern.contains(&PatternPiece::Number) {
                layout.number.clear();
            }
            split_single(&pattern, "unit", &mut layout.outer_prefix, &mut layout.outer_suffix);
            sign_prefix(&mut pre);
            sign_suffix(&mut post);
        }
        "percent" => {
            let pattern = number_data::percent_pattern(&slots.locale, &symbols.numbering_system)?;
            sign_prefix(&mut pre);
            split_single(&pattern, "percentSign", &mut pre, &mut post);
            sign_suffix(&mut post);
        }
        _ => {
            sign_prefix(&mut pre);
            sign_suffix(&mut post);
        }
    }
    pre.append(&mut compact_prefix);
    compact_suffix.append(&mut post);
    layout.middle_prefix = pre;
    layout.middle_suffix = compact_suffix;
    Ok(layout)
}

/// A formatted number in ICU's three layers of modifiers (which decide how a range
/// collapses): the outer one (unit or currency name pattern), the middle one (sign,
/// currency symbol, percent sign, compact affix) and the number itself, whose exponent is
/// the inner modifier.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub outer_prefix: Vec<Part>,
    pub middle_prefix: Vec<Part>,
    pub number: Vec<Part>,
    /// Whether the number carries an exponent (scientific and engineering notation).
    pub inner: bool,
    pub middle_suffix: Vec<Part>,
    pub outer_suffix: Vec<Part>,
}

impl Layout {
    /// The parts in order.
    pub(crate) fn parts(self) -> Vec<Part> {
        let mut out = self.outer_prefix;
        out.extend(self.middle_prefix);
        out.extend(self.number);
        out.extend(self.middle_suffix);
        out.extend(self.outer_suffix);
        out
    }
}

/// A single-placeholder pattern's literals before and after `{0}`, as parts of `kind`.
fn split_single(pattern: &[PatternPiece], kind: &'static str, pre: &mut Vec<Part>, post: &mut Vec<Part>) {
    let mut seen_number = false;
    for piece in pattern {
        match piece {
            PatternPiece::Literal(s) => affix_parts(s, kind, if seen_number { &mut *post } else { &mut *pre }),
            _ => seen_number = true,
        }
    }
}

/// A currency pattern's pieces before and after the number (`{0}`), with the currency
/// (`{1}`) as a `currency` part and the rest as literals.
fn split_double(pattern: &[PatternPiece], currency: &str, pre: &mut Vec<Part>, post: &mut Vec<Part>) {
    let mut seen_number = false;
    for piece in pattern {
        let out = if seen_number { &mut *post } else { &mut *pre };
        match piece {
            PatternPiece::Literal(s) => out.push(part("literal", s.clone())),
            PatternPiece::Number => seen_number = true,
            PatternPiece::Other => out.push(part("currency", currency)),
        }
    }
}

/// The formatted string: the parts' values concatenated.
pub(crate) fn join(parts: &[Part]) -> String {
    parts.iter().map(|p| p.value.as_str()).collect()
}
