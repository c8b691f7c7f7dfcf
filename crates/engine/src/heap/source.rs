//! The source texts a VM has compiled, as an image carries them: the heap's code blocks name
//! them by index (`CodeBlock::source_id`), and the canonical walk (`canonical.rs`) and the
//! heap delta (`image.rs`) read them.

use serde::{Deserialize, Serialize};

/// A source file the VM has compiled (kept for `Function.prototype.toString` and stacks).
#[derive(Clone, Serialize, Deserialize)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Where `text` was made from another text (TypeScript compiled by the embedder): the
    /// original positions, which the compiler records instead of positions in `text`.
    pub map: Option<crate::source_map::PositionMap>,
    /// The part of `text` that is a file of the VFS's lower layer, byte for byte: an image
    /// names it by hash instead of carrying it (`Vm::encode_state`), and a restore puts the
    /// bytes back from the layer.
    pub lower: Option<LowerSpan>,
    /// The sha256 of the code blob compiled from this text (`heap/code_blob.rs`), when it has
    /// a lower span: images name the blob instead of carrying the code blocks.
    pub code: Option<[u8; 32]>,
}

/// Bytes `start..start + len` of a source's text are the lower-layer file with this sha256.
#[derive(Clone, Copy, Serialize, Deserialize, Debug, PartialEq, Eq)]
pub struct LowerSpan {
    pub sha256: [u8; 32],
    pub start: u32,
    pub len: u32,
}
