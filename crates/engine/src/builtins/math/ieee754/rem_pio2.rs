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

//! Argument reduction for the trigonometric functions: x − n·π/2 as a double-double, from
//! fdlibm's `__ieee754_rem_pio2` and `__kernel_rem_pio2` (Payne–Hanek for huge arguments).

use super::{from_words, high_word, low_word};

/// 2/π as 24-bit chunks, 396 hex digits (fdlibm's `two_over_pi`).
const TWO_OVER_PI: [i32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E,
    0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
];

/// High words of n·π/2 for n = 1..=32: an argument whose high word equals one of these may
/// cancel badly in the quick reduction.
const NPIO2_HW: [i32; 32] = [
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB, 0x402C463A,
    0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
    0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC,
    0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
];

const HALF: f64 = 5.00000000000000000000e-01; // 0x3FE00000, 0x00000000
const TWO24: f64 = 1.67772160000000000000e+07; // 0x41700000, 0x00000000
const TWON24: f64 = 5.96046447753906250000e-08; // 0x3E700000, 0x00000000
/// 53 bits of 2/π.
const INVPIO2: f64 = 6.36619772367581382433e-01; // 0x3FE45F30, 0x6DC9C883
/// The first 33 bits of π/2.
const PIO2_1: f64 = 1.57079632673412561417e+00; // 0x3FF921FB, 0x54400000
/// π/2 − PIO2_1.
const PIO2_1T: f64 = 6.07710050650619224932e-11; // 0x3DD0B461, 0x1A626331
/// The second 33 bits of π/2.
const PIO2_2: f64 = 6.07710050630396597660e-11; // 0x3DD0B461, 0x1A600000
/// π/2 − (PIO2_1 + PIO2_2).
const PIO2_2T: f64 = 2.02226624879595063154e-21; // 0x3BA3198A, 0x2E037073
/// The third 33 bits of π/2.
const PIO2_3: f64 = 2.02226624871116645580e-21; // 0x3BA3198A, 0x2E000000
/// π/2 − (PIO2_1 + PIO2_2 + PIO2_3).
const PIO2_3T: f64 = 8.47842766036889956997e-32; // 0x397B839A, 0x252049C1

/// `__ieee754_rem_pio2(x, y)`: returns (n, y0, y1) with y0 + y1 = x − n·π/2 and
/// |y0 + y1| ≤ π/4 (n is exact modulo 8 for huge x, which is all the callers use).
pub(super) fn rem_pio2(x: f64) -> (i32, f64, f64) {
    let hx = high_word(x) as i32;
    let ix = hx & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        // |x| ~<= π/4: no reduction needed.
        return (0, x, 0.0);
    }
    if ix < 0x4002D97C {
        // |x| < 3π/4: the special case n = ±1.
        return if hx > 0 {
            let mut z = x - PIO2_1;
            if ix != 0x3FF921FB {
                // 33 + 53 bits of π are good enough.
                let y0 = z - PIO2_1T;
                (1, y0, (z - y0) - PIO2_1T)
            } else {
                // Near π/2: use 33 + 33 + 53 bits of π.
                z -= PIO2_2;
                let y0 = z - PIO2_2T;
                (1, y0, (z - y0) - PIO2_2T)
            }
        } else {
            let mut z = x + PIO2_1;
            if ix != 0x3FF921FB {
                let y0 = z + PIO2_1T;
                (-1, y0, (z - y0) + PIO2_1T)
            } else {
                z += PIO2_2;
                let y0 = z + PIO2_2T;
                (-1, y0, (z - y0) + PIO2_2T)
            }
        };
    }
    if ix <= 0x413921FB {
        // |x| ~<= 2^19·(π/2), medium size.
        let t = x.abs();
        let n = (t * INVPIO2 + HALF) as i32;
        let fn_ = f64::from(n);
        let mut r = t - fn_ * PIO2_1;
        // The first round is good to 85 bits.
        let mut w = fn_ * PIO2_1T;
        let mut y0;
        if n < 32 && ix != NPIO2_HW[(n - 1) as usize] {
            // Quick check: no cancellation.
            y0 = r - w;
        } else {
            let j = ix >> 20;
            y0 = r - w;
            let mut i = j - ((high_word(y0) >> 20) & 0x7FF) as i32;
            if i > 16 {
                // A second iteration, good to 118 bits.
                let t = r;
                w = fn_ * PIO2_2;
                r = t - w;
                w = fn_ * PIO2_2T - ((t - r) - w);
                y0 = r - w;
                i = j - ((high_word(y0) >> 20) & 0x7FF) as i32;
                if i > 49 {
                    // A third iteration, 151 bits: covers every case.
                    let t = r;
                    w = fn_ * PIO2_3;
                    r = t - w;
                    w = fn_ * PIO2_3T - ((t - r) - w);
                    y0 = r - w;
                }
            }
        }
        let y1 = (r - y0) - w;
        return if hx < 0 { (-n, -y0, -y1) } else { (n, y0, y1) };
    }
    if ix >= 0x7FF00000 {
        // x is ±∞ or NaN: NaN (fdlibm's x − x).
        return (0, f64::NAN, f64::NAN);
    }
    // All other (large) arguments: z = scalbn(|x|, ilogb(x) − 23), cut into three 24-bit
    // pieces.
    let e0 = (ix >> 20) - 1046;
    let mut z = from_words((ix - ((e0 as u32) << 20) as i32) as u32, low_word(x));
    let mut tx = [0.0f64; 3];
    for piece in tx.iter_mut().take(2) {
        *piece = f64::from(z as i32);
        z = (z - *piece) * TWO24;
    }
    tx[2] = z;
    let mut nx = 3;
    // Skip zero terms.
    while tx[nx - 1] == 0.0 {
        nx -= 1;
    }
    let (n, y0, y1) = kernel_rem_pio2(&tx[..nx], e0);
    if hx < 0 {
        (-n, -y0, -y1)
    } else {
        (n, y0, y1)
    }
}

/// π/2 cut into 24-bit chunks (fdlibm's `PIo2`).
const PIO2: [f64; 8] = [
    1.57079625129699707031e+00, // 0x3FF921FB, 0x40000000
    7.54978941586159635335e-08, // 0x3E74442D, 0x00000000
    5.39030252995776476554e-15, // 0x3CF84698, 0x80000000
    3.28200341580791294123e-22, // 0x3B78CC51, 0x60000000
    1.27065575308067607349e-29, // 0x39F01B83, 0x80000000
    1.22933308981111328932e-36, // 0x387A2520, 0x40000000
    2.73370053816464559624e-44, // 0x36E38222, 0x80000000
    2.16741683877804819444e-51, // 0x3569F31D, 0x00000000
];

/// `__kernel_rem_pio2(x, y, e0, nx, prec = 2, two_over_pi)`: the remainder of a huge
/// argument, given as 24-bit pieces `x` scaled by 2^e0, modulo π/2, as (n mod 8, y0, y1).
///
/// fdlibm's routine serves four precisions; `rem_pio2` (the only caller, in fdlibm and V8
/// alike) asks for 53 bits (`prec = 2`), so the precision-dependent steps are written for it:
/// `jk` (the initial number of terms of 2/π, less one) is 4, and the result is two doubles.
fn kernel_rem_pio2(x: &[f64], e0: i32) -> (i32, f64, f64) {
    let jk: usize = 4;
    let jp = jk;
    let mut iq = [0i32; 20];
    let mut f = [0.0f64; 20];
    let mut fq = [0.0f64; 20];
    let mut q = [0.0f64; 20];

    // Determine jx, jv, q0; note that 3 > q0.
    let jx = x.len() - 1;
    let jv = ((e0 - 3) / 24).max(0);
    let mut q0 = e0 - 24 * (jv + 1);

    // Set up f[0] to f[jx + jk] where f[jx + jk] = two_over_pi[jv + jk].
    for (slot, j) in f.iter_mut().take(jx + jk + 1).zip(jv - jx as i32..) {
        *slot = if j < 0 { 0.0 } else { f64::from(TWO_OVER_PI[j as usize]) };
    }

    // Compute q[0], q[1], … q[jk].
    for i in 0..=jk {
        let mut fw = 0.0;
        for j in 0..=jx {
            fw += x[j] * f[jx + i - j];
        }
        q[i] = fw;
    }

    let mut jz = jk;
    let (mut z, mut n, ih) = loop {
        // Distill q[] into iq[] reversingly.
        let mut z = q[jz];
        for (i, j) in (1..=jz).rev().enumerate() {
            let fw = f64::from((TWON24 * z) as i32);
            iq[i] = (z - TWO24 * fw) as i32;
            z = q[j - 1] + fw;
        }

        // Compute n.
        z = libm::scalbn(z, q0); // the actual value of z
        z -= 8.0 * libm::floor(z * 0.125); // trim off the integer part ≥ 8
        let mut n = z as i32;
        z -= f64::from(n);
        let mut ih = 0;
        if q0 > 0 {
            // iq[jz − 1] is needed to determine n.
            let i = iq[jz - 1] >> (24 - q0);
            n += i;
            iq[jz - 1] -= i << (24 - q0);
            ih = iq[jz - 1] >> (23 - q0);
        } else if q0 == 0 {
            ih = iq[jz - 1] >> 23;
        } else if z >= 0.5 {
            ih = 2;
        }

        if ih > 0 {
            // q > 0.5: compute 1 − q.
            n += 1;
            let mut carry = 0;
            for digit in iq.iter_mut().take(jz) {
                let j = *digit;
                if carry == 0 {
                    if j != 0 {
                        carry = 1;
                        *digit = 0x1000000 - j;
                    }
                } else {
                    *digit = 0xFFFFFF - j;
                }
            }
            if q0 > 0 {
                // A rare case: the chance is 1 in 12.
                match q0 {
                    1 => iq[jz - 1] &= 0x7FFFFF,
                    2 => iq[jz - 1] &= 0x3FFFFF,
                    _ => {}
                }
            }
            if ih == 2 {
                z = 1.0 - z;
                if carry != 0 {
                    z -= libm::scalbn(1.0, q0);
                }
            }
        }

        // Check whether recomputation is needed.
        if z == 0.0 {
            let j = iq[jk..jz].iter().fold(0, |acc, &d| acc | d);
            if j == 0 {
                // k = the number of terms needed. (fdlibm tests iq[jk − k], not iq[jz − k];
                // V8 keeps that, and so does this port.)
                let mut k = 1;
                while jk >= k && iq[jk - k] == 0 {
                    k += 1;
                }
                // Add q[jz + 1] to q[jz + k].
                for i in jz + 1..=jz + k {
                    f[jx + i] = f64::from(TWO_OVER_PI[jv as usize + i]);
                    let mut fw = 0.0;
                    for j in 0..=jx {
                        fw += x[j] * f[jx + i - j];
                    }
                    q[i] = fw;
                }
                jz += k;
                continue;
            }
        }
        break (z, n, ih);
    };

    // Chop off zero terms.
    if z == 0.0 {
        jz -= 1;
        q0 -= 24;
        while iq[jz] == 0 {
            jz -= 1;
            q0 -= 24;
        }
    } else {
        // Break z into 24-bit pieces if necessary.
        z = libm::scalbn(z, -q0);
        if z >= TWO24 {
            let fw = f64::from((TWON24 * z) as i32);
            iq[jz] = (z - TWO24 * fw) as i32;
            jz += 1;
            q0 += 24;
            iq[jz] = fw as i32;
        } else {
            iq[jz] = z as i32;
        }
    }

    // Convert the integer "bit" chunks to floating-point values.
    let mut fw = libm::scalbn(1.0, q0);
    for i in (0..=jz).rev() {
        q[i] = fw * f64::from(iq[i]);
        fw *= TWON24;
    }

    // Compute PIO2[0, …, jp] · q[jz, …, 0].
    for i in (0..=jz).rev() {
        let mut fw = 0.0;
        let mut k = 0;
        while k <= jp && k <= jz - i {
            fw += PIO2[k] * q[i + k];
            k += 1;
        }
        fq[jz - i] = fw;
    }

    // Compress fq[] into y[] (the 53- and 64-bit case).
    let mut fw = 0.0;
    for i in (0..=jz).rev() {
        fw += fq[i];
    }
    let y0 = if ih == 0 { fw } else { -fw };
    fw = fq[0] - fw;
    for v in &fq[1..=jz] {
        fw += v;
    }
    let y1 = if ih == 0 { fw } else { -fw };
    n &= 7;
    (n, y0, y1)
}
