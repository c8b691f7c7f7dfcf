//! The internal slots of each Intl object as plain serde data (ECMA-402's resolved
//! options: locale, the options each constructor resolved). An image holds these and
//! nothing from ICU4X: every operation builds its ICU4X formatter from them over the
//! compiled data (cheap: the data is static, zero-copy), so a restored object works in a
//! fresh process exactly as before. Values the slots hold (a bound `compare`) are visited
//! by [`IntlSlots::children`] for the collector and the image verifier.

use serde::{Deserialize, Serialize};

use super::number_options::DigitOptions;
use crate::value::{ObjectId, Value};

/// One Intl object's slots (`Class::Intl`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum IntlSlots {
    Collator(CollatorSlots),
    PluralRules(PluralRulesSlots),
}

impl IntlSlots {
    /// The heap values the slots hold.
    pub fn children(&self, out: &mut Vec<Value>) {
        match self {
            IntlSlots::Collator(c) => out.extend(c.bound_compare.map(Value::object)),
            IntlSlots::PluralRules(_) => {}
        }
    }
}

/// Intl.Collator's slots (ECMA-402 §10.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CollatorSlots {
    /// [[Locale]]: the resolved tag, with the `-u-` keywords that were honoured.
    pub locale: String,
    /// [[Usage]]: "sort" or "search".
    pub usage: String,
    /// [[Sensitivity]]: "base", "accent", "case" or "variant".
    pub sensitivity: String,
    /// [[IgnorePunctuation]].
    pub ignore_punctuation: bool,
    /// [[Collation]]: "default" or a CLDR collation type ("phonebk", "pinyin"…).
    pub collation: String,
    /// [[Numeric]].
    pub numeric: bool,
    /// [[CaseFirst]]: "upper", "lower" or "false".
    pub case_first: String,
    /// [[BoundCompare]], made on the first read of `compare`.
    pub bound_compare: Option<ObjectId>,
}

/// Intl.PluralRules' slots (ECMA-402 §16.4).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PluralRulesSlots {
    pub locale: String,
    /// [[Type]]: "cardinal" or "ordinal".
    pub kind: String,
    /// [[Notation]]: "standard", "scientific", "engineering" or "compact".
    pub notation: String,
    /// [[CompactDisplay]] ("short" or "long"), for compact notation only.
    pub compact_display: Option<String>,
    /// The digit options SetNumberFormatDigitOptions resolved.
    pub digits: DigitOptions,
}
