//! JavaScript string contents: UTF-16 semantics, stored Latin-1 when every unit fits a byte.
//!
//! Invariant: a [`JsStr`] is `Latin1` whenever all its code units are below 256, so the derived
//! equality and hashing compare contents. Lone surrogates are legal, as in JS.

use serde::{Deserialize, Serialize};

/// Immutable string contents.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum JsStr {
    Latin1(Box<[u8]>),
    Utf16(Box<[u16]>),
}

impl JsStr {
    pub fn empty() -> JsStr {
        JsStr::Latin1(Box::new([]))
    }

    /// From Rust text (UTF-8).
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(s: &str) -> JsStr {
        if s.is_ascii() {
            return JsStr::Latin1(s.as_bytes().into());
        }
        JsStr::from_units(s.encode_utf16().collect())
    }

    /// From UTF-16 code units, narrowed to Latin-1 when possible.
    pub fn from_units(units: Vec<u16>) -> JsStr {
        if units.iter().all(|&u| u < 256) {
            JsStr::Latin1(units.iter().map(|&u| u as u8).collect())
        } else {
            JsStr::Utf16(units.into())
        }
    }

    pub fn from_latin1(bytes: Vec<u8>) -> JsStr {
        JsStr::Latin1(bytes.into())
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            JsStr::Latin1(b) => b.len(),
            JsStr::Utf16(u) => u.len(),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code unit at `i` (caller checks bounds).
    #[inline]
    pub fn unit(&self, i: usize) -> u16 {
        match self {
            JsStr::Latin1(b) => b[i] as u16,
            JsStr::Utf16(u) => u[i],
        }
    }

    /// The code units as a vector.
    pub fn units(&self) -> Vec<u16> {
        match self {
            JsStr::Latin1(b) => b.iter().map(|&c| c as u16).collect(),
            JsStr::Utf16(u) => u.to_vec(),
        }
    }

    /// Iterate over code units.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        let (a, b) = match self {
            JsStr::Latin1(b) => (Some(b.iter().map(|&c| c as u16)), None),
            JsStr::Utf16(u) => (None, Some(u.iter().copied())),
        };
        a.into_iter().flatten().chain(b.into_iter().flatten())
    }

    /// Rust text; lone surrogates become U+FFFD.
    pub fn to_rust_string(&self) -> String {
        match self {
            JsStr::Latin1(b) => b.iter().map(|&c| c as char).collect(),
            JsStr::Utf16(u) => String::from_utf16_lossy(u),
        }
    }

    /// Substring by code-unit range (caller checks bounds).
    pub fn slice(&self, start: usize, end: usize) -> JsStr {
        match self {
            JsStr::Latin1(b) => JsStr::Latin1(b[start..end].into()),
            JsStr::Utf16(u) => JsStr::from_units(u[start..end].to_vec()),
        }
    }

    /// Concatenation.
    pub fn concat(&self, other: &JsStr) -> JsStr {
        match (self, other) {
            (JsStr::Latin1(a), JsStr::Latin1(b)) => {
                let mut v = Vec::with_capacity(a.len() + b.len());
                v.extend_from_slice(a);
                v.extend_from_slice(b);
                JsStr::Latin1(v.into())
            }
            _ => {
                let mut v = self.units();
                v.extend(other.iter());
                JsStr::Utf16(v.into())
            }
        }
    }

    /// Is this the canonical form of an array index (0 ..= 2^32 - 2)?
    pub fn as_array_index(&self) -> Option<u32> {
        let JsStr::Latin1(b) = self else { return None };
        if b.is_empty() || b.len() > 10 || (b.len() > 1 && b[0] == b'0') {
            return None;
        }
        let mut n: u64 = 0;
        for &c in b.iter() {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + (c - b'0') as u64;
        }
        if n < u32::MAX as u64 {
            Some(n as u32)
        } else {
            None
        }
    }

    /// Position of `needle` at or after `from`.
    pub fn find(&self, needle: &JsStr, from: usize) -> Option<usize> {
        let n = needle.len();
        let len = self.len();
        if n == 0 {
            return if from <= len { Some(from) } else { None };
        }
        if n > len {
            return None;
        }
        if let (JsStr::Latin1(h), JsStr::Latin1(nd)) = (self, needle) {
            return h[from.min(len)..].windows(n).position(|w| w == &nd[..]).map(|p| p + from);
        }
        let (h, nd) = (self.units(), needle.units());
        (from..=len - n).find(|&i| h[i..i + n] == nd[..])
    }

    /// Last position of `needle` at or before `from`.
    pub fn rfind(&self, needle: &JsStr, from: usize) -> Option<usize> {
        let n = needle.len();
        let len = self.len();
        if n > len {
            return None;
        }
        let start = from.min(len - n);
        let (h, nd) = (self.units(), needle.units());
        (0..=start).rev().find(|&i| h[i..i + n] == nd[..])
    }
}

impl std::fmt::Debug for JsStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_rust_string())
    }
}

impl From<&str> for JsStr {
    fn from(s: &str) -> Self {
        JsStr::from_str(s)
    }
}

/// Builds a string from pieces of others in its narrowest form: Latin-1 until a piece holds a
/// wider unit, with one allocation of the final size when the caller knows it. Builtins that
/// splice strings (`replace`) use it instead of a `Vec<u16>` that is narrowed afterwards: that
/// way a result costs its own size once, not twice and a half, and leaves no transient buffer
/// whose hole later strings cannot reuse (docs/limits.md).
pub struct StrBuilder {
    latin1: Vec<u8>,
    /// Set (and `latin1` emptied into it) once a unit over 0xFF arrives.
    wide: Option<Vec<u16>>,
}

impl StrBuilder {
    pub fn with_capacity(units: usize) -> StrBuilder {
        StrBuilder { latin1: Vec::with_capacity(units), wide: None }
    }

    pub fn len(&self) -> usize {
        self.wide.as_ref().map_or(self.latin1.len(), Vec::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn widen(&mut self, extra: usize) -> &mut Vec<u16> {
        if self.wide.is_none() {
            let mut wide = Vec::with_capacity(self.latin1.capacity().max(self.latin1.len() + extra));
            wide.extend(self.latin1.iter().map(|&c| c as u16));
            self.latin1 = Vec::new();
            self.wide = Some(wide);
        }
        self.wide.as_mut().expect("just set")
    }

    /// Appends units `from..to` of `s` (caller checks bounds).
    pub fn push_range(&mut self, s: &JsStr, from: usize, to: usize) {
        match (s, self.wide.is_some()) {
            (JsStr::Latin1(b), false) => self.latin1.extend_from_slice(&b[from..to]),
            (JsStr::Latin1(b), true) => self.widen(0).extend(b[from..to].iter().map(|&c| c as u16)),
            (JsStr::Utf16(u), _) => {
                let part = &u[from..to];
                if self.wide.is_none() && part.iter().all(|&c| c < 256) {
                    self.latin1.extend(part.iter().map(|&c| c as u8));
                } else {
                    self.widen(part.len()).extend_from_slice(part);
                }
            }
        }
    }

    /// Appends all of `s`.
    pub fn push_str(&mut self, s: &JsStr) {
        self.push_range(s, 0, s.len());
    }

    pub fn finish(self) -> JsStr {
        match self.wide {
            Some(wide) => JsStr::Utf16(wide.into()),
            None => JsStr::Latin1(self.latin1.into()),
        }
    }
}

/// Is `c` JS WhiteSpace or LineTerminator (for trim and Number parsing)?
pub fn is_js_whitespace(c: u16) -> bool {
    matches!(
        c,
        0x09 | 0x0A | 0x0B | 0x0C | 0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000
            ..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrows_to_latin1() {
        assert!(matches!(JsStr::from_units(vec![104, 233]), JsStr::Latin1(_)));
        assert!(matches!(JsStr::from_str("héllo"), JsStr::Latin1(_)));
        assert!(matches!(JsStr::from_str("日本"), JsStr::Utf16(_)));
        assert_eq!(JsStr::from_str("ab").concat(&JsStr::from_str("日")).len(), 3);
    }

    #[test]
    fn array_index_is_canonical() {
        assert_eq!(JsStr::from_str("0").as_array_index(), Some(0));
        assert_eq!(JsStr::from_str("4294967294").as_array_index(), Some(4294967294));
        assert_eq!(JsStr::from_str("4294967295").as_array_index(), None);
        assert_eq!(JsStr::from_str("01").as_array_index(), None);
        assert_eq!(JsStr::from_str("").as_array_index(), None);
    }

    #[test]
    fn builder_stays_narrow_until_a_wide_unit() {
        let narrow = JsStr::from_str("héllo");
        let wide = JsStr::from_units(vec![0x65E5, 0x41, 0xE9]);
        let mut b = StrBuilder::with_capacity(4);
        b.push_range(&narrow, 1, 3);
        b.push_range(&wide, 1, 3); // UTF-16 storage, Latin-1 units
        assert!(b.wide.is_none());
        assert_eq!(b.len(), 4);
        b.push_str(&wide);
        b.push_range(&narrow, 0, 1);
        let s = b.finish();
        assert!(matches!(s, JsStr::Utf16(_)));
        assert_eq!(s.to_rust_string(), "élAé日Aéh");
        assert!(matches!(StrBuilder::with_capacity(0).finish(), JsStr::Latin1(_)));
    }
}
