//! Structural verification of a decoded VM before it runs: every handle names a live entity
//! of the right arena, every shape and atom exists, every bytecode operand is in range. A
//! crafted image fails here with a message instead of panicking later.

use crate::bytecode::Op;
use crate::heap::object::{class_children, Props};
use crate::heap::{CodeId, EnvId};
use crate::value::{Kind, Value};
use crate::vm::Vm;

/// Check the whole VM.
pub fn verify(vm: &Vm) -> Result<(), String> {
    let heap = &vm.heap;
    if !vm.frames.is_empty() || !vm.stack.is_empty() {
        return Err("image taken outside a safe point (live frames)".into());
    }
    // Exactly the running realm's slot is empty; every realm a function names exists.
    let realms = vm.realms.len();
    let running = vm.current_realm as usize;
    if running >= realms || vm.realms.iter().enumerate().any(|(i, r)| r.is_none() != (i == running)) {
        return Err("the realm table is inconsistent".into());
    }
    let value_ok = |v: Value| -> bool {
        match v.kind() {
            Kind::Object(o) => heap.objects.is_live(o.0),
            Kind::String(s) => heap.strings.is_live(s.0),
            Kind::Symbol(s) => heap.symbols.is_live(s.0),
            Kind::BigInt(b) => heap.bigints.is_live(b.0),
            _ => true,
        }
    };
    let mut values = Vec::new();
    let mut envs: Vec<EnvId> = Vec::new();
    let mut codes: Vec<CodeId> = Vec::new();
    crate::heap::gc::roots(vm, &mut values, &mut envs, &mut codes);
    for (i, obj) in heap.objects.iter() {
        values.extend(obj.proto.map(Value::object));
        values.extend(obj.named_values());
        values.extend(obj.elements.iter().copied());
        if let Props::Shaped { shape, slots } = &obj.props {
            if shape.0 as usize >= heap.shapes.len() {
                return Err(format!("object {i}: shape {} out of range", shape.0));
            }
            if heap.shapes.get(*shape).len() != slots.len() {
                return Err(format!("object {i}: slot count does not match its shape"));
            }
        }
        for (k, _) in obj.named_keys(&heap.shapes) {
            if let crate::atoms::PropertyKey::Atom(a) = k {
                if a.0 as usize >= heap.atoms.len() {
                    return Err(format!("object {i}: atom {} out of range", a.0));
                }
            }
        }
        let realm = match &obj.class {
            crate::heap::object::Class::Native(n) => Some(n.realm),
            crate::heap::object::Class::ShadowRealm(r) => Some(*r),
            _ => None,
        };
        if let Some(r) = realm.filter(|&r| r as usize >= realms) {
            return Err(format!("object {i}: realm {r} out of range"));
        }
        class_children(&obj.class, &mut values, &mut envs, &mut codes);
    }
    for (_, e) in heap.envs.iter() {
        envs.extend(e.parent);
        values.extend_from_slice(&e.slots);
        values.extend(e.object.map(Value::object));
    }
    for (i, code) in heap.code.iter() {
        values.extend_from_slice(&code.constants);
        values.extend_from_slice(&code.template_cache);
        codes.extend_from_slice(&code.functions);
        if code.realm as usize >= realms {
            return Err(format!("code {i}: realm {} out of range", code.realm));
        }
        verify_code(i, code)?;
    }
    crate::module::verify(vm)?;
    if let Some(bad) = values.iter().find(|v| !value_ok(**v)) {
        return Err(format!("dangling handle {bad:?}"));
    }
    if let Some(bad) = envs.iter().find(|e| !heap.envs.is_live(e.0)) {
        return Err(format!("dangling environment handle {}", bad.0));
    }
    if let Some(bad) = codes.iter().find(|c| !heap.code.is_live(c.0)) {
        return Err(format!("dangling code handle {}", bad.0));
    }
    Ok(())
}

fn verify_code(i: u32, code: &crate::bytecode::CodeBlock) -> Result<(), String> {
    let n = code.ops.len() as u32;
    let err = |pc: usize, what: &str| format!("code {i} pc {pc}: {what} out of range");
    for (pc, op) in code.ops.iter().enumerate() {
        if let Some(t) = op.jump_target() {
            if t > n {
                return Err(err(pc, "jump target"));
            }
        }
        let ok = match *op {
            Op::Const(c) => (c as usize) < code.constants.len(),
            Op::GetLocal(r) | Op::SetLocal(r) | Op::GetLocalChecked(r) | Op::SetLocalChecked(r) => {
                r < code.register_count
            }
            Op::Closure(f) | Op::CreateClass { code: f, .. } => (f as usize) < code.functions.len(),
            Op::GetProp { ic, .. } | Op::GetPropKeep { ic, .. } | Op::SetProp { ic, .. } => {
                (ic as usize) < code.ics.len()
            }
            Op::TemplateObject(t) => (t as usize) < code.templates.len(),
            Op::RegExpLiteral(r) => (r as usize) < code.regexps.len(),
            Op::ThrowError { msg, .. } => (msg as usize) < code.constants.len(),
            _ => true,
        };
        if !ok {
            return Err(err(pc, "operand"));
        }
    }
    for h in &code.handlers {
        if h.target > n || h.start > h.end || h.end > n {
            return Err(format!("code {i}: handler out of range"));
        }
    }
    if code.template_cache.len() != code.templates.len() {
        return Err(format!("code {i}: template cache does not match templates"));
    }
    Ok(())
}
