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

//! `asin`, `acos`, `atan` and `atan2`.

use super::{high_word, low_word, with_low_word};

const PIO2_HI: f64 = 1.57079632679489655800e+00; // 0x3FF921FB, 0x54442D18
const PIO2_LO: f64 = 6.12323399573676603587e-17; // 0x3C91A626, 0x33145C07
const PIO4_HI: f64 = 7.85398163397448278999e-01; // 0x3FE921FB, 0x54442D18

// Coefficients of R(x²), a rational approximation of (asin(x) − x)/x³ on [0, 0.5] whose Remez
// error is below 2^-58.75: R = P/Q with P = pS0·t + … + pS5·t⁶ and Q = 1 + qS1·t + … + qS4·t⁴.
const PS0: f64 = 1.66666666666666657415e-01; // 0x3FC55555, 0x55555555
const PS1: f64 = -3.25565818622400915405e-01; // 0xBFD4D612, 0x03EB6F7D
const PS2: f64 = 2.01212532134862925881e-01; // 0x3FC9C155, 0x0E884455
const PS3: f64 = -4.00555345006794114027e-02; // 0xBFA48228, 0xB5688F3B
const PS4: f64 = 7.91534994289814532176e-04; // 0x3F49EFE0, 0x7501B288
const PS5: f64 = 3.47933107596021167570e-05; // 0x3F023DE1, 0x0DFDF709
const QS1: f64 = -2.40339491173441421878e+00; // 0xC0033A27, 0x1C8A2D4B
const QS2: f64 = 2.02094576023350569471e+00; // 0x40002AE5, 0x9C598AC8
const QS3: f64 = -6.88283971605453293030e-01; // 0xBFE6066C, 0x1B8D0159
const QS4: f64 = 7.70381505559019352791e-02; // 0x3FB3B8C5, 0xB12E9282

/// The numerator and denominator of R(t) (see the constants above), in fdlibm's order.
#[inline]
fn asin_pq(t: f64) -> (f64, f64) {
    let p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
    let q = 1.0 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
    (p, q)
}

/// `asin(x)`: x + x·x²·R(x²) on [0, 0.5]; on [0.5, 1], π/2 − 2·asin(√((1 − x)/2)), with the
/// square root split into a head and a correction below 0.975.
pub(crate) fn asin(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        // |x| >= 1
        if ((ix - 0x3FF00000) as u32 | low_word(x)) == 0 {
            // asin(±1) = ±π/2.
            return x * PIO2_HI + x * PIO2_LO;
        }
        // asin(|x| > 1) is NaN.
        return f64::NAN;
    } else if ix < 0x3FE00000 {
        // |x| < 0.5
        if ix < 0x3E400000 {
            // |x| < 2^-27: asin(x) rounds to x.
            return x;
        }
        let t = x * x;
        let (p, q) = asin_pq(t);
        let w = p / q;
        return x + x * w;
    }
    // 1 > |x| >= 0.5
    let w = 1.0 - x.abs();
    let mut t = w * 0.5;
    let (mut p, mut q) = asin_pq(t);
    let s = libm::sqrt(t);
    if ix >= 0x3FEF3333 {
        // |x| > 0.975
        let w = p / q;
        t = PIO2_HI - (2.0 * (s + s * w) - PIO2_LO);
    } else {
        let w = with_low_word(s, 0);
        let c = (t - w * w) / (s + w);
        let r = p / q;
        p = 2.0 * s * r - (PIO2_LO - 2.0 * c);
        q = PIO4_HI - 2.0 * w;
        t = PIO4_HI - (p - q);
    }
    if hx > 0 {
        t
    } else {
        -t
    }
}

/// `acos(x)`: π/2 − (x + x·x²·R(x²)) for |x| < 0.5, 2·asin(√((1 − x)/2)) above 0.5 and
/// π − 2·asin(√((1 + x)/2)) below −0.5.
pub(crate) fn acos(x: f64) -> f64 {
    const PI: f64 = 3.14159265358979311600e+00; // 0x400921FB, 0x54442D18

    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        // |x| >= 1
        if ((ix - 0x3FF00000) as u32 | low_word(x)) == 0 {
            // acos(1) = 0, acos(−1) = π.
            return if hx > 0 { 0.0 } else { PI + 2.0 * PIO2_LO };
        }
        // acos(|x| > 1) is NaN.
        return f64::NAN;
    }
    if ix < 0x3FE00000 {
        // |x| < 0.5
        if ix <= 0x3C600000 {
            // |x| < 2^-57
            return PIO2_HI + PIO2_LO;
        }
        let z = x * x;
        let (p, q) = asin_pq(z);
        let r = p / q;
        PIO2_HI - (x - (PIO2_LO - x * r))
    } else if hx < 0 {
        // x < −0.5
        let z = (1.0 + x) * 0.5;
        let (p, q) = asin_pq(z);
        let s = libm::sqrt(z);
        let r = p / q;
        let w = r * s - PIO2_LO;
        PI - 2.0 * (s + w)
    } else {
        // x > 0.5
        let z = (1.0 - x) * 0.5;
        let s = libm::sqrt(z);
        let df = with_low_word(s, 0);
        let c = (z - df * df) / (s + df);
        let (p, q) = asin_pq(z);
        let r = p / q;
        let w = r * s + c;
        2.0 * (df + w)
    }
}

/// `atan(x)`: odd, so for |x| reduce by k = ⌊4·|x| + 0.25⌋ to atan of a small t, plus
/// atan(1/2), atan(1), atan(3/2) or atan(∞) as a head and tail:
/// [0, 7/16] t − t³·(a1 + t²·(a2 + … + t²·a11)); [7/16, 11/16] atan(1/2) + atan((t − 0.5)/(1 + t/2));
/// [11/16, 19/16] atan(1) + atan((t − 1)/(1 + t)); [19/16, 39/16] atan(3/2) +
/// atan((t − 1.5)/(1 + 1.5·t)); [39/16, ∞] atan(∞) + atan(−1/t).
pub(crate) fn atan(x: f64) -> f64 {
    const ATANHI: [f64; 4] = [
        4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC67, 0x0561BB4F
        7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB, 0x54442D18
        9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730B, 0xD281F69B
        1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB, 0x54442D18
    ];
    const ATANLO: [f64; 4] = [
        2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F, 0x222F65E2
        3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626, 0x33145C07
        1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788, 0x7AF0CBBD
        6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626, 0x33145C07
    ];
    const AT: [f64; 11] = [
        3.33333333333329318027e-01,  // 0x3FD55555, 0x5555550D
        -1.99999999998764832476e-01, // 0xBFC99999, 0x9998EBC4
        1.42857142725034663711e-01,  // 0x3FC24924, 0x920083FF
        -1.11111104054623557880e-01, // 0xBFBC71C6, 0xFE231671
        9.09088713343650656196e-02,  // 0x3FB745CD, 0xC54C206E
        -7.69187620504482999495e-02, // 0xBFB3B0F2, 0xAF749A6D
        6.66107313738753120669e-02,  // 0x3FB10D66, 0xA0D03D51
        -5.83357013379057348645e-02, // 0xBFADDE2D, 0x52DEFD9A
        4.97687799461593236017e-02,  // 0x3FA97B4B, 0x24760DEB
        -3.65315727442169155270e-02, // 0xBFA2B444, 0x2C6A6C2F
        1.62858201153657823623e-02,  // 0x3F90AD3A, 0xE322DA11
    ];

    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x44100000 {
        // |x| >= 2^66
        if ix > 0x7FF00000 || (ix == 0x7FF00000 && low_word(x) != 0) {
            return x + x; // NaN
        }
        return if hx > 0 { ATANHI[3] + ATANLO[3] } else { -ATANHI[3] - ATANLO[3] };
    }
    let mut x = x;
    let id: i32;
    if ix < 0x3FDC0000 {
        // |x| < 0.4375
        if ix < 0x3E400000 {
            // |x| < 2^-27: atan(x) rounds to x.
            return x;
        }
        id = -1;
    } else {
        x = x.abs();
        if ix < 0x3FF30000 {
            // |x| < 1.1875
            if ix < 0x3FE60000 {
                // 7/16 <= |x| < 11/16
                id = 0;
                x = (2.0 * x - 1.0) / (2.0 + x);
            } else {
                // 11/16 <= |x| < 19/16
                id = 1;
                x = (x - 1.0) / (x + 1.0);
            }
        } else if ix < 0x40038000 {
            // |x| < 2.4375
            id = 2;
            x = (x - 1.5) / (1.0 + 1.5 * x);
        } else {
            // 2.4375 <= |x| < 2^66
            id = 3;
            x = -1.0 / x;
        }
    }
    // End of argument reduction.
    let z = x * x;
    let w = z * z;
    // Break the sum of AT[i]·z^(i+1) for i = 0..=10 into odd and even polynomials.
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    if id < 0 {
        x - x * (s1 + s2)
    } else {
        let id = id as usize;
        let z = ATANHI[id] - ((x * (s1 + s2) - ATANLO[id]) - x);
        if hx < 0 {
            -z
        } else {
            z
        }
    }
}

/// `atan2(y, x)`: reduce y to positive by atan2(y, x) = −atan2(−y, x), then
/// arg(x + iy) = atan(y/x) for x > 0 and π − atan(y/(−x)) for x < 0, with the signed-zero
/// and infinity cases first.
pub(crate) fn atan2(y: f64, x: f64) -> f64 {
    const TINY: f64 = 1.0e-300;
    const PI_O_4: f64 = 7.8539816339744827900E-01; // 0x3FE921FB, 0x54442D18
    const PI_O_2: f64 = 1.5707963267948965580E+00; // 0x3FF921FB, 0x54442D18
    const PI: f64 = 3.1415926535897931160E+00; // 0x400921FB, 0x54442D18
    const PI_LO: f64 = 1.2246467991473531772E-16; // 0x3CA1A626, 0x33145C07

    let hx = high_word(x) as i32;
    let lx = low_word(x);
    let ix = hx & 0x7FFFFFFF;
    let hy = high_word(y) as i32;
    let ly = low_word(y);
    let iy = hy & 0x7FFFFFFF;
    // fdlibm's `ix | ((lx | -lx) >> 31)`: the high word's magnitude with a sticky bit for a
    // non-zero low word, so that "> 0x7FF00000" means NaN.
    let sticky = |high: i32, low: u32| high as u32 | ((low | low.wrapping_neg()) >> 31);
    if sticky(ix, lx) > 0x7FF00000 || sticky(iy, ly) > 0x7FF00000 {
        return x + y; // x or y is NaN
    }
    if (hx.wrapping_sub(0x3FF00000) as u32 | lx) == 0 {
        return atan(y); // x = 1.0
    }
    // 2·sign(x) + sign(y)
    let mut m = ((hy >> 31) & 1) | ((hx >> 30) & 2);

    // When y = 0:
    if (iy as u32 | ly) == 0 {
        match m {
            0 | 1 => return y,      // atan(±0, +anything) = ±0
            2 => return PI + TINY,  // atan(+0, −anything) = π
            _ => return -PI - TINY, // atan(−0, −anything) = −π
        }
    }
    // When x = 0:
    if (ix as u32 | lx) == 0 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }
    // When x is ±∞:
    if ix == 0x7FF00000 {
        if iy == 0x7FF00000 {
            return match m {
                0 => PI_O_4 + TINY,        // atan(+∞, +∞)
                1 => -PI_O_4 - TINY,       // atan(−∞, +∞)
                2 => 3.0 * PI_O_4 + TINY,  // atan(+∞, −∞)
                _ => -3.0 * PI_O_4 - TINY, // atan(−∞, −∞)
            };
        } else {
            return match m {
                0 => 0.0,        // atan(+…, +∞)
                1 => -0.0,       // atan(−…, +∞)
                2 => PI + TINY,  // atan(+…, −∞)
                _ => -PI - TINY, // atan(−…, −∞)
            };
        }
    }
    // When y is ±∞:
    if iy == 0x7FF00000 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }

    // Compute y/x.
    let k = (iy - ix) >> 20;
    let z = if k > 60 {
        // |y/x| > 2^60
        m &= 1;
        PI_O_2 + 0.5 * PI_LO
    } else if hx < 0 && k < -60 {
        // 0 > |y|/x > −2^-60
        0.0
    } else {
        // y/x is safe to compute.
        atan((y / x).abs())
    };
    match m {
        0 => z,                // atan(+, +)
        1 => -z,               // atan(−, +)
        2 => PI - (z - PI_LO), // atan(+, −)
        _ => (z - PI_LO) - PI, // atan(−, −)
    }
}
