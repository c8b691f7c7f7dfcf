// The following is adapted from fdlibm (http://www.netlib.org/fdlibm), by way of V8's
// src/base/ieee754.cc.
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

//! `sinh`, `cosh`, `tanh` and their inverses `asinh`, `acosh`, `atanh`.

use super::exp::{exp, expm1};
use super::log::{log, log1p};
use super::{high_word, low_word, with_high_word};

const LN2: f64 = 6.93147180559945286227e-01; // 0x3FE62E42, 0xFEFA39EF
/// The largest |x| whose sinh and cosh are finite.
const OVERFLOW_THRESHOLD: f64 = 710.4758600739439;

/// `sinh(x)` (V8's rewrite of fdlibm's e_sinh.c): with E = expm1(|x|),
/// sign(x)·(E + E/(E + 1))/2 up to 22, sign(x)·exp(|x|)/2 up to ln(DBL_MAX), then
/// sign(x)·(exp(|x|/2)/2)·exp(|x|/2) up to the overflow threshold.
pub(crate) fn sinh(x: f64) -> f64 {
    const TWO_M28: f64 = 3.725290298461914e-9; // 2^-28, empty lower half
    const LOG_MAXD: f64 = 709.7822265625; // 0x40862E42 00000000, empty lower half
    const SHUGE: f64 = 1.0e307;

    let h = if x < 0.0 { -0.5 } else { 0.5 };
    // |x| in [0, 22]: sign(x)·0.5·(E + E/(E + 1)).
    let ax = x.abs();
    if ax < 22.0 {
        // For |x| < 2^-28, sinh(x) rounds to x.
        if ax < TWO_M28 {
            return x;
        }
        let t = expm1(ax);
        if ax < 1.0 {
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        return h * (t + t / (t + 1.0));
    }
    // |x| in [22, ln(DBL_MAX)]: 0.5·exp(|x|).
    if ax < LOG_MAXD {
        return h * exp(ax);
    }
    // |x| in [ln(DBL_MAX), the overflow threshold].
    if ax <= OVERFLOW_THRESHOLD {
        let w = exp(0.5 * ax);
        let t = h * w;
        return t * w;
    }
    // |x| above the threshold, or NaN: ±∞ or NaN.
    x * SHUGE
}

/// `cosh(x)` (V8's rewrite of fdlibm's e_cosh.c), for |x|:
/// 1 + expm1(|x|)²/(2·exp(|x|)) up to ln2/2, (exp(|x|) + 1/exp(|x|))/2 up to 22,
/// exp(|x|)/2 up to ln(DBL_MAX), then (exp(|x|/2)/2)·exp(|x|/2) up to the threshold.
pub(crate) fn cosh(x: f64) -> f64 {
    const HALF: f64 = 0.5;

    let ix = high_word(x) & 0x7FFFFFFF; // the high word of |x|

    // |x| in [0, 0.5·ln2]: 1 + expm1(|x|)²/(2·exp(|x|)).
    if ix < 0x3FD62E43 {
        let t = expm1(x.abs());
        let w = 1.0 + t;
        // For |x| < 2^-55, cosh(x) = 1.
        if ix < 0x3C800000 {
            return w;
        }
        return 1.0 + (t * t) / (w + w);
    }
    // |x| in [0.5·ln2, 22]: (exp(|x|) + 1/exp(|x|))/2.
    if ix < 0x40360000 {
        let t = exp(x.abs());
        return HALF * t + HALF / t;
    }
    // |x| in [22, ln(DBL_MAX)]: exp(|x|)/2.
    if ix < 0x40862E42 {
        return HALF * exp(x.abs());
    }
    // |x| in [ln(DBL_MAX), the overflow threshold].
    if x.abs() <= OVERFLOW_THRESHOLD {
        let w = exp(HALF * x.abs());
        let t = HALF * w;
        return t * w;
    }
    // x is ±∞ or NaN.
    if ix >= 0x7FF00000 {
        return x * x;
    }
    // |x| above the threshold.
    f64::INFINITY
}

/// `tanh(x)`, odd: for 0 <= x, x itself below 2^-28, −t/(t + 2) with t = expm1(−2x) below
/// 1, 1 − 2/(t + 2) with t = expm1(2x) below 22, and 1 from there on.
pub(crate) fn tanh(x: f64) -> f64 {
    const TINY: f64 = 1.0e-300;

    let jx = high_word(x) as i32;
    let ix = jx & 0x7FFFFFFF;

    // x is ±∞ or NaN.
    if ix >= 0x7FF00000 {
        return if jx >= 0 {
            1.0 / x + 1.0 // tanh(+∞) = +1, tanh(NaN) = NaN
        } else {
            1.0 / x - 1.0 // tanh(−∞) = −1
        };
    }

    let z;
    if ix < 0x40360000 {
        // |x| < 22
        if ix < 0x3E300000 {
            // |x| < 2^-28: tanh(x) rounds to x.
            return x;
        }
        if ix >= 0x3FF00000 {
            // |x| >= 1
            let t = expm1(2.0 * x.abs());
            z = 1.0 - 2.0 / (t + 2.0);
        } else {
            let t = expm1(-2.0 * x.abs());
            z = -t / (t + 2.0);
        }
    } else {
        // |x| >= 22: ±1 (fdlibm computes 1 − tiny to raise inexact).
        z = 1.0 - TINY;
    }
    if jx >= 0 {
        z
    } else {
        -z
    }
}

/// `asinh(x)` = sign(x)·log(|x| + √(x² + 1)), computed as x when 1 + x² = 1,
/// sign(x)·(log(|x|) + ln2) for large |x|, sign(x)·log(2|x| + 1/(|x| + √(x² + 1))) above 2
/// and sign(x)·log1p(|x| + x²/(1 + √(1 + x²))) below.
pub(crate) fn asinh(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x7FF00000 {
        return x + x; // x is ±∞ or NaN
    }
    if ix < 0x3E300000 {
        // |x| < 2^-28: asinh(x) rounds to x.
        return x;
    }
    let w = if ix > 0x41B00000 {
        // |x| > 2^28
        log(x.abs()) + LN2
    } else if ix > 0x40000000 {
        // 2^28 > |x| > 2.0
        let t = x.abs();
        log(2.0 * t + 1.0 / (libm::sqrt(x * x + 1.0) + t))
    } else {
        // 2.0 > |x| > 2^-28
        let t = x * x;
        log1p(x.abs() + t / (1.0 + libm::sqrt(1.0 + t)))
    };
    if hx > 0 {
        w
    } else {
        -w
    }
}

/// `acosh(x)` = log(x + √(x² − 1)), computed as log(x) + ln2 for large x,
/// log(2x − 1/(√(x² − 1) + x)) above 2 and log1p(t + √(2t + t²)) with t = x − 1 below.
pub(crate) fn acosh(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    let lx = low_word(x);
    if hx < 0x3FF00000 {
        // x < 1
        f64::NAN
    } else if hx >= 0x41B00000 {
        // x > 2^28
        if hx >= 0x7FF00000 {
            x + x // x is ∞ or NaN
        } else {
            log(x) + LN2 // acosh(huge) = log(2x)
        }
    } else if ((hx - 0x3FF00000) as u32 | lx) == 0 {
        0.0 // acosh(1) = 0
    } else if hx > 0x40000000 {
        // 2^28 > x > 2
        let t = x * x;
        log(2.0 * x - 1.0 / (x + libm::sqrt(t - 1.0)))
    } else {
        // 1 < x < 2
        let t = x - 1.0;
        log1p(t + libm::sqrt(2.0 * t + t * t))
    }
}

/// `atanh(x)`, odd: for 0 <= x, 0.5·log1p(2x + 2x·x/(1 − x)) below 0.5 and
/// 0.5·log1p(2x/(1 − x)) from 0.5 to 1.
pub(crate) fn atanh(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    let lx = low_word(x);
    let ix = hx & 0x7FFFFFFF;
    if (ix as u32 | ((lx | lx.wrapping_neg()) >> 31)) > 0x3FF00000 {
        // |x| > 1
        return f64::NAN;
    }
    if ix == 0x3FF00000 {
        return if x > 0.0 { f64::INFINITY } else { f64::NEG_INFINITY };
    }
    if ix < 0x3E300000 {
        // |x| < 2^-28: atanh(x) rounds to x.
        return x;
    }
    let x = with_high_word(x, ix as u32); // |x|
    let t = if ix < 0x3FE00000 {
        // x < 0.5
        let t = x + x;
        0.5 * log1p(t + t * x / (1.0 - x))
    } else {
        0.5 * log1p((x + x) / (1.0 - x))
    };
    if hx >= 0 {
        t
    } else {
        -t
    }
}
