//! `vm` and `vm_structured`: source into parse, compile and run under fuel and a heap limit.
//! Invariants: no panic, no abort, no native stack overflow; the limits hold; whatever state
//! is left at the end images and restores.

use crate::exec;
use crate::gen::{self, Mode};

/// `vm`: the bytes (UTF-8, lossy) as a script.
pub fn run(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let mut vm = exec::new_vm();
    let _ = exec::run_script(&mut vm, &source);
    exec::check_image_roundtrip(&mut vm);
}

/// `vm_structured`: a program generated from the bytes, valid JS by construction.
pub fn run_structured(data: &[u8]) {
    let Some(source) = gen::generate(data, Mode::Plain) else { return };
    let mut vm = exec::new_vm();
    let r = exec::run_script(&mut vm, &source);
    if let Err(amber_engine::RunError::Syntax(report)) = &r {
        panic!("the generator wrote invalid JS: {report}\n{source}");
    }
    exec::check_image_roundtrip(&mut vm);
}
