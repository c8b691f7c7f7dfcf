//! The NaN-boxed JavaScript value.
//!
//! A [`Value`] is one 64-bit word. Every f64 is stored as itself, except that all NaNs are
//! canonicalised to one quiet NaN; the words above `0xFFF8_FFFF_FFFF_FFFF` (negative NaNs
//! with payload, which no canonical double uses) carry a 16-bit tag and a 32-bit payload:
//! an int32, a special constant, or a `u32` handle into one of the heap's arenas.
//!
//! Code outside this module uses the methods, never the bits. The representation is part of
//! the image format: changing a tag changes the format version.

use serde::{Deserialize, Serialize, Serializer};

use crate::heap::canonical::{self, Arena};

/// Handle of an object in the heap's object arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Deserialize, Default)]
pub struct ObjectId(pub u32);

/// Handle of a string in the heap's string arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Deserialize)]
pub struct StringId(pub u32);

/// Handle of a symbol in the heap's symbol arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Deserialize, Default)]
pub struct SymbolId(pub u32);

/// Handle of a BigInt in the heap's bigint arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Deserialize)]
pub struct BigIntId(pub u32);

/// Handles serialize as the derived newtype impl would, except inside a canonical walk
/// (`heap/canonical.rs`), where they write their traversal number.
macro_rules! handle_serialize {
    ($($ty:ident => $arena:ident),*) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_newtype_struct(
                    stringify!($ty),
                    &$crate::heap::canonical::renumber($crate::heap::canonical::Arena::$arena, self.0),
                )
            }
        }
    )*};
}
pub(crate) use handle_serialize;

handle_serialize!(ObjectId => Object, StringId => String, SymbolId => Symbol, BigIntId => BigInt);

const TAG_SHIFT: u32 = 48;
const TAG_INT: u64 = 0xFFF9;
const TAG_SPECIAL: u64 = 0xFFFA;
const TAG_STRING: u64 = 0xFFFB;
const TAG_SYMBOL: u64 = 0xFFFC;
const TAG_OBJECT: u64 = 0xFFFD;
const TAG_BIGINT: u64 = 0xFFFE;
const FIRST_TAGGED: u64 = TAG_INT << TAG_SHIFT;
const CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;

const SPECIAL_UNDEFINED: u64 = 0;
const SPECIAL_NULL: u64 = 1;
const SPECIAL_FALSE: u64 = 2;
const SPECIAL_TRUE: u64 = 3;
const SPECIAL_EMPTY: u64 = 4;

/// A JavaScript value in one machine word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(transparent)]
pub struct Value(u64);

/// The word itself; inside a canonical walk a heap reference carries its traversal number.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 < FIRST_TAGGED || !canonical::active() {
            return s.serialize_u64(self.0);
        }
        let arena = match self.tag() {
            TAG_STRING => Arena::String,
            TAG_SYMBOL => Arena::Symbol,
            TAG_OBJECT => Arena::Object,
            TAG_BIGINT => Arena::BigInt,
            _ => return s.serialize_u64(self.0),
        };
        s.serialize_u64(tagged(self.tag(), canonical::renumber(arena, self.payload())))
    }
}

// A Value is copied on every push, pop and register move of the interpreter: it must stay one
// word, and the image format stores it as a u64.
const _: () = assert!(std::mem::size_of::<Value>() == 8);

const fn tagged(tag: u64, payload: u32) -> u64 {
    (tag << TAG_SHIFT) | payload as u64
}

/// What a [`Value`] holds, for `match`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Kind {
    Undefined,
    Null,
    Bool(bool),
    Int(i32),
    Float(f64),
    String(StringId),
    Symbol(SymbolId),
    Object(ObjectId),
    BigInt(BigIntId),
    /// The engine-internal "no value": array holes and uninitialised (TDZ) bindings.
    Empty,
}

impl Value {
    pub const UNDEFINED: Value = Value(tagged(TAG_SPECIAL, SPECIAL_UNDEFINED as u32));
    pub const NULL: Value = Value(tagged(TAG_SPECIAL, SPECIAL_NULL as u32));
    pub const FALSE: Value = Value(tagged(TAG_SPECIAL, SPECIAL_FALSE as u32));
    pub const TRUE: Value = Value(tagged(TAG_SPECIAL, SPECIAL_TRUE as u32));
    /// Array holes and uninitialised lexical bindings; never visible to JS.
    pub const EMPTY: Value = Value(tagged(TAG_SPECIAL, SPECIAL_EMPTY as u32));
    pub const NAN: Value = Value(CANONICAL_NAN);

    #[inline]
    pub fn bool(b: bool) -> Value {
        if b {
            Value::TRUE
        } else {
            Value::FALSE
        }
    }

    #[inline]
    pub fn int(i: i32) -> Value {
        Value(tagged(TAG_INT, i as u32))
    }

    /// A number; integral values that fit an int32 (and are not -0) take the int fast path.
    #[inline]
    pub fn number(f: f64) -> Value {
        let i = f as i32;
        if i as f64 == f && (i != 0 || f.to_bits() == 0) {
            return Value::int(i);
        }
        Value::float(f)
    }

    /// A double, stored as a double even when integral.
    #[inline]
    pub fn float(f: f64) -> Value {
        if f.is_nan() {
            Value(CANONICAL_NAN)
        } else {
            Value(f.to_bits())
        }
    }

    #[inline]
    pub fn string(id: StringId) -> Value {
        Value(tagged(TAG_STRING, id.0))
    }
    #[inline]
    pub fn symbol(id: SymbolId) -> Value {
        Value(tagged(TAG_SYMBOL, id.0))
    }
    #[inline]
    pub fn object(id: ObjectId) -> Value {
        Value(tagged(TAG_OBJECT, id.0))
    }
    #[inline]
    pub fn bigint(id: BigIntId) -> Value {
        Value(tagged(TAG_BIGINT, id.0))
    }

    #[inline]
    fn tag(self) -> u64 {
        self.0 >> TAG_SHIFT
    }
    #[inline]
    fn payload(self) -> u32 {
        self.0 as u32
    }

    /// Decode into a matchable [`Kind`].
    #[inline]
    pub fn kind(self) -> Kind {
        if self.0 < FIRST_TAGGED {
            return Kind::Float(f64::from_bits(self.0));
        }
        match self.tag() {
            TAG_INT => Kind::Int(self.payload() as i32),
            TAG_STRING => Kind::String(StringId(self.payload())),
            TAG_SYMBOL => Kind::Symbol(SymbolId(self.payload())),
            TAG_OBJECT => Kind::Object(ObjectId(self.payload())),
            TAG_BIGINT => Kind::BigInt(BigIntId(self.payload())),
            _ => match self.payload() as u64 {
                SPECIAL_UNDEFINED => Kind::Undefined,
                SPECIAL_NULL => Kind::Null,
                SPECIAL_FALSE => Kind::Bool(false),
                SPECIAL_TRUE => Kind::Bool(true),
                _ => Kind::Empty,
            },
        }
    }

    /// The raw word, for hashing and the image verifier only.
    #[inline]
    pub fn to_bits(self) -> u64 {
        self.0
    }
    /// Rebuild from a raw word, canonicalising anything that is not a valid encoding.
    pub fn from_bits(bits: u64) -> Value {
        let v = Value(bits);
        if bits < FIRST_TAGGED {
            return Value::float(f64::from_bits(bits));
        }
        match v.tag() {
            TAG_INT | TAG_STRING | TAG_SYMBOL | TAG_OBJECT | TAG_BIGINT => v,
            TAG_SPECIAL if (v.payload() as u64) <= SPECIAL_EMPTY && bits >> 32 == TAG_SPECIAL << 16 => v,
            _ => Value::UNDEFINED,
        }
    }

    #[inline]
    pub fn is_undefined(self) -> bool {
        self == Value::UNDEFINED
    }
    #[inline]
    pub fn is_null(self) -> bool {
        self == Value::NULL
    }
    #[inline]
    pub fn is_nullish(self) -> bool {
        self == Value::UNDEFINED || self == Value::NULL
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self == Value::EMPTY
    }
    #[inline]
    pub fn is_int(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_INT
    }
    #[inline]
    pub fn is_number(self) -> bool {
        self.0 < FIRST_TAGGED || self.tag() == TAG_INT
    }
    #[inline]
    pub fn is_string(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_STRING
    }
    #[inline]
    pub fn is_symbol(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_SYMBOL
    }
    #[inline]
    pub fn is_object(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_OBJECT
    }
    #[inline]
    pub fn is_bigint(self) -> bool {
        self.0 >= FIRST_TAGGED && self.tag() == TAG_BIGINT
    }
    #[inline]
    pub fn is_bool(self) -> bool {
        self == Value::TRUE || self == Value::FALSE
    }

    #[inline]
    pub fn as_int(self) -> Option<i32> {
        if self.is_int() {
            Some(self.payload() as i32)
        } else {
            None
        }
    }
    /// The numeric value of an int or double.
    #[inline]
    pub fn as_number(self) -> Option<f64> {
        if self.0 < FIRST_TAGGED {
            Some(f64::from_bits(self.0))
        } else if self.tag() == TAG_INT {
            Some(self.payload() as i32 as f64)
        } else {
            None
        }
    }
    #[inline]
    pub fn as_object(self) -> Option<ObjectId> {
        if self.is_object() {
            Some(ObjectId(self.payload()))
        } else {
            None
        }
    }
    #[inline]
    pub fn as_string(self) -> Option<StringId> {
        if self.is_string() {
            Some(StringId(self.payload()))
        } else {
            None
        }
    }
    #[inline]
    pub fn as_symbol(self) -> Option<SymbolId> {
        if self.is_symbol() {
            Some(SymbolId(self.payload()))
        } else {
            None
        }
    }
    #[inline]
    pub fn as_bigint(self) -> Option<BigIntId> {
        if self.is_bigint() {
            Some(BigIntId(self.payload()))
        } else {
            None
        }
    }
    #[inline]
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::TRUE => Some(true),
            Value::FALSE => Some(false),
            _ => None,
        }
    }

    /// ToBoolean for the kinds that need no heap access (everything but strings and bigints).
    #[inline]
    pub fn truthy_without_heap(self) -> Option<bool> {
        match self.kind() {
            Kind::Undefined | Kind::Null | Kind::Empty => Some(false),
            Kind::Bool(b) => Some(b),
            Kind::Int(i) => Some(i != 0),
            Kind::Float(f) => Some(!(f == 0.0 || f.is_nan())),
            Kind::Object(_) | Kind::Symbol(_) => Some(true),
            Kind::String(_) | Kind::BigInt(_) => None,
        }
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.kind())
    }
}

impl Default for Value {
    fn default() -> Self {
        Value::UNDEFINED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_kind() {
        assert_eq!(Value::int(-5).kind(), Kind::Int(-5));
        assert_eq!(Value::number(3.0).kind(), Kind::Int(3));
        assert_eq!(Value::number(-0.0).kind(), Kind::Float(-0.0));
        assert!(matches!(Value::number(f64::NAN).kind(), Kind::Float(f) if f.is_nan()));
        assert_eq!(Value::number(f64::INFINITY).kind(), Kind::Float(f64::INFINITY));
        assert_eq!(Value::object(ObjectId(7)).kind(), Kind::Object(ObjectId(7)));
        assert_eq!(Value::string(StringId(u32::MAX)).kind(), Kind::String(StringId(u32::MAX)));
        assert_eq!(Value::UNDEFINED.kind(), Kind::Undefined);
        assert_eq!(Value::EMPTY.kind(), Kind::Empty);
        assert_eq!(Value::bool(true).kind(), Kind::Bool(true));
    }

    #[test]
    fn negative_nan_payloads_are_canonicalised() {
        let weird = f64::from_bits(0xFFFD_0000_0000_0001);
        assert!(weird.is_nan());
        assert_eq!(Value::float(weird), Value::NAN);
        assert_eq!(Value::from_bits(0xFFFA_0000_0000_0099), Value::UNDEFINED);
    }
}
