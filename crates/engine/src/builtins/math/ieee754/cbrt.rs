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

//! `cbrt` (FreeBSD msun's s_cbrt.c, as V8 has it).

use super::{from_words, high_word, low_word};

/// `cbrt(x)`: a 5-bit estimate from the exponent bits, a polynomial step to 23 bits, a
/// rounding to 23 bits away from zero, then one Newton step to 53 bits (error < 0.667 ulps).
pub(crate) fn cbrt(x: f64) -> f64 {
    const B1: u32 = 715094163; // B1 = (1023 − 1023/3 − 0.03306235651)·2^20
    const B2: u32 = 696219795; // B2 = (1023 − 1023/3 − 54/3 − 0.03306235651)·2^20

    // |1/cbrt(x) − p(x)| < 2^-23.5 (~[-7.93e-8, 7.929e-8]).
    const P0: f64 = 1.87595182427177009643; // 0x3FFE03E6, 0x0F61E692
    const P1: f64 = -1.88497979543377169875; // 0xBFFE28E0, 0x92F02420
    const P2: f64 = 1.621429720105354466140; // 0x3FF9F160, 0x4A49D6C2
    const P3: f64 = -0.758397934778766047437; // 0xBFE844CB, 0xBEE751D9
    const P4: f64 = 0.145996192886612446982; // 0x3FC2B000, 0xD4E4EDD7

    let mut hx = high_word(x);
    let low = low_word(x);
    let sign = hx & 0x80000000; // sign = sign(x)
    hx ^= sign;
    if hx >= 0x7FF00000 {
        return x + x; // cbrt(NaN, ±∞) is itself
    }

    // A rough cbrt to 5 bits: cbrt(2^e·(1 + m)) ~= 2^(e/3)·(1 + (e%3 + m)/3), where e is
    // integral and >= 0, m is real and in [0, 1), and "/" and "%" round towards −∞. The right
    // side is always >= the left and has a relative error of about 1 in 16; a bias of
    // −0.03306235651 on the (e%3 + m)/3 term brings that to about 1 in 32. With the IEEE
    // representation, integer division of the bits of a finite positive normal value gives
    // almost exactly the right side, if the exponent bias is subtracted first and added back
    // later (done virtually, in B1 and B2, so that e >= 0 and division rounds towards −∞).
    let mut t;
    if hx < 0x00100000 {
        // Zero or subnormal.
        if (hx | low) == 0 {
            return x; // cbrt(±0) is itself
        }
        t = from_words(0x43500000, 0); // 2^54
        t *= x;
        let high = high_word(t);
        t = from_words(sign | ((high & 0x7FFFFFFF) / 3 + B2), 0);
    } else {
        t = from_words(sign | (hx / 3 + B1), 0);
    }

    // A new cbrt to 23 bits: cbrt(x) = t·cbrt(x/t³) ~= t·P(t³/x), where P(r) is a degree-4
    // polynomial approximating 1/cbrt(r) to within 2^-23.5 when |r − 1| < 1/10. The rough
    // estimate has |t/cbrt(x) − 1| ~< 1/32, and cubing bounds r = t³/x. (Written for
    // parallel evaluation, as in FreeBSD's k_tanf.c.)
    let mut r = (t * t) * (t / x);
    t *= (P0 + r * (P1 + r * P2)) + ((r * r) * r) * (P3 + r * P4);

    // Round t away from zero to 23 bits (sloppily, but ensuring the result is larger in
    // magnitude than cbrt(x) and not much more than 2 23-bit ulps larger). Rounding towards
    // zero would make the error bound ~5/6 instead of ~4/6.
    t = f64::from_bits((t.to_bits().wrapping_add(0x80000000)) & 0xFFFFFFFFC0000000);

    // One Newton step to 53 bits, with an error below 0.667 ulps.
    let s = t * t; // t·t is exact
    r = x / s; // error <= 0.5 ulps; |r| < |t|
    let w = t + t; // t + t is exact
    r = (r - t) / (w + r); // r − t is exact; w + r ~= 3·t
    t + t * r // error <= 0.5 + 0.5/3 + epsilon
}
