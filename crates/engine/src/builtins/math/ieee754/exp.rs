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

//! `exp` and `expm1`.

use super::{from_words, high_word, low_word, with_high_word};

const O_THRESHOLD: f64 = 7.09782712893383973096e+02; // 0x40862E42, 0xFEFA39EF
const INVLN2: f64 = 1.44269504088896338700e+00; // 0x3FF71547, 0x652B82FE

/// 2^k for −1022 <= k <= 1023, built from its exponent bits (fdlibm's
/// `INSERT_WORDS(twopk, 0x3FF00000 + (k << 20), 0)`).
#[inline]
fn two_pow(k: i32) -> f64 {
    from_words(0x3FF00000i32.wrapping_add(((k as u32) << 20) as i32) as u32, 0)
}

/// `exp(x)`.
///
/// 1. Reduce: x = k·ln2 + r with |r| <= 0.5·ln2, r kept as hi − lo.
/// 2. Approximate exp(r) = 1 + r + r·R1(r)/(2 − R1(r)) with
///    R1(r) = r − (P1·r² + P2·r⁴ + … + P5·r¹⁰), a Remez polynomial with error below 2^-59.
/// 3. Scale back: exp(x) = 2^k·exp(r).
///
/// The error is below 1 ulp. V8 returns `Math.E` for exp(1), which the algorithm would get
/// wrong in the last bit.
pub(crate) fn exp(x: f64) -> f64 {
    const HALF: [f64; 2] = [0.5, -0.5];
    const U_THRESHOLD: f64 = -7.45133219101941108420e+02; // 0xC0874910, 0xD52D3051
    const LN2HI: [f64; 2] = [
        6.93147180369123816490e-01,  // 0x3FE62E42, 0xFEE00000
        -6.93147180369123816490e-01, // 0xBFE62E42, 0xFEE00000
    ];
    const LN2LO: [f64; 2] = [
        1.90821492927058770002e-10,  // 0x3DEA39EF, 0x35793C76
        -1.90821492927058770002e-10, // 0xBDEA39EF, 0x35793C76
    ];
    const P1: f64 = 1.66666666666666019037e-01; // 0x3FC55555, 0x5555553E
    const P2: f64 = -2.77777777770155933842e-03; // 0xBF66C16C, 0x16BEBD93
    const P3: f64 = 6.61375632143793436117e-05; // 0x3F11566A, 0xAF25DE2C
    const P4: f64 = -1.65339022054652515390e-06; // 0xBEBBBD41, 0xC5D26BF1
    const P5: f64 = 4.13813679705723846039e-08; // 0x3E663769, 0x72BEA4D0
    const E: f64 = 2.718281828459045; // 0x4005BF0A, 0x8B145769
    const TWOM1000: f64 = 9.33263618503218878990e-302; // 2^-1000 = 0x01700000, 0
    const TWO1023: f64 = 8.988465674311579539e307; // 0x1p1023

    let mut x = x;
    let mut hx = high_word(x);
    let xsb = ((hx >> 31) & 1) as usize; // the sign bit of x
    hx &= 0x7FFFFFFF; // the high word of |x|

    // Filter out non-finite arguments.
    if hx >= 0x40862E42 {
        // |x| >= 709.78…
        if hx >= 0x7FF00000 {
            if ((hx & 0xFFFFF) | low_word(x)) != 0 {
                return x + x; // NaN
            }
            return if xsb == 0 { x } else { 0.0 }; // exp(±∞) = {∞, 0}
        }
        if x > O_THRESHOLD {
            return f64::INFINITY; // overflow
        }
        if x < U_THRESHOLD {
            return 0.0; // underflow
        }
    }

    // Argument reduction.
    let mut hi = 0.0;
    let mut lo = 0.0;
    let mut k: i32 = 0;
    if hx > 0x3FD62E42 {
        // |x| > 0.5·ln2
        if hx < 0x3FF0A2B2 {
            // and |x| < 1.5·ln2
            if x == 1.0 {
                return E;
            }
            hi = x - LN2HI[xsb];
            lo = LN2LO[xsb];
            k = 1 - xsb as i32 - xsb as i32;
        } else {
            k = (INVLN2 * x + HALF[xsb]) as i32;
            let t = f64::from(k);
            hi = x - t * LN2HI[0]; // t·ln2hi is exact here
            lo = t * LN2LO[0];
        }
        x = hi - lo;
    } else if hx < 0x3E300000 {
        // |x| < 2^-28: exp(x) rounds to 1 + x.
        return 1.0 + x;
    }

    // x is now in the primary range.
    let t = x * x;
    let twopk = if k >= -1021 { two_pow(k) } else { two_pow(k + 1000) };
    let c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if k == 0 {
        return 1.0 - ((x * c) / (c - 2.0) - x);
    }
    let y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if k >= -1021 {
        if k == 1024 {
            return y * 2.0 * TWO1023;
        }
        y * twopk
    } else {
        y * twopk * TWOM1000
    }
}

/// `expm1(x)` = exp(x) − 1, accurate near 0.
///
/// 1. Reduce: x = k·ln2 + r with |r| <= 0.5·ln2, plus a correction c for the rounding of r.
/// 2. Approximate with R1(r²) = 6/r·((exp(r) + 1)/(exp(r) − 1) − 2/r), a degree-5 Remez
///    polynomial in r² (error below 2^-61), as
///    expm1(r) = r + r²/2 + r³/2·(3 − (R1 + R1·r/2))/(6 − r·(3 − R1·r/2)), and fold in c by
///    expm1(r + c) ~ expm1(r) + c + r·c.
/// 3. Scale back: expm1(x) = 2^k·(expm1(r) + 1) − 1 or 2^k·(expm1(r) + (1 − 2^-k)), chosen
///    by k to avoid cancellation.
pub(crate) fn expm1(x: f64) -> f64 {
    const TINY: f64 = 1.0e-300;
    const LN2_HI: f64 = 6.93147180369123816490e-01; // 0x3FE62E42, 0xFEE00000
    const LN2_LO: f64 = 1.90821492927058770002e-10; // 0x3DEA39EF, 0x35793C76
                                                    // Scaled Q's: Qn here = 2^n·Qn of the method above, for R(2·z) where z = x²/2.
    const Q1: f64 = -3.33333333333331316428e-02; // BFA11111 111110F4
    const Q2: f64 = 1.58730158725481460165e-03; // 3F5A01A0 19FE5585
    const Q3: f64 = -7.93650757867487942473e-05; // BF14CE19 9EAADBB7
    const Q4: f64 = 4.00821782732936239552e-06; // 3ED0CFCA 86E65239
    const Q5: f64 = -2.01099218183624371326e-07; // BE8AFDB7 6E09C32D

    let mut x = x;
    let mut hx = high_word(x);
    let xsb = hx & 0x80000000; // the sign bit of x
    hx &= 0x7FFFFFFF; // the high word of |x|

    // Filter out huge and non-finite arguments.
    if hx >= 0x4043687A {
        // |x| >= 56·ln2
        if hx >= 0x40862E42 {
            // |x| >= 709.78…
            if hx >= 0x7FF00000 {
                if ((hx & 0xFFFFF) | low_word(x)) != 0 {
                    return x + x; // NaN
                }
                return if xsb == 0 { x } else { -1.0 }; // expm1(±∞) = {∞, −1}
            }
            if x > O_THRESHOLD {
                return f64::INFINITY; // overflow
            }
        }
        if xsb != 0 {
            // x < −56·ln2: −1 (fdlibm computes it as tiny − 1 to raise inexact).
            return TINY - 1.0;
        }
    }

    // Argument reduction.
    let k: i32;
    let mut c = 0.0;
    if hx > 0x3FD62E42 {
        // |x| > 0.5·ln2
        let (hi, lo);
        if hx < 0x3FF0A2B2 {
            // and |x| < 1.5·ln2
            if xsb == 0 {
                hi = x - LN2_HI;
                lo = LN2_LO;
                k = 1;
            } else {
                hi = x + LN2_HI;
                lo = -LN2_LO;
                k = -1;
            }
        } else {
            k = (INVLN2 * x + if xsb == 0 { 0.5 } else { -0.5 }) as i32;
            let t = f64::from(k);
            hi = x - t * LN2_HI; // t·ln2_hi is exact here
            lo = t * LN2_LO;
        }
        x = hi - lo;
        c = (hi - x) - lo;
    } else if hx < 0x3C900000 {
        // |x| < 2^-54: expm1(x) rounds to x.
        return x;
    } else {
        k = 0;
    }

    // x is now in the primary range.
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    let t = 3.0 - r1 * hfx;
    let mut e = hxs * ((r1 - t) / (6.0 - x * t));
    if k == 0 {
        return x - (x * e - hxs); // c is 0
    }
    let twopk = two_pow(k);
    e = x * (e - c) - c;
    e -= hxs;
    if k == -1 {
        return 0.5 * (x - e) - 0.5;
    }
    if k == 1 {
        return if x < -0.25 { -2.0 * (e - (x + 0.5)) } else { 1.0 + 2.0 * (x - e) };
    }
    if k <= -2 || k > 56 {
        // exp(x) − 1 suffices.
        let mut y = 1.0 - (e - x);
        if k == 1024 {
            // V8's stand-in for fdlibm's `y * 2.0 * 0x1p1023`: this decimal literal is two
            // ulps above 2^1023, and Node's results carry that.
            y = y * 2.0 * 8.98846567431158e+307;
        } else {
            y *= twopk;
        }
        return y - 1.0;
    }
    if k < 20 {
        let t = from_words(0x3FF00000 - (0x200000 >> k), 0); // 1 − 2^-k
        let y = t - (e - x);
        y * twopk
    } else {
        let t = with_high_word(1.0, ((0x3FF - k) << 20) as u32); // 2^-k
        let mut y = x - (e + t);
        y += 1.0;
        y * twopk
    }
}
