//! Hidden classes: the ordered property layout shared by objects built the same way.
//!
//! A shape lists (key, attributes) in insertion order; slot `i` of an object with that shape
//! holds the value of key `i`. Adding a property follows (or creates) a transition, so objects
//! built by the same code share shapes and inline caches hit. Shapes are created
//! deterministically by the program's execution and never freed; an object whose layout
//! churns (deletes, attribute changes, more than [`MAX_SHAPED_PROPERTIES`]) leaves the tree
//! for dictionary mode.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::atoms::PropertyKey;

/// Property attributes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub struct PropFlags(pub u8);

impl PropFlags {
    pub const WRITABLE: u8 = 1;
    pub const ENUMERABLE: u8 = 2;
    pub const CONFIGURABLE: u8 = 4;
    /// The slot holds an accessor pair object, not a data value.
    pub const ACCESSOR: u8 = 8;
    /// writable + enumerable + configurable: what assignment creates.
    pub const DEFAULT: PropFlags = PropFlags(7);
    /// writable + configurable, not enumerable: what builtin methods use.
    pub const HIDDEN: PropFlags = PropFlags(5);
    pub const NONE: PropFlags = PropFlags(0);

    #[inline]
    pub fn writable(self) -> bool {
        self.0 & Self::WRITABLE != 0
    }
    #[inline]
    pub fn enumerable(self) -> bool {
        self.0 & Self::ENUMERABLE != 0
    }
    #[inline]
    pub fn configurable(self) -> bool {
        self.0 & Self::CONFIGURABLE != 0
    }
    #[inline]
    pub fn is_accessor(self) -> bool {
        self.0 & Self::ACCESSOR != 0
    }
}

/// Handle of a shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize, PartialOrd, Ord)]
pub struct ShapeId(pub u32);

/// The index; inside a canonical walk (`heap/canonical.rs`), the shape's key list.
impl Serialize for ShapeId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::heap::canonical::serialize_shape(self.0, s)
    }
}

/// Past this many properties an object goes to dictionary mode: each shape copies its key
/// list, so very wide shapes would cost quadratic memory.
pub const MAX_SHAPED_PROPERTIES: usize = 64;

/// Shapes with more keys than this get a hash index; smaller ones are scanned linearly.
const LINEAR_SCAN_LIMIT: usize = 8;

#[derive(Clone, Serialize, Deserialize)]
pub struct Shape {
    keys: Vec<(PropertyKey, PropFlags)>,
    index: Option<IndexMap<PropertyKey, u32, FxBuildHasher>>,
    transitions: Vec<(PropertyKey, PropFlags, ShapeId)>,
}

impl Shape {
    /// Keys in slot order.
    pub fn keys(&self) -> &[(PropertyKey, PropFlags)] {
        &self.keys
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The slot and attributes of `key`.
    #[inline]
    pub fn lookup(&self, key: PropertyKey) -> Option<(u32, PropFlags)> {
        match &self.index {
            Some(ix) => ix.get(&key).map(|&slot| (slot, self.keys[slot as usize].1)),
            None => self.keys.iter().position(|&(k, _)| k == key).map(|i| (i as u32, self.keys[i].1)),
        }
    }
}

/// All shapes; id 0 is the empty root.
#[derive(Clone, Serialize, Deserialize)]
pub struct Shapes {
    shapes: Vec<Shape>,
}

impl Shapes {
    /// Estimated bytes of the whole shape tree (for the heap estimate; it is never collected).
    pub fn bytes(&self) -> u64 {
        self.shapes.iter().map(|s| 64 + (s.keys.len() + s.transitions.len()) as u64 * 16).sum()
    }
}

impl Default for Shapes {
    fn default() -> Self {
        Self::new()
    }
}

impl Shapes {
    pub const ROOT: ShapeId = ShapeId(0);

    pub fn new() -> Shapes {
        Shapes { shapes: vec![Shape { keys: Vec::new(), index: None, transitions: Vec::new() }] }
    }

    /// The shape behind a handle. Handles come only from this table (the image verifier checks
    /// restored ones), so an out-of-range id is an engine bug: loud in debug builds, the
    /// empty root in release.
    #[inline]
    pub fn get(&self, id: ShapeId) -> &Shape {
        debug_assert!((id.0 as usize) < self.shapes.len(), "invariant: shape {} is in the table", id.0);
        self.shapes.get(id.0 as usize).unwrap_or(&self.shapes[0])
    }

    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// The shape reached from `from` by appending `key` with `flags`.
    pub fn transition(&mut self, from: ShapeId, key: PropertyKey, flags: PropFlags) -> ShapeId {
        let parent = self.get(from);
        if let Some(&(_, _, to)) = parent.transitions.iter().find(|&&(k, f, _)| k == key && f == flags) {
            return to;
        }
        let mut keys = Vec::with_capacity(parent.keys.len() + 1);
        keys.extend_from_slice(&parent.keys);
        keys.push((key, flags));
        let index = (keys.len() > LINEAR_SCAN_LIMIT)
            .then(|| keys.iter().enumerate().map(|(i, &(k, _))| (k, i as u32)).collect());
        let id = ShapeId(self.shapes.len() as u32);
        self.shapes.push(Shape { keys, index, transitions: Vec::new() });
        if let Some(p) = self.shapes.get_mut(from.0 as usize) {
            p.transitions.push((key, flags, id));
        }
        id
    }
}

/// Baseline-relative images (`image.rs`).
impl Shapes {
    pub(crate) fn slot(&self, i: usize) -> &Shape {
        &self.shapes[i]
    }

    pub(crate) fn tail(&self, from: usize) -> &[Shape] {
        &self.shapes[from..]
    }

    /// Image restore: keep the first `base_len` shapes, replace `changed`, append `tail`.
    pub(crate) fn rebuild(
        &mut self,
        base_len: usize,
        changed: Vec<(u32, Shape)>,
        tail: Vec<Shape>,
    ) -> Result<(), String> {
        if base_len > self.shapes.len() || base_len == 0 {
            return Err(format!("corrupt heap delta: shape baseline length {base_len} is out of range"));
        }
        self.shapes.truncate(base_len);
        for (i, shape) in changed {
            match self.shapes.get_mut(i as usize) {
                Some(s) => *s = shape,
                None => return Err(format!("corrupt heap delta: shape {i} is past the baseline")),
            }
        }
        self.shapes.extend(tail);
        Ok(())
    }
}
