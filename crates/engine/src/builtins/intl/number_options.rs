//! The digit options shared by Intl.NumberFormat and Intl.PluralRules (ECMA-402 §15.1.3
//! SetNumberFormatDigitOptions) and the rounding they prescribe (§15.5.3
//! FormatNumericToString), as a `fixed_decimal::Decimal`: the exact decimal a number
//! formats to, whose plural operands select the plural category.

use fixed_decimal::{Decimal, FloatPrecision, RoundingIncrement, SignedRoundingMode, UnsignedRoundingMode};

use super::options::{default_number_option, get_number_option, get_raw, get_string_option};
use crate::error::JsResult;
use crate::heap::intl_slots::{DigitOptions, RoundingType};
use crate::value::ObjectId;
use crate::vm::Vm;

const ROUNDING_MODES: [&str; 9] =
    ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"];
const INCREMENTS: [u16; 15] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];

/// ### SetNumberFormatDigitOptions ( intlObj, options, mnfdDefault, mxfdDefault, notation )
pub(crate) fn set_number_format_digit_options(
    vm: &mut Vm,
    options: Option<ObjectId>,
    mnfd_default: u8,
    mxfd_default: u8,
    notation: &str,
) -> JsResult<DigitOptions> {
    // 1. Let mnid be ? GetNumberOption(options, "minimumIntegerDigits,", 1, 21, 1).
    let mnid = get_number_option(vm, options, "minimumIntegerDigits", 1.0, 21.0, Some(1.0))?.unwrap_or(1.0);
    // 2-5. Let mnfd, mxfd, mnsd, mxsd be ? Get(options, …).
    let mnfd = get_raw(vm, options, "minimumFractionDigits")?;
    let mxfd = get_raw(vm, options, "maximumFractionDigits")?;
    let mnsd = get_raw(vm, options, "minimumSignificantDigits")?;
    let mxsd = get_raw(vm, options, "maximumSignificantDigits")?;
    // 7. Let roundingIncrement be ? GetNumberOption(options, "roundingIncrement", 1, 5000, 1).
    let increment = get_number_option(vm, options, "roundingIncrement", 1.0, 5000.0, Some(1.0))?.unwrap_or(1.0);
    // 8. If roundingIncrement is not in « 1, 2, 5, 10, … », throw a RangeError exception.
    let increment = increment as u16;
    if !INCREMENTS.contains(&increment) {
        return Err(vm.range_error(format!("roundingIncrement value {increment} is out of range.")));
    }
    // 9. Let roundingMode be ? GetOption(options, "roundingMode", string, « … », "halfExpand").
    let rounding_mode =
        get_string_option(vm, options, "roundingMode", &ROUNDING_MODES, Some("halfExpand"))?.unwrap_or_default();
    // 10. Let roundingPriority be ? GetOption(options, "roundingPriority", string, « "auto", "morePrecision", "lessPrecision" », "auto").
    let priority =
        get_string_option(vm, options, "roundingPriority", &["auto", "morePrecision", "lessPrecision"], Some("auto"))?
            .unwrap_or_default();
    // 11. Let trailingZeroDisplay be ? GetOption(options, "trailingZeroDisplay", string, « "auto", "stripIfInteger" », "auto").
    let trailing_zero_display =
        get_string_option(vm, options, "trailingZeroDisplay", &["auto", "stripIfInteger"], Some("auto"))?
            .unwrap_or_default();
    // 13. If roundingIncrement is not 1, set mxfdDefault to mnfdDefault.
    let mxfd_default = if increment != 1 { mnfd_default } else { mxfd_default };
    // 15-16. hasSd, hasFd.
    let has_sd = !mnsd.is_undefined() || !mxsd.is_undefined();
    let has_fd = !mnfd.is_undefined() || !mxfd.is_undefined();
    // 17-18. needSd, needFd.
    let mut need_sd = true;
    let mut need_fd = true;
    if priority == "auto" {
        need_sd = has_sd;
        if need_sd || (!has_fd && notation == "compact") {
            need_fd = false;
        }
    }
    // 19. Significant digits.
    let mut significant = None;
    if need_sd {
        significant = Some(if has_sd {
            let min = default_number_option(vm, mnsd, 1.0, 21.0, Some(1.0), "minimumSignificantDigits")?.unwrap_or(1.0);
            let max =
                default_number_option(vm, mxsd, min, 21.0, Some(21.0), "maximumSignificantDigits")?.unwrap_or(21.0);
            (min as u8, max as u8)
        } else {
            (1, 21)
        });
    }
    // 20. Fraction digits.
    let mut fraction = None;
    if need_fd {
        fraction = Some(if has_fd {
            let min = default_number_option(vm, mnfd, 0.0, 100.0, None, "minimumFractionDigits")?;
            let max = default_number_option(vm, mxfd, 0.0, 100.0, None, "maximumFractionDigits")?;
            match (min, max) {
                (None, Some(max)) => ((mnfd_default as f64).min(max) as u8, max as u8),
                (Some(min), None) => (min as u8, (mxfd_default as f64).max(min) as u8),
                (Some(min), Some(max)) if min > max => {
                    return Err(vm.range_error("maximumFractionDigits value is out of range."));
                }
                (Some(min), Some(max)) => (min as u8, max as u8),
                (None, None) => (mnfd_default, mxfd_default),
            }
        } else {
            (mnfd_default, mxfd_default)
        });
    }
    // 21-23. The rounding type.
    let (rounding_type, computed_priority) = if !need_sd && !need_fd {
        fraction = Some((0, 0));
        significant = Some((1, 2));
        (RoundingType::MorePrecision, "morePrecision".to_string())
    } else if priority == "auto" {
        (if need_sd { RoundingType::SignificantDigits } else { RoundingType::FractionDigits }, "auto".to_string())
    } else if priority == "morePrecision" {
        (RoundingType::MorePrecision, priority)
    } else {
        (RoundingType::LessPrecision, priority)
    };
    // 24. A rounding increment needs fraction digits, with mnfd = mxfd.
    if increment != 1 {
        if rounding_type != RoundingType::FractionDigits {
            return Err(vm.type_error("roundingIncrement requires fraction-digit rounding"));
        }
        if let Some((min, max)) = fraction {
            if min != max {
                return Err(vm.range_error("roundingIncrement requires equal minimum and maximum fraction digits"));
            }
        }
    }
    Ok(DigitOptions {
        minimum_integer_digits: mnid as u8,
        fraction,
        significant,
        rounding_type,
        rounding_priority: computed_priority,
        rounding_increment: increment,
        rounding_mode,
        trailing_zero_display,
    })
}

fn rounding_mode(name: &str) -> SignedRoundingMode {
    match name {
        "ceil" => SignedRoundingMode::Ceil,
        "floor" => SignedRoundingMode::Floor,
        "expand" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::Expand),
        "trunc" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::Trunc),
        "halfCeil" => SignedRoundingMode::HalfCeil,
        "halfFloor" => SignedRoundingMode::HalfFloor,
        "halfTrunc" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfTrunc),
        "halfEven" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfEven),
        _ => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
    }
}

/// The increment as (ICU4X multiple, power of ten): 250 = 25 × 10¹.
fn split_increment(increment: u16) -> (RoundingIncrement, i16) {
    let mut n = increment;
    let mut power = 0i16;
    while n >= 10 && n.is_multiple_of(10) {
        n /= 10;
        power += 1;
    }
    let multiple = match n {
        2 => RoundingIncrement::MultiplesOf2,
        5 => RoundingIncrement::MultiplesOf5,
        25 => RoundingIncrement::MultiplesOf25,
        _ => RoundingIncrement::MultiplesOf1,
    };
    (multiple, power)
}

/// ToRawFixed: `x` rounded to `max` fraction digits and padded to `min`, with its
/// [[RoundingMagnitude]].
fn raw_fixed(x: &Decimal, min: u8, max: u8, increment: u16, mode: SignedRoundingMode) -> (Decimal, i16) {
    let mut d = x.clone();
    let (multiple, power) = split_increment(increment);
    d.round_with_mode_and_increment(-(max as i16) + power, mode, multiple);
    d.absolute.trim_end();
    d.absolute.pad_end(-(min as i16));
    (d, -(max as i16))
}

/// ToRawPrecision: `x` rounded to `max` significant digits and padded to `min`, with its
/// [[RoundingMagnitude]].
fn raw_precision(x: &Decimal, min: u8, max: u8, mode: SignedRoundingMode) -> (Decimal, i16) {
    let mut d = x.clone();
    if d.absolute.is_zero() {
        d.absolute.pad_end(-(min as i16) + 1);
        return (d, 1 - max as i16);
    }
    let magnitude = d.absolute.nonzero_magnitude_start();
    let rounding_magnitude = magnitude - max as i16 + 1;
    d.round_with_mode(rounding_magnitude, mode);
    // Rounding may carry into a new digit (9.99 → 10.0): the magnitude is taken anew.
    let magnitude = d.absolute.nonzero_magnitude_start();
    d.absolute.trim_end();
    d.absolute.pad_end(magnitude - min as i16 + 1);
    (d, rounding_magnitude)
}

/// ### FormatNumericToString ( intlObject, x ) for a finite number: the rounded decimal.
pub(crate) fn format_numeric_to_decimal(digits: &DigitOptions, x: f64) -> Decimal {
    let mut exact = Decimal::try_from_f64(x, FloatPrecision::RoundTrip).unwrap_or_default();
    if x == 0.0 && x.is_sign_negative() {
        exact = Decimal::from(0);
    }
    round_decimal(digits, &exact)
}

/// FormatNumericToString's rounding of an exact (signed) decimal: the sign steers the
/// directed rounding modes (`floor` of -1.5 is -2).
pub(crate) fn round_decimal(digits: &DigitOptions, exact: &Decimal) -> Decimal {
    let mode = rounding_mode(&digits.rounding_mode);
    let (mnfd, mxfd) = digits.fraction.unwrap_or((0, 0));
    let (mnsd, mxsd) = digits.significant.unwrap_or((1, 21));
    let mut result = match digits.rounding_type {
        RoundingType::SignificantDigits => raw_precision(exact, mnsd, mxsd, mode).0,
        RoundingType::FractionDigits => raw_fixed(exact, mnfd, mxfd, digits.rounding_increment, mode).0,
        RoundingType::MorePrecision | RoundingType::LessPrecision => {
            let (s, s_magnitude) = raw_precision(exact, mnsd, mxsd, mode);
            let (f, f_magnitude) = raw_fixed(exact, mnfd, mxfd, digits.rounding_increment, mode);
            // morePrecision: the result that rounds at the lower magnitude (significant digits
            // on a tie); lessPrecision: the one that rounds higher (fraction digits on a tie).
            let pick_s = if digits.rounding_type == RoundingType::MorePrecision {
                s_magnitude <= f_magnitude
            } else {
                s_magnitude > f_magnitude
            };
            if pick_s {
                s
            } else {
                f
            }
        }
    };
    // Trailing zeros of an integer are dropped with stripIfInteger.
    if digits.trailing_zero_display == "stripIfInteger" {
        result.absolute.trim_end_if_integer();
    }
    result.absolute.pad_start(digits.minimum_integer_digits as i16);
    result
}
