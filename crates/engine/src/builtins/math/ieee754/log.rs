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

//! `log`, `log1p`, `log2` and `log10`.

use super::{high_word, low_word, with_high_word, with_low_word};

const LN2_HI: f64 = 6.93147180369123816490e-01; // 3fe62e42 fee00000
const LN2_LO: f64 = 1.90821492927058770002e-10; // 3dea39ef 35793c76
const TWO54: f64 = 1.80143985094819840000e+16; // 43500000 00000000

// log(1 + f) = 2s + s·R(s²) with s = f/(2 + f), R a Remez polynomial of degree 14 in s on
// [0, 0.1716] with error below 2^-58.45 (fdlibm names these Lg1…Lg7 in e_log.c and k_log.h,
// Lp1…Lp7 in s_log1p.c; the values are the same).
const LG1: f64 = 6.666666666666735130e-01; // 3FE55555 55555593
const LG2: f64 = 3.999999999940941908e-01; // 3FD99999 9997FA04
const LG3: f64 = 2.857142874366239149e-01; // 3FD24924 94229359
const LG4: f64 = 2.222219843214978396e-01; // 3FCC71C5 1D8E78AF
const LG5: f64 = 1.818357216161805012e-01; // 3FC74664 96CB03DE
const LG6: f64 = 1.531383769920937332e-01; // 3FC39A09 D078C69F
const LG7: f64 = 1.479819860511658591e-01; // 3FC2F112 DF3E5244

/// `log(x)`.
///
/// 1. Reduce: x = 2^k·(1 + f) with √2/2 < 1 + f < √2.
/// 2. log(1 + f) = f − s·(f − R), or f − (hfsq − s·(hfsq + R)) with hfsq = f²/2 when f is
///    larger (better accuracy); see the constants above for s and R.
/// 3. log(x) = k·ln2_hi + (f − (hfsq − (s·(hfsq + R) + k·ln2_lo))), ln2 split so that
///    k·ln2_hi is exact for |k| < 2000.
///
/// The error is below 1 ulp.
pub(crate) fn log(x: f64) -> f64 {
    let mut x = x;
    let mut hx = high_word(x) as i32;
    let lx = low_word(x);

    let mut k: i32 = 0;
    if hx < 0x00100000 {
        // x < 2^-1022
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY; // log(±0) = −∞
        }
        if hx < 0 {
            return f64::NAN; // log(−#) = NaN
        }
        // A subnormal number: scale x up.
        k -= 54;
        x *= TWO54;
        hx = high_word(x) as i32;
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    // Normalize x or x/2.
    x = with_high_word(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let f = x - 1.0;
    if (0x000FFFFF & (2 + hx)) < 3 {
        // −2^-20 <= f < 2^-20
        if f == 0.0 {
            if k == 0 {
                return 0.0;
            }
            let dk = f64::from(k);
            return dk * LN2_HI + dk * LN2_LO;
        }
        let r = f * f * (0.5 - 0.33333333333333333 * f);
        if k == 0 {
            return f - r;
        }
        let dk = f64::from(k);
        return dk * LN2_HI - ((r - dk * LN2_LO) - f);
    }
    let s = f / (2.0 + f);
    let dk = f64::from(k);
    let z = s * s;
    let mut i = hx - 0x6147A;
    let w = z * z;
    let j = 0x6B851 - hx;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    i |= j;
    let r = t2 + t1;
    if i > 0 {
        let hfsq = 0.5 * f * f;
        if k == 0 {
            f - (hfsq - s * (hfsq + r))
        } else {
            dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
        }
    } else if k == 0 {
        f - s * (f - r)
    } else {
        dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f)
    }
}

/// `log1p(x)` = log(1 + x), accurate near 0.
///
/// As [`log`], on u = 1 + x rounded: 1 + x = 2^k·(1 + f), plus the correction c/u for the
/// rounding of u (c = (1 + x) − u) when k ≠ 0; when k = 0, f = x exactly. For x > 2^53,
/// log(x) itself would do.
pub(crate) fn log1p(x: f64) -> f64 {
    let hx = high_word(x) as i32;
    let ax = hx & 0x7FFFFFFF;

    let mut k: i32 = 1;
    let mut f = 0.0;
    let mut hu: i32 = 0;
    let mut c = 0.0;
    if hx < 0x3FDA827A {
        // 1 + x < √2+
        if ax >= 0x3FF00000 {
            // x <= −1.0
            return if x == -1.0 {
                f64::NEG_INFINITY // log1p(−1) = −∞
            } else {
                f64::NAN // log1p(x < −1) = NaN
            };
        }
        if ax < 0x3E200000 {
            // |x| < 2^-29
            if ax < 0x3C900000 {
                // |x| < 2^-54: log1p(x) rounds to x.
                return x;
            }
            return x - x * x * 0.5;
        }
        if hx > 0 || hx <= 0xBFD2BEC4u32 as i32 {
            // √2/2− <= 1 + x < √2+
            k = 0;
            f = x;
            hu = 1;
        }
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if k != 0 {
        let mut u;
        if hx < 0x43400000 {
            u = 1.0 + x;
            hu = high_word(u) as i32;
            k = (hu >> 20) - 1023;
            // The correction term.
            c = if k > 0 { 1.0 - (u - x) } else { x - (u - 1.0) };
            c /= u;
        } else {
            u = x;
            hu = high_word(u) as i32;
            k = (hu >> 20) - 1023;
            c = 0.0;
        }
        hu &= 0x000FFFFF;
        // The approximation to √2 in these thresholds is not critical, but the ones above
        // must bound less strictly than this one, so that the k == 0 case is never reached
        // from here: here the correction term is committed to, and k == 0 would not use it.
        if hu < 0x6A09E {
            // u ~< √2: normalize u.
            u = with_high_word(u, (hu | 0x3FF00000) as u32);
        } else {
            // Normalize u/2.
            k += 1;
            u = with_high_word(u, (hu | 0x3FE00000) as u32);
            hu = (0x00100000 - hu) >> 2;
        }
        f = u - 1.0;
    }
    let hfsq = 0.5 * f * f;
    if hu == 0 {
        // |f| < 2^-20
        if f == 0.0 {
            if k == 0 {
                return 0.0;
            }
            c += f64::from(k) * LN2_LO;
            return f64::from(k) * LN2_HI + c;
        }
        let r = hfsq * (1.0 - 0.66666666666666666 * f);
        if k == 0 {
            return f - r;
        }
        return f64::from(k) * LN2_HI - ((r - (f64::from(k) * LN2_LO + c)) - f);
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
    if k == 0 {
        f - (hfsq - s * (hfsq + r))
    } else {
        f64::from(k) * LN2_HI - ((hfsq - (s * (hfsq + r) + (f64::from(k) * LN2_LO + c))) - f)
    }
}

/// `k_log1p(f)`: log(1 + f) − f + f²/2 for 1 + f in ~[√2/2, √2], the kernel [`log2`] adds
/// its own argument reduction and final terms to, in extra precision (FreeBSD's k_log.h).
#[inline]
fn k_log1p(f: f64) -> f64 {
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    s * (hfsq + r)
}

/// `log2(x)` (FreeBSD's e_log2.c): reduce x to 2^k·(1 + f) as [`log`] does, then
/// log2(x) = (f − f²/2 + k_log1p(f))/ln2 + k, with f − f²/2 split into hi + lo and the sum
/// with k normalized by Dekker's theorem, so that arguments near 1, √2 and √2/2 do not lose
/// bits to cancellation.
pub(crate) fn log2(x: f64) -> f64 {
    const IVLN2HI: f64 = 1.44269504072144627571e+00; // 0x3FF71547, 0x65200000
    const IVLN2LO: f64 = 1.67517131648865118353e-10; // 0x3DE705FC, 0x2EEFA200

    let mut x = x;
    let mut hx = high_word(x) as i32;
    let lx = low_word(x);

    let mut k: i32 = 0;
    if hx < 0x00100000 {
        // x < 2^-1022
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY; // log(±0) = −∞
        }
        if hx < 0 {
            return f64::NAN; // log(−#) = NaN
        }
        // A subnormal number: scale x up.
        k -= 54;
        x *= TWO54;
        hx = high_word(x) as i32;
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0; // log(1) = +0
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    // Normalize x or x/2.
    x = with_high_word(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let y = f64::from(k);
    let f = x - 1.0;
    let hfsq = 0.5 * f * f;
    let r = k_log1p(f);

    // f − hfsq must be evaluated in extra precision for arguments near 1 (it would cancel
    // when x is near √2 or √2/2); y must be added in extra precision for arguments near √2
    // and √2/2. The multiplications are routine multi-precision.
    let mut hi = f - hfsq;
    hi = with_low_word(hi, 0);
    let lo = (f - hi) - hfsq + r;
    let mut val_hi = hi * IVLN2HI;
    let mut val_lo = (lo + hi) * IVLN2LO + lo * IVLN2HI;

    // spadd(val_hi, val_lo, y), without double_t:
    let w = y + val_hi;
    val_lo += (y - w) + val_hi;
    val_hi = w;

    val_lo + val_hi
}

/// `log10(x)`: with n = ilogb(x) (plus one when negative), x = 2^n·m, and log10(2) split
/// into a 40-bit head and a tail, log10(x) = n·log10_2hi + (n·log10_2lo + ivln10·log(m)).
/// In round-to-nearest this gives log10(10^n) = n for every normal power of ten.
pub(crate) fn log10(x: f64) -> f64 {
    const IVLN10: f64 = 4.34294481903251816668e-01;
    const LOG10_2HI: f64 = 3.01029995663611771306e-01; // 0x3FD34413, 0x509F6000
    const LOG10_2LO: f64 = 3.69423907715893078616e-13; // 0x3D59FEF3, 0x11F12B36

    let mut x = x;
    let mut hx = high_word(x) as i32;
    let mut lx = low_word(x);

    let mut k: i32 = 0;
    if hx < 0x00100000 {
        // x < 2^-1022
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY; // log(±0) = −∞
        }
        if hx < 0 {
            return f64::NAN; // log(−#) = NaN
        }
        // A subnormal number: scale x up.
        k -= 54;
        x *= TWO54;
        hx = high_word(x) as i32;
        lx = low_word(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0; // log(1) = +0
    }
    k += (hx >> 20) - 1023;

    let i = ((k as u32) & 0x80000000) >> 31;
    hx = (hx & 0x000FFFFF) | ((0x3FF - i as i32) << 20);
    let y = f64::from(k + i as i32);
    x = with_high_word(x, hx as u32);
    x = with_low_word(x, lx);

    let z = y * LOG10_2LO + IVLN10 * log(x);
    z + y * LOG10_2HI
}
