//! Images relative to a baseline (`heap/image.rs`) and the code blobs of lower-layer modules
//! (`heap/code_blob.rs`), through the VM's image API: a delta restores the exact heap, and a
//! blob is shared, named by hash and refused when missing, forged or foreign.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use amber_engine::vfs::lower::{sha256, LowerLayer, LowerNode, Sha256};
use amber_engine::vfs::{FileType, VfsError, VfsResult};
use amber_engine::vm::{Vm, VmOptions};

#[test]
fn a_delta_restores_the_exact_heap_and_omits_the_baseline() {
    let baseline = Vm::new(VmOptions::default());
    let mut vm = Vm::new(VmOptions::default());
    vm.heap.seal_baseline();
    let script = "var kept = { a: [1, 2, 3], s: 'x'.repeat(40) }; Array.prototype.extra = 1; delete Math.max;";
    vm.eval_script(script, "t.js").map_err(|e| e.to_string()).unwrap();
    let full = vm.encode_state().unwrap();
    let delta = vm.encode_state_relative(&baseline).unwrap();
    assert!(delta.len() * 10 < full.len(), "delta {} vs full {}", delta.len(), full.len());
    let restored = Vm::decode_state_relative(&delta, Vm::new(VmOptions::default())).unwrap();
    assert_eq!(restored.encode_state().unwrap(), full);
}

#[test]
fn a_delta_is_refused_against_another_baseline() {
    let baseline = Vm::new(VmOptions::default());
    let delta = baseline.encode_state_relative(&baseline).unwrap();
    let mut other = Vm::new(VmOptions::default());
    other.eval_script("globalThis.changed = 1", "t.js").map_err(|e| e.to_string()).unwrap();
    let err = Vm::decode_state_relative(&delta, other).err().unwrap();
    assert!(err.contains("baseline"), "{err}");
    assert!(Vm::decode_state(&delta).is_err());
}

/// One lower file, `m.js`, under the mount.
struct OneFile(String);

impl LowerLayer for OneFile {
    fn lstat(&mut self, rel: &str) -> VfsResult<LowerNode> {
        Ok(match rel {
            "" => LowerNode::Dir { perm: 0o755, mtime_ms: 0 },
            "m.js" => LowerNode::File {
                sha256: sha256(self.0.as_bytes()),
                size: self.0.len() as u64,
                perm: 0o644,
                mtime_ms: 0,
            },
            _ => LowerNode::Absent,
        })
    }
    fn list(&mut self, _: &str) -> VfsResult<Vec<(String, FileType)>> {
        Ok(vec![("m.js".into(), FileType::File)])
    }
    fn bytes(&mut self, h: &Sha256) -> VfsResult<Arc<[u8]>> {
        (*h == sha256(self.0.as_bytes())).then(|| self.0.as_bytes().into()).ok_or(VfsError::Io)
    }
}

const MODULE: &str = "function add(a, b) { return a + b + inner(); function inner() { return 'x'.length; } }\n\
                      globalThis.kept = { add, tag: (s) => `<${s}>`, re: /a+b/g };";

/// A VM that ran `text` as the lower file `/proj/m.js`, and the code blobs it made.
fn ran(text: &str) -> (Vm, BTreeMap<Sha256, Vec<u8>>) {
    let mut vm = Vm::new(VmOptions::default());
    vm.heap.seal_baseline();
    vm.vfs.mount_lower("/proj", Arc::new(Mutex::new(OneFile(text.into()))), 1.0).unwrap();
    vm.vfs.read_file("/proj/m.js").unwrap();
    vm.eval_nested(text, "/proj/m.js").map_err(|e| format!("{e:?}")).unwrap();
    let blobs = vm.take_code_blobs().into_iter().map(|(h, b)| (h, b.to_vec())).collect();
    (vm, blobs)
}

/// The image of `vm` (canonical, relative to a fresh baseline).
fn image(vm: &mut Vm) -> Vec<u8> {
    let base = Vm::new(VmOptions::default());
    vm.canonical_copy(&base).unwrap().encode_state_relative(&base).unwrap()
}

fn restore(image: &[u8], blobs: &BTreeMap<Sha256, Vec<u8>>, text: &str) -> Result<Vm, String> {
    let mut lookup = |h: &[u8; 32]| -> Option<Vec<u8>> {
        blobs.get(h).cloned().or_else(|| (*h == sha256(text.as_bytes())).then(|| text.as_bytes().to_vec()))
    };
    Vm::decode_state_with_blobs(image, Vm::new(VmOptions::default()), Some(&mut lookup))
}

#[test]
fn a_lower_module_is_one_blob_shared_by_sessions_and_images_name_it() {
    let (mut a, blobs) = ran(MODULE);
    let (mut b, again) = ran(MODULE);
    assert_eq!(blobs.len(), 1);
    assert_eq!(blobs, again, "two sessions compile one file to the same blob");
    let hash = *blobs.keys().next().unwrap();
    let image_a = image(&mut a);
    assert_eq!(image_a, image(&mut b), "the same state gives the same image");
    assert_eq!(a.code_blob_hashes(), vec![hash]);
    // The image carries no code of the module: none of its ops, lines or names.
    let mut plain = a.canonical_copy(&Vm::new(VmOptions::default())).unwrap();
    let codes: Vec<u32> = plain.heap.code.iter().map(|(i, _)| i).collect();
    for i in codes {
        plain.heap.code.get_mut(i).unwrap().shared = None;
    }
    let inline = plain.encode_state_relative(&Vm::new(VmOptions::default())).unwrap();
    assert!(image_a.len() + 100 < inline.len(), "{} vs {} with the code inline", image_a.len(), inline.len());

    let mut restored = restore(&image_a, &blobs, MODULE).unwrap();
    assert_eq!(image(&mut restored), image_a, "a restore rebuilds the exact state");
    let v = restored.eval_nested("kept.add(1, 2) + kept.tag('t') + 'aab'.replace(kept.re, '-')", "t.js").unwrap();
    assert_eq!(restored.to_display_string(v), "4<t>-");
}

#[test]
fn a_missing_forged_or_foreign_blob_is_a_clear_error() {
    let (mut vm, blobs) = ran(MODULE);
    let image = image(&mut vm);
    let hash = *blobs.keys().next().unwrap();

    let err = restore(&image, &BTreeMap::new(), MODULE).err().unwrap();
    assert!(err.contains("is not in the store"), "{err}");

    let mut forged = blobs.clone();
    forged.get_mut(&hash).unwrap().push(0);
    let err = restore(&image, &forged, MODULE).err().unwrap();
    assert!(err.contains("does not have its hash"), "{err}");

    // The image made to name the blob of another text (a real blob, under its own hash).
    let other = MODULE.replace("'x'", "'yy'");
    let (_, foreign) = ran(&other);
    let foreign_hash = *foreign.keys().next().unwrap();
    let mut swapped = image.clone();
    let mut n = 0;
    for i in 0..swapped.len().saturating_sub(32) {
        if swapped[i..i + 32] == hash {
            swapped[i..i + 32].copy_from_slice(&foreign_hash);
            n += 1;
        }
    }
    assert_eq!(n, 2, "the image names the blob on its source and in its table");
    let mut all = blobs.clone();
    all.extend(foreign);
    let err = restore(&swapped, &all, MODULE).err().unwrap();
    assert!(err.contains("compiled from another text"), "{err}");
}
