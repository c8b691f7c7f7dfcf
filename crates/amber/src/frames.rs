//! `$frames` for evaluation on a copy (`amber eval`): the suspended async functions of the
//! program, each as a plain object of its named locals (`$frames[0].answer`).
//!
//! A suspended async function's frame lives in its state object (`Class::AsyncFunctionState`):
//! registers first, parameters then locals, named by the code's `register_names`. A variable
//! that a closure captures lives instead in an environment slot of the frame's environment
//! chain; the code's suspend site for the `Await` the frame waits at names those
//! (`CodeBlock::suspend_sites`, innermost scope first; a name already seen is not offered
//! again). Frames of Amber's own JS (sources named `node:…`) are left out. Order: the
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
        let mut locals: Vec<(String, Value)> = registers
            .enumerate()
            .filter_map(|(i, atom)| {
                let name = vm.heap.atoms.get(*atom).to_rust_string();
                let value = *saved.stack.get(i)?;
                // Unnamed temporaries, and `let`/`const` not yet initialized, are not locals.
                (is_identifier(&name) && !value.is_empty()).then_some((name, value))
            })
            .collect();
        // The frame's pc is just past the `Await` it waits at.
        let pc = saved.frame.pc;
        let site = code.suspend_sites.iter().find(|s| s.pc == pc || s.pc.checked_add(1) == Some(pc));
        for binding in site.map_or(&[][..], |s| &s.names[..]) {
            let mut hops = site.map_or(0, |s| s.level).saturating_sub(binding.level);
            let mut env = saved.frame.env;
            while let (Some(e), true) = (env, hops > 0) {
                env = vm.heap.env(e).parent;
                hops -= 1;
            }
            let Some(value) = env.and_then(|e| vm.heap.env(e).slots.get(binding.slot as usize).copied()) else {
                continue;
            };
            let name = vm.heap.atoms.get(binding.name).to_rust_string();
            if is_identifier(&name) && !value.is_empty() && !locals.iter().any(|(n, _)| *n == name) {
                locals.push((name, value));
            }
        }
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
