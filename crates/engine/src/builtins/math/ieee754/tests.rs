//! Known results: each expected value is what Node 20 (V8 11.3) prints for the input, as
//! bits. Most are inputs where the `libm` crate (musl) answers differently in the last bit,
//! so a regression to musl's algorithms fails here.

use super::*;

type Unary = (&'static str, fn(f64) -> f64, u64, u64);
type Binary = (&'static str, fn(f64, f64) -> f64, u64, u64, u64);

/// (function, input bits, Node's result bits).
const UNARY: &[Unary] = &[
    ("acos", acos, 0x3fe6666666666666, 0x3fe973e83f5d5c9b),
    ("acosh", acosh, 0x4036000000000001, 0x400e44f631dee729),
    ("acosh", acosh, 0x4041acdd632f662b, 0x401108754050bee1),
    ("asin", asin, 0x3fe6666666666666, 0x3fe8d00e692afd95),
    ("asinh", asinh, 0x3e3fffffffffffff, 0x3e3ffffffffffffe),
    ("asinh", asinh, 0xc028f40b5ed9812d, 0xc009bfb5a234b0a8),
    ("atan", atan, 0x4008000000000000, 0x3ff3fc176b7a8560),
    ("atanh", atanh, 0x3e2fffffffffffff, 0x3e2fffffffffffff),
    ("cbrt", cbrt, 0x4023ffffffffffff, 0x40013c484138704e),
    ("cbrt", cbrt, 0x4035ffffffffffff, 0x40066a9398ba2a3a),
    ("cos", cos, 0x7fe0000000000000, 0xbfea719f26c232be),
    ("cos", cos, 0x3fb999999999999a, 0x3fefd712f9a817c0),
    ("cos", cos, 0x4480f0cf064dd592, 0x3fe0be2cef01c8f4), // 1e22
    ("cosh", cosh, 0x3ff0000000000000, 0x3ff8b07551d9f550),
    ("cosh", cosh, 0xbff0000000000000, 0x3ff8b07551d9f550),
    ("exp", exp, 0x3ff0000000000000, 0x4005bf0a8b145769), // exp(1) is Math.E
    ("expm1", expm1, 0x40862d999999999a, 0x7fed75ae7a50ee14), // k = 1024
    ("expm1", expm1, 0x3ddb7cdfd9d7bdbb, 0x3ddb7cdfd9dda4e3),
    ("expm1", expm1, 0xc044000000000000, 0xbff0000000000000),
    ("log", log, 0x3fd3333333333332, 0xbff34378fcbda721),
    ("log", log, 0x3fe9000000000000, 0xbfcf991c6cb3b379),
    ("log10", log10, 0x3fefffffffffffff, 0xbc8bcb7b1526e50e),
    ("log10", log10, 0x3fd62e42fefa39f0, 0xbfdd73fdb86a2a42),
    ("log1p", log1p, 0x3fdd150d47a637b8, 0x3fd7f9735870b196),
    ("log1p", log1p, 0x3fdb7c7ca8380554, 0x3fd6de1991a800a0),
    ("log2", log2, 0x4008000000000000, 0x3ff95c01a39fbd68),
    ("sin", sin, 0x7e6fffffffffffff, 0x3fe94a4428350168),
    ("sin", sin, 0x4043687a9f1af2b2, 0x3fecc3599f1f5b82),
    ("sin", sin, 0x4480f0cf064dd592, 0xbfeb453ab76bf397), // 1e22
    ("sinh", sinh, 0x3e3fffffffffffff, 0x3e40000000000000),
    ("sinh", sinh, 0x40862e42fefa39f0, 0x7fe0000000000196),
    ("tan", tan, 0x4480f0cf064dd592, 0xbffa0f79c1b6b258), // 1e22
    ("tan", tan, 0x3ff921fb54442d18, 0x434d02967c31cdb5), // π/2
    ("tanh", tanh, 0x3c90000000000001, 0x3c90000000000001),
    ("tanh", tanh, 0x3fd62e42fefa39f0, 0x3fd5555555555555),
];

/// (function, x bits, y bits, Node's result bits).
const BINARY: &[Binary] = &[
    ("atan2", atan2, 0x40346b9c347764a3, 0xbc3d82608c54e291, 0x3ff921fb54442d18),
    ("atan2", atan2, 0xc2123a6b7bc03870, 0xbe18541c9b7f5276, 0xbff921fb54442d18),
    ("pow", pow, 0x4024000000000000, 0xc014000000000000, 0x3ee4f8b588e368f0), // 10 ** -5
    ("pow", pow, 0xc042b708872320e1, 0xc051000000000000, 0x29b8a77b87eb9162),
    ("pow", pow, 0xc03fe2804e87b348, 0x4052800000000000, 0x570880b5c29964f8),
    ("pow", pow, 0xc00921fb54442d17, 0xc047800000000000, 0xbb14d11f03749247),
    ("pow", pow, 0x4000000000000000, 0xc090c80000000000, 0x0000000000000001), // 2 ** -1074
];

#[test]
fn results_equal_node() {
    for &(name, f, x, want) in UNARY {
        let got = f(f64::from_bits(x)).to_bits();
        assert_eq!(
            got,
            want,
            "{name}({:e}) = {:e}, Node has {:e}",
            f64::from_bits(x),
            f64::from_bits(got),
            f64::from_bits(want)
        );
    }
    for &(name, f, x, y, want) in BINARY {
        let (x, y) = (f64::from_bits(x), f64::from_bits(y));
        let got = f(x, y).to_bits();
        assert_eq!(got, want, "{name}({x:e}, {y:e}) = {:e}, Node has {:e}", f64::from_bits(got), f64::from_bits(want));
    }
}

#[test]
fn special_values_follow_ecmascript() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    // Number::exponentiate: NaN exponents, (±1)^±∞ and x^±0.
    assert!(pow(1.0, nan).is_nan());
    assert!(pow(-1.0, inf).is_nan());
    assert!(pow(1.0, -inf).is_nan());
    assert_eq!(pow(nan, 0.0), 1.0);
    assert_eq!(pow(nan, -0.0), 1.0);
    // Signed zeros and infinities by the parity of an integer exponent.
    assert_eq!(pow(-0.0, -3.0), f64::NEG_INFINITY);
    assert_eq!(pow(-0.0, -2.0), inf);
    assert_eq!(pow(-0.0, 3.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(pow(f64::NEG_INFINITY, 3.0), f64::NEG_INFINITY);
    assert_eq!(pow(f64::NEG_INFINITY, 0.5), inf);
    assert_eq!(pow(-0.0, 0.5).to_bits(), 0.0f64.to_bits());
    assert!(pow(-8.0, 1.0 / 3.0).is_nan());
    // The other functions at their edges.
    assert_eq!(atan2(0.0, -0.0), std::f64::consts::PI);
    assert_eq!(atan2(-0.0, -0.0), -std::f64::consts::PI);
    assert_eq!(atan2(-0.0, 1.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(atan2(inf, -inf), 3.0 * std::f64::consts::FRAC_PI_4);
    assert!(sin(inf).is_nan() && cos(-inf).is_nan() && tan(nan).is_nan());
    assert_eq!(sin(-0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(exp(f64::NEG_INFINITY), 0.0);
    assert_eq!(exp(710.0), inf);
    assert_eq!(expm1(f64::NEG_INFINITY), -1.0);
    assert_eq!(log(0.0), f64::NEG_INFINITY);
    assert!(log(-1.0).is_nan() && log2(-0.5).is_nan() && log10(-5e-324).is_nan());
    assert_eq!(log1p(-1.0), f64::NEG_INFINITY);
    assert_eq!(log10(1e22), 22.0);
    assert_eq!(cbrt(-27.0), -3.0);
    assert_eq!(cbrt(-0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(cosh(-inf), inf);
    assert_eq!(sinh(-inf), -inf);
    assert_eq!(tanh(-inf), -1.0);
    assert_eq!(atanh(-1.0), -inf);
    assert!(atanh(1.5).is_nan() && acosh(0.5).is_nan() && asin(1.5).is_nan() && acos(-1.5).is_nan());
    assert_eq!(acosh(1.0), 0.0);
    assert_eq!(asinh(-inf), -inf);
}

/// Every decimal constant whose comment gives its bits (`// 0x3FF00000, 0x00000000`, with or
/// without `0x`) parses to exactly those bits, so the transcription from fdlibm is checked
/// for constants on rarely taken paths too.
#[test]
fn constants_have_their_commented_bits() {
    let sources = [
        include_str!("cbrt.rs"),
        include_str!("exp.rs"),
        include_str!("hyperbolic.rs"),
        include_str!("inverse_trig.rs"),
        include_str!("log.rs"),
        include_str!("pow.rs"),
        include_str!("rem_pio2.rs"),
        include_str!("trig.rs"),
    ];
    let mut checked = 0;
    for source in sources {
        for line in source.lines() {
            let Some((code, comment)) = line.split_once("//") else { continue };
            let words: Vec<u32> = comment
                .split([' ', ','])
                .map(|t| t.strip_prefix("0x").unwrap_or(t))
                .filter(|t| t.len() == 8)
                .filter_map(|t| u32::from_str_radix(t, 16).ok())
                .collect();
            if words.len() != 2 {
                continue;
            }
            let literal = code.trim().trim_end_matches([',', ';', ']']).rsplit([' ', '[']).next().unwrap_or("");
            let value: f64 = literal.parse().unwrap_or_else(|_| panic!("no float literal in {line:?}"));
            assert_eq!(value.to_bits(), from_words(words[0], words[1]).to_bits(), "{line}");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} constants found");
}
