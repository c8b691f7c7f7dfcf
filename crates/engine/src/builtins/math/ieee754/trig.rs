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

//! `sin`, `cos` and `tan`: argument reduction to [-π/4, π/4] (`rem_pio2`), then fdlibm's
//! polynomial kernels. V8 can swap `sin` and `cos` for glibc-derived routines
//! (`V8_USE_LIBM_TRIG_FUNCTIONS`), but Node builds V8 without it, so these are Node's.

use super::rem_pio2::rem_pio2;
use super::{from_words, high_word, low_word, with_low_word};

/// `__kernel_sin(x, y, iy)`: sin(x + y) for |x| ~<= π/4, where y is the tail of x; `iy` is
/// 0 when y is known to be 0.
///
/// sin(x) ~ x + S1·x³ + … + S6·x¹³ on [0, π/4] (Remez error below 2^-58), and
/// sin(x + y) ~ sin(x) + (1 − x²/2)·y, evaluated as
/// x + (S1·x³ + (x²·(r − y/2) + y)) with r = x³·(S2 + x²·(S3 + …)).
fn kernel_sin(x: f64, y: f64, iy: i32) -> f64 {
    const HALF: f64 = 5.00000000000000000000e-01; // 0x3FE00000, 0x00000000
    const S1: f64 = -1.66666666666666324348e-01; // 0xBFC55555, 0x55555549
    const S2: f64 = 8.33333333332248946124e-03; // 0x3F811111, 0x1110F8A6
    const S3: f64 = -1.98412698298579493134e-04; // 0xBF2A01A0, 0x19C161D5
    const S4: f64 = 2.75573137070700676789e-06; // 0x3EC71DE3, 0x57B1FE7D
    const S5: f64 = -2.50507602534068634195e-08; // 0xBE5AE5E6, 0x8A2B9CEB
    const S6: f64 = 1.58969099521155010221e-10; // 0x3DE5D93A, 0x5ACFD57C

    let ix = high_word(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 {
        // |x| < 2^-27: sin(x) rounds to x.
        return x;
    }
    let z = x * x;
    let v = z * x;
    let r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    if iy == 0 {
        x + v * (S1 + z * r)
    } else {
        x - ((z * (HALF * y - v * r) - y) - v * S1)
    }
}

/// `__kernel_cos(x, y)`: cos(x + y) for |x| ~<= π/4, where y is the tail of x.
///
/// cos(x) ~ 1 − x²/2 + C1·x⁴ + … + C6·x¹⁴ (Remez error below 2^-58), corrected by −x·y for
/// the tail. For x > 0.3, qx = x/4 with its low 32 bits cleared (0.28125 when x > 0.78125)
/// is subtracted from both 1 and x²/2, which is exact, so the final subtraction loses less.
fn kernel_cos(x: f64, y: f64) -> f64 {
    const ONE: f64 = 1.00000000000000000000e+00; // 0x3FF00000, 0x00000000
    const C1: f64 = 4.16666666666666019037e-02; // 0x3FA55555, 0x5555554C
    const C2: f64 = -1.38888888888741095749e-03; // 0xBF56C16C, 0x16C15177
    const C3: f64 = 2.48015872894767294178e-05; // 0x3EFA01A0, 0x19CB1590
    const C4: f64 = -2.75573143513906633035e-07; // 0xBE927E4F, 0x809C52AD
    const C5: f64 = 2.08757232129817482790e-09; // 0x3E21EE9E, 0xBDB4B1C4
    const C6: f64 = -1.13596475577881948265e-11; // 0xBDA8FAE9, 0xBE8838D4

    let ix = high_word(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 {
        // |x| < 2^-27: cos(x) rounds to 1.
        return ONE;
    }
    let z = x * x;
    let r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if ix < 0x3FD33333 {
        // |x| < 0.3
        ONE - (0.5 * z - (z * r - x * y))
    } else {
        let qx = if ix > 0x3FE90000 {
            // x > 0.78125
            0.28125
        } else {
            from_words(ix - 0x00200000, 0) // x/4
        };
        let iz = 0.5 * z - qx;
        let a = ONE - qx;
        a - (iz - (z * r - x * y))
    }
}

/// `__kernel_tan(x, y, k)`: tan(x + y) for |x| ~<= π/4 when `iy` is 1, −1/tan(x + y) when
/// `iy` is −1.
///
/// tan(x) ~ x + T1·x³ + … + T13·x²⁷ on [0, 0.67434] (error below 2^-59.2); on
/// [0.67434, π/4], tan(x) = tan(π/4 − y) = 1 − 2·(tan(y) − tan(y)²/(1 + tan(y))).
fn kernel_tan(mut x: f64, mut y: f64, iy: i32) -> f64 {
    const T: [f64; 13] = [
        3.33333333333334091986e-01,  // 3FD55555, 55555563
        1.33333333333201242699e-01,  // 3FC11111, 1110FE7A
        5.39682539762260521377e-02,  // 3FABA1BA, 1BB341FE
        2.18694882948595424599e-02,  // 3F9664F4, 8406D637
        8.86323982359930005737e-03,  // 3F8226E3, E96E8493
        3.59207910759131235356e-03,  // 3F6D6D22, C9560328
        1.45620945432529025516e-03,  // 3F57DBC8, FEE08315
        5.88041240820264096874e-04,  // 3F4344D8, F2F26501
        2.46463134818469906812e-04,  // 3F3026F7, 1A8D1068
        7.81794442939557092300e-05,  // 3F147E88, A03792A6
        7.14072491382608190305e-05,  // 3F12B80F, 32F0A7E9
        -1.85586374855275456654e-05, // BEF375CB, DB605373
        2.59073051863633712884e-05,  // 3EFB2A70, 74BF7AD4
    ];
    const ONE: f64 = 1.00000000000000000000e+00; // 3FF00000, 00000000
    const PIO4: f64 = 7.85398163397448278999e-01; // 3FE921FB, 54442D18
    const PIO4LO: f64 = 3.06161699786838301793e-17; // 3C81A626, 33145C07

    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix < 0x3E300000 {
        // |x| < 2^-28
        if ((ix as u32 | low_word(x)) as i32 | (iy + 1)) == 0 {
            // x is ±0 and −1/tan(x) is asked for: fdlibm answers +∞.
            return ONE / x.abs();
        } else if iy == 1 {
            return x;
        } else {
            // Compute −1/(x + y) carefully.
            let w = x + y;
            let z = with_low_word(w, 0);
            let v = y - (z - x);
            let a = -ONE / w;
            let t = with_low_word(a, 0);
            let s = ONE + t * z;
            return t + a * (s + t * v);
        }
    }
    let big = ix >= 0x3FE59428; // |x| >= 0.6744
    if big {
        if hx < 0 {
            x = -x;
            y = -y;
        }
        let z = PIO4 - x;
        let w = PIO4LO - y;
        x = z + w;
        y = 0.0;
    }
    let z = x * x;
    let w = z * z;
    // Break x⁵·(T[1] + x²·T[2] + …) into
    // x⁵·(T[1] + x⁴·T[3] + … + x²⁰·T[11]) + x⁵·(x²·(T[2] + x⁴·T[4] + … + x²²·T[12])).
    let mut r = T[1] + w * (T[3] + w * (T[5] + w * (T[7] + w * (T[9] + w * T[11]))));
    let mut v = z * (T[2] + w * (T[4] + w * (T[6] + w * (T[8] + w * (T[10] + w * T[12])))));
    let s = z * x;
    r = y + z * (s * (r + v) + y);
    r += T[0] * s;
    let w = x + r;
    if big {
        v = f64::from(iy);
        return f64::from(1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - (w * w / (w + v) - r)));
    }
    if iy == 1 {
        w
    } else {
        // Compute −1.0/(x + r) accurately (returning −1/(x + r) directly would allow an
        // error of up to 2 ulps).
        let z = with_low_word(w, 0);
        let v = r - (z - x); // z + v = r + x
        let a = -1.0 / w;
        let t = with_low_word(a, 0);
        let s = 1.0 + t * z;
        t + a * (s + t * v)
    }
}

/// `sin(x)`. With S, C and T the kernels on [-π/4, π/4] and n = k mod 4 for
/// x − k·π/2 in that interval: n = 0 → S, 1 → C, 2 → −S, 3 → −C.
pub(crate) fn sin(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        // |x| ~< π/4
        kernel_sin(x, 0.0, 0)
    } else if ix >= 0x7FF00000 {
        // sin(±∞ or NaN) is NaN (fdlibm's x − x).
        f64::NAN
    } else {
        let (n, y0, y1) = rem_pio2(x);
        match n & 3 {
            0 => kernel_sin(y0, y1, 1),
            1 => kernel_cos(y0, y1),
            2 => -kernel_sin(y0, y1, 1),
            _ => -kernel_cos(y0, y1),
        }
    }
}

/// `cos(x)`: n = 0 → C, 1 → −S, 2 → −C, 3 → S (see [`sin`]).
pub(crate) fn cos(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        kernel_cos(x, 0.0)
    } else if ix >= 0x7FF00000 {
        f64::NAN
    } else {
        let (n, y0, y1) = rem_pio2(x);
        match n & 3 {
            0 => kernel_cos(y0, y1),
            1 => -kernel_sin(y0, y1, 1),
            2 => -kernel_cos(y0, y1),
            _ => kernel_sin(y0, y1, 1),
        }
    }
}

/// `tan(x)`: T for even n, −1/T for odd n (see [`sin`]).
pub(crate) fn tan(x: f64) -> f64 {
    let ix = high_word(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        kernel_tan(x, 0.0, 1)
    } else if ix >= 0x7FF00000 {
        f64::NAN
    } else {
        let (n, y0, y1) = rem_pio2(x);
        kernel_tan(y0, y1, 1 - ((n & 1) << 1))
    }
}
