//! Code blobs: the compiled code of a lower-layer source, stored once by content hash instead
//! of riding every image (issue 17; docs/image-format.md, "Code blobs").
//!
//! A source text that is a file of the VFS's lower layer ([`crate::heap::source::Source::lower`]) is
//! compiled the same way by every session that loads it, so its code blocks are the same in
//! every image, apart from what ties them to one VM: atom ids, the heap values of their
//! constants and template caches, the handles of their nested functions, their inline caches,
//! realm and source index. When such a source is compiled ([`seal`]), its code blocks — the
//! compile's tree, root first, depth first through `functions` — are written once as a
//! *template* each (those per-VM fields emptied, atoms named by their text), and
//! [`CodeBlock::shared`] gives each block its place in the list.
//!
//! Blob bytes (bincode 2 standard, as images): the magic `AMBRCODE`, [`CODE_BLOB_VERSION`],
//! the sha256 of the whole source text compiled, the atom names the templates use (in
//! first-use order), then each template's encoding, in which every atom is an index into that
//! name list. The blob is named by the sha256 of its bytes: the session store keeps it beside
//! the lower-layer file bytes, whose rows are checked against their hash the same way, and as
//! compilation is deterministic two sessions loading one file store one blob.
//!
//! An image's code arena then writes, for such a block, the blob (by index into the image's
//! table of blob hashes), the block's place in it and the per-VM fields (a [`Link`]); a
//! restore fetches the blob through the same lookup that gives lower-layer source texts back,
//! re-interns the atom names (each must already be in the image's atom table, which the
//! canonical walk filled from these very blocks) and rebuilds the block. A blob that is
//! missing, does not hash to its name, is malformed, or was compiled from another text than
//! the block's source is an error naming it, never a panic; the rebuilt blocks go through the
//! image verifier like any other.

use std::cell::Cell;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::atoms::{Atom, Atoms};
use crate::bytecode::{CodeBlock, InlineCache};
use crate::heap::CodeId;
use crate::string::JsStr;
use crate::value::Value;

/// Magic bytes of a code blob.
pub const CODE_BLOB_MAGIC: &[u8; 8] = b"AMBRCODE";
/// Code blob layout version; templates are `CodeBlock`s, so a change to the bytecode or to
/// `CodeBlock` changes the bytes (and so the name) of every blob even without a bump.
pub const CODE_BLOB_VERSION: u32 = 1;

/// Largest code blob accepted (as images).
const MAX_BLOB_BYTES: usize = 1 << 30;

/// A block's per-VM fields: what an image writes for a block whose template is in a blob.
#[derive(Serialize, Deserialize)]
pub(crate) struct Link {
    pub realm: crate::heap::RealmId,
    #[serde(serialize_with = "crate::heap::canonical::source")]
    pub source_id: u32,
    pub constants: Vec<Value>,
    pub functions: Vec<CodeId>,
    pub template_cache: Vec<Value>,
    pub ics: Vec<InlineCache>,
}

impl Link {
    /// The per-VM fields of `code`.
    pub(crate) fn of(code: &CodeBlock) -> Link {
        Link {
            realm: code.realm,
            source_id: code.source_id,
            constants: code.constants.clone(),
            functions: code.functions.clone(),
            template_cache: code.template_cache.clone(),
            ics: code.ics.clone(),
        }
    }
}

/// `code` without its per-VM fields.
fn template(code: &CodeBlock) -> CodeBlock {
    let mut t = code.clone();
    t.realm = 0;
    t.source_id = 0;
    t.constants = Vec::new();
    t.functions = Vec::new();
    t.template_cache = Vec::new();
    t.ics = Vec::new();
    t
}

/// The atom translation active on this thread while a blob is written or read.
enum AtomContext {
    /// Writing: VM atom id → index in the blob's name list, and the ids in first-use order.
    Write { local: BTreeMap<u32, u32>, order: Vec<u32> },
    /// Reading: blob name index → VM atom (None: the name is not interned).
    Read { atoms: Vec<Option<Atom>> },
}

thread_local! {
    static CONTEXT: Cell<Option<Box<AtomContext>>> = const { Cell::new(None) };
}

/// Runs `f` on this thread's active context, if any.
fn in_context<R>(f: impl FnOnce(&mut AtomContext) -> Option<R>) -> Option<R> {
    CONTEXT.with(|cell| {
        let mut context = cell.take()?;
        let r = f(&mut context);
        cell.set(Some(context));
        r
    })
}

/// While a blob is written: the blob-local index to write for VM atom `id`.
pub(crate) fn write_atom(id: u32) -> Option<u32> {
    in_context(|context| match context {
        AtomContext::Write { local, order } => {
            let next = order.len() as u32;
            let n = *local.entry(id).or_insert(next);
            if n == next {
                order.push(id);
            }
            Some(n)
        }
        AtomContext::Read { .. } => None,
    })
}

/// While a blob is read: the VM atom for blob-local index `n` (Some(Err) when it has none).
pub(crate) fn read_atom(n: u32) -> Option<Result<Atom, String>> {
    in_context(|context| match context {
        AtomContext::Read { atoms } => Some(match atoms.get(n as usize) {
            Some(Some(a)) => Ok(*a),
            Some(None) => Err(format!("its atom {n} is not in the image's atom table")),
            None => Err(format!("atom {n} is past its name list")),
        }),
        AtomContext::Write { .. } => None,
    })
}

/// Runs `f` with `context` active on this thread, and returns the context after it.
fn with_context<R>(context: AtomContext, f: impl FnOnce() -> R) -> (R, Option<AtomContext>) {
    let outer = CONTEXT.with(|cell| cell.replace(Some(Box::new(context))));
    let r = f();
    let context = CONTEXT.with(|cell| cell.replace(outer));
    (r, context.map(|c| *c))
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 1 << 30 }>()
}

#[derive(Serialize, Deserialize)]
struct Header {
    magic: [u8; 8],
    version: u32,
    text_sha256: [u8; 32],
    names: Vec<JsStr>,
    blocks: Vec<Vec<u8>>,
}

/// The blob of `codes` (a compile's tree, root first) compiled from a text of hash
/// `text_sha256`: its bytes.
pub(crate) fn encode(atoms: &Atoms, codes: &[&CodeBlock], text_sha256: [u8; 32]) -> Result<Vec<u8>, String> {
    let context = AtomContext::Write { local: BTreeMap::new(), order: Vec::new() };
    let (blocks, context) = with_context(context, || {
        codes
            .iter()
            .map(|code| bincode::serde::encode_to_vec(template(code), config()).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, String>>()
    });
    let blocks = blocks?;
    let Some(AtomContext::Write { order, .. }) = context else {
        return Err("code blob: the atom context was lost".into());
    };
    let names = order.iter().map(|&id| atoms.get(Atom(id)).clone()).collect();
    let header = Header { magic: *CODE_BLOB_MAGIC, version: CODE_BLOB_VERSION, text_sha256, names, blocks };
    bincode::serde::encode_to_vec(&header, config()).map_err(|e| e.to_string())
}

/// A fetched, checked code blob.
pub(crate) struct Blob {
    /// sha256 of the source text it was compiled from.
    pub text_sha256: [u8; 32],
    /// Its atom names as the VM's atoms (None: a name the VM has not interned).
    atoms: Vec<Option<Atom>>,
    blocks: Vec<Vec<u8>>,
}

/// Opens blob bytes fetched under `hash`, naming its atoms by `atoms` (the restored table).
pub(crate) fn open(hash: &[u8; 32], bytes: &[u8], atoms: &Atoms) -> Result<Blob, String> {
    let name: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    if crate::vfs::lower::sha256(bytes) != *hash {
        return Err(format!("code blob {name} does not have its hash (a corrupt store row)"));
    }
    if bytes.len() > MAX_BLOB_BYTES {
        return Err(format!("code blob {name} is larger than {MAX_BLOB_BYTES} bytes"));
    }
    let (header, used): (Header, usize) =
        bincode::serde::decode_from_slice(bytes, config()).map_err(|e| format!("code blob {name} is corrupt: {e}"))?;
    if used != bytes.len() || header.magic != *CODE_BLOB_MAGIC {
        return Err(format!("code blob {name} is corrupt: not a code blob"));
    }
    if header.version != CODE_BLOB_VERSION {
        return Err(format!(
            "code blob {name} has layout version {}, this engine reads {CODE_BLOB_VERSION}",
            header.version
        ));
    }
    let atoms = header.names.iter().map(|n| atoms.lookup(n)).collect();
    Ok(Blob { text_sha256: header.text_sha256, atoms, blocks: header.blocks })
}

/// Opens blob bytes this process wrote itself (`compiler/cache.rs`): no hash to check,
/// and names the VM has not interned yet are interned (a fresh compile would have).
pub(crate) fn open_interning(bytes: &[u8], atoms: &mut Atoms) -> Result<Blob, String> {
    let (header, _): (Header, usize) =
        bincode::serde::decode_from_slice(bytes, config()).map_err(|e| format!("cached code is corrupt: {e}"))?;
    let atoms = header.names.iter().map(|n| Some(atoms.intern(n))).collect();
    Ok(Blob { text_sha256: header.text_sha256, atoms, blocks: header.blocks })
}

impl Blob {
    /// Block `index` with `link`'s per-VM fields and its atoms as the VM's (every name it
    /// uses must be interned already: it is in the image's atom table).
    pub(crate) fn block(&mut self, index: u32, link: Link) -> Result<CodeBlock, String> {
        let bytes = self.blocks.get(index as usize).ok_or_else(|| format!("it has no block {index}"))?;
        let atoms = std::mem::take(&mut self.atoms);
        let (decoded, context) = with_context(AtomContext::Read { atoms }, || {
            bincode::serde::decode_from_slice::<CodeBlock, _>(bytes, config())
        });
        if let Some(AtomContext::Read { atoms }) = context {
            self.atoms = atoms;
        }
        let (mut code, used) = decoded.map_err(|e| format!("block {index} is corrupt: {e}"))?;
        if used != bytes.len() || code.shared != Some(index) {
            return Err(format!("block {index} is corrupt"));
        }
        code.realm = link.realm;
        code.source_id = link.source_id;
        code.constants = link.constants;
        code.functions = link.functions;
        code.template_cache = link.template_cache;
        code.ics = link.ics;
        Ok(code)
    }
}

/// The compile tree under `root`: `root` first, then each nested function depth first in
/// `functions` order. None if a handle is dead or a block is reached twice (not a tree).
pub(crate) fn tree(heap: &crate::heap::Heap, root: CodeId) -> Option<Vec<CodeId>> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            return None;
        }
        let code = heap.code.get(id.0)?;
        out.push(id);
        todo.extend(code.functions.iter().rev());
    }
    Some(out)
}
