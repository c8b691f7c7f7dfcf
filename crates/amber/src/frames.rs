//! `$frames` for evaluation on a copy (`amber eval`): the suspended async functions of the
//! program, each as a plain object of its named locals (`$frames[0].answer`).
//!
//! A suspended async function's frame lives in its state object (`Class::AsyncFunctionState`):
//! registers first, parameters then locals, named by the code's `register_names`. A variable
//! that a closure captures lives instead in an environment slot, which the compiled code
//! keeps no name for, so it is not among the frame's locals (reach it through a global, or
//! the closure). Frames of Amber's own JS (sources named `node:…`) are left out. Order: the
//! heap's, which after a restore is the canonical traversal order, the same for the same
//! state.

use amber_engine::heap::object::Class;
use amber_engine::{Value, Vm};

/// Sets the global `$frames` to the program's suspended async frames' locals.
pub(crate) fn install(vm: &mut Vm) {
    let mut frames: Vec<Vec<(String, Value)>> = Vec::new();
    for (_, object) in vm.heap.objects.iter() {
        let Class::AsyncFunctionState(data) = &object.class else { continue };
        let Some(saved) = &data.frame else { continue };
        let code = vm.heap.code(saved.frame.code);
        let file = vm.sources.get(code.source_id as usize).map_or("", |s| s.name.as_str());
        if file.starts_with("node:") {
            continue;
        }
        let registers = code.register_names.iter().take(code.register_count as usize);
        let locals = registers
            .enumerate()
            .filter_map(|(i, atom)| {
                let name = vm.heap.atoms.get(*atom).to_rust_string();
                let value = *saved.stack.get(i)?;
                // Unnamed temporaries, and `let`/`const` not yet initialized, are not locals.
                (is_identifier(&name) && !value.is_empty()).then_some((name, value))
            })
            .collect();
        frames.push(locals);
    }
    let base = vm.roots.len();
    let mut objects = Vec::with_capacity(frames.len());
    for locals in frames {
        let object = vm.new_object();
        vm.roots.push(object);
        for (name, value) in locals {
            vm.set_property(object, &name, value);
        }
        objects.push(object);
    }
    let array = vm.new_array(objects);
    vm.roots.push(array);
    let global = vm.global_object();
    vm.set_property(global, "$frames", array);
    vm.roots.truncate(base);
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}
