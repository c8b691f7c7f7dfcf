//! A process-wide cache of compiled engine scripts: the bodies of the node builtins, which
//! every run that touches `console`, `process` or a `require('node:…')` compiles, and which a
//! server compiles again for every session it starts (about a quarter of a short session's CPU
//! before this cache). Compilation is deterministic, so the code compiled from one text is the
//! same in every VM apart from what ties it to that VM — exactly what a code blob leaves out
//! (`heap/code_blob.rs`): the first compile of a text is kept as a code blob's templates plus,
//! per block, its constants as VM-independent values and its nested functions as places in
//! the tree; a later compile of the same text in any VM of the process rebuilds the blocks from
//! them (atoms interned, strings and bigints allocated, nested handles linked) instead of
//! parsing and compiling. Images are canonical (`heap/canonical.rs`), so a VM that took its
//! code from the cache images to the same bytes as one that compiled it.
//!
//! Never while a baseline is built (see [`compile_cached_script`]). Only texts the engine's
//! embedder hands over as its own ([`compile_cached_script`]) are
//! cached: a bounded set, kept for the life of the process. A user's scripts and modules are
//! not (lower-layer files already share their code through code blobs on restore).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use num_bigint::BigInt;

use crate::bytecode::{CodeBlock, InlineCache};
use crate::error::SyntaxErrorReport;
use crate::heap::code_blob::{self, Link};
use crate::heap::CodeId;
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

/// A block's constant, free of heap handles.
enum Constant {
    /// A number, boolean, null or undefined: the value itself.
    Plain(Value),
    String(JsStr),
    BigInt(BigInt),
}

/// What a block needs besides its template to be rebuilt in a VM.
struct Block {
    constants: Vec<Constant>,
    /// Nested functions, as places in the tree.
    functions: Vec<u32>,
    ics: Vec<InlineCache>,
    templates: usize,
}

/// The code compiled from one text.
struct Compiled {
    /// A code blob of the compile's tree (root first), each block's `shared` its place.
    blob: Vec<u8>,
    blocks: Vec<Block>,
}

static CACHE: Mutex<BTreeMap<Box<str>, Arc<Compiled>>> = Mutex::new(BTreeMap::new());

/// [`super::compile_mapped_script`] (no position map) of an engine-provided `source`, through
/// the process-wide cache.
pub fn compile_cached_script(vm: &mut Vm, source: &str, filename: &str) -> Result<CodeId, SyntaxErrorReport> {
    let source_id = super::add_source(vm, filename, source);
    // Only past the baseline: a baseline's heap is compared byte for byte between processes
    // (images name its fingerprint, `heap/image.rs`), and rebuilt code allocates in another
    // order than a compile; past the baseline, images are canonical and the order is lost.
    if vm.heap.objects.floor() == 0 {
        return super::compile_added_script(vm, source, filename, source_id);
    }
    let cached = CACHE.lock().ok().and_then(|cache| cache.get(source).cloned());
    if let Some(compiled) = cached {
        // A failure here is a bug in this module; the text is simply compiled instead (the
        // blocks rebuilt so far are unreachable garbage).
        if let Ok(root) = rebuild(vm, &compiled, source_id) {
            return Ok(root);
        }
    }
    let root = super::compile_added_script(vm, source, filename, source_id)?;
    if let Some(compiled) = capture(vm, root, source_id) {
        if let Ok(mut cache) = CACHE.lock() {
            cache.insert(source.into(), Arc::new(compiled));
        }
    }
    Ok(root)
}

/// The cache entry of the tree compiled under `root`; None if it holds anything that is not
/// its own (another source's block, a block already in a code blob, a heap constant other than
/// a string or a bigint).
fn capture(vm: &mut Vm, root: CodeId, source_id: u32) -> Option<Compiled> {
    let tree = code_blob::tree(&vm.heap, root)?;
    let place: BTreeMap<CodeId, u32> = tree.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
    let mut blocks = Vec::with_capacity(tree.len());
    for &id in &tree {
        let code = vm.heap.code(id);
        if code.source_id != source_id || code.shared.is_some() {
            return None;
        }
        let mut constants = Vec::with_capacity(code.constants.len());
        for &c in &code.constants {
            constants.push(if let Some(s) = c.as_string() {
                Constant::String(vm.heap.flat_ref(s).clone())
            } else if let Some(b) = c.as_bigint() {
                Constant::BigInt(vm.heap.bigint(b).clone())
            } else if c.is_number() || c.is_bool() || c.is_nullish() {
                Constant::Plain(c)
            } else {
                return None;
            });
        }
        let functions = code.functions.iter().map(|f| place.get(f).copied()).collect::<Option<Vec<u32>>>()?;
        blocks.push(Block { constants, functions, ics: code.ics.clone(), templates: code.template_cache.len() });
    }
    for (i, &id) in tree.iter().enumerate() {
        vm.heap.code_mut(id).shared = Some(i as u32);
    }
    let codes: Vec<&CodeBlock> = tree.iter().map(|&id| vm.heap.code(id)).collect();
    let blob = code_blob::encode(&vm.heap.atoms, &codes, [0; 32]);
    for &id in &tree {
        vm.heap.code_mut(id).shared = None;
    }
    Some(Compiled { blob: blob.ok()?, blocks })
}

/// The blocks of `compiled`, rebuilt in `vm` for source `source_id`: the root's handle.
fn rebuild(vm: &mut Vm, compiled: &Compiled, source_id: u32) -> Result<CodeId, String> {
    let mut blob = code_blob::open_interning(&compiled.blob, &mut vm.heap.atoms)?;
    // Deepest first, so every block's nested functions have handles when it is linked.
    let mut handles: Vec<Option<CodeId>> = vec![None; compiled.blocks.len()];
    for (i, block) in compiled.blocks.iter().enumerate().rev() {
        let constants = block
            .constants
            .iter()
            .map(|c| match c {
                Constant::Plain(v) => *v,
                Constant::String(s) => vm.js_str(s.clone()),
                Constant::BigInt(b) => Value::bigint(vm.heap.alloc_bigint(b.clone())),
            })
            .collect();
        let functions = block
            .functions
            .iter()
            .map(|&f| handles.get(f as usize).copied().flatten())
            .collect::<Option<Vec<CodeId>>>()
            .ok_or("cached code: a nested function precedes its parent")?;
        let link = Link {
            realm: vm.current_realm,
            source_id,
            constants,
            functions,
            template_cache: vec![Value::UNDEFINED; block.templates],
            ics: block.ics.clone(),
        };
        let mut code = blob.block(i as u32, link)?;
        code.shared = None;
        handles[i] = Some(vm.heap.alloc_code(code));
    }
    handles.first().copied().flatten().ok_or_else(|| "cached code: no root".to_string())
}
