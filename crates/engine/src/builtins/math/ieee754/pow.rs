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

//! `pow`: `Math.pow` and the `**` operator (fdlibm's e_pow.c, V8's `ieee754::legacy::pow`,
//! which Node 20 uses for both; from V8 13 on, Node calls the C library's `pow` instead).

use super::{from_words, high_word, low_word, with_high_word, with_low_word};

/// `pow(x, y)` = x^y (ECMAScript's Number::exponentiate).
///
/// 1. Compute log2(|x|) in two pieces t1 + t2, t1 with 29 trailing zero bits.
/// 2. Compute y·log2(|x|) = n + y' in simulated multi-precision, with |y'| <= 0.5.
/// 3. Return 2^n·exp(y'·ln2).
///
/// The special cases come first: x^±0 = 1; x^NaN and NaN^y are NaN; (±1)^±∞ is NaN (as
/// ECMAScript wants, where IEEE 754 says 1); (|x| > 1)^+∞ = +∞ and ^−∞ = +0, the reverse for
/// |x| < 1; ±0 and ±∞ by the sign of y and whether y is an odd integer; a negative x to a
/// non-integer y is NaN. Integer powers of integers are exact when representable.
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    const BP: [f64; 2] = [1.0, 1.5];
    const DP_H: [f64; 2] = [0.0, 5.84962487220764160156e-01]; // 0x3FE2B803, 0x40000000
    const DP_L: [f64; 2] = [0.0, 1.35003920212974897128e-08]; // 0x3E4CFDEB, 0x43CFD006
    const TWO53: f64 = 9007199254740992.0; // 0x43400000, 0x00000000
    const HUGE: f64 = 1.0e300;
    const TINY: f64 = 1.0e-300;
    // Polynomial coefficients for (3/2)·(log(x) − 2s − 2/3·s³).
    const L1: f64 = 5.99999999999994648725e-01; // 0x3FE33333, 0x33333303
    const L2: f64 = 4.28571428578550184252e-01; // 0x3FDB6DB6, 0xDB6FABFF
    const L3: f64 = 3.33333329818377432918e-01; // 0x3FD55555, 0x518F264D
    const L4: f64 = 2.72728123808534006489e-01; // 0x3FD17460, 0xA91D4101
    const L5: f64 = 2.30660745775561754067e-01; // 0x3FCD864A, 0x93C9DB65
    const L6: f64 = 2.06975017800338417784e-01; // 0x3FCA7E28, 0x4A454EEF
    const P1: f64 = 1.66666666666666019037e-01; // 0x3FC55555, 0x5555553E
    const P2: f64 = -2.77777777770155933842e-03; // 0xBF66C16C, 0x16BEBD93
    const P3: f64 = 6.61375632143793436117e-05; // 0x3F11566A, 0xAF25DE2C
    const P4: f64 = -1.65339022054652515390e-06; // 0xBEBBBD41, 0xC5D26BF1
    const P5: f64 = 4.13813679705723846039e-08; // 0x3E663769, 0x72BEA4D0
    const LG2: f64 = 6.93147180559945286227e-01; // 0x3FE62E42, 0xFEFA39EF
    const LG2_H: f64 = 6.93147182464599609375e-01; // 0x3FE62E43, 0x00000000
    const LG2_L: f64 = -1.90465429995776804525e-09; // 0xBE205C61, 0x0CA86C39
    const OVT: f64 = 8.0085662595372944372e-0017; // −(1024 − log2(ovfl + .5ulp))
    const CP: f64 = 9.61796693925975554329e-01; // 0x3FEEC709, 0xDC3A03FD = 2/(3·ln2)
    const CP_H: f64 = 9.61796700954437255859e-01; // 0x3FEEC709, 0xE0000000 = (float)cp
    const CP_L: f64 = -7.02846165095275826516e-09; // 0xBE3E2FE0, 0x145B01F5 = tail of cp_h
    const IVLN2: f64 = 1.44269504088896338700e+00; // 0x3FF71547, 0x652B82FE = 1/ln2
    const IVLN2_H: f64 = 1.44269502162933349609e+00; // 0x3FF71547, 0x60000000 = 24 bits of 1/ln2
    const IVLN2_L: f64 = 1.92596299112661746887e-08; // 0x3E54AE0B, 0xF85DDF44 = 1/ln2 tail

    let hx = high_word(x) as i32;
    let lx = low_word(x);
    let hy = high_word(y) as i32;
    let ly = low_word(y);
    let mut ix = hx & 0x7FFFFFFF;
    let iy = hy & 0x7FFFFFFF;

    // y = ±0: x^0 = 1.
    if (iy as u32 | ly) == 0 {
        return 1.0;
    }

    // x or y is NaN: NaN.
    if ix > 0x7FF00000 || (ix == 0x7FF00000 && lx != 0) || iy > 0x7FF00000 || (iy == 0x7FF00000 && ly != 0) {
        return x + y;
    }

    // When x < 0, whether y is an integer: 0 no, 1 an odd integer, 2 an even integer.
    let mut yisint = 0;
    if hx < 0 {
        if iy >= 0x43400000 {
            yisint = 2; // an even integer y
        } else if iy >= 0x3FF00000 {
            let k = (iy >> 20) - 0x3FF; // the exponent
            if k > 20 {
                let j = ly >> (52 - k);
                if (j << (52 - k)) == ly {
                    yisint = 2 - (j & 1) as i32;
                }
            } else if ly == 0 {
                let j = iy >> (20 - k);
                if (j << (20 - k)) == iy {
                    yisint = 2 - (j & 1);
                }
            }
        }
    }

    // Special values of y.
    if ly == 0 {
        if iy == 0x7FF00000 {
            // y is ±∞.
            return if ((ix - 0x3FF00000) as u32 | lx) == 0 {
                f64::NAN // (±1)^±∞ is NaN (fdlibm's y − y)
            } else if ix >= 0x3FF00000 {
                // (|x| > 1)^±∞ = ∞, 0
                if hy >= 0 {
                    y
                } else {
                    0.0
                }
            } else if hy < 0 {
                // (|x| < 1)^−∞ = ∞
                -y
            } else {
                // (|x| < 1)^+∞ = 0
                0.0
            };
        }
        if iy == 0x3FF00000 {
            // y is ±1.
            return if hy < 0 { 1.0 / x } else { x };
        }
        if hy == 0x40000000 {
            return x * x; // y is 2
        }
        if hy == 0x3FE00000 && hx >= 0 {
            // y is 0.5 and x >= +0.
            return libm::sqrt(x);
        }
    }

    let mut ax = x.abs();
    // Special values of x.
    if lx == 0 && (ix == 0x7FF00000 || ix == 0 || ix == 0x3FF00000) {
        // x is ±0, ±∞ or ±1.
        let mut z = ax;
        if hy < 0 {
            z = 1.0 / z; // z = 1/|x|
        }
        if hx < 0 {
            if ((ix - 0x3FF00000) | yisint) == 0 {
                z = f64::NAN; // (−1)^non-integer is NaN
            } else if yisint == 1 {
                z = -z; // (x < 0)^odd = −(|x|^odd)
            }
        }
        return z;
    }

    let mut n = (hx >> 31) + 1;

    // (x < 0)^(non-integer) is NaN.
    if (n | yisint) == 0 {
        return f64::NAN;
    }

    // s, the sign of the result: −1 for (negative)^(odd integer), else 1.
    let s = if (n | (yisint - 1)) == 0 { -1.0 } else { 1.0 };

    let t1;
    let t2;
    if iy > 0x41E00000 {
        // |y| > 2^31
        if iy > 0x43F00000 {
            // |y| > 2^64: must overflow or underflow.
            if ix <= 0x3FEFFFFF {
                return if hy < 0 { HUGE * HUGE } else { TINY * TINY };
            }
            if ix >= 0x3FF00000 {
                return if hy > 0 { HUGE * HUGE } else { TINY * TINY };
            }
        }
        // Overflow or underflow if x is not close to one.
        if ix < 0x3FEFFFFF {
            return if hy < 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
        if ix > 0x3FF00000 {
            return if hy > 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
        // Now |1 − x| is tiny (<= 2^-20): log(x) by x − x²/2 + x³/3 − x⁴/4 suffices.
        let t = ax - 1.0; // t has 20 trailing zeros
        let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        let u = IVLN2_H * t; // IVLN2_H has 21 significant bits
        let v = t * IVLN2_L - w * IVLN2;
        t1 = with_low_word(u + v, 0);
        t2 = v - (t1 - u);
    } else {
        n = 0;
        // Take care of subnormal numbers.
        if ix < 0x00100000 {
            ax *= TWO53;
            n -= 53;
            ix = high_word(ax) as i32;
        }
        n += (ix >> 20) - 0x3FF;
        let j = ix & 0x000FFFFF;
        // Determine the interval.
        ix = j | 0x3FF00000; // normalize ix
        let k: usize = if j <= 0x3988E {
            0 // |x| < √(3/2)
        } else if j < 0xBB67A {
            1 // |x| < √3
        } else {
            n += 1;
            ix -= 0x00100000;
            0
        };
        ax = with_high_word(ax, ix as u32);

        // Compute ss = s_h + s_l = (x − 1)/(x + 1) or (x − 1.5)/(x + 1.5).
        let mut u = ax - BP[k]; // BP[0] = 1.0, BP[1] = 1.5
        let mut v = 1.0 / (ax + BP[k]);
        let ss = u * v;
        let s_h = with_low_word(ss, 0);
        // t_h = ax + BP[k], high part.
        let mut t_h = from_words((((ix >> 1) | 0x20000000) + 0x00080000 + ((k as i32) << 18)) as u32, 0);
        let mut t_l = ax - (t_h - BP[k]);
        let s_l = v * ((u - s_h * t_h) - s_h * t_l);
        // Compute log(ax).
        let mut s2 = ss * ss;
        let mut r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
        r += s_l * (s_h + ss);
        s2 = s_h * s_h;
        t_h = with_low_word(3.0 + s2 + r, 0);
        t_l = r - ((t_h - 3.0) - s2);
        // u + v = ss·(1 + …)
        u = s_h * t_h;
        v = s_l * t_h + t_l * ss;
        // 2/(3·log2)·(ss + …)
        let p_h = with_low_word(u + v, 0);
        let p_l = v - (p_h - u);
        let z_h = CP_H * p_h; // CP_H + CP_L = 2/(3·log2)
        let z_l = CP_L * p_h + p_l * CP + DP_L[k];
        // log2(ax) = (ss + …)·2/(3·log2) = n + DP_H + z_h + z_l
        let t = f64::from(n);
        t1 = with_low_word(((z_h + z_l) + DP_H[k]) + t, 0);
        t2 = z_l - (((t1 - t) - DP_H[k]) - z_h);
    }

    // Split y into y1 + y2 and compute (y1 + y2)·(t1 + t2).
    let y1 = with_low_word(y, 0);
    let p_l = (y - y1) * t1 + y * t2;
    let mut p_h = y1 * t1;
    let mut z = p_l + p_h;
    let j = high_word(z) as i32;
    let i = low_word(z) as i32;
    if j >= 0x40900000 {
        // z >= 1024
        if ((j - 0x40900000) | i) != 0 {
            return s * HUGE * HUGE; // overflow: z > 1024
        }
        if p_l + OVT > z - p_h {
            return s * HUGE * HUGE; // overflow
        }
    } else if (j & 0x7FFFFFFF) >= 0x4090CC00 {
        // z <= −1075
        if ((j as u32).wrapping_sub(0xC090CC00) | i as u32) != 0 {
            return s * TINY * TINY; // underflow: z < −1075
        }
        if p_l <= z - p_h {
            return s * TINY * TINY; // underflow
        }
    }

    // Compute 2^(p_h + p_l).
    let i = j & 0x7FFFFFFF;
    let mut k = (i >> 20) - 0x3FF;
    let mut n = 0;
    if i > 0x3FE00000 {
        // |z| > 0.5: n = [z + 0.5].
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF; // the new k for n
        let t = from_words((n & !(0x000FFFFF >> k)) as u32, 0);
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k);
        if j < 0 {
            n = -n;
        }
        p_h -= t;
    }
    let t = with_low_word(p_l + p_h, 0);
    let u = t * LG2_H;
    let v = (p_l - (t - p_h)) * LG2 + t * LG2_L;
    z = u + v;
    let w = v - (z - u);
    let t = z * z;
    let t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    let r = (z * t1) / ((t1 - 2.0) - (w + z * w));
    z = 1.0 - (r - z);
    let j = (high_word(z) as i32).wrapping_add(((n as u32) << 20) as i32);
    if (j >> 20) <= 0 {
        z = libm::scalbn(z, n); // a subnormal result
    } else {
        z = with_high_word(z, (high_word(z) as i32).wrapping_add(((n as u32) << 20) as i32) as u32);
    }
    s * z
}
