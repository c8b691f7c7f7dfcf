//! Collation for String.prototype.localeCompare: an approximation of ICU's root collation.

use super::*;

// ---- collation for localeCompare

/// Punctuation and symbols in CLDR root order (all sort before digits and letters); others
/// follow by code point.
const PUNCTUATION_ORDER: &str = "_-‐‑‒–—―,;:!¡?¿.…·'‘’‚‹›\"“”„«»()[]{}§¶@*/\\&#%‰†‡•`´˜^¯¨°©®+±÷×<=>¬|¦~¤¢$£¥€";

/// Primary weight groups, in CLDR root order.
const GROUP_WHITESPACE: u32 = 1 << 24;
const GROUP_PUNCTUATION: u32 = 2 << 24;
const GROUP_DIGIT: u32 = 3 << 24;
const GROUP_LETTER: u32 = 4 << 24;

/// Secondary weights: a base character's own, the stroke of ø/ł/đ…, and the marker that
/// follows the first letter of an expansion (æ = a·e, ß = s·s), above every accent.
const SECONDARY_COMMON: u32 = 1;
const SECONDARY_STROKE: u32 = 12;
const SECONDARY_EXPANSION: u32 = 0x1000;

/// The three weight levels of a string, each flattened as in a UCA sort key.
#[derive(Default)]
struct SortKey {
    primary: Vec<u32>,
    secondary: Vec<u32>,
    tertiary: Vec<u8>,
}

impl SortKey {
    fn push(&mut self, primary: u32, secondary: u32, tertiary: u8) {
        if primary != 0 {
            self.primary.push(primary);
        }
        self.secondary.push(secondary);
        self.tertiary.push(tertiary);
    }
}

/// An approximation of the CLDR root collation (what Node's ICU uses for localeCompare
/// without a locale): whitespace < punctuation < symbols < digits < letters; letters compare
/// by base letter first, then accents (in DUCET order), then case (lowercase first);
/// canonically equivalent strings compare equal and control characters are ignored.
pub(crate) fn collate(a: &JsStr, b: &JsStr) -> std::cmp::Ordering {
    // Fast path: identical contents.
    if a == b {
        return std::cmp::Ordering::Equal;
    }
    let (ka, kb) = (sort_key(a), sort_key(b));
    ka.primary
        .cmp(&kb.primary)
        .then_with(|| ka.secondary.cmp(&kb.secondary))
        .then_with(|| ka.tertiary.cmp(&kb.tertiary))
}

fn sort_key(s: &JsStr) -> SortKey {
    // Unpaired surrogates are not characters: like unassigned code points they sort after
    // everything else (marked here as None).
    let mut chars: Vec<Option<char>> = Vec::with_capacity(s.len());
    let mut k = 0;
    while k < s.len() {
        let (cp, count, unpaired) = code_point_at_index(s, k);
        chars.push(char::from_u32(cp).filter(|_| !unpaired));
        k += count;
    }
    // Compatibility variants (ﬁ, ², ǅ …) sort as their decomposition, a tertiary step after.
    let mut decomposed: Vec<(Option<char>, u8)> = Vec::with_capacity(chars.len());
    for c in chars {
        let Some(c) = c else {
            decomposed.push((None, 0));
            continue;
        };
        let canonical: String = std::iter::once(c).nfd().collect();
        let compatible: String = std::iter::once(c).nfkd().collect();
        let variant = if canonical == compatible { 0 } else { 2 };
        decomposed.extend(compatible.chars().map(|d| (Some(d), variant)));
    }
    let mut key = SortKey::default();
    for (c, variant) in decomposed {
        let Some(c) = c else {
            key.push(u32::MAX, SECONDARY_COMMON, 0);
            continue;
        };
        let cp = u32::from(c);
        let tertiary = u8::from(c.is_uppercase()) + variant;
        // Combining marks carry only a secondary weight.
        if let Some(w) = mark_weight(cp) {
            key.push(0, w, 0);
            continue;
        }
        // Control and format characters are completely ignorable.
        if (cp < 0x20 && !(0x09..=0x0D).contains(&cp))
            || (0x7F..0xA0).contains(&cp)
            || matches!(cp, 0xAD | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0xFEFF)
        {
            continue;
        }
        // Letters that expand to two (æ → a·e, ß → s·s) sort just after their expansion.
        if let Some((x, y)) = expansion(c) {
            key.push(letter_weight(x), SECONDARY_COMMON, tertiary);
            key.push(0, SECONDARY_EXPANSION, 0);
            key.push(letter_weight(y), SECONDARY_COMMON, tertiary);
            continue;
        }
        // Latin letters without a decomposition sort as their base letter plus a stroke.
        if let Some(base) = stroke_variant(c) {
            key.push(letter_weight(base), SECONDARY_COMMON, tertiary);
            key.push(0, SECONDARY_STROKE, 0);
            continue;
        }
        key.push(primary_weight(c), SECONDARY_COMMON, tertiary);
    }
    key
}

/// Secondary weight of a combining mark: the common accents in DUCET order (acute < grave <
/// breve < circumflex < caron < ring < diaeresis < double acute < tilde < dot), then others.
fn mark_weight(cp: u32) -> Option<u32> {
    let w = match cp {
        0x0301 => 2,
        0x0300 => 3,
        0x0306 => 4,
        0x0302 => 5,
        0x030C => 6,
        0x030A => 7,
        0x0308 => 8,
        0x030B => 9,
        0x0303 => 10,
        0x0307 => 11,
        0x0327 => 13,
        0x0328 => 14,
        0x0304 => 15,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F => 0x100 + cp,
        _ => return None,
    };
    Some(w)
}

/// Letters the root collation expands into two base letters.
fn expansion(c: char) -> Option<(char, char)> {
    match c {
        'æ' | 'Æ' => Some(('a', 'e')),
        'œ' | 'Œ' => Some(('o', 'e')),
        'ß' => Some(('s', 's')),
        'ĳ' | 'Ĳ' => Some(('i', 'j')),
        _ => None,
    }
}

/// Latin letters the root collation treats as a base letter with a stroke.
fn stroke_variant(c: char) -> Option<char> {
    match c {
        'ø' | 'Ø' => Some('o'),
        'đ' | 'Đ' | 'ð' | 'Ð' => Some('d'),
        'ł' | 'Ł' => Some('l'),
        'ħ' | 'Ħ' => Some('h'),
        'ŧ' | 'Ŧ' => Some('t'),
        _ => None,
    }
}

fn letter_weight(c: char) -> u32 {
    GROUP_LETTER | (u32::from(c) << 4)
}

/// Primary weight of a base character.
fn primary_weight(c: char) -> u32 {
    let cp = u32::from(c);
    if c.is_ascii_digit() {
        return GROUP_DIGIT | cp;
    }
    if c.is_ascii_alphabetic() {
        return letter_weight(c.to_ascii_lowercase());
    }
    // Dotless i is a letter of its own, between i and j.
    if c == 'ı' {
        return letter_weight('i') + 1;
    }
    if (0x09..=0x0D).contains(&cp) || c.is_whitespace() || (cp <= 0xFFFF && is_js_whitespace(cp as u16)) {
        return GROUP_WHITESPACE | cp;
    }
    if let Some(p) = PUNCTUATION_ORDER.chars().position(|x| x == c) {
        return GROUP_PUNCTUATION | p as u32;
    }
    if c.is_alphabetic() {
        // Other scripts after Latin, by their lowercase code point.
        let lower = c.to_lowercase().next().unwrap_or(c);
        return GROUP_LETTER | ((0x1000 + u32::from(lower)) << 4);
    }
    if c.is_numeric() {
        return GROUP_DIGIT | 0x100 | cp;
    }
    // Other symbols and punctuation after the ASCII ones, by code point.
    GROUP_PUNCTUATION | 0x100 | cp
}
