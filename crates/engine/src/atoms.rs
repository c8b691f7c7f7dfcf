//! Atoms: interned property names, and property keys.
//!
//! Every string used as a property name is interned once; a property key is then a `u32`
//! compare. The names the engine itself needs are declared once in [`well_known_atoms!`] and
//! are pre-interned in that order, so their ids are constants (and part of the image format).
//! Atoms are never freed (like V8's internalized strings in old space); a program that
//! invents unbounded distinct property names grows the table, which the heap limit counts.

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::string::JsStr;
use crate::value::SymbolId;

/// An interned string.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Atom(pub u32);

/// The index; inside a canonical walk (`heap/canonical.rs`), the interned text; while a code
/// blob is written (`heap/code_blob.rs`), the index into the blob's name list.
impl Serialize for Atom {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(local) = crate::heap::code_blob::write_atom(self.0) {
            return s.serialize_newtype_struct("Atom", &local);
        }
        crate::heap::canonical::serialize_atom(self.0, s)
    }
}

/// The index; while a code blob is read, the atom its name list gives (an index past the
/// list, or a name the VM has not interned, is an error).
impl<'de> Deserialize<'de> for Atom {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename = "Atom")]
        struct Raw(u32);
        let Raw(n) = Raw::deserialize(d)?;
        match crate::heap::code_blob::read_atom(n) {
            None => Ok(Atom(n)),
            Some(atom) => atom.map_err(serde::de::Error::custom),
        }
    }
}

/// A property key: an array index, an interned name, or a symbol.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum PropertyKey {
    Index(u32),
    Atom(Atom),
    Symbol(SymbolId),
}

impl From<Atom> for PropertyKey {
    fn from(a: Atom) -> Self {
        PropertyKey::Atom(a)
    }
}

macro_rules! well_known_atoms {
    ($($name:ident = $text:literal,)*) => {
        /// Atoms the engine refers to by name.
        #[allow(non_upper_case_globals)]
        pub mod atom {
            use super::Atom;
            well_known_atoms!(@consts 0u32, $($name,)*);
        }
        const WELL_KNOWN: &[&str] = &[$($text,)*];
    };
    (@consts $n:expr, $name:ident, $($rest:ident,)*) => {
        pub const $name: Atom = Atom($n);
        well_known_atoms!(@consts $n + 1, $($rest,)*);
    };
    (@consts $n:expr,) => {};
}

well_known_atoms! {
    empty = "",
    length = "length",
    prototype = "prototype",
    constructor = "constructor",
    name = "name",
    message = "message",
    stack = "stack",
    cause = "cause",
    errors = "errors",
    value = "value",
    done = "done",
    next = "next",
    get = "get",
    set = "set",
    writable = "writable",
    enumerable = "enumerable",
    configurable = "configurable",
    toString = "toString",
    valueOf = "valueOf",
    toJSON = "toJSON",
    then = "then",
    callee = "callee",
    caller = "caller",
    arguments = "arguments",
    undefined = "undefined",
    null = "null",
    true_ = "true",
    false_ = "false",
    NaN = "NaN",
    Infinity = "Infinity",
    object = "object",
    function = "function",
    number = "number",
    string = "string",
    symbol = "symbol",
    boolean = "boolean",
    bigint = "bigint",
    default = "default",
    index = "index",
    input = "input",
    groups = "groups",
    indices = "indices",
    lastIndex = "lastIndex",
    flags = "flags",
    source = "source",
    raw = "raw",
    return_ = "return",
    throw_ = "throw",
    anonymous = "anonymous",
    async_ = "async",
    global = "global",
    globalThis = "globalThis",
    join = "join",
    size = "size",
    has = "has",
    keys = "keys",
    add = "add",
    exec = "exec",
    resolve = "resolve",
    reject = "reject",
    promise = "promise",
    status = "status",
    reason = "reason",
    fulfilled = "fulfilled",
    rejected = "rejected",
    ownKeys = "ownKeys",
    apply = "apply",
    construct = "construct",
    defineProperty = "defineProperty",
    deleteProperty = "deleteProperty",
    getOwnPropertyDescriptor = "getOwnPropertyDescriptor",
    getPrototypeOf = "getPrototypeOf",
    setPrototypeOf = "setPrototypeOf",
    isExtensible = "isExtensible",
    preventExtensions = "preventExtensions",
    __proto__ = "__proto__",
    Symbol_iterator_desc = "Symbol.iterator",
}

/// The atom table.
#[derive(Clone, Serialize, Deserialize)]
pub struct Atoms {
    table: IndexSet<JsStr, FxBuildHasher>,
}

impl Atoms {
    /// Estimated bytes of the table (for the heap estimate; atoms are never collected).
    /// Each atom costs its `IndexSet` bucket (hash and string), its index-table slot (up to
    /// 24 bytes with the load factor and doubling) and the block holding its code units.
    pub fn bytes(&self) -> u64 {
        let entry = 8 + std::mem::size_of::<JsStr>() as u64 + 24;
        self.table.iter().map(|s| entry + crate::heap::malloc_bytes(crate::heap::js_str_bytes(s))).sum()
    }
}

impl Default for Atoms {
    fn default() -> Self {
        Self::new()
    }
}

impl Atoms {
    pub fn new() -> Atoms {
        let mut table = IndexSet::with_hasher(FxBuildHasher);
        for s in WELL_KNOWN {
            table.insert(JsStr::from_str(s));
        }
        Atoms { table }
    }

    /// Intern contents, returning the atom.
    pub fn intern(&mut self, s: &JsStr) -> Atom {
        if let Some(i) = self.table.get_index_of(s) {
            return Atom(i as u32);
        }
        let (i, _) = self.table.insert_full(s.clone());
        Atom(i as u32)
    }

    pub fn intern_str(&mut self, s: &str) -> Atom {
        self.intern(&JsStr::from_str(s))
    }

    /// Look up without interning.
    pub fn lookup(&self, s: &JsStr) -> Option<Atom> {
        self.table.get_index_of(s).map(|i| Atom(i as u32))
    }

    /// The contents of an atom. Atoms come only from this table, so the index is in range;
    /// an out-of-range atom (a corrupt image the verifier missed) reads as "".
    pub fn get(&self, a: Atom) -> &JsStr {
        static EMPTY: std::sync::OnceLock<JsStr> = std::sync::OnceLock::new();
        self.table.get_index(a.0 as usize).unwrap_or_else(|| EMPTY.get_or_init(JsStr::empty))
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The key for a string: an index key when it is a canonical array index.
    pub fn key_for(&mut self, s: &JsStr) -> PropertyKey {
        match s.as_array_index() {
            Some(i) => PropertyKey::Index(i),
            None => PropertyKey::Atom(self.intern(s)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_ids_are_stable() {
        let mut atoms = Atoms::new();
        assert_eq!(atoms.intern_str("length"), atom::length);
        assert_eq!(atoms.intern_str("__proto__"), atom::__proto__);
        assert_eq!(atoms.get(atom::prototype).to_rust_string(), "prototype");
        assert_eq!(atoms.key_for(&JsStr::from_str("12")), PropertyKey::Index(12));
    }
}
